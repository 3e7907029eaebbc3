#include <jb/record/Record.h>

#include <algorithm>

namespace jb {

std::vector<std::string> Record::wholeDeviceCounters() const
{
    std::vector<std::string> out;
    auto add = [&](const std::string& s) {
        if (std::find(out.begin(), out.end(), s) == out.end())
            out.push_back(s);
    };
    for (const Round& r : rounds)
        for (const auto& [spec, _] : r.counters)
            add(spec);
    for (const auto& [spec, _] : samples)
        add(spec);
    return out;
}

const std::vector<Interval>* Record::samplesOf(const std::string& spec) const
{
    for (const auto& [k, v] : samples)
        if (k == spec)
            return &v;
    return nullptr;
}

bool Record::hasPhases() const
{
    return std::any_of(rounds.begin(), rounds.end(), [](const Round& r) { return !r.marks.empty(); });
}

std::vector<PhaseSummary> phaseSummaryOf(const Record& r, const std::string& spec)
{
    std::vector<std::vector<PhaseFigure>> figures;
    std::vector<std::optional<double>> marginal;
    for (const Round& round : r.rounds) {
        std::vector<PhaseFigure> f;
        for (const auto& [k, v] : round.phase_energy)
            if (k == spec)
                f = v;
        figures.push_back(std::move(f));
        const CounterRound* c = round.counter(spec);
        marginal.push_back(c && c->has_marginal ? std::optional<double>(c->marginal_nj / 1e9) : std::nullopt);
    }
    return summarizePhases(figures, marginal);
}

CounterSummary summaryOf(const Record& r, const std::string& spec)
{
    std::vector<RoundForSummary> in;
    in.reserve(r.rounds.size());
    for (const Round& round : r.rounds)
        in.push_back({round.counter(spec), round.decodes});
    return summarize(in);
}

std::vector<CounterSummary> summariesByWorkload(const Record& r, const std::string& spec,
                                                const std::vector<int>& workload_of_round, int workloads)
{
    std::vector<std::vector<RoundForSummary>> in(std::size_t(std::max(workloads, 0)));
    for (std::size_t i = 0; i < r.rounds.size() && i < workload_of_round.size(); ++i) {
        const int w = workload_of_round[i];
        if (w >= 0 && w < workloads)
            in[std::size_t(w)].push_back({r.rounds[i].counter(spec), r.rounds[i].decodes});
    }
    std::vector<CounterSummary> out;
    out.reserve(in.size());
    for (const auto& rounds : in)
        out.push_back(summarize(rounds));
    return out;
}

}  // namespace jb
