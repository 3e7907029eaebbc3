#include <jb/stats/Phases.h>

#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>

namespace jb {

std::vector<std::string> phaseNames(const std::vector<MarkSpan>& spans)
{
    std::vector<std::string> out;
    for (const MarkSpan& s : spans)
        if (std::find(out.begin(), out.end(), s.name) == out.end())
            out.push_back(s.name);
    return out;
}

std::vector<PhaseFigure> phaseArithmetic(std::span<const Interval> intervals, const std::vector<MarkSpan>& spans,
                                         std::optional<double> idle_w)
{
    std::vector<PhaseFigure> out;
    for (const std::string& name : phaseNames(spans)) {
        PhaseFigure f;
        f.name = name;
        std::int64_t span_ns = 0;
        double nj = 0;
        for (const MarkSpan& s : spans) {
            if (s.name != name)
                continue;
            ++f.passes;
            span_ns += std::max<std::int64_t>(0, s.t1_ns - s.t0_ns);
            const IndexRange ir = covering(intervals, s.t0_ns, s.t1_ns);
            for (std::size_t i = ir.begin; i < ir.end; ++i) {
                const Interval& iv = intervals[i];
                const std::int64_t lo = std::max(iv.t0_ns, s.t0_ns), hi = std::min(iv.t1_ns, s.t1_ns);
                if (hi > lo && iv.span_ns() > 0)
                    nj += double(iv.nj) * double(hi - lo) / double(iv.span_ns());
            }
        }
        f.span_s = double(span_ns) / 1e9;
        f.energy_j = nj / 1e9;
        if (idle_w)
            f.marginal_j = *f.energy_j - *idle_w * f.span_s;
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<PhaseSummary> summarizePhases(const std::vector<std::vector<PhaseFigure>>& rounds,
                                          const std::vector<std::optional<double>>& round_marginal_j)
{
    std::vector<std::string> names;
    for (const auto& r : rounds)
        for (const PhaseFigure& f : r)
            if (std::find(names.begin(), names.end(), f.name) == names.end())
                names.push_back(f.name);
    std::vector<PhaseSummary> out;
    for (const std::string& name : names) {
        PhaseSummary s;
        s.name = name;
        std::vector<double> marg, energy, span, share;
        for (std::size_t i = 0; i < rounds.size(); ++i) {
            for (const PhaseFigure& f : rounds[i]) {
                if (f.name != name)
                    continue;
                ++s.rounds;
                span.push_back(f.span_s);
                if (f.too_short)
                    ++s.too_short_rounds;
                if (f.energy_j)
                    energy.push_back(*f.energy_j);
                if (f.marginal_j) {
                    marg.push_back(*f.marginal_j);
                    const auto rm = i < round_marginal_j.size() ? round_marginal_j[i] : std::nullopt;
                    if (rm && *rm != 0)
                        share.push_back(*f.marginal_j / *rm);
                }
            }
        }
        s.median_span_s = span.empty() ? 0.0 : median(span);
        if (!marg.empty()) {
            const double m = median(marg);
            std::vector<double> dev;
            for (double x : marg)
                dev.push_back(std::abs(x - m));
            s.median_marginal_j = m;
            s.mad_marginal_j = median(dev);
        }
        if (!energy.empty())
            s.median_energy_j = median(energy);
        if (!share.empty())
            s.share = median(share);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace jb
