#pragma once
// The rounds and the raw samples of a record as CSV (comma-separated, '.' decimals, a header
// row, full precision), for spreadsheets and scripts.
#include <jb/record/Record.h>

#include <string>
#include <utility>
#include <vector>

namespace jb {

// One row per round: round, decodes, child_wall_ns, window_ns, child_note, then per
// whole-device counter <spec>.idle_before_w, ..._sd_w, busy, window_nj, covered_ns,
// marginal_nj, j_per_decode, ratio, verdict (empty cells where a figure is absent).
std::string roundsCsv(const Record& r);

// One row per interval: counter, t0_ns, t1_ns, nj, power_w.
using NamedIntervals = std::vector<std::pair<std::string, std::vector<Interval>>>;
std::string samplesCsv(const NamedIntervals& samples);

}  // namespace jb
