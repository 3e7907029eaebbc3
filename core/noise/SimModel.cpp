#include <jb/noise/SimModel.h>

#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <span>

namespace jb {

SimModel::SimModel(const SimLayout& layout, const SimPower& power, std::uint64_t seed, std::string spec)
    : l_(layout), p_(power), spec_(std::move(spec)), rng_(seed), now_ns_(layout.origin_ns)
{
    l_.period_ns = std::max<std::int64_t>(1, l_.period_ns);
    l_.jitter_ns = std::clamp<std::int64_t>(l_.jitter_ns, 0, l_.period_ns - 1);
    // The sampler's clock runs at a random phase against the run, as a real one does.
    first_due_ns_ = l_.origin_ns - l_.period_ns + std::int64_t(rng_.uniform() * double(l_.period_ns));
    if (bounded()) {
        // The sampler stops at its first read due more than three periods after the last
        // bracket; every read's lateness is drawn now, before any noise.
        const std::int64_t end = idleBracket(l_.rounds)[1] + 3 * l_.period_ns;
        last_read_ = (end - first_due_ns_) / l_.period_ns + 1;
        if (l_.jitter_ns > 0) {
            late_.reserve(std::size_t(last_read_ + 1));
            for (std::int64_t k = 0; k <= last_read_; ++k)
                late_.push_back(std::int64_t(rng_.uniform() * double(l_.jitter_ns)));
        }
    }
    prev_read_ns_ = readNs(0);
    next_read_ns_ = readNs(next_read_);
}

std::int64_t SimModel::readNs(std::int64_t k)
{
    if (l_.jitter_ns <= 0)
        return readDueNs(k);
    if (bounded())
        return readDueNs(k) + late_[std::size_t(std::min(k, last_read_))];
    return readDueNs(k) + std::int64_t(rng_.uniform() * double(l_.jitter_ns));
}

std::array<std::int64_t, 2> SimModel::busyWindow(int round) const
{
    const std::int64_t t0 = l_.origin_ns + l_.idle_ns + std::int64_t(round) * cycleNs();
    return {t0, t0 + l_.busy_ns};
}

std::array<std::int64_t, 2> SimModel::idleBracket(int j) const
{
    if (j == 0)
        return {l_.origin_ns, l_.origin_ns + l_.idle_ns};
    const std::int64_t t0 = busyWindow(j - 1)[1];
    return {t0, t0 + l_.idle_ns};
}

std::int64_t SimModel::roundDueNs(int round) const
{
    return idleBracket(round + 1)[1] + l_.settle_ns;
}

std::int64_t SimModel::endNs() const
{
    if (!bounded())
        return kNever;
    const std::int64_t lastRead =
        readDueNs(last_read_) + (late_.empty() ? 0 : late_[std::size_t(last_read_)]);
    return l_.rounds > 0 ? std::max(lastRead, roundDueNs(l_.rounds - 1)) : lastRead;
}

std::int64_t SimModel::nextDueNs() const
{
    switch (next_) {
    case Next::IdleStarted0:
        return l_.origin_ns;
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
    case Next::Done:
        break;
    }
    return kNever;
}

void SimModel::fire(Step* out)
{
    const std::int64_t t = nextDueNs();
    const auto phase = [&](PhaseEvent::Kind kind, int round) {
        if (out)
            out->phases.push_back({kind, round, t});
    };
    const auto afterBracket = [this] {
        return bounded() && round_ >= l_.rounds ? Next::Done : Next::BusyStarted;
    };
    switch (next_) {
    case Next::IdleStarted0:
        phase(PhaseEvent::IdleStarted, -1);
        next_ = Next::IdleEnded0;
        break;
    case Next::IdleEnded0:
        phase(PhaseEvent::IdleEnded, -1);
        next_ = afterBracket();
        break;
    case Next::BusyStarted:
        phase(PhaseEvent::BusyStarted, round_);
        next_ = Next::BusyEnded;
        break;
    case Next::BusyEnded:
        phase(PhaseEvent::BusyEnded, round_);
        next_ = Next::IdleStarted;
        break;
    case Next::IdleStarted:
        phase(PhaseEvent::IdleStarted, round_);
        next_ = Next::IdleEnded;
        break;
    case Next::IdleEnded:
        phase(PhaseEvent::IdleEnded, round_);
        next_ = Next::Round;
        break;
    case Next::Round: {
        Round r = computeRound(round_);
        if (out)
            out->rounds.emplace_back(round_, r);
        rounds_.push_back(std::move(r));
        ++round_;
        next_ = afterBracket();
        break;
    }
    case Next::Done:
        break;
    }
}

std::int64_t SimModel::busyOverlapNs(std::int64_t a, std::int64_t b) const
{
    const std::int64_t first = busyWindow(0)[0];
    if (b <= first)
        return 0;
    const std::int64_t cycle = std::max<std::int64_t>(1, cycleNs());
    std::int64_t overlap = 0;
    for (int r = int(std::max<std::int64_t>(0, (a - first) / cycle)); !bounded() || r < l_.rounds; ++r) {
        const auto w = busyWindow(r);
        if (w[0] >= b)
            break;
        overlap += std::max<std::int64_t>(0, std::min(b, w[1]) - std::max(a, w[0]));
    }
    return overlap;
}

void SimModel::generateUpTo(std::int64_t t_ns, Step* out)
{
    while (next_read_ns_ <= t_ns && (!bounded() || next_read_ <= last_read_)) {
        const std::int64_t a = prev_read_ns_, b = next_read_ns_;
        const std::int64_t overlapNs = busyOverlapNs(a, b);
        const double frac = double(overlapNs) / double(b - a);
        const double mid_s = double((a + b) / 2 - l_.origin_ns) / 1e9;
        const double sd = overlapNs > 0 && p_.busy_noise_sd_w >= 0.0 ? p_.busy_noise_sd_w : p_.noise_sd_w;
        const double power = p_.idle_w + p_.drift_w_per_s * mid_s + p_.marginal_w * frac + sd * rng_.next();
        const Interval iv{a, b, std::llround(power * double(b - a))};
        intervals_.push_back(iv);
        if (out)
            out->intervals.push_back(iv);
        ++next_read_;
        prev_read_ns_ = b;
        next_read_ns_ = readNs(next_read_);
    }
}

SimModel::Step SimModel::advanceTo(std::int64_t t_ns)
{
    Step out;
    advance(t_ns, &out);
    return out;
}

void SimModel::runTo(std::int64_t t_ns)
{
    advance(t_ns, nullptr);
}

void SimModel::advance(std::int64_t t_ns, Step* out)
{
    if (t_ns < now_ns_)
        return;
    // Every interval that ends by an event exists before the event fires, so a round's
    // figures see the intervals a session's sampler would have stored by then.
    for (std::int64_t due = nextDueNs(); due <= t_ns && due != kNever; due = nextDueNs()) {
        generateUpTo(due, out);
        fire(out);
    }
    generateUpTo(t_ns, out);
    now_ns_ = t_ns;
}

Round SimModel::computeRound(int r) const
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
    round.decodes = std::int64_t(l_.k) * l_.jobs;
    round.child_wall_ns = l_.busy_ns;
    round.window_ns = l_.busy_ns;
    round.window = bw;
    round.brackets = std::array<std::array<std::int64_t, 2>, 2>{before, after};
    round.counters.emplace_back(spec_, counterRound(rs));
    return round;
}

}  // namespace jb
