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

// One counter's phases over a record's rounds (phaseSummaryOf), as the cells people read, for
// `summary` and the Inspector's phase table: the median marginal J with its spread (MAD over
// rounds), the median span, the share of the round's marginal energy, and the rounds where the
// phase was too short for the counter (no figure there).
struct PhaseRow {
    std::string name;
    std::string marginal_j;  // "1.234" or "-" (too short in every round)
    std::string spread_j;    // "0.012" (MAD) or "-"
    std::string span;        // "300 ms"
    std::string share;       // "41%" or "-"
    std::string too_short;   // "", "too short in 2 of 3 rounds", "too short (every round)"
    std::string too_short_why;  // why, in the counter's words (its first too-short round); "" if never
    bool all_too_short = false;
};
std::vector<PhaseRow> phaseRows(const Record& r, const std::string& spec);
// "phases on rapl (median over rounds; spread: MAD):" and the rows aligned; empty without phases.
std::string phaseTable(const Record& r, const std::string& spec);

}  // namespace jb
