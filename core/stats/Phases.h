#pragma once
// Phases of a round (the child's `mark NAME` lines, child/Protocol.h) and the energy the
// counter's samples give each one, as pure arithmetic over intervals (no record, no wording):
// core/stats/PhaseEnergy.h adds the counter's limits and reads them off a record.
//
// A phase's energy is the energy of the sampled intervals its spans overlap, each taken pro rata
// (the part of the interval inside the span over the interval's length), so two phases that
// share an interval split it and the phases of a round add up to the energy of their spans.
// marginal_j = energy_j - idle_w x span_s, idle_w the round's idle power (the mean of its two
// idle brackets' means, as the round's own marginal figure).
#include <jb/base/Interval.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace jb {

// One span of a phase in a round, on the monotonic clock: opened by `mark NAME`, closed by the
// next mark, `mark -` or `done`.
struct MarkSpan {
    std::string name;
    std::int64_t t0_ns = 0;
    std::int64_t t1_ns = 0;
    friend bool operator==(const MarkSpan&, const MarkSpan&) = default;
};

// One phase of one round on one counter (its spans added up).
struct PhaseFigure {
    std::string name;
    int passes = 0;       // spans of this name in the round
    double span_s = 0;    // their total length
    // None where the phase is too short for the counter (too_short says why): never a figure.
    std::optional<double> energy_j;
    std::optional<double> marginal_j;  // also none without the round's idle power
    std::optional<double> updates;     // counter updates in span_s (span over the update period)
    std::optional<std::string> too_short;
    friend bool operator==(const PhaseFigure&, const PhaseFigure&) = default;
};

// The phases' names in order of first appearance.
std::vector<std::string> phaseNames(const std::vector<MarkSpan>& spans);

// Per phase (order of first appearance): passes, span_s, and energy_j / marginal_j from the
// intervals (time-sorted, contiguous: a counter's samples) pro rata. idle_w: none leaves
// marginal_j out. No limits applied (updates and too_short unset).
std::vector<PhaseFigure> phaseArithmetic(std::span<const Interval> intervals, const std::vector<MarkSpan>& spans,
                                         std::optional<double> idle_w);

// One phase across a run's rounds on one counter.
struct PhaseSummary {
    std::string name;
    int rounds = 0;            // rounds that had the phase
    int too_short_rounds = 0;  // of those, rounds where it was too short (no figure)
    // Over the rounds with a marginal figure; none where there is none.
    std::optional<double> median_marginal_j;
    std::optional<double> mad_marginal_j;  // median absolute deviation (unscaled) of marginal_j
    std::optional<double> median_energy_j;
    double median_span_s = 0;  // over every round with the phase
    // Median over those rounds of the phase's marginal_j over the round's marginal energy.
    std::optional<double> share;
    friend bool operator==(const PhaseSummary&, const PhaseSummary&) = default;
};
inline constexpr const char* kPhaseSpreadName = "mad";  // the spread the summary gives

// rounds[i]: round i's figures on the counter; round_marginal_j[i]: the round's own marginal
// energy (none: no share from that round). Phases in order of first appearance.
std::vector<PhaseSummary> summarizePhases(const std::vector<std::vector<PhaseFigure>>& rounds,
                                          const std::vector<std::optional<double>>& round_marginal_j);

}  // namespace jb
