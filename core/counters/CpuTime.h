#pragma once
// CPU time of a whole process (every thread, user + system), for the simulated counter's
// power model and the Linux `task` reader. The kernel's per-process CPU clock gives ns;
// /proc/<pid>/stat (clock ticks, read and split by ProcStat) is the fallback where that clock
// cannot be had.
#include <jb/base/Result.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace jb {

// Reads a process's cumulative CPU time in ns; the source the sim counter and the Linux task
// reader use, injectable so tests drive them deterministically.
using CpuTimeSource = std::function<Result<std::int64_t>(std::int64_t pid)>;

// clock_getcpuclockid(pid) + clock_gettime, falling back to <proc_root>/<pid>/stat.
Result<std::int64_t> processCpuNs(std::int64_t pid, const std::string& proc_root = "/proc");

// Only the /proc fallback: utime + stime of <proc_root>/<pid>/stat in ns.
Result<std::int64_t> procStatCpuNs(std::int64_t pid, const std::string& proc_root);

// utime + stime (fields 14 and 15, clock ticks) of one /proc/<pid>/stat line; the command
// name in parentheses may hold spaces and parentheses, so fields are counted after the last
// ')'. An error says what is wrong with the text.
Result<std::int64_t> parseProcStatCpuTicks(std::string_view stat_line);

// The default source: processCpuNs with the given /proc root.
CpuTimeSource systemCpuTimeSource(const std::string& proc_root = "/proc");

}  // namespace jb
