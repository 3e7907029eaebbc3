// macOS `task` reader: proc_pid_rusage(RUSAGE_INFO_V6) of the child, decoded by the portable
// parseRusageV6 so the byte offsets are tested on every platform.
#include "counters/TaskCounter.h"

#include <QtGlobal>

#ifdef Q_OS_MACOS

#include <cerrno>
#include <cstring>
#include <libproc.h>
#include <mach/mach_time.h>
#include <sys/resource.h>

#ifndef RUSAGE_INFO_V6
#define RUSAGE_INFO_V6 6
#endif

namespace jb {

namespace {

class RusageTaskReader final : public TaskReader {
public:
    RusageTaskReader()
    {
        mach_timebase_info_data_t tb{};
        mach_timebase_info(&tb);
        tick_ns_ = tb.denom ? double(tb.numer) / double(tb.denom) : 1.0;
    }

    Result<TaskSample> read(std::int64_t pid) override
    {
        // Larger than struct rusage_info_v6, zeroed so a shorter struct leaves zeros.
        alignas(8) std::uint8_t buf[512] = {};
        if (proc_pid_rusage(int(pid), RUSAGE_INFO_V6, reinterpret_cast<rusage_info_t*>(buf)) != 0)
            return Error{"task counter: proc_pid_rusage(" + std::to_string(pid) +
                         ", RUSAGE_INFO_V6) failed: " + std::strerror(errno)};
        return parseRusageV6(std::span<const std::uint8_t>(buf, sizeof buf), tick_ns_);
    }

private:
    double tick_ns_ = 1.0;
};

}  // namespace

std::unique_ptr<TaskReader> makeTaskReader(const std::string&)
{
    return std::make_unique<RusageTaskReader>();
}

}  // namespace jb

#endif  // Q_OS_MACOS
