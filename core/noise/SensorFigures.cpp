#include <jb/noise/SensorFigures.h>

#include <jb/base/Text.h>

#include <jb/stats/CounterResolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace jb {

namespace {

// The reading's share of a step `since_ms` after it: 0 until 2 delay - settle, 1 from the
// settle time, linear between (half-way at the delay).
double stepShare(const StepResponse& s, double since_ms)
{
    const double settle = std::max(s.settle_ms, 0.0);
    const double delay = std::clamp(s.delay_ms, 0.0, settle);
    const double start = std::max(0.0, 2.0 * delay - settle);
    if (since_ms >= settle)
        return 1.0;
    if (since_ms <= start)
        return 0.0;
    return (since_ms - start) / (settle - start);
}

}  // namespace

SensorFigures sensorFigures(const CounterProfile& p, double busy_s)
{
    SensorFigures f;
    f.spec = p.spec;
    const double settle_ms = std::max(
        {p.step_up.settle_ms, p.step_down.settle_ms, p.averaging_window_ms, 1.0});
    f.busy_s = busy_s > 0 ? busy_s : std::max(1.0, 3.0 * settle_ms / 1e3);
    const double after_s = std::max(0.5, 1.5 * settle_ms / 1e3);
    const double t0 = -std::max(0.2, 0.25 * f.busy_s);
    const double t1 = f.busy_s + after_s;
    f.load = {{t0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, {f.busy_s, 1.0}, {f.busy_s, 0.0}, {t1, 0.0}};
    // The reading, held between updates (every update period; 1 ms where it updates at every read).
    const double period_s = (p.update_period_ms > 0 ? p.update_period_ms : 1.0) / 1e3;
    auto at = [&](double t) {
        if (t < 0)
            return 0.0;
        const double up = stepShare(p.step_up, t * 1e3);
        if (t < f.busy_s)
            return up;
        const double fromLevel = stepShare(p.step_up, f.busy_s * 1e3);
        return fromLevel * (1.0 - stepShare(p.step_down, (t - f.busy_s) * 1e3));
    };
    double prev = 0.0;
    f.reading.emplace_back(t0, 0.0);
    for (double t = std::floor(t0 / period_s) * period_s + period_s; t <= t1 + 1e-12; t += period_s) {
        const double v = at(t);
        f.reading.emplace_back(t, prev);  // held until this update
        f.reading.emplace_back(t, v);
        prev = v;
    }
    // Bursts: the profile's burst length, else a fifth of the update period.
    f.burst_ms = p.coverage.burst_ms > 0 ? p.coverage.burst_ms
        : p.update_period_ms > 0         ? p.update_period_ms / 5.0
                                         : 10.0;
    const ProfileNeeds needs = profileNeeds(p);
    const SampledCounterModel model = needs.sampling
        ? *needs.sampling
        : SampledCounterModel{std::max(p.update_period_ms, 1.0), std::max(p.update_period_ms, 1.0)};
    const int steps = 200;
    for (int i = 0; i < steps; ++i) {
        const double phase = (double(i) + 0.5) / steps * model.period_ms;
        f.bursts.emplace_back(phase, countedShare(model, f.burst_ms, phase));
    }
    f.spread = shareSpread(model, f.burst_ms);

    f.lines.push_back(p.measured ? "measured on " + (p.host.empty() ? std::string("this host") : p.host) +
                              (p.measured_at.empty() ? "" : " at " + p.measured_at)
                                 : "the kind's documented default" + (p.note.empty() ? "" : ": " + p.note));
    f.lines.push_back(p.update_period_ms > 0 ? "a new value every " + formatted("%.4g", p.update_period_ms) +
                              " ms (jitter " + formatted("%.2g", p.update_jitter_ms) + " ms): rounds need " +
                              formatted("%.3g", kCoarseUpdates * p.update_period_ms / 1e3) + " s for 10 updates"
                                             : "a new value at every read");
    f.lines.push_back("step up: half-way after " + formatted("%.4g", p.step_up.delay_ms) + " ms, settled after " +
                      formatted("%.4g", p.step_up.settle_ms) + " ms; down: " + formatted("%.4g", p.step_down.delay_ms) +
                      " / " + formatted("%.4g", p.step_down.settle_ms) + " ms");
    f.lines.push_back(p.averages() ? "averages over " + formatted("%.4g", p.averaging_window_ms) +
                              " ms: brackets wait that out (averaged_brackets)"
                                   : "no averaging window");
    std::string cov = "bursts of " + formatted("%.3g", f.burst_ms) + " ms: counted " +
        formatted("%.0f", p.coverage.mean * 100.0) + "% +- " + formatted("%.0f", p.coverage.sd * 100.0) + "%" +
        (p.coverage.bursts > 0 ? " (" + std::to_string(p.coverage.bursts) + " bursts measured)"
                               : std::string());
    if (const std::string smp = samplingText(p); !smp.empty())
        cov += "; " + smp + ", modelled: " + formatted("%.0f", f.spread.mean * 100.0) + "% +- " +
            formatted("%.0f", f.spread.sd * 100.0) + "% over phases";
    f.lines.push_back(cov);
    return f;
}

}  // namespace jb
