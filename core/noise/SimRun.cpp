#include <jb/noise/SimRun.h>

#include <jb/base/Clock.h>
#include <jb/noise/SimModel.h>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

}  // namespace

Record simulateRun(const SimRunSpec& s)
{
    // The batch driver of the sim model: the whole run, to the end of its last round.
    SimLayout l;
    l.origin_ns = 1'000'000'000;  // a monotonic clock reads well above 0
    l.period_ns = std::max<std::int64_t>(1, secondsToNs(s.period_s));
    l.idle_ns = secondsToNs(s.idle_s);
    l.busy_ns = secondsToNs(s.busy_s);
    l.settle_ns = secondsToNs(s.settle_s >= 0.0 ? s.settle_s : 2.0 * s.period_s);
    l.jitter_ns = secondsToNs(s.jitter_s);
    l.rounds = std::max(0, s.rounds);
    l.k = s.k;
    l.jobs = s.jobs;
    SimPower p;
    p.idle_w = s.idle_w;
    p.noise_sd_w = s.noise_sd_w;
    p.busy_noise_sd_w = s.busy_noise_sd_w;
    p.marginal_w = s.marginal_w;
    p.drift_w_per_s = s.drift_w_per_s;
    SimModel model(l, p, s.seed, s.spec);
    model.runTo(model.endNs());

    Record rec;
    rec.meta = ojson{{"simulated", true}, {"seed", s.seed}};
    rec.jobs = s.jobs;
    rec.k = s.k;
    rec.counters = {s.spec};
    rec.idle_s = s.idle_s;
    rec.sample_s = s.period_s;
    rec.host = Host{"Simulated", "none", 1};
    rec.status = "complete";
    rec.rounds = model.takeRounds();
    rec.samples.emplace_back(s.spec, model.takeIntervals());
    return rec;
}

}  // namespace jb
