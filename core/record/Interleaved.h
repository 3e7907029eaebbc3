#pragma once
// The comparison record of an interleaved run (measure -- A ::: B): the children, the blocks'
// order, and for each child against the baseline the paired statistics of stats/Paired over
// the blocks both measured, for energy (J per decode on one whole-device counter) and for time
// (child wall seconds per decode), side by side. Its tables as Markdown and CSV.
#include <jb/record/Record.h>

#include <jb/base/Result.h>

#include <cstdint>
#include <optional>
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
// "paired over 1 block", "paired over 12 blocks": the comparison's words for its pairing (the
// table's footnote and the dashboard's comparison headline).
std::string pairedOverText(int blocks);
std::string comparisonCsv(const ojson& comparison);

// ---- reading a comparison record back (the Inspector)

// One side (energy or time) of a child's pair against the baseline, as written.
struct ComparisonSide {
    int blocks = 0;  // paired blocks
    std::optional<double> median_baseline, median, ratio, ratio_low, ratio_high;
    std::optional<double> difference, difference_low, difference_high;  // J or s per decode
    std::optional<double> p_value, effect_size;
    std::optional<bool> significant;
    std::string test, problem;
};

struct ComparisonChild {
    std::string name;
    std::vector<std::string> argv;
    std::optional<std::string> record;  // its record file, relative to comparison.json's folder
    std::optional<std::string> status;
    int rounds = 0;
    std::optional<double> median_j_per_decode, median_s_per_decode;
    std::optional<int> dropped_block;  // dropped by --keep-going: at this block (1-based)
    std::string dropped_reason;
    bool baseline = false;
    std::optional<ComparisonSide> energy, time;  // none for the baseline
};

struct ComparisonRecord {
    std::string counter, baseline;
    double significance_level = 0.05;
    int resamples = 0;
    int warmup_blocks = 0;
    std::vector<std::vector<std::string>> order;  // per block, the children's names
    std::vector<ComparisonChild> children;        // in the run's order
};

// Reads a comparison.json tree; an error names origin and the `$.path` of the first wrong value
// (a pair or a baseline naming no child included).
Result<ComparisonRecord> readComparison(const ojson& j, const std::string& origin);
// Reads and parses the file, then readComparison (errors name the file).
Result<ComparisonRecord> loadComparisonFile(const std::string& path);
// Whether a file is a comparison record, from its first bytes: the writer puts
// "kind": "joulebench-interleaved-comparison" first, so a large record is never read whole.
bool looksLikeComparisonFile(const std::string& path);
// A child's record file as a path: relative ones are resolved against comparison.json's folder.
std::string comparisonChildPath(const std::string& comparison_path, const std::string& record);

// A child's record file name in a run's folder: its name with anything but ASCII letters,
// digits, '.' and '-' replaced by '_' (at most 80 characters), made unique against `taken`
// (which it joins) and never comparison.json.
std::string interleavedRecordFileName(const std::string& name, std::vector<std::string>& taken);

// What writeInterleavedRun wrote.
struct InterleavedWrite {
    ojson comparison;
    std::vector<std::string> paths;  // each child's record ("" where it could not be written)
    std::string comparison_path;     // "" where it could not be written
    std::vector<std::string> errors;  // "could not write PATH: why", one per failed file
};
// Writes an interleaved run into dir, as `measure --out-dir DIR` does and the Measure page
// does after a run: each record of in.records (the record a single-child run writes) under
// interleavedRecordFileName of its name, then comparison.json over them (in.files filled in
// with the names written). A file that cannot be written is named in errors; the others are
// still written.
InterleavedWrite writeInterleavedRun(const std::string& dir, InterleavedInput in);

}  // namespace jb
