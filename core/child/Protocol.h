#pragma once
// The decoder child's line protocol, as the reference harness speaks it, as pure functions:
//   child -> `ready <n>`                      once loaded and warmed up (n jobs per pass)
//   parent -> `go <k>`                         decode the n jobs k times
//   child -> `done <decodes> <wall-ns> [note...]`
//   parent -> `exit`
// JouleBench's opt-in addition, phase markers (docs/RECORD.md, "Phases"): a
// child started with JOULEBENCH_MARKS=1 in its environment may send, between `go` and `done`,
//   child -> `mark NAME`   ends the open phase (if any) and opens NAME
//   child -> `mark -`      ends the open phase, opens none
// NAME: 1..64 characters of [A-Za-z0-9_.:/+-] ('/' nests: "train/forward" is inside "train").
// `done` ends the open phase. The reference never sets the variable, so its children send none.
// A child may say when its work ran in done's note: the word `ran=<start-ns>,<end-ns>` by
// CLOCK_MONOTONIC (joulebench-gpu-load does; the reference ignores a note's words).
#include <jb/base/Result.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jb {

struct ReadyLine {
    std::int64_t jobs = 0;
};

struct DoneLine {
    std::int64_t decodes = 0;
    std::int64_t wall_ns = 0;
    std::optional<std::string> note;  // the words after wall-ns joined by one space
};

struct MarkLine {
    std::optional<std::string> name;  // none: `mark -` (ends the open phase)
};

inline constexpr std::size_t kMaxMarkName = 64;
inline constexpr const char* kMarksEnv = "JOULEBENCH_MARKS";  // "1": the child may send marks

// Errors quote the line (shortened) and say what was expected.
Result<ReadyLine> parseReady(std::string_view line);
Result<DoneLine> parseDone(std::string_view line);
// Is this line a marker (its first word is `mark`)? Then parseMark says whether it is a good one.
bool isMarkLine(std::string_view line);
Result<MarkLine> parseMark(std::string_view line);
// A phase name as the convention allows (1..64 of [A-Za-z0-9_.:/+-]); empty where it is, else
// what is wrong with it.
std::string markNameProblem(std::string_view name);

// The note's `ran=<start-ns>,<end-ns>` word; nullopt where there is none whole.
struct RanStamps {
    std::int64_t start_ns = 0, end_ns = 0;
};
std::optional<RanStamps> ranStamps(const DoneLine& d);
std::string formatRan(std::int64_t start_ns, std::int64_t end_ns);  // "ran=<start>,<end>"

std::string formatGo(int k);  // "go <k>\n"
std::string formatExit();     // "exit\n"

// A line shortened for messages: at most 120 characters, control characters escaped.
std::string quoteLine(std::string_view line);

}  // namespace jb
