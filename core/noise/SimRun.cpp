#include "noise/SimRun.h"

#include "noise/NoiseMath.h"
#include "stats/Statistics.h"

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

std::int64_t ns(double s)
{
    return std::llround(s * 1e9);
}

}  // namespace

Record simulateRun(const SimRunSpec& s)
{
    noise::Gaussian g(s.seed);
    const std::int64_t periodNs = std::max<std::int64_t>(1, ns(s.period_s));
    const std::int64_t idleNs = ns(s.idle_s), busyNs = ns(s.busy_s);
    const std::int64_t settleNs = ns(s.settle_s >= 0.0 ? s.settle_s : 2.0 * s.period_s);
    const std::int64_t origin = 1'000'000'000;  // a monotonic clock reads well above 0

    // Phases of the run, as the session takes them.
    std::vector<std::array<std::int64_t, 2>> idle, busy;
    std::int64_t t = origin;
    idle.push_back({t, t + idleNs});
    t += idleNs;
    for (int r = 0; r < s.rounds; ++r) {
        if (r > 0)
            t += settleNs;
        busy.push_back({t, t + busyNs});
        t += busyNs;
        idle.push_back({t, t + idleNs});
        t += idleNs;
    }
    const std::int64_t end = t + 3 * periodNs;

    // Sampler reads: a random phase against the run's start, each read late by jitter.
    const std::int64_t phase = std::int64_t(g.uniform() * double(periodNs));
    const std::int64_t jitterNs = std::clamp<std::int64_t>(ns(s.jitter_s), 0, periodNs - 1);
    std::vector<std::int64_t> reads;
    for (std::int64_t k = 0;; ++k) {
        const std::int64_t due = origin - periodNs + phase + k * periodNs;
        reads.push_back(due + (jitterNs > 0 ? std::int64_t(g.uniform() * double(jitterNs)) : 0));
        if (due > end)
            break;
    }

    const double busySd = s.busy_noise_sd_w >= 0.0 ? s.busy_noise_sd_w : s.noise_sd_w;
    std::vector<Interval> iv;
    iv.reserve(reads.size());
    std::size_t w = 0;  // first busy window that may still overlap
    for (std::size_t i = 0; i + 1 < reads.size(); ++i) {
        const std::int64_t a = reads[i], b = reads[i + 1];
        std::int64_t overlapNs = 0;
        while (w < busy.size() && busy[w][1] <= a)
            ++w;
        for (std::size_t j = w; j < busy.size() && busy[j][0] < b; ++j)
            overlapNs += std::max<std::int64_t>(0, std::min(b, busy[j][1]) - std::max(a, busy[j][0]));
        const double frac = double(overlapNs) / double(b - a);
        const double mid_s = double((a + b) / 2 - origin) / 1e9;
        const double power = s.idle_w + s.drift_w_per_s * mid_s + s.marginal_w * frac +
                             (overlapNs > 0 ? busySd : s.noise_sd_w) * g.next();
        iv.push_back({a, b, std::llround(power * double(b - a))});
    }

    Record rec;
    rec.meta = ojson{{"simulated", true}, {"seed", s.seed}};
    rec.jobs = s.jobs;
    rec.k = s.k;
    rec.counters = {s.spec};
    rec.idle_s = s.idle_s;
    rec.sample_s = s.period_s;
    rec.host = Host{"Simulated", "none", 1};
    rec.status = "complete";
    const std::span<const Interval> all(iv);
    auto slice = [&](IndexRange r) { return all.subspan(r.begin, r.size()); };
    for (int r = 0; r < s.rounds; ++r) {
        Round round;
        round.decodes = std::int64_t(s.k) * s.jobs;
        round.child_wall_ns = busyNs;
        round.window_ns = busyNs;
        const auto& bw = busy[std::size_t(r)];
        const auto& before = idle[std::size_t(r)];
        const auto& after = idle[std::size_t(r) + 1];
        RoundSlices rs;
        rs.busy = slice(between(all, bw[0], bw[1]));
        rs.covering = slice(covering(all, bw[0], bw[1]));
        rs.idle_before = slice(between(all, before[0], before[1]));
        rs.idle_after = slice(between(all, after[0], after[1]));
        round.counters.emplace_back(s.spec, counterRound(rs));
        round.window = std::array<std::int64_t, 2>{bw[0], bw[1]};
        round.brackets = std::array<std::array<std::int64_t, 2>, 2>{before, after};
        rec.rounds.push_back(std::move(round));
    }
    rec.samples.emplace_back(s.spec, std::move(iv));
    return rec;
}

}  // namespace jb
