#pragma once
// The exec shim's logic (joulebench-exec): any command as a protocol child. It prints
// `ready 1` and answers each `go <k>` by running the command k times in sequence (its argv, no
// shell; stdin from /dev/null, its stdout and stderr onto the shim's stderr, so they never
// reach the protocol) with `done <k> <wall-ns> exec=1`. A command that cannot start or exits
// non-zero fails the batch: the message names the command and how it ended, and the shim exits
// as a failing child does (ChildServer's status 5).
//
// Markers (docs/PROTOCOL.md, the phase-marker convention): with JOULEBENCH_MARKS=1 in the
// shim's own environment, it makes a FIFO in a private temporary folder, passes its path to the
// command as JOULEBENCH_MARK_FILE and forwards each `mark NAME` line written there to its
// stdout at once. A line that is not a marker fails the batch, naming it. Without the opt-in it
// makes no FIFO and the command gets no JOULEBENCH_MARK_FILE. POSIX only (Linux, macOS).
#include <jb/base/Result.h>

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

// The marker line's name: 1..64 characters of [A-Za-z0-9_.:/+-], or "-" (ends the open phase).
bool validMarkName(std::string_view name);
// A line written to JOULEBENCH_MARK_FILE (without its newline; a trailing '\r' is allowed):
// the marker line to forward ("mark NAME"), or an error quoting the line.
Result<std::string> parseMarkLine(std::string_view line);

// The program of argv[0] is found (a path, or a name on PATH) and executable; the error says
// which and why.
Status checkCommand(const std::vector<std::string>& argv);

struct ExecOptions {
    std::vector<std::string> command;  // argv of the command, no shell
    bool marks = false;                // JOULEBENCH_MARKS=1: a FIFO for markers
};

// The serving loop (ChildServer's serveChild) over the command; returns the shim's exit
// status (0 after `exit` or end of input, 2 for a command that cannot be found, 4 for a bad
// line, 5 for a failed batch). Markers go to `out` as they arrive; messages to `err`.
int serveExec(const ExecOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace jb
