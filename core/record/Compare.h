#pragma once
// Comparing two records' energy per decode on one whole-device counter: the ratio of the
// median J per decode of A to that of B, with a percentile bootstrap 95% interval over rounds.
// Each bootstrap draw resamples A's rounds and B's rounds independently, with replacement,
// as many as each record has, and takes the ratio of the two medians; the interval is the
// 2.5% and 97.5% quantiles (linear interpolation) of those ratios. Deterministic for a seed.
#include <jb/record/Record.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// One round's energy per decode: marginal_nj / 1e9 / decodes, for rounds with a marginal
// figure and at least one decode (the rounds summaryOf counts).
struct RoundJ {
    int round = 0;  // 0-based index in the record
    double j_per_decode = 0.0;
};
std::vector<RoundJ> jPerDecode(const Record& r, const std::string& counter);

struct BootstrapRatios {
    std::vector<double> ratios;  // median(A*) / median(B*) of each kept draw, in draw order
    int discarded = 0;           // draws whose B median was not positive (no ratio)
};
// The bootstrap distribution itself (for tests and for plotting). Empty a or b: no draws.
BootstrapRatios bootstrapRatioOfMedians(const std::vector<double>& a, const std::vector<double>& b,
                                        int resamples, std::uint64_t seed);

struct Comparison {
    std::string counter;
    std::vector<RoundJ> a, b;             // per-round J per decode
    CounterSummary summary_a, summary_b;  // verdict counts and the rest, as summaryOf
    std::optional<double> median_a, median_b;
    std::optional<double> ratio;            // median_a / median_b
    std::optional<double> ci_low, ci_high;  // 95% percentile bootstrap interval of the ratio
    int resamples = 0;
    std::uint64_t seed = 0;
    int discarded_resamples = 0;
    // Why there is no ratio or no interval (empty when both are there).
    std::string problem;
};

// The same statistics over two sets of rounds (e.g. a record against the pooled rounds of several
// baseline records, `library check`); the summaries are left empty.
Comparison compareRoundSets(std::vector<RoundJ> a, std::vector<RoundJ> b, const std::string& counter,
                            int resamples = 10000, std::uint64_t seed = 1);
Comparison compareRecords(const Record& a, const Record& b, const std::string& counter, int resamples = 10000,
                          std::uint64_t seed = 1);

// The comparison as JSON, for `compare --json`.
ojson comparisonToJson(const Comparison& c);

}  // namespace jb
