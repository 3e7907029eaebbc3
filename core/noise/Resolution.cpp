#include <jb/noise/Resolution.h>

#include <jb/noise/RoundModel.h>
#include <jb/stats/Statistics.h>

#include <cmath>

namespace jb {

std::vector<ResolutionRow> resolution(const ResolutionInputs& in)
{
    std::vector<ResolutionRow> rows;
    const std::pair<Verdict, double> levels[] = {{Verdict::Clean, kCleanRatio},
                                                 {Verdict::RelativeOnly, kRelativeOnlyRatio},
                                                 {Verdict::Noisy, kNoisyRatio}};
    RoundModel m;
    m.idle_sd_w = in.idle_sd_w;
    m.busy_sd_w = in.busy_sd_w > 0.0 ? in.busy_sd_w : in.idle_sd_w;
    m.idle_intervals = intervalsInside(in.idle_s, in.period_s);
    m.busy_intervals = intervalsInside(in.window_s, in.period_s);
    const bool finite = in.idle_sd_w > 0.0 && m.idle_intervals >= 2 && m.busy_intervals >= 2 &&
                        in.confidence > 0.0 && in.confidence < 1.0;
    for (const auto& [name, t] : levels) {
        ResolutionRow r;
        r.verdict = name;
        r.threshold = t;
        r.min_marginal_w = t * in.idle_sd_w;
        r.min_energy_j = r.min_marginal_w * in.window_s;
        if (finite) {
            const double w = requiredMarginalW(m, t, in.confidence);
            if (std::isfinite(w)) {
                r.marginal_w_at_confidence = w;
                r.energy_j_at_confidence = w * in.window_s;
            }
        }
        rows.push_back(r);
    }
    return rows;
}

}  // namespace jb
