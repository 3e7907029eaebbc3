#pragma once
// Paired comparison of two workloads measured in the same interleaved blocks (measure with
// several children): block i gave one round of the baseline and one of the other, so the pair
// shares the machine's state (temperature, background, idle drift) and the statistics work on
// pairs, never on two independent samples.
//
// - Ratio: median(other) / median(base); difference: median(other) - median(base).
// - Their 95% intervals: percentile bootstrap over blocks (each draw resamples whole pairs
//   with replacement, as many as there are), linear-interpolation quantiles 2.5% / 97.5%.
//   Deterministic for a seed, on every standard library.
// - p-value: two-sided Wilcoxon signed-rank test of the paired differences other - base
//   (zero differences dropped, tied |d| share their average rank). Exact (the permutation
//   distribution of the signed ranks, ties included) up to kExactSignedRankPairs pairs, the
//   normal approximation with tie and continuity corrections above.
// - Effect size: the matched-pairs rank-biserial correlation (W+ - W-) / (W+ + W-), in
//   [-1, 1]; positive when the other workload's figure is the larger.
//
// And the order of the children within blocks: a Williams design (each child in each position
// equally often, and each child preceded by every other equally often) whose rows are shuffled
// per cycle by the seed.
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace jb {

// A uniform index in [0, n) from the raw 64-bit draws, without modulo bias. Not
// std::uniform_int_distribution: its algorithm differs between standard libraries, and the
// same seed must give the same interval everywhere.
std::uint64_t uniformIndex(std::mt19937_64& rng, std::uint64_t n);

inline constexpr int kExactSignedRankPairs = 50;

struct SignedRank {
    int n = 0;             // pairs with a non-zero difference
    int zeros = 0;         // pairs dropped for a zero difference
    double w_plus = 0.0;   // sum of the ranks of the positive differences
    double w_minus = 0.0;  // sum of the ranks of the negative differences
    std::optional<double> p_two_sided;  // none without a non-zero difference
    bool exact = false;
    std::optional<double> rank_biserial;  // (W+ - W-) / (W+ + W-)
};
SignedRank wilcoxonSignedRank(std::span<const double> differences);

struct PairedComparison {
    int pairs = 0;
    std::optional<double> median_base, median_other;
    std::optional<double> ratio, ratio_ci_low, ratio_ci_high;
    std::optional<double> difference, difference_ci_low, difference_ci_high;
    SignedRank test;
    int resamples = 0;
    std::uint64_t seed = 0;
    int discarded_resamples = 0;  // draws whose baseline median was not positive (no ratio)
    std::string problem;          // why a figure is missing; empty when all are there
};

// base[i] and other[i] come from block i; the spans must be of equal length.
PairedComparison comparePaired(std::span<const double> base, std::span<const double> other, int resamples,
                               std::uint64_t seed);

// The comparative planner: how many blocks an interleaved run needs so that a true ratio of
// 1 + `ratio_delta` (0.05: 5%) between two workloads is found significant (two-sided, at
// `confidence`) with probability `power`, when one workload's per-round figure (J per decode)
// varies with coefficient of variation `cv` (sample sd / mean, e.g. from a record's rounds).
// The per-block log ratio then varies by about sqrt(2) cv (two independent rounds); the
// normal-theory count is divided by 0.955, the signed-rank test's efficiency against the t
// test; and never fewer than 6 blocks, the least with which the exact signed-rank test can
// give p < 0.05. None for a cv that is not finite and positive or a delta that is not positive.
struct BlocksPlan {
    int blocks = 0;
    double per_block_sd = 0;  // of the log ratio
    bool floor_applied = false;  // 6 blocks by the signed-rank test's floor, not by the noise
};
std::optional<BlocksPlan> blocksToResolve(double cv, double ratio_delta, double confidence = 0.95,
                                          double power = 0.8);
// The inverse normal distribution function (Acklam's rational approximation, |error| < 1.2e-9).
double normalQuantile(double p);

// The order in which `children` workloads run in each of `blocks` blocks: order[b][k] is the
// index of the child that runs k-th in block b. Williams rows (n rows for an even n, 2n for
// an odd n), taken in a seeded random order within each cycle of rows, so a run of whole
// cycles puts every child in every position equally often. One child: [0] each block.
std::vector<std::vector<int>> balancedOrder(int children, int blocks, std::uint64_t seed);
// Rows of the Williams design alone (for the tests and the docs).
std::vector<std::vector<int>> williamsRows(int children);

}  // namespace jb
