#pragma once
// The decoder child's line protocol, as the reference harness speaks it, as pure functions:
//   child -> `ready <n>`                      once loaded and warmed up (n jobs per pass)
//   parent -> `go <k>`                         decode the n jobs k times
//   child -> `done <decodes> <wall-ns> [note...]`
//   parent -> `exit`
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

// Errors quote the line (shortened) and say what was expected.
Result<ReadyLine> parseReady(std::string_view line);
Result<DoneLine> parseDone(std::string_view line);

std::string formatGo(int k);  // "go <k>\n"
std::string formatExit();     // "exit\n"

// A line shortened for messages: at most 120 characters, control characters escaped.
std::string quoteLine(std::string_view line);

}  // namespace jb
