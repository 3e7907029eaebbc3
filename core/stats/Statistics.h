#pragma once
// The per-round arithmetic of the reference harness as pure functions over sample slices.
// The live session and `verify` (recompute from a saved record) call this very code.
#include <jb/base/Interval.h>
#include <jb/stats/Verdict.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace jb {

// Mean and sample standard deviation of the power over a run of intervals, and the
// liveness facts of the counter (how many intervals advanced, the longest advancing run).
struct Bracket {
    int intervals = 0;
    int advanced = 0;
    int longest_run = 0;
    std::int64_t span_ns = 0;  // last t1 minus first t0
    double mean_w = 0.0;
    double sd_w = 0.0;  // sample standard deviation (n - 1)
    friend bool operator==(const Bracket&, const Bracket&) = default;
};

// None under two intervals, as the reference.
std::optional<Bracket> bracket(std::span<const Interval> iv);

// clean >= 10, relative-only >= 3, noisy >= 1, unusable below; none without a ratio
// (the thresholds, kCleanRatio and the others, are Verdict.h's).
std::optional<Verdict> verdict(std::optional<double> ratio);
// The thresholds in words, for tooltips and help.
std::string verdictThresholdsText();

// One counter's figures for one round.
struct CounterRound {
    std::optional<Bracket> busy, idle_before, idle_after;
    std::int64_t window_nj = 0;   // energy of every interval that overlaps the busy window
    std::int64_t covered_ns = 0;  // span of those intervals
    // Present only where all three brackets exist (the reference writes the keys then only).
    bool has_marginal = false;
    double marginal_nj = 0.0;            // window_nj - idle_w * covered_ns
    std::optional<double> ratio;         // marginal W / max idle sd; none where that sd is 0
    std::optional<Verdict> verdict;      // from ratio
};

// The slices a round's figures are computed from (as the reference's between/covering).
struct RoundSlices {
    std::span<const Interval> busy;         // inside the busy window
    std::span<const Interval> covering;     // overlapping the busy window
    std::span<const Interval> idle_before;  // inside the bracket before
    std::span<const Interval> idle_after;   // inside the bracket after
};
CounterRound counterRound(const RoundSlices& s);
// The marginal, ratio and verdict from a CounterRound's brackets, window_nj and covered_ns
// (counterRound's last step; roundFigures' again after its aligned cuts).
void setMarginal(CounterRound& r);

// Index ranges into a time-sorted, contiguous run of intervals.
struct IndexRange {
    std::size_t begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
};
// Intervals that lie inside [t0, t1]: t0_i >= t0 and t1_i <= t1.
IndexRange between(std::span<const Interval> all, std::int64_t t0, std::int64_t t1);
// Intervals that overlap [t0, t1]: t1_i > t0 and t0_i < t1.
IndexRange covering(std::span<const Interval> all, std::int64_t t0, std::int64_t t1);

// Plain order statistics.
double median(std::vector<double> v);
double quantile(std::vector<double> v, double q);  // linear interpolation, q in [0, 1]
double mean(std::span<const double> v);
double sampleSd(std::span<const double> v);  // 0 under two values

// Rounds whose value lies far from the median: modified z-score 0.6745 |x - med| / MAD above
// 3.5 (Iglewicz and Hoaglin). With MAD 0 nothing is flagged. Returns indices into v.
std::vector<int> madOutliers(std::span<const double> v, double threshold = 3.5);

// One counter's summary over a run's rounds.
struct CounterSummary {
    int rounds = 0;             // rounds with a marginal figure
    int clean = 0, relative_only = 0, noisy = 0, unusable = 0, no_verdict = 0;
    std::optional<double> median_j_per_decode, min_j_per_decode, max_j_per_decode;
    std::vector<int> outlier_rounds;  // 0-based round indices
    // The count of one verdict; none: no_verdict.
    int count(std::optional<Verdict> v) const;
    void add(std::optional<Verdict> v);  // one more round of that verdict (none: no_verdict)
};
struct RoundForSummary {
    const CounterRound* counter = nullptr;  // null where the round lacks this counter
    std::int64_t decodes = 0;
};
CounterSummary summarize(std::span<const RoundForSummary> rounds);

}  // namespace jb
