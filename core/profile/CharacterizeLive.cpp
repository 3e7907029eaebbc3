#include <jb/profile/CharacterizeLive.h>

#include <jb/base/Text.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace jb {

namespace {

using Read = std::pair<std::int64_t, std::int64_t>;

// The first read at or after t (reads are in time order).
std::size_t firstAtOrAfter(const std::vector<Read>& reads, std::int64_t t)
{
    return std::size_t(std::lower_bound(reads.begin(), reads.end(), t,
                                        [](const Read& r, std::int64_t v) { return r.first < v; }) -
                       reads.begin());
}

// The counter's mean power (W) over [from, to] from the reads where its value changed; none
// with fewer than two.
std::optional<double> levelW(const std::vector<Read>& reads, std::int64_t from, std::int64_t to)
{
    std::optional<Read> first, last;
    for (std::size_t i = firstAtOrAfter(reads, from); i < reads.size() && reads[i].first <= to; ++i) {
        if (i > 0 && reads[i].second == reads[i - 1].second)
            continue;
        if (!first)
            first = reads[i];
        last = reads[i];
    }
    if (!first || last->first <= first->first)
        return std::nullopt;
    return double(last->second - first->second) / double(last->first - first->first);
}

}  // namespace

void CharacterizeLive::add(const CharacterizeFeed& f)
{
    reads_.insert(reads_.end(), f.reads.begin(), f.reads.end());
    steps_.insert(steps_.end(), f.steps.begin(), f.steps.end());
    bursts_.insert(bursts_.end(), f.bursts.begin(), f.bursts.end());
    coverage_.insert(coverage_.end(), f.coverage.begin(), f.coverage.end());
    figures_ = f;
    figures_.reads.clear();
    figures_.steps.clear();
    figures_.bursts.clear();
    figures_.coverage.clear();
    ++feeds_;
}

SensorFigures CharacterizeLive::sensorFigures(const std::string& spec) const
{
    SensorFigures f;
    f.spec = spec;
    f.burst_ms = figures_.burst_ms;
    if (!steps_.empty() && !reads_.empty()) {
        const Pulse& s = steps_.front();
        const std::int64_t L = s.t1_ns - s.t0_ns;
        f.busy_s = double(L) / 1e9;
        const std::int64_t from = s.t0_ns - L / 4, to = std::min(s.t1_ns + L, reads_.back().first);
        const double x0 = double(from - s.t0_ns) / 1e9, x1 = double(s.t1_ns + L - s.t0_ns) / 1e9;
        f.load = {{x0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {f.busy_s, 1.0}, {f.busy_s, 0.0}, {x1, 0.0}};
        const auto lo = levelW(reads_, s.t0_ns - L * 4 / 10, s.t0_ns);
        const auto hi = levelW(reads_, s.t1_ns - L * 4 / 10, s.t1_ns);
        // Each point the apparent power since a new value at least `smooth` before (a fine
        // counter's single reads are noisy: 5 ms, a period, a hundredth of the load at least),
        // a point every half of that.
        const double period_ms = figures_.update_period_ms;
        const std::int64_t smooth = std::max({std::int64_t(5'000'000), std::int64_t(period_ms * 1e6), L / 100});
        if (lo && hi && *hi > *lo) {
            std::vector<Read> anchors;
            for (std::size_t i = firstAtOrAfter(reads_, from - smooth); i < reads_.size() && reads_[i].first <= to; ++i)
                if (i == 0 || reads_[i].second != reads_[i - 1].second)
                    anchors.push_back(reads_[i]);
            std::size_t k = 0;
            std::int64_t last_point = from - smooth;
            for (std::size_t j = 1; j < anchors.size(); ++j) {
                const auto& [t, e] = anchors[j];
                while (k + 1 < j && t - anchors[k + 1].first >= smooth)
                    ++k;
                if (t < from || t - last_point < smooth / 2)
                    continue;
                const double w = double(e - anchors[k].second) / double(t - anchors[k].first);
                f.reading.emplace_back(double(t - s.t0_ns) / 1e9, (w - *lo) / (*hi - *lo));
                last_point = t;
            }
        }
    }
    std::vector<double> shares;
    for (const auto& [i, c] : coverage_) {
        if (i < 0 || std::size_t(i) >= bursts_.size())
            continue;
        const std::int64_t t0 = bursts_[std::size_t(i)].t0_ns;
        // The counter's last new value at or before the burst.
        std::size_t r = firstAtOrAfter(reads_, t0 + 1);
        while (r > 1 && reads_[r - 1].second == reads_[r - 2].second)
            --r;
        if (r == 0)
            continue;
        double phase_ms = double(t0 - reads_[r - 1].first) / 1e6;
        if (figures_.update_period_ms > 0)
            phase_ms = std::fmod(phase_ms, figures_.update_period_ms);
        f.bursts.emplace_back(phase_ms, c);
        shares.push_back(c);
    }
    if (!shares.empty()) {
        const double m = std::accumulate(shares.begin(), shares.end(), 0.0) / double(shares.size());
        double ss = 0;
        for (double x : shares)
            ss += (x - m) * (x - m);
        f.spread.mean = m;
        f.spread.sd = shares.size() > 1 ? std::sqrt(ss / double(shares.size() - 1)) : 0.0;
    }
    f.lines = lines();
    return f;
}

std::vector<std::string> CharacterizeLive::lines() const
{
    std::vector<std::string> l;
    const CharacterizeFeed& g = figures_;
    std::string phase = std::string("measuring: ") + characterizePhaseName(g.phase);
    if (g.phase == CharacterizePhase::Done)
        phase = "measured";
    if (g.phase == CharacterizePhase::Bursts)
        phase += formatted(" (%zu of %d bursts)", bursts_.size(), g.bursts_planned);
    const double span_s = reads_.size() > 1 ? double(reads_.back().first - reads_.front().first) / 1e9 : 0.0;
    l.push_back(phase + formatted(", %zu reads in %.1f s", reads_.size(), span_s));
    if (g.update_period_ms > 0)
        l.push_back(formatted("a new value every %.1f ms (jitter %.1f ms)", g.update_period_ms, g.update_jitter_ms));
    if (g.step_up && g.step_down) {
        l.push_back(formatted("idle %.2f W, loaded %.2f W", g.idle_w, g.busy_w));
        l.push_back(formatted("step up: half-way in %.0f ms, settled in %.0f ms; down: half-way in %.0f ms, "
                              "settled in %.0f ms",
                              g.step_up->delay_ms, g.step_up->settle_ms, g.step_down->delay_ms, g.step_down->settle_ms));
        l.push_back(g.averaging_window_ms > 0 ? formatted("averaging window %.0f ms", g.averaging_window_ms)
                                              : std::string("no averaging window"));
    }
    if (!coverage_.empty()) {
        double m = 0;
        for (const auto& c : coverage_)
            m += c.second;
        m /= double(coverage_.size());
        l.push_back(formatted("%zu bursts of %.1f ms measured so far: counted %.2f of their energy on average",
                              coverage_.size(), g.burst_ms, m));
    }
    return l;
}

}  // namespace jb
