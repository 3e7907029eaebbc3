#include <jb/stats/PhaseEnergy.h>

#include <jb/record/RecordJson.h>
#include <jb/stats/CounterResolution.h>

namespace jb {

std::vector<PhaseFigure> phaseEnergy(const Record& r, std::size_t round, const std::string& spec,
                                     std::span<const Interval> samples)
{
    if (round >= r.rounds.size())
        return {};
    const Round& rd = r.rounds[round];
    std::optional<double> idle_w;
    if (const CounterRound* c = rd.counter(spec); c && c->idle_before && c->idle_after)
        idle_w = 0.5 * (c->idle_before->mean_w + c->idle_after->mean_w);
    std::vector<PhaseFigure> out = phaseArithmetic(samples, rd.marks, idle_w);
    for (PhaseFigure& f : out) {
        const PhaseLimit lim = phaseLimit(r, spec, std::int64_t(std::llround(f.span_s * 1e9)));
        f.updates = lim.updates;
        if (!lim.too_short.empty()) {
            f.too_short = lim.too_short;
            f.energy_j.reset();
            f.marginal_j.reset();
        }
    }
    return out;
}

void fillPhaseEnergy(Record& r, const std::vector<std::pair<std::string, std::vector<Interval>>>& samples)
{
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        Round& rd = r.rounds[i];
        if (rd.marks.empty())
            continue;
        rd.phase_energy.clear();
        for (const auto& [spec, iv] : samples)
            rd.phase_energy.emplace_back(spec, phaseEnergy(r, i, spec, iv));
    }
}

void verifyPhaseEnergy(const Record& r, VerifyReport& rep)
{
    if (!r.hasPhases())
        return;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const Round& rd = r.rounds[i];
        if (rd.marks.empty())
            continue;
        const std::string pp = jsonPathKey(jsonPathIndex("$.rounds", i), "phase_energy");
        for (const auto& [spec, iv] : r.samples) {
            const ojson recomputed = phaseFiguresToJson(phaseEnergy(r, i, spec, iv));
            const std::vector<PhaseFigure>* stored = nullptr;
            for (const auto& [k, v] : rd.phase_energy)
                if (k == spec)
                    stored = &v;
            const ojson storedJson = stored ? phaseFiguresToJson(*stored) : ojson();
            compareFigures(jsonPathKey(pp, spec), stored ? &storedJson : nullptr, &recomputed, rep);
        }
    }
    if (r.loaded_phase_summary) {
        const ojson recomputed = phaseSummaryToJson(r);
        compareFigures("$.phase_summary", &*r.loaded_phase_summary, &recomputed, rep);
    }
}

VerifyReport verifyRecordWithPhases(const Record& r)
{
    VerifyReport rep = verifyRecord(r);
    if (rep.verifiable)
        verifyPhaseEnergy(r, rep);
    return rep;
}

}  // namespace jb
