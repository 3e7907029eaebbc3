#pragma once
// Each round's marginal energy per decode with an uncertainty, for the per-round chart.
// Pure functions (no widgets).
//
// The marginal energy is window_nj - idle_w * covered_ns with idle_w the mean of the two idle
// brackets' means (jb::counterRound). Two parts of it are uncertain by the idle noise:
//  * the window energy: n_busy intervals whose power scatters by about the idle sd each, so
//    the energy over covered_s scatters by  sd_idle_w * covered_s / sqrt(n_busy);
//  * the idle baseline: each bracket mean is known to sd / sqrt(n) and idle_w is their
//    average, so idle_w is known to  0.5 * sqrt(sd_b^2 / n_b + sd_a^2 / n_a),  which the
//    subtraction multiplies by covered_s.
// sd_idle_w is the larger of the two brackets' sds (as the verdict's ratio uses). The two parts
// are independent and add in quadrature; dividing by the round's decodes gives the sd of the
// J per decode. The chart draws +/- one sd.
#include <jb/record/Record.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

struct MarginalUncertainty {
    double window_j = 0;    // the window energy's part
    double baseline_j = 0;  // the idle baseline's part
    double total_j = 0;     // both, in quadrature
};
// None where the round has no marginal figure (a bracket is missing).
std::optional<MarginalUncertainty> marginalUncertainty(const CounterRound& c);

struct RoundEnergy {
    int round = 0;  // 0-based
    double j_per_decode = 0;
    std::optional<double> sd_j_per_decode;
    std::optional<Verdict> verdict;
    std::optional<double> ratio;
};
// Rounds with a marginal figure and at least one decode (jb::jPerDecode's rounds), in order.
std::vector<RoundEnergy> roundEnergies(const Record& r, const std::string& spec);

// The formula in words, for the chart's tooltip and docs/INSPECTOR.md.
std::string uncertaintyFormulaText();

}  // namespace jb
