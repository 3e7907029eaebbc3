#pragma once
// The one reader of /proc/<pid>/stat, under a /proc root the caller gives (tests pass a fake
// folder): the line read whole, and split into its fields. The command name (field 2) may hold
// spaces and parentheses, so the fields are counted after the last ')'. CpuTime takes utime and
// stime from it, the jobs room a process's parent, session and start time.
#include <jb/base/Result.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

struct ProcStatFields {
    std::string_view pid;                 // field 1, as text
    std::vector<std::string_view> after;  // fields 3, 4, ... (after[0] is field 3, the state)
    // Field n (numbered as proc(5) does, from 1; n >= 3), empty where the line is shorter.
    std::string_view field(std::size_t n) const { return n >= 3 && n - 3 < after.size() ? after[n - 3] : std::string_view(); }
    std::size_t count() const { return after.size() + 2; }  // fields on the line
};

// Splits one stat line (views into `line`). Error: "no ')' closing the command name".
Result<ProcStatFields> splitProcStat(std::string_view line);

// The text of <proc_root>/<pid>/stat; the error names the file and the system's reason.
Result<std::string> readProcStat(const std::string& proc_root, std::int64_t pid);

}  // namespace jb
