#pragma once
// JouleBench's own keys in a record, typed. The reference's fields are Record's members; the keys
// JouleBench writes beside them (a run's start time, its warnings, an interleaved run's place and
// warm-up rounds, each round's idle-drift check) are kept in Record::extra and Round::extra, so a
// record read and written again keeps its keys where they were, byte for byte. This header is the
// only code that spells those keys: the session writes the values below, and the library, the
// comparison and verify read them.
#include <jb/base/Result.h>
#include <jb/record/Record.h>
#include <jb/stats/SessionChecks.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

// A child that --keep-going dropped: the block it was dropped at and why.
struct DroppedChild {
    int block = 0;
    std::string reason;
};

// Which of an interleaved run's children a record is, and how the run was laid out.
struct InterleavedInfo {
    std::string name;
    int index = 0;
    std::vector<std::string> children;  // every child's name, in plan order
    int warmup_blocks = 0;
    std::uint64_t order_seed = 0;
    std::optional<DroppedChild> dropped;
};

struct RecordExtras {
    std::optional<std::string> started_at;  // the wall-clock start, ISO 8601 UTC
    std::vector<std::string> warnings;      // what the run warned of, in order
    std::optional<InterleavedInfo> interleaved;
    // An interleaved run's warm-up rounds (present, maybe empty, in its records).
    std::optional<std::vector<Round>> warmup_rounds;
    // The counters whose rounds were cut on their own updates (stats/RoundTimes roundFigures,
    // aligned): those that update less often than they were read. None in older records.
    std::vector<std::string> aligned_cuts;
};

// Reads them from r.extra. Absent keys are empty values; a wrong value is an error naming its
// path ("$.interleaved.index: expected an integer, found \"two\"").
Result<RecordExtras> readExtras(const Record& r);

// Each sets its key: where the record has it already it stays in its place, else it goes last.
void setStartedAt(Record& r, const std::string& iso);
void setWarnings(Record& r, const std::vector<std::string>& warnings);  // none: no key
void setInterleaved(Record& r, const InterleavedInfo& info);
void setWarmupRounds(Record& r, const std::vector<Round>& rounds);
void setAlignedCuts(Record& r, const std::vector<std::string>& specs);  // none: no key

// A round's idle-drift check per counter (its "integrity" key), in the order written.
using RoundIntegrity = std::vector<std::pair<std::string, IdleDrift>>;
// path: the round's JSON path in its record, for the errors ("$.rounds[2]").
Result<RoundIntegrity> readIntegrity(const Round& round, const std::string& path = "$");
// Adds (or replaces) one counter's check.
void setIntegrity(Round& round, const std::string& spec, const IdleDrift& drift);
// Whether the round keeps idle-drift checks at all (records from before them do not).
bool hasIntegrity(const Round& round);

}  // namespace jb
