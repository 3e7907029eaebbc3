#include "noise/LiveSim.h"

#include "stats/Statistics.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace jb {

namespace {

std::int64_t ns(double s)
{
    return std::llround(s * 1e9);
}

}  // namespace

LiveSim::LiveSim(const LiveSimSettings& s, std::uint64_t seed, std::int64_t origin_ns)
    : s_(s),
      rng_(seed),
      origin_ns_(origin_ns),
      period_ns_(std::max<std::int64_t>(1'000'000, ns(s.period_s))),
      idle_ns_(std::max<std::int64_t>(1, ns(s.idle_s))),
      busy_ns_(std::max<std::int64_t>(1, ns(s.busyS()))),
      settle_ns_(2 * period_ns_)  // the session waits two sample periods after a bracket
      ,
      now_ns_(origin_ns)
{
    // The sampler's clock runs at a random phase against the run, as a real one does.
    first_read_ns_ = origin_ns_ - period_ns_ + std::int64_t(rng_.uniform() * double(period_ns_));
}

bool LiveSim::sameLayout(const LiveSimSettings& a, const LiveSimSettings& b)
{
    return a.period_s == b.period_s && a.idle_s == b.idle_s && a.k == b.k &&
        a.busy_s_per_k == b.busy_s_per_k && a.jobs == b.jobs;
}

void LiveSim::setPower(double idle_w, double noise_sd_w, double signal_w)
{
    s_.idle_w = idle_w;
    s_.noise_sd_w = std::max(0.0, noise_sd_w);
    s_.signal_w = signal_w;
}

std::array<std::int64_t, 2> LiveSim::busyWindow(int round) const
{
    const std::int64_t t0 = origin_ns_ + idle_ns_ + std::int64_t(round) * cycleNs();
    return {t0, t0 + busy_ns_};
}

std::array<std::int64_t, 2> LiveSim::idleBracket(int j) const
{
    if (j == 0)
        return {origin_ns_, origin_ns_ + idle_ns_};
    const std::int64_t t0 = busyWindow(j - 1)[1];
    return {t0, t0 + idle_ns_};
}

std::int64_t LiveSim::roundDueNs(int round) const
{
    return idleBracket(round + 1)[1] + settle_ns_;
}

std::int64_t LiveSim::nextDueNs() const
{
    switch (next_) {
    case Next::IdleStarted0:
        return origin_ns_;
    case Next::IdleEnded0:
        return idleBracket(0)[1];
    case Next::BusyStarted:
        return busyWindow(round_)[0];
    case Next::BusyEnded:
    case Next::IdleStarted:
        return busyWindow(round_)[1];
    case Next::IdleEnded:
        return idleBracket(round_ + 1)[1];
    case Next::Round:
        return roundDueNs(round_);
    }
    return origin_ns_;
}

void LiveSim::fire(Step& out)
{
    const std::int64_t t = nextDueNs();
    switch (next_) {
    case Next::IdleStarted0:
        out.phases.push_back({PhaseEvent::IdleStarted, -1, t});
        next_ = Next::IdleEnded0;
        break;
    case Next::IdleEnded0:
        out.phases.push_back({PhaseEvent::IdleEnded, -1, t});
        next_ = Next::BusyStarted;
        break;
    case Next::BusyStarted:
        out.phases.push_back({PhaseEvent::BusyStarted, round_, t});
        next_ = Next::BusyEnded;
        break;
    case Next::BusyEnded:
        out.phases.push_back({PhaseEvent::BusyEnded, round_, t});
        next_ = Next::IdleStarted;
        break;
    case Next::IdleStarted:
        out.phases.push_back({PhaseEvent::IdleStarted, round_, t});
        next_ = Next::IdleEnded;
        break;
    case Next::IdleEnded:
        out.phases.push_back({PhaseEvent::IdleEnded, round_, t});
        next_ = Next::Round;
        break;
    case Next::Round: {
        Round r = computeRound(round_);
        rounds_.push_back(r);
        out.rounds.emplace_back(round_, std::move(r));
        ++round_;
        next_ = Next::BusyStarted;
        break;
    }
    }
}

double LiveSim::busyOverlap(std::int64_t a, std::int64_t b) const
{
    const std::int64_t first = busyWindow(0)[0];
    if (b <= first)
        return 0.0;
    int r = int(std::max<std::int64_t>(0, (a - first) / cycleNs()));
    std::int64_t overlap = 0;
    for (;; ++r) {
        const auto w = busyWindow(r);
        if (w[0] >= b)
            break;
        overlap += std::max<std::int64_t>(0, std::min(b, w[1]) - std::max(a, w[0]));
    }
    return double(overlap) / double(b - a);
}

void LiveSim::generateUpTo(std::int64_t t_ns, Step& out)
{
    for (;;) {
        const std::int64_t b = first_read_ns_ + next_read_ * period_ns_;
        if (b > t_ns)
            break;
        const std::int64_t a = b - period_ns_;
        const double power = s_.idle_w + s_.signal_w * busyOverlap(a, b) + s_.noise_sd_w * rng_.next();
        const Interval iv{a, b, std::llround(power * double(b - a))};
        intervals_.push_back(iv);
        out.intervals.push_back(iv);
        ++next_read_;
    }
}

LiveSim::Step LiveSim::advance(std::int64_t dt_ns)
{
    return advanceTo(now_ns_ + std::max<std::int64_t>(0, dt_ns));
}

LiveSim::Step LiveSim::advanceTo(std::int64_t t_ns)
{
    Step out;
    if (t_ns < now_ns_)
        return out;
    // Every interval that ends by an event exists before the event fires, so a round's
    // figures see the intervals a session's sampler would have stored by then.
    for (std::int64_t due = nextDueNs(); due <= t_ns; due = nextDueNs()) {
        generateUpTo(due, out);
        fire(out);
    }
    generateUpTo(t_ns, out);
    now_ns_ = t_ns;
    return out;
}

Round LiveSim::computeRound(int r) const
{
    const std::span<const Interval> all(intervals_);
    auto slice = [&](IndexRange ir) { return all.subspan(ir.begin, ir.size()); };
    const auto bw = busyWindow(r);
    const auto before = idleBracket(r), after = idleBracket(r + 1);
    RoundSlices rs;
    rs.busy = slice(between(all, bw[0], bw[1]));
    rs.covering = slice(covering(all, bw[0], bw[1]));
    rs.idle_before = slice(between(all, before[0], before[1]));
    rs.idle_after = slice(between(all, after[0], after[1]));

    Round round;
    round.decodes = std::int64_t(s_.k) * s_.jobs;
    round.child_wall_ns = busy_ns_;
    round.window_ns = busy_ns_;
    round.window = bw;
    round.brackets = std::array<std::array<std::int64_t, 2>, 2>{before, after};
    round.counters.emplace_back(kSpec, counterRound(rs));
    return round;
}

}  // namespace jb
