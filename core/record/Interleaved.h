#pragma once
// The comparison record of an interleaved run (measure -- A ::: B): the children, the blocks'
// order, and for each child against the baseline the paired statistics of stats/Paired over
// the blocks both measured, for energy (J per decode on one whole-device counter) and for time
// (child wall seconds per decode), side by side. Its tables as Markdown and CSV.
#include "record/Record.h"

#include <cstdint>
#include <string>
#include <vector>

namespace jb {

struct InterleavedInput {
    std::vector<Record> records;          // one per child, in plan order (Session::finishedSet)
    std::vector<std::string> names;       // the children's names, same order
    std::vector<std::string> files;       // where each record was written ("" if nowhere)
    std::vector<std::vector<int>> order;  // order[b][k]: the k-th child of block b, warm-up blocks first
    int warmup_blocks = 0;
    std::uint64_t order_seed = 1;
    int baseline = 0;     // index into records
    std::string counter;  // empty: the records' first whole-device counter
    int resamples = 10000;
    std::uint64_t seed = 1;
};

// Per block, one child's J per decode and seconds per decode (none where the round gave no
// figure: no marginal on the counter, no decode, or the run ended before it).
struct BlockFigures {
    std::vector<std::optional<double>> j_per_decode, s_per_decode;
};
BlockFigures blockFigures(const Record& r, const std::string& counter);

ojson interleavedComparison(const InterleavedInput& in);
// The comparison's table: one row per child (median J/decode, energy ratio to the baseline with
// its 95% CI and p, median s/decode, time ratio with its CI and p).
std::string comparisonMarkdown(const ojson& comparison);
std::string comparisonCsv(const ojson& comparison);

}  // namespace jb
