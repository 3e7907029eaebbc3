#include <jb/noise/CadencePlan.h>

#include <jb/base/Text.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace jb {

namespace {

std::string g(double v, int precision = 4)
{
    return formatted("%.*g", precision, v);
}

}  // namespace

std::optional<CadencePlan> cadencePlan(const Record& r, const std::string& spec, double busy_s_per_k,
                                       int min_idle_intervals, int min_rounds)
{
    CadencePlan p;
    p.counter = coarseCounter(r, spec);
    if (p.counter.coarse_rounds == 0)
        return std::nullopt;
    const std::optional<ObservedCadence> cad = observedCadence(r, spec);
    if (!cad || !(cad->ms > 0) || !std::isfinite(cad->ms))
        return std::nullopt;
    p.cadence = *cad;
    const CounterCadence cc = cadenceOf(r, spec);
    p.record_period_s = cc.period_s.value_or(r.sample_s > 0 ? r.sample_s : 0.1);
    const double cadence_s = cad->ms / 1e3;
    // A measured cadence scatters around the counter's own: one 1% over 4 periods is 4 periods
    // (the counter's 400 ms), not 5.
    const double factor = std::max(1.0, std::ceil(cadence_s / p.record_period_s - 0.01));
    p.sample_s = factor * p.record_period_s;
    // The updates a window must hold, at the cadence the counter really has (sampling slower
    // does not make it update less often, but the window must also hold whole sampling intervals).
    const double needed_s = std::max(kCoarseUpdates * cadence_s, kCoarseUpdates * p.sample_s);
    if (busy_s_per_k > 0) {
        p.k = std::max(1, int(std::ceil(needed_s / busy_s_per_k - 1e-9)));
        p.busy_s = p.k * busy_s_per_k;
    } else {
        p.k = int(std::max<std::int64_t>(1, r.k));
        p.busy_s = needed_s;
    }
    p.idle_s = std::max({needed_s, double(std::max(2, min_idle_intervals)) * p.sample_s, r.idle_s});
    p.rounds = std::max(int(r.rounds.size()), std::max(1, min_rounds));

    const std::string period_ms = g(p.record_period_s * 1e3), cadence_ms = g(cad->ms, 3),
                      sample_ms = g(p.sample_s * 1e3, 6);
    p.lines.push_back("the counter changes " + cad->text + " but was read every " + period_ms +
                      " ms: the idle sd is its quantisation, not the machine's noise, and no idle bracket, k or "
                      "round count planned from it helps");
    p.lines.push_back("sample every " + sample_ms + " ms (>= the counter's update cadence, " + cadence_ms +
                      " ms), with busy windows and idle brackets of at least " + g(needed_s, 3) + " s (" +
                      std::to_string(int(kCoarseUpdates)) + " counter updates)");
    p.lines.push_back("plan again from that record: its idle sd is the noise at the new period");
    p.settings = "sample every " + sample_ms + " ms, k " + std::to_string(p.k) + " (busy " + g(p.busy_s, 3) +
        " s), idle " + g(p.idle_s, 3) + " s, " + std::to_string(p.rounds) + " rounds";
    return p;
}

std::string CadencePlan::text() const
{
    std::string t = counter.text();
    for (const std::string& l : lines) {
        if (l.empty())
            continue;
        if (!t.empty())
            t += t.back() == '.' ? " " : ". ";
        std::string s = l;
        s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
        t += s;
    }
    if (!t.empty() && t.back() != '.')
        t += '.';
    return t;
}

PlanOutcome CadencePlan::outcome() const
{
    PlanOutcome o;
    o.reachable = false;
    o.message = lines.size() > 1 ? lines[1] : std::string();
    o.suggested_sample_s = sample_s;
    o.idle_s = idle_s;
    o.k = k;
    o.busy_s = busy_s;
    o.rounds = rounds;
    return o;
}

}  // namespace jb
