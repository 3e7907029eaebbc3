#include <jb/stats/CounterResolution.h>

#include <jb/base/Text.h>

#include <jb/record/Verify.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

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
    return formatted("%.3g ms", v);
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
    // The counter's profile: a measured one first; a kind's default only where the record shows
    // nothing better (no cadence, or the sampler's bound: the counter changed at every read).
    if (const auto prof = profileOf(r, spec); prof && prof->update_period_ms > 0) {
        const double period_ms = c.period_s ? *c.period_s * 1e3 : 0.0;
        const bool bound = c.update_cadence_ms && period_ms > 0 &&
            *c.update_cadence_ms >= period_ms / kSamplerBoundFactor &&
            *c.update_cadence_ms <= period_ms * kSamplerBoundFactor;
        if (prof->measured || !c.update_cadence_ms || bound) {
            c.update_cadence_ms = prof->update_period_ms;
            c.cadence_source = "profile";
            c.profile_measured = prof->measured;
        }
    }
    return c;
}

std::optional<CounterProfile> profileOf(const Record& r, const std::string& spec)
{
    const auto all = r.extra.find("counter_profiles");
    if (all == r.extra.end() || !all->is_object())
        return std::nullopt;
    const auto it = all->find(spec);
    if (it == all->end())
        return std::nullopt;
    auto p = CounterProfile::fromJson(nlohmann::json::parse(it->dump()), "counter_profiles." + spec);
    if (!p)
        return std::nullopt;
    return std::move(p.value());
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
        const bool samplerBound = cadence.cadence_source != "profile" && period_ms > 0 &&
            cad >= period_ms / kSamplerBoundFactor && cad <= period_ms * kSamplerBoundFactor;
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
        const std::string by = cadence.cadence_source != "profile" ? ""
            : cadence.profile_measured                             ? ", by its measured profile"
                                                                   : ", by its kind's default profile";
        w.text = (w.coarse ? "coarse counter: " : "≈") + updates(*w.updates) + " (it changes every " +
            ms(cad) + by + ")";
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

std::string samplingText(const CounterProfile& p)
{
    if (!p.samples())
        return {};
    char buf[160];
    if (p.coverage.sensed_fraction && p.update_period_ms > 0)
        std::snprintf(buf, sizeof buf, "it senses about %.0f%% of each %s period",
                      *p.coverage.sensed_fraction * 100.0, ms(p.update_period_ms).c_str());
    else
        std::snprintf(buf, sizeof buf, "it samples: short bursts count %.0f%% +- %.0f%% of their energy",
                      p.coverage.mean * 100.0, p.coverage.sd * 100.0);
    return buf;
}

std::string roundLimitText(const std::string& spec, std::int64_t window_ns, const CounterCadence& cadence,
                           const std::optional<Bracket>& busy, const std::optional<CounterProfile>& profile,
                           double tail_ms)
{
    const WindowResolution w = windowResolution(window_ns, cadence, busy);
    const std::string source = !profile ? std::string()
        : profile->measured             ? std::string("its measured profile")
                                        : std::string("its kind's default profile");
    if (w.coarse && w.updates) {
        std::string s = "too short for " + spec + ": " + count(*w.updates) +
            (count(*w.updates) == "1" ? " update" : " updates") + ", needs " +
            std::to_string(int(kCoarseUpdates));
        std::string why;
        if (cadence.update_cadence_ms)
            why = "a new value every " + ms(*cadence.update_cadence_ms) +
                (cadence.cadence_source == "profile" ? ", by " + source : std::string());
        if (profile) {
            if (const std::string smp = samplingText(*profile); !smp.empty())
                why += (why.empty() ? "" : "; ") + smp + ", so a round's energy depends on its phase";
        }
        return why.empty() ? s : s + " (" + why + ")";
    }
    if (profile && profile->averages() && tail_ms <= 0 && window_ns > 0 &&
        double(window_ns) / 1e6 < kAveragingWindows * profile->averaging_window_ms) {
        char buf[320];
        std::snprintf(
            buf, sizeof buf,
            "too short for %s: a %.3g s busy window against its %.3g s averaging window, needs %.3g s "
            "(or brackets that wait the window out; %s)",
            spec.c_str(), double(window_ns) / 1e9, profile->averaging_window_ms / 1e3,
            kAveragingWindows * profile->averaging_window_ms / 1e3, source.c_str());
        return buf;
    }
    return {};
}

PhaseLimit phaseLimit(const Record& r, const std::string& spec, std::int64_t span_ns)
{
    PhaseLimit out;
    const CounterCadence cad = cadenceOf(r, spec);
    const std::optional<ObservedCadence> obs = observedCadence(r, spec);
    const double period_ms = cad.period_s ? *cad.period_s * 1e3 : 0.0;
    const double every_ms = std::max(obs ? obs->ms : 0.0, period_ms);
    const std::optional<CounterProfile> profile = profileOf(r, spec);
    const double span_ms = double(span_ns) / 1e6;
    if (every_ms > 0) {
        out.updates = span_ms / every_ms;
        if (*out.updates < kPhaseUpdates) {
            std::string why = obs && obs->ms >= period_ms ? "a new value " + obs->text
                                                          : "read every " + ms(period_ms) + ", the sampling period";
            if (profile)
                if (const std::string smp = samplingText(*profile); !smp.empty())
                    why += "; " + smp;
            out.too_short = "too short for " + spec + ": " + count(*out.updates) +
                (count(*out.updates) == "1" ? " update" : " updates") + " in " + ms(span_ms) + ", needs " +
                count(kPhaseUpdates) + " (" + why + ")";
            return out;
        }
    }
    if (profile && profile->averages() && span_ms < kPhaseUpdates * profile->averaging_window_ms) {
        out.too_short = formatted("too short for %s: a %.3g s phase against its %.3g s averaging window, needs %.3g s (%s)",
                                  spec.c_str(), span_ms / 1e3, profile->averaging_window_ms / 1e3,
                                  kPhaseUpdates * profile->averaging_window_ms / 1e3,
                                  profile->measured ? "its measured profile" : "its kind's default profile");
        return out;
    }
    if (every_ms <= 0)
        out.too_short = "too short for " + spec + ": the record says neither the counter's update period nor its "
                        "sampling period, so no phase can be resolved";
    return out;
}

std::string neverAdvancedText(const std::string& spec, const CounterCadence& cadence, const CounterRound& round)
{
    const std::optional<Bracket>* parts[] = {&round.idle_before, &round.busy, &round.idle_after};
    std::int64_t span_ns = 0;
    for (const auto* b : parts) {
        if (!*b || (*b)->advanced > 0)
            return {};
        span_ns += (*b)->span_ns;
    }
    // A counter known to publish less often than the round lasts is coarse, not dead.
    if (cadence.update_cadence_ms && *cadence.update_cadence_ms * 2.0 > double(span_ns) / 1e6)
        return {};
    return spec + " never advanced in this round: its energy is missing";
}

std::string roundLimitText(const std::string& spec, std::int64_t window_ns, const CounterCadence& cadence,
                           const CounterRound& round, const std::optional<CounterProfile>& profile,
                           double tail_ms)
{
    if (std::string dead = neverAdvancedText(spec, cadence, round); !dead.empty())
        return dead;
    return roundLimitText(spec, window_ns, cadence, round.busy, profile, tail_ms);
}

std::vector<std::pair<std::string, std::string>> roundLimits(const Record& r, std::size_t round)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (round >= r.rounds.size())
        return out;
    const Round& rd = r.rounds[round];
    for (const auto& [spec, c] : rd.counters) {
        const std::string t = roundLimitText(spec, rd.window_ns, cadenceOf(r, spec), c, profileOf(r, spec),
                                             double(bracketTailNs(r, spec)) / 1e6);
        if (!t.empty())
            out.emplace_back(spec, t);
    }
    return out;
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
    const std::optional<CounterProfile> prof = profileOf(r, spec);
    const double tail_ms = double(bracketTailNs(r, spec)) / 1e6;
    std::string averaging_example;
    std::vector<double> marginals;
    for (const Round& rd : r.rounds) {
        const CounterRound* cr = rd.counter(spec);
        if (cr && !neverAdvancedText(spec, cad, *cr).empty())
            continue;  // not coarse: dead in this round (its limit line and the warnings say so)
        if (cr && cr->has_marginal)
            marginals.push_back(cr->marginal_nj);
        const WindowResolution w = windowResolution(rd.window_ns, cad, cr ? cr->busy : std::nullopt);
        if (!w.coarse) {
            if (prof) {
                const std::string lim = roundLimitText(spec, rd.window_ns, cad, cr ? cr->busy : std::nullopt,
                                                       prof, tail_ms);
                if (!lim.empty()) {
                    if (c.averaging_rounds == 0)
                        averaging_example = lim;
                    ++c.averaging_rounds;
                }
            }
            continue;
        }
        if (c.coarse_rounds == 0)
            c.example = w;
        ++c.coarse_rounds;
    }
    if (marginals.size() >= 2) {
        double sum = 0;
        for (double m : marginals)
            sum += m;
        const double mean = sum / double(marginals.size());
        double ss = 0;
        for (double m : marginals)
            ss += (m - mean) * (m - mean);
        if (mean != 0)
            c.spread = std::sqrt(ss / double(marginals.size() - 1)) / std::abs(mean);
    }
    if (!c.coarse())
        return c;
    if (c.coarse_rounds > 0) {
        c.headline = "Coarse counter (" + spec + "):";
        c.detail = "in " + std::to_string(c.coarse_rounds) + " of " + std::to_string(c.rounds) +
            " rounds the busy window saw fewer than " + std::to_string(int(kCoarseUpdates)) +
            " counter updates (" + c.example.text +
            "). Those verdicts judge the counter more than the decoder: make the rounds longer (more decodes per "
            "round) or use a finer counter.";
    } else {
        c.headline = "Averaged counter (" + spec + "):";
        c.detail = "in " + std::to_string(c.averaging_rounds) + " of " + std::to_string(c.rounds) +
            " rounds " + averaging_example +
            ". Its average smears each round into the idle bracket after it.";
    }
    if (prof) {
        if (const std::string smp = samplingText(*prof); !smp.empty()) {
            char buf[96] = "";
            if (c.spread)
                std::snprintf(buf, sizeof buf,
                              " The rounds' marginal energies spread by sd %.0f%% of their mean.",
                              *c.spread * 100.0);
            c.detail += " " + spec + " samples (" + smp +
                "): a short round's energy depends on where it falls in the period; the random round phases "
                "average that out over rounds, not within one." +
                buf;
        }
    }
    return c;
}

std::optional<ObservedCadence> observedCadence(const Record& r, const std::string& spec)
{
    const CounterCadence cad = cadenceOf(r, spec);
    if (usable(cad.update_cadence_ms)) {
        const double cms = *cad.update_cadence_ms;
        const double period_ms = cad.period_s ? *cad.period_s * 1e3 : 0.0;
        // As windowResolution: a cadence about the period only says the counter changed at every read.
        const bool samplerBound = cad.cadence_source != "profile" && period_ms > 0 &&
            cms >= period_ms / kSamplerBoundFactor && cms <= period_ms * kSamplerBoundFactor;
        if (!samplerBound) {
            ObservedCadence o;
            o.ms = cms;
            o.source = cad.cadence_source;
            o.text = "every " + ms(cms) +
                (o.source == "sampler" ? " (the sampler's figure)"
                     : o.source == "profile"
                     ? (cad.profile_measured ? " (its measured profile)" : " (its kind's default profile)")
                     : " (the record's counter_info)");
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
