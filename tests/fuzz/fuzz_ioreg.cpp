// Fuzz target: the `ioreg -r -c IOAccelerator -l -w0` text (jb::parseIoregGpuTimes), whose
// AppUsage entries give the child's GPU time on macOS. Parsed on every round.
#include <jb/counters/GpuTime.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)jb::parseIoregGpuTimes(text);
    return 0;
}
