#pragma once
// The probability that one round's ratio reaches a verdict threshold, under the model of the
// `sim` counter (idle power + Gaussian noise per interval + a constant marginal power while
// busy) and the reference's arithmetic:
//
//   ratio = (busy mean - (idle mean before + idle mean after) / 2) / max(sd before, sd after)
//
// The numerator is normal: mean M (the true marginal W), variance
//   sd_D^2 = busy_sd^2 / n_busy + idle_sd^2 / (2 n_idle).
// Each bracket's sample sd is idle_sd * sqrt(chi2_nu / nu), nu = n_idle - 1, independent of
// the means (normal theory), so Y = max(sd before, sd after) / idle_sd has cdf F(y)^2 with
// F(y) = P(chi2_nu <= nu y^2). Then
//   P(ratio >= T) = E[ Phi((M - T idle_sd Y) / sd_D) ] = integral F(y(z))^2 phi(z) dz,
//   y(z) = (M + sd_D z) / (T idle_sd),
// integrated numerically (docs/PLANNER.md derives it).
#include <optional>
#include <string>

namespace jb {

struct RoundModel {
    double marginal_w = 0.0;  // true marginal power of the busy window
    double idle_sd_w = 0.0;   // sd of one interval's idle power (> 0)
    double busy_sd_w = 0.0;   // sd of one interval's busy power (often the idle sd)
    int idle_intervals = 0;   // whole intervals inside each idle bracket (>= 2)
    int busy_intervals = 0;   // whole intervals inside the busy window (>= 2)
};

// P(ratio >= threshold) for one round. 0 where a bracket would have under two intervals
// (the reference then writes no ratio) or the idle sd is not positive.
double verdictProbability(const RoundModel& m, double threshold);

// Whole sampling intervals that a window of window_s surely holds, whatever the phase of the
// sampler's clock against the window: floor(window / period) - 1 (never below 0).
int intervalsInside(double window_s, double period_s);
// The shortest window that surely holds n whole intervals: (n + 1) periods.
double windowHolding(int intervals, double period_s);

// The smallest marginal W that reaches threshold with the given probability at these
// interval counts (m.marginal_w is ignored).
double requiredMarginalW(RoundModel m, double threshold, double probability);


}  // namespace jb
