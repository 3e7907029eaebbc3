#pragma once
// The smallest marginal power, and energy over a busy window, that the idle noise lets a
// round resolve at each verdict threshold: ratio = marginal W / idle sd >= threshold, so the
// floor is threshold * sd. With the bracket lengths known it also gives the marginal power
// that reaches the threshold in a chosen share of rounds, the sampling noise of the sds and
// means included (RoundModel.h).
#include <jb/stats/Verdict.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

struct ResolutionInputs {
    double idle_sd_w = 0.0;
    double window_s = 0.0;  // busy window the energy is counted over
    // Optional, for the at-confidence column: sample period and idle bracket seconds (both > 0).
    double period_s = 0.0;
    double idle_s = 0.0;
    double busy_sd_w = 0.0;   // <= 0: the idle sd
    double confidence = 0.9;
};

struct ResolutionRow {
    Verdict verdict = Verdict::Clean;  // clean, relative-only, noisy
    double threshold = 0;  // 10, 3, 1
    double min_marginal_w = 0;   // threshold * idle sd
    double min_energy_j = 0;     // min_marginal_w * window_s
    // Marginal W reaching the threshold in `confidence` of rounds with these brackets.
    std::optional<double> marginal_w_at_confidence;
    std::optional<double> energy_j_at_confidence;
};

std::vector<ResolutionRow> resolution(const ResolutionInputs& in);

}  // namespace jb
