#include "stats/CounterResolution.h"

#include <cmath>
#include <cstdio>

namespace jb {

namespace {

// "3", "3.2", "800": an update count as people read it. Under the threshold it is cut (not
// rounded) to one decimal, so 9.96 never reads as a "coarse" 10.
std::string count(double n)
{
    char buf[32];
    if (n >= kCoarseUpdates) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(n)));
        return buf;
    }
    const double cut = std::floor(n * 10.0 + 1e-9) / 10.0;
    if (cut == std::floor(cut))
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(cut));
    else
        std::snprintf(buf, sizeof buf, "%.1f", cut);
    return buf;
}

std::string ms(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g ms", v);
    return buf;
}

std::string updates(double n)
{
    return count(n) + (count(n) == "1" ? " update" : " updates") + " in the window";
}

bool usable(const std::optional<double>& v)
{
    return v && std::isfinite(*v) && *v > 0;
}

}  // namespace

CounterCadence cadenceOf(const Record& r, const std::string& spec)
{
    CounterCadence c;
    for (const auto& [k, info] : r.counter_info) {
        if (k != spec || !info.is_object())
            continue;
        const auto it = info.find("update_cadence_ms");
        if (it != info.end() && it->is_number()) {
            c.update_cadence_ms = it->get<double>();
            c.cadence_source = "counter_info";
        }
    }
    for (const auto& [k, f] : r.sampler) {
        if (k != spec)
            continue;
        if (!usable(c.update_cadence_ms) && usable(f.update_cadence_ms)) {
            c.update_cadence_ms = f.update_cadence_ms;
            c.cadence_source = "sampler";
        }
        if (f.period_s > 0)
            c.period_s = f.period_s;
    }
    if (!usable(c.update_cadence_ms)) {
        c.update_cadence_ms.reset();
        c.cadence_source.clear();
    }
    if (!c.period_s && r.sample_s > 0)
        c.period_s = r.sample_s;
    return c;
}

WindowResolution windowResolution(std::int64_t window_ns, const CounterCadence& cadence,
                                  const std::optional<Bracket>& busy)
{
    using B = WindowResolution::Basis;
    WindowResolution w;
    const double window_ms = double(window_ns) / 1e6;
    if (window_ns > 0 && usable(cadence.update_cadence_ms)) {
        const double cad = *cadence.update_cadence_ms;
        // A measured cadence is never much shorter than the period (the sampler cannot see
        // faster than it reads); one that is was declared by the counter and is taken as is.
        const double period_ms = cadence.period_s ? *cadence.period_s * 1e3 : 0.0;
        const bool samplerBound = period_ms > 0 && cad >= period_ms / kSamplerBoundFactor &&
            cad <= period_ms * kSamplerBoundFactor;
        if (samplerBound) {
            w.basis = B::SamplerBound;
            w.updates = window_ms / (*cadence.period_s * 1e3);
            w.lower_bound = true;
            w.text = "at least " + updates(*w.updates) + " (the counter changed at every read, every " +
                ms(cad) + "; it may update faster)";
            w.short_text = "≥ " + count(*w.updates) + " (every read)";
            return w;
        }
        w.basis = B::Cadence;
        w.updates = window_ms / cad;
        w.coarse = *w.updates < kCoarseUpdates;
        w.text = (w.coarse ? "coarse counter: " : "≈") + updates(*w.updates) + " (it changes every " +
            ms(cad) + ")";
        w.short_text = w.coarse ? "coarse counter: " + updates(*w.updates) : "≈" + count(*w.updates);
        return w;
    }
    if (busy && busy->intervals > 0) {
        if (busy->advanced < busy->intervals) {
            w.basis = B::Advanced;
            w.updates = double(busy->advanced);
            w.coarse = *w.updates < kCoarseUpdates;
            w.text = (w.coarse ? "coarse counter: " : "≈") + updates(*w.updates) + " (" +
                std::to_string(busy->advanced) + " of " + std::to_string(busy->intervals) +
                " sampling intervals advanced)";
            w.short_text = w.coarse ? "coarse counter: " + updates(*w.updates) : "≈" + count(*w.updates);
        } else {
            w.basis = B::AllAdvanced;
            w.updates = double(busy->advanced);
            w.lower_bound = true;
            w.text = "at least " + updates(*w.updates) + " (every sampling interval advanced)";
            w.short_text = "≥ " + count(*w.updates) + " (every read)";
        }
        return w;
    }
    w.text = window_ns > 0
        ? "counter cadence unknown: the record has no cadence and the window fewer than two samples"
        : "no busy window";
    w.short_text = window_ns > 0 ? "unknown" : "–";
    return w;
}

WindowResolution roundResolution(const Record& r, std::size_t round, const std::string& spec)
{
    if (round >= r.rounds.size())
        return {};
    const Round& rd = r.rounds[round];
    const CounterRound* c = rd.counter(spec);
    return windowResolution(rd.window_ns, cadenceOf(r, spec), c ? c->busy : std::nullopt);
}

std::string resolutionRuleText()
{
    return "Counter updates in the busy window: window / update cadence (counter_info or the sampler's "
           "figure); where that cadence is no longer than about the sampling period the counter changed at "
           "every read and the count is a lower bound. Without a cadence: the busy intervals that advanced "
           "(a lower bound where all did). Fewer than 10 estimated updates: coarse counter, the window is too "
           "short for it.";
}

}  // namespace jb
