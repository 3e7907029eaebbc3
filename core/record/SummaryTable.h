#pragma once
// A plain-text table of records for people (`joulebench-cli summary`): one row per record
// and whole-device counter: file, label, counter, status, rounds, verdict counts, median
// J per decode [min, max], outlier rounds (1-based, as the reference's progress lines count).
#include <jb/record/Record.h>

#include <string>
#include <utility>
#include <vector>

namespace jb {

// Pairs of (file name as it should be shown, record). Columns are aligned with spaces.
std::string summaryTable(const std::vector<std::pair<std::string, Record>>& records);

}  // namespace jb
