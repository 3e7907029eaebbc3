#include <jb/stats/CounterResolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

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

CoarseCounter coarseCounter(const Record& r, const std::string& spec)
{
    CoarseCounter c;
    c.spec = spec;
    c.rounds = int(r.rounds.size());
    const CounterCadence cad = cadenceOf(r, spec);
    for (const Round& rd : r.rounds) {
        const CounterRound* cr = rd.counter(spec);
        const WindowResolution w = windowResolution(rd.window_ns, cad, cr ? cr->busy : std::nullopt);
        if (!w.coarse)
            continue;
        if (c.coarse_rounds == 0)
            c.example = w;
        ++c.coarse_rounds;
    }
    if (!c.coarse())
        return c;
    c.headline = "Coarse counter (" + spec + "):";
    c.detail = "in " + std::to_string(c.coarse_rounds) + " of " + std::to_string(c.rounds) +
        " rounds the busy window saw fewer than " + std::to_string(int(kCoarseUpdates)) + " counter updates (" +
        c.example.text +
        "). Those verdicts judge the counter more than the decoder: make the rounds longer (more decodes per "
        "round) or use a finer counter.";
    return c;
}

std::optional<ObservedCadence> observedCadence(const Record& r, const std::string& spec)
{
    const CounterCadence cad = cadenceOf(r, spec);
    if (usable(cad.update_cadence_ms)) {
        const double cms = *cad.update_cadence_ms;
        const double period_ms = cad.period_s ? *cad.period_s * 1e3 : 0.0;
        // As windowResolution: a cadence about the period only says the counter changed at every read.
        const bool samplerBound = period_ms > 0 &&
            cms >= period_ms / kSamplerBoundFactor && cms <= period_ms * kSamplerBoundFactor;
        if (!samplerBound) {
            ObservedCadence o;
            o.ms = cms;
            o.source = cad.cadence_source;
            o.text = "every " + ms(cms) +
                (o.source == "sampler" ? " (the sampler's figure)" : " (the record's counter_info)");
            return o;
        }
    }
    // A span S holds floor(S / c) or one more updates of a counter with cadence c, so a bracket
    // with a advancing intervals says S / (a + 1) < c < S / (a - 1). Brackets laid out in step
    // with the counter (the same phase every round) bias the pooled figure; these bounds, from
    // every bracket, keep it inside what the brackets allow.
    long long intervals = 0, advanced = 0;
    double span_ns = 0, lo_ns = 0, hi_ns = std::numeric_limits<double>::infinity();
    for (const Round& rd : r.rounds) {
        const CounterRound* cr = rd.counter(spec);
        if (!cr)
            continue;
        for (const std::optional<Bracket>* b : {&cr->idle_before, &cr->busy, &cr->idle_after}) {
            if (!*b || (*b)->intervals <= 0 || (*b)->span_ns <= 0)
                continue;
            const double s = double((*b)->span_ns);
            const int a = (*b)->advanced;
            intervals += (*b)->intervals;
            advanced += a;
            span_ns += s;
            lo_ns = std::max(lo_ns, s / double(a + 1));
            if (a >= 2)
                hi_ns = std::min(hi_ns, s / double(a - 1));
        }
    }
    if (advanced <= 0 || advanced >= intervals)
        return std::nullopt;
    double est_ns = span_ns / double(advanced);
    if (lo_ns <= hi_ns)
        est_ns = std::clamp(est_ns, lo_ns, hi_ns);
    ObservedCadence o;
    o.ms = est_ns / 1e6;
    o.source = "brackets";
    o.intervals = intervals;
    o.advanced = advanced;
    o.text = "about every " + ms(o.ms) + " (" + std::to_string(advanced) + " of " + std::to_string(intervals) +
        " sampling intervals advanced)";
    return o;
}

}  // namespace jb
