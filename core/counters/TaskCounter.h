#pragma once
// `task`: the child's own counters, read around each round once settled (two reads 50 ms
// apart agree), as the reference. macOS: proc_pid_rusage RUSAGE_INFO_V6 energy, CPU time,
// billed and serviced energy. Linux: the child's CPU time (all its threads), no energy keys.
// Both readers compile everywhere; the registry picks one (openTaskReader).
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace jb {

struct TaskSample {
    std::optional<double> energy_nj;  // macOS only
    double cpu_ns = 0;
    std::optional<double> billed_nj;    // macOS only
    std::optional<double> serviced_nj;  // macOS only
};

class TaskReader {
public:
    virtual ~TaskReader() = default;
    // One quick read (no waiting); the session does the settling with a timer.
    virtual Result<TaskSample> read(std::int64_t pid) = 0;
};

// The child's CPU time from /proc (Linux and other systems without per-process energy).
std::unique_ptr<TaskReader> makeTaskReader(const std::string& proc_root = "/proc");

// proc_pid_rusage(RUSAGE_INFO_V6) through libproc and mach_timebase_info through libSystem,
// loaded from these paths (macOS's by default; a stand-in in the tests). TaskCounterMac.cpp;
// the error names the library or the symbol missing. The registry chooses between the two.
Result<std::unique_ptr<TaskReader>> openRusageTaskReader(const std::string& libproc, const std::string& libsystem);

// The fields of a proc_pid_rusage(RUSAGE_INFO_V6) buffer (struct rusage_info_v6), as the
// reference reads them: little-endian uint64 at byte offsets user 16, system 24, billed energy
// 264, serviced energy 272, energy 336; cpu_ns = (user + system) x tick_ns (mach_timebase_info
// numer / denom). Portable, so it is tested on Linux with canned bytes; a field that lies past
// the end of a short buffer is left empty (cpu_ns: 0).
TaskSample parseRusageV6(std::span<const std::uint8_t> bytes, double tick_ns);

// The settled rule: CPU time and energy both unchanged between two reads.
bool settledPair(const TaskSample& a, const TaskSample& b);

// The per-round `task` object of the record: after - before, keys in the reference's order
// (energy_nj, cpu_ns, billed_nj, serviced_nj), only those the platform has.
nlohmann::ordered_json taskDelta(const TaskSample& before, const TaskSample& after);

}  // namespace jb
