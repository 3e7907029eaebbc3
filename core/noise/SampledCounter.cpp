#include <jb/noise/SampledCounter.h>

#include <jb/noise/NoiseMath.h>
#include <jb/stats/CounterResolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace jb {

double countedShare(const SampledCounterModel& m, double busy_ms, double phase_ms)
{
    if (!(busy_ms > 0) || !(m.period_ms > 0))
        return 1.0;
    const double p = m.period_ms;
    const double w = std::clamp(m.sensed_ms, 1e-9, p);
    // Updates at k p (k = 1, 2, ...) sense [k p - w, k p); the burst is [phase, phase + busy).
    const double t0 = phase_ms;
    const double t1 = phase_ms + busy_ms;
    double sensed = 0.0;
    for (long long k = std::max(1LL, (long long)std::floor(t0 / p)); double(k) * p - w < t1; ++k) {
        const double a = std::max(t0, double(k) * p - w);
        const double b = std::min(t1, double(k) * p);
        if (b > a)
            sensed += b - a;
    }
    // Each sensed ms stands for p / w ms of the period.
    return sensed * (p / w) / busy_ms;
}

ShareSpread shareSpread(const SampledCounterModel& m, double busy_ms, int steps)
{
    steps = std::max(steps, 2);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < steps; ++i) {
        const double phase = (double(i) + 0.5) / double(steps) * m.period_ms;
        const double s = countedShare(m, busy_ms, phase);
        sum += s;
        sum2 += s * s;
    }
    ShareSpread out;
    out.mean = sum / double(steps);
    out.sd = std::sqrt(std::max(0.0, sum2 / double(steps) - out.mean * out.mean));
    return out;
}

int roundsForMean(double rel_sd, double halfwidth, double level)
{
    if (!(rel_sd > 0) || !(halfwidth > 0))
        return 1;
    const double z = noise::normalQuantile(0.5 + level / 2.0);
    return std::max(1, int(std::ceil(std::pow(z * rel_sd / halfwidth, 2.0) - 1e-9)));
}

ProfileNeeds profileNeeds(const CounterProfile& p)
{
    ProfileNeeds n;
    if (p.update_period_ms > 0) {
        n.min_busy_s = kCoarseUpdates * p.update_period_ms / 1e3;
        n.min_idle_s = n.min_busy_s;
    }
    if (p.update_period_ms > 0 && p.coverage.sensed_fraction && *p.coverage.sensed_fraction < 0.999)
        n.sampling = SampledCounterModel{p.update_period_ms,
                                         *p.coverage.sensed_fraction * p.update_period_ms};
    return n;
}

std::optional<SamplingRounds> samplingRounds(const std::string& spec, const CounterProfile& p, double busy_s,
                                             double halfwidth)
{
    const ProfileNeeds n = profileNeeds(p);
    if (!n.sampling || !(busy_s > 0))
        return std::nullopt;
    SamplingRounds r;
    r.sd = shareSpread(*n.sampling, busy_s * 1e3).sd;
    r.rounds = roundsForMean(r.sd, halfwidth, 0.95);
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "a %.3g s round's energy spreads by sd %.3g%%, so %d round%s reach%s +-%.0f%% at 95%%",
                  busy_s, r.sd * 100.0, r.rounds, r.rounds == 1 ? "" : "s", r.rounds == 1 ? "es" : "",
                  halfwidth * 100.0);
    r.text = spec + " samples (" + samplingText(p) + "): " + buf;
    return r;
}

}  // namespace jb
