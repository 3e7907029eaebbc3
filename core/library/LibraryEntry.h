#pragma once
// One record as the library indexes it: where its file is (path, sha256, size), what it says
// (label, meta, host, counters, status, start time, provenance) and, per whole-device counter,
// the figures the record's own statistics give (summaryOf: verdict counts, median J per decode
// and its min/max; the per-round J per decode of Compare's jPerDecode; the median time per
// decode). The JSON file stays the truth: an entry is always rebuilt from it.
#include <jb/base/Result.h>
#include <jb/record/Compare.h>
#include <jb/record/Record.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

struct CounterFigures {
    std::string counter;
    CounterSummary summary;
    std::vector<RoundJ> rounds;           // per-round J per decode (0-based round index)
    std::optional<double> s_per_decode;  // median over rounds of child wall time / decodes
};

struct LibraryEntry {
    std::int64_t id = 0;  // the library's key; 0 before it is stored
    std::string path;     // absolute
    std::string sha256;
    std::int64_t size_bytes = 0;
    // The file was gone or unreadable at the last refresh, or is gone now (list() looks): left out
    // of list, export, trend and check unless asked for; `unreadable` says which.
    bool missing = false;
    bool unreadable = false;  // the file is there but is no record any more (refresh)
    bool gone_now = false;    // missing since the last refresh: list() found the file gone

    std::optional<std::string> label;
    ojson meta = ojson::object();
    std::string host;  // host name where the record has one, else "system/machine"
    std::string host_system, host_machine;
    std::vector<std::string> counters;  // every counter of the record, as given
    std::string status;                 // complete, aborted, or "reference" (no status key)
    std::int64_t started_ms = 0;        // Unix ms: the record's started_at, else the file's time
    std::string tool;                   // "joulebench-cli 0.1.0", "" for reference records
    // Provenance (the record's `source`, as `measure --source` and the job queue write it).
    std::optional<std::string> commit, branch;
    std::optional<bool> dirty;
    std::vector<CounterFigures> figures;  // one per whole-device counter with rounds

    const CounterFigures* figuresOf(const std::string& counter) const;
};

// The entry of a record read from `path` (its bytes hashed to `sha256`, `size_bytes` long);
// `file_time_ms` is the start time where the record has none.
LibraryEntry entryFromRecord(const Record& r, const std::string& path, const std::string& sha256,
                             std::int64_t size_bytes, std::int64_t file_time_ms);

// A job manifest (core/jobs JobManifest, as `jobs run` and the Jobs page write it, or the
// reference driver's) as an entry: label the job's name (the reference's experiment_name), status the job's (completed, timeout,
// ...), start time started_unix_time, provenance its `source`, host the Slurm node where there
// is one, else "local"; per counter of its energy report with a marginal energy, one "round":
// the job is the unit, so J per decode is the job's marginal J and s per decode its driver wall
// time, with the counter's verdict. The error names the file where it is not a manifest.
Result<LibraryEntry> entryFromManifest(const nlohmann::json& manifest, const std::string& path,
                                       const std::string& sha256, std::int64_t size_bytes,
                                       std::int64_t file_time_ms);

// What a JSON file the library is given holds, from its top-level keys (none: not one of these).
enum class LibraryFileKind { Record, Comparison, Manifest };
const char* libraryFileKindName(LibraryFileKind k);  // "record", "comparison", "manifest"
// A comparison record: `kind` is joulebench-interleaved-comparison. A job manifest: `status`,
// `driver_wall_seconds` and `hardware`. Anything else is read as a record.
LibraryFileKind libraryFileKindOf(const nlohmann::json& top);
// The record files a comparison names (its children's `record`), resolved against its folder.
Result<std::vector<std::string>> comparisonRecordPaths(const nlohmann::json& comparison, const std::string& path);

// The value a meta key is matched against: strings as they are, anything else as compact JSON
// (meta {"q": 3} matches meta.q=3; {"q": "3"} matches too).
std::string metaValueText(const ojson& v);

}  // namespace jb
