#include <jb/stats/RoundEnergy.h>

#include <algorithm>
#include <cmath>

namespace jb {

std::optional<MarginalUncertainty> marginalUncertainty(const CounterRound& c)
{
    if (!c.has_marginal || !c.busy || !c.idle_before || !c.idle_after)
        return std::nullopt;
    const Bracket& b = *c.idle_before;
    const Bracket& a = *c.idle_after;
    const double covered_s = double(c.covered_ns) / 1e9;
    const double sd_idle = std::max(b.sd_w, a.sd_w);
    const int n_busy = std::max(1, c.busy->intervals);
    MarginalUncertainty u;
    u.window_j = sd_idle * covered_s / std::sqrt(double(n_busy));
    const double var_b = b.intervals > 0 ? b.sd_w * b.sd_w / double(b.intervals) : 0.0;
    const double var_a = a.intervals > 0 ? a.sd_w * a.sd_w / double(a.intervals) : 0.0;
    u.baseline_j = 0.5 * std::sqrt(var_b + var_a) * covered_s;
    u.total_j = std::hypot(u.window_j, u.baseline_j);
    return u;
}

std::vector<RoundEnergy> roundEnergies(const Record& r, const std::string& spec)
{
    std::vector<RoundEnergy> out;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const Round& rd = r.rounds[i];
        const CounterRound* c = rd.counter(spec);
        if (!c || !c->has_marginal || rd.decodes <= 0)
            continue;
        RoundEnergy e;
        e.round = int(i);
        e.j_per_decode = c->marginal_nj / 1e9 / double(rd.decodes);
        if (const auto u = marginalUncertainty(*c))
            e.sd_j_per_decode = u->total_j / double(rd.decodes);
        e.verdict = c->verdict;
        e.ratio = c->ratio;
        out.push_back(e);
    }
    return out;
}

std::string uncertaintyFormulaText()
{
    return "Bars: ± one standard deviation of the round's J per decode, from the idle noise:\n"
           "  window part   = sd_idle × covered_s / √n_busy\n"
           "  baseline part = covered_s × ½·√(sd_before²/n_before + sd_after²/n_after)\n"
           "  sd(J/decode)  = √(window² + baseline²) / decodes\n"
           "sd_idle is the larger idle bracket sd (as the verdict's ratio), n the intervals of each bracket, "
           "covered_s the span of the intervals overlapping the busy window.";
}

}  // namespace jb
