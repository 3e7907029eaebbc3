#pragma once
// What the library's commands compute from its entries, with the statistics of `compare`
// (record/Compare: median J per decode, percentile bootstrap over rounds):
//   - energyGate: one record against the pooled rounds of baseline records (`library check`);
//   - trendOf: J per decode over time or commits, each point with its 95% interval;
//   - the exports: Bencher's metric format (BMF JSON) and CSV; and the `list` table.
#include <jb/library/LibraryEntry.h>
#include <jb/record/Compare.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// The 95% percentile bootstrap interval of the median of `values` (the ratio bootstrap of
// Compare against a constant 1, so the same draws and quantiles). Empty values: none.
struct MedianInterval {
    std::optional<double> median, low, high;
};
MedianInterval medianInterval(const std::vector<double>& values, int resamples = 2000, std::uint64_t seed = 1);

struct GateResult {
    // The ratio of medians is above 1 + max_increase/100 and its 95% interval lies wholly above
    // 1: more than the allowed increase, and significantly more than no change.
    bool regression = false;
    bool compared = false;    // false: no baseline rounds (passes, with the reason)
    Comparison comparison;    // A: the record, B: the baseline rounds pooled
    int baseline_records = 0;
    // Entries of the query left out: their file is gone or unreadable (the library's rows say
    // so), so their rounds are not what the files hold now; the reason names how many.
    std::vector<std::string> left_out;
    int copies = 0;  // entries with the record's own bytes (itself, or copies of it), left out
    double max_increase_pct = 0;
    std::string reason;  // one line saying why it passes or fails
};
// counter: a whole-device counter of the record. baseline: entries with rounds loaded; those
// marked missing (gone or unreadable) are left out and counted in left_out, and so are those
// with the bytes of the record itself (record_sha256: the record or a copy of it, counted in
// copies; no baseline of its own).
GateResult energyGate(const Record& record, const std::vector<LibraryEntry>& baseline, const std::string& counter,
                      double max_increase_pct, int resamples = 10000, std::uint64_t seed = 1,
                      const std::string& record_sha256 = {});
ojson gateToJson(const GateResult& g);

struct TrendPoint {
    std::string key;  // the commit (by commit) or the start time, ISO 8601 UTC
    std::int64_t started_ms = 0;
    std::optional<std::string> commit;
    int records = 0, rounds = 0;
    MedianInterval j_per_decode;
    // Significantly above the point before (its interval of the ratio to it lies above 1).
    bool regression = false;
    std::optional<double> ratio_to_previous;
};
// entries with rounds loaded, oldest first. by_commit: the rounds of all records of one commit
// pooled into one point (records without a commit are points of their own).
std::vector<TrendPoint> trendOf(const std::vector<LibraryEntry>& entries, const std::string& counter, bool by_commit,
                                int resamples = 2000, std::uint64_t seed = 1);
ojson trendToJson(const std::vector<TrendPoint>& t, const std::string& label, const std::string& counter);

// Bencher Metric Format: {"<label>/<counter>": {"joules-per-decode": {value, lower_value,
// upper_value}, "seconds-per-decode": {value}}}, the newest entry of each label and counter.
ojson bencherMetricFormat(const std::vector<LibraryEntry>& entries);
// One row per entry and counter, a header first.
std::string libraryCsv(const std::vector<LibraryEntry>& entries);
// `library list`: aligned columns for people; then a note for each counter whose J per decode is
// relative only (jb::counterTrust: "note: id 3 nvml-power:0: averaged power reading ...; prefer nvml:0").
std::string libraryTable(const std::vector<LibraryEntry>& entries);
ojson entriesToJson(const std::vector<LibraryEntry>& entries);

std::string isoTimeMs(std::int64_t ms);  // 2026-12-01T07:39:01Z
// The list's start time: to the minute, UTC ("2026-12-01T07:39"), as `library list` and the
// Library page show it.
std::string listTimeMs(std::int64_t ms);
// A counter's verdicts in words, the kinds with none left out: "3 clean, 1 noisy" ("no verdicts").
std::string verdictCounts(const CounterSummary& s);

}  // namespace jb
