// The `task` reader of macOS: proc_pid_rusage(RUSAGE_INFO_V6) of the child, decoded by the
// portable parseRusageV6. libproc (proc_pid_rusage) and libSystem (mach_timebase_info) are
// loaded at run time from the paths given (macOS's system paths by default), so this compiles
// on every platform and the tests run it against a stand-in libproc.
#include <jb/counters/TaskCounter.h>

#include <jb/counters/AppleLibraries.h>

#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace jb {

namespace {

constexpr int kRusageInfoV6 = 6;  // RUSAGE_INFO_V6 of <sys/resource.h>

struct Timebase {  // mach_timebase_info_data_t
    std::uint32_t numer = 0;
    std::uint32_t denom = 0;
};

using ProcPidRusage = int (*)(int, int, void*);
using MachTimebaseInfo = int (*)(Timebase*);

class RusageTaskReader final : public TaskReader {
public:
    RusageTaskReader(ProcPidRusage rusage, double tick_ns) : rusage_(rusage), tick_ns_(tick_ns) {}

    Result<TaskSample> read(std::int64_t pid) override
    {
        // Larger than struct rusage_info_v6, zeroed so a shorter struct leaves zeros.
        alignas(8) std::uint8_t buf[512] = {};
        errno = 0;
        if (rusage_(int(pid), kRusageInfoV6, buf) != 0) {
            const int e = errno;
            return Error{"task counter: proc_pid_rusage(" + std::to_string(pid) + ", RUSAGE_INFO_V6) failed: " +
                         (e ? std::strerror(e) : "no reason given")};
        }
        return parseRusageV6(std::span<const std::uint8_t>(buf, sizeof buf), tick_ns_);
    }

private:
    ProcPidRusage rusage_;
    double tick_ns_;
};

}  // namespace

Result<std::unique_ptr<TaskReader>> openRusageTaskReader(const std::string& libproc, const std::string& libsystem)
{
    void* proc = dlopen(libproc.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!proc)
        return Error{"task counter: cannot load libproc (" + libproc + "): " + dlerrorText()};
    void* sys = dlopen(libsystem.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!sys)
        return Error{"task counter: cannot load libSystem (" + libsystem + "): " + dlerrorText()};
    auto rusage = reinterpret_cast<ProcPidRusage>(dlsym(proc, "proc_pid_rusage"));
    if (!rusage)
        return Error{"task counter: " + libproc + " has no proc_pid_rusage"};
    auto timebase = reinterpret_cast<MachTimebaseInfo>(dlsym(sys, "mach_timebase_info"));
    if (!timebase)
        return Error{"task counter: " + libsystem + " has no mach_timebase_info"};
    Timebase tb;
    if (timebase(&tb) != 0 || tb.numer == 0 || tb.denom == 0)
        return Error{"task counter: mach_timebase_info gave no tick length (" + std::to_string(tb.numer) + "/" +
                     std::to_string(tb.denom) + ")"};
    return std::unique_ptr<TaskReader>(
        std::make_unique<RusageTaskReader>(rusage, double(tb.numer) / double(tb.denom)));
}

}  // namespace jb
