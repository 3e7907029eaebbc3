#pragma once
// Which processes belong to a job, read from /proc (a root, for tests): every process of its
// session (/proc/PID/stat field 6), every descendant of those by parent pid, and every process
// carrying the job's marker in its environment (a daemon that left the session with setsid
// still inherited it). Zombies count as gone: they hold no memory and run nothing.
#include <jb/base/Result.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

struct ProcEntry {
    std::int64_t pid = 0;
    char state = '?';  // R, S, D, Z, T, X, ...
    std::int64_t ppid = 0;
    std::int64_t pgrp = 0;
    std::int64_t session = 0;
    std::uint64_t start_ticks = 0;  // field 22: start time since boot, in clock ticks
    bool dead() const { return state == 'Z' || state == 'X' || state == 'x'; }
};

// Parses one /proc/PID/stat line ("pid (comm) state ppid pgrp session ..."), split by
// counters/ProcStat (the one stat reader): comm may hold spaces and parentheses.
Result<ProcEntry> parseProcStat(std::string_view line);
// <proc_root>/<pid>/stat read and parsed; the error names the file.
Result<ProcEntry> readProcEntry(const std::string& proc_root, std::int64_t pid);

// Every process /proc lists now (processes that vanish while being read are skipped).
std::vector<ProcEntry> scanProcesses(const std::string& proc_root = "/proc");

// Whether /proc/PID/environ holds the entry "KEY=VALUE" exactly (false where unreadable).
bool environHas(const std::string& proc_root, std::int64_t pid, const std::string& entry);

// The live processes of a job among `all`: members of session `sid`, the pids in `roots`, those
// for which hasMarker(pid) is true (may be empty), and all their descendants.
std::set<std::int64_t> jobProcesses(const std::vector<ProcEntry>& all, std::int64_t sid,
                                    const std::set<std::int64_t>& roots,
                                    const std::function<bool(std::int64_t)>& hasMarker);

// Reads /proc and applies jobProcesses with the environment marker.
std::set<std::int64_t> findJobProcesses(const std::string& proc_root, std::int64_t sid,
                                        const std::set<std::int64_t>& roots, const std::string& marker);

}  // namespace jb
