#pragma once
// What a record says about a counter's noise and signal: its idle brackets' power (from the
// raw samples where the record has them, else from the stored bracket figures), the marginal
// power, busy noise and busy seconds per k of its rounds. The planner's and the noise page's
// inputs.
#include <jb/base/Result.h>
#include <jb/noise/Planner.h>
#include <jb/record/Record.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace jb {

struct RecordNoise {
    std::string spec;
    std::string source;  // "samples" (raw intervals), "brackets" (stored mean/sd only) or "live"
    double period_s = 0.0;

    // One entry per distinct idle bracket with at least two intervals, in time order; the
    // power of each whole interval inside it. Empty where the source is "brackets".
    std::vector<std::vector<double>> idle_power_w;
    int brackets = 0;   // distinct idle brackets used
    int intervals = 0;  // idle intervals in them
    double idle_mean_w = 0.0;
    // Pooled within-bracket sd: sqrt(sum (n_j - 1) sd_j^2 / sum (n_j - 1)). Within brackets,
    // as the reference's ratio sees it, so slow drift between brackets does not inflate it.
    double idle_sd_w = 0.0;
    // Largest single bracket sd (what a round's ratio divides by is the larger of two).
    double idle_sd_max_w = 0.0;

    // From the rounds that have a marginal figure for this counter.
    int rounds_with_marginal = 0;
    std::optional<double> marginal_w;     // median of busy mean - mean of the two idle means
    std::optional<double> busy_sd_w;      // pooled sd of the busy brackets
    std::optional<double> busy_s_per_k;   // median window seconds / k
    std::optional<double> window_s;       // median busy window seconds
    std::optional<double> j_per_decode;   // median marginal J / decode
    // Robust relative spread of J/decode over the rounds: 1.4826 MAD / |median| (>= 3 rounds).
    std::optional<double> j_per_decode_rel_spread;
    std::vector<double> ratios;           // each round's ratio, where present
};

// Power of each interval (nJ / ns = W), for the histogram and the Allan deviation.
std::vector<double> powersOf(std::span<const Interval> iv);

// The same figures for idle brackets measured now (the noise page's live bracket): each span
// one bracket's intervals, in time order. Brackets under two intervals are left out; source
// "live". No round figures.
RecordNoise liveNoise(const std::vector<std::span<const Interval>>& brackets, const std::string& spec,
                      double period_s);

// The record's noise for one whole-device counter (empty spec: the record's first). The
// error names the counter or says what the record lacks.
Result<RecordNoise> recordNoise(const Record& r, const std::string& spec = {});

// Planner inputs from a record: idle sd, busy sd, marginal power, period, busy s per k, the
// Allan curve of the idle samples, and the workload's own round-to-round spread (what the
// observed J/decode spread has beyond what the counter noise explains at the record's
// settings). Fields the record lacks stay 0; the caller fills or reports them.
PlanInputs planInputsFrom(const RecordNoise& n, const Record& r);

}  // namespace jb
