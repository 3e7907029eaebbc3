#pragma once
// How a fake counter shows the true energy it is fed: the modes real counters have, for
// tests/clients/fakezone (powercap and hwmon files) and tests/jobs/fake_nvml.cpp (NVML).
//   exact    the true energy at every read (the fakes' behaviour before issue 31)
//   sampled  a new value every P ms; each adds P x the mean power of the last W ms only (the
//            sensor sees W of every P ms: the H200's energy counter, W 25 of P 100)
//   boxcar   a new power reading every P ms, the mean power of the last A ms; the energy
//            shown integrates it (nvmlDeviceGetPowerUsage: A 1000, P 100; amdgpu power1_average)
//   late     a new value every P ms, the true energy of D ms before (Apple's Energy Model
//            channels: a new value about every 1050 ms)
// The fake feeds the true cumulative energy at its own ticks (addTrue), and asks what the
// counter shows at a time (energyJ, powerW); values between ticks are interpolated.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <string>
#include <utility>

namespace countermode {

enum class Mode { Exact, Sampled, Boxcar, Late };

struct Params {
    Mode mode = Mode::Exact;
    double period_s = 0.1;  // P
    double window_s = 0.0;  // W (sampled) or A (boxcar)
    double delay_s = 0.0;   // D (late)
};

// "exact", "sampled", "boxcar", "late"; false for any other word.
inline bool parseMode(const std::string& word, Mode& out)
{
    if (word == "exact")
        out = Mode::Exact;
    else if (word == "sampled")
        out = Mode::Sampled;
    else if (word == "boxcar")
        out = Mode::Boxcar;
    else if (word == "late")
        out = Mode::Late;
    else
        return false;
    return true;
}

class Model {
public:
    explicit Model(Params p = {}) : p_(p) {}
    const Params& params() const { return p_; }

    // The true cumulative energy (J) at time t (s, increasing). The first call starts the
    // counter's update clock.
    void addTrue(double t, double e_j)
    {
        if (hist_.empty()) {
            t0_ = t;
            next_update_ = t + p_.period_s;
        }
        hist_.emplace_back(t, e_j);
        advance(t);
        const double keep = std::max({p_.window_s, p_.delay_s + p_.period_s, p_.period_s}) * 2 + 0.05;
        while (hist_.size() > 2 && hist_[1].first < t - keep)
            hist_.pop_front();
    }

    // The energy (J) the counter shows at the last addTrue, counted from the first.
    double energyJ() const
    {
        if (hist_.empty())
            return 0;
        if (p_.mode == Mode::Exact)
            return hist_.back().second - e0_();
        return shown_j_;
    }
    // The power reading (W) the counter shows: the last tick's power where exact.
    double powerW() const
    {
        if (p_.mode == Mode::Exact) {
            if (hist_.size() < 2)
                return last_w_;
            const auto& a = hist_[hist_.size() - 2];
            const auto& b = hist_.back();
            return b.first > a.first ? (b.second - a.second) / (b.first - a.first) : last_w_;
        }
        return last_w_;
    }

private:
    double e0_() const { return first_e_; }

    // The true energy at t by linear interpolation of the history (clamped to its ends).
    double trueAt(double t) const
    {
        if (t <= hist_.front().first)
            return hist_.front().second;
        if (t >= hist_.back().first)
            return hist_.back().second;
        auto it = std::lower_bound(hist_.begin(), hist_.end(), t,
                                   [](const std::pair<double, double>& h, double v) { return h.first < v; });
        const auto& b = *it;
        const auto& a = *(it - 1);
        return a.second + (b.second - a.second) * (t - a.first) / (b.first - a.first);
    }

    void advance(double t)
    {
        if (!started_) {
            first_e_ = hist_.front().second;
            started_ = true;
        }
        if (p_.mode == Mode::Exact || p_.period_s <= 0)
            return;
        while (next_update_ <= t) {
            const double tk = next_update_;
            switch (p_.mode) {
            case Mode::Sampled: {
                const double w = std::max(p_.window_s, 1e-6);
                last_w_ = (trueAt(tk) - trueAt(tk - w)) / w;
                shown_j_ += last_w_ * p_.period_s;
                break;
            }
            case Mode::Boxcar: {
                const double a = std::max(p_.window_s, 1e-6);
                // Before the counter has A s of history it averages what it has.
                const double from = std::max(tk - a, t0_);
                last_w_ = tk > from ? (trueAt(tk) - trueAt(from)) / (tk - from) : last_w_;
                shown_j_ += last_w_ * p_.period_s;
                break;
            }
            case Mode::Late: {
                const double e = trueAt(tk - p_.delay_s) - first_e_;
                last_w_ = (e - shown_j_) / p_.period_s;
                shown_j_ = std::max(shown_j_, e);
                break;
            }
            case Mode::Exact:
                break;
            }
            next_update_ += p_.period_s;
        }
    }

    Params p_;
    std::deque<std::pair<double, double>> hist_;
    double t0_ = 0, next_update_ = 0, first_e_ = 0, shown_j_ = 0, last_w_ = 0;
    bool started_ = false;
};

}  // namespace countermode
