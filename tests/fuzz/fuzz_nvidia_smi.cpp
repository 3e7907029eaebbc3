// Fuzz target: `nvidia-smi` CSV as the GPU probe reads it (jb::parseQueryGpu,
// jb::parseQueryComputeApps): the fallback where NVML cannot be loaded, fed by whatever that
// program (or a wrapper in its place) prints.
#include <jb/jobs/GpuProbe.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view csv(reinterpret_cast<const char*>(data), size);
    auto gpus = jb::parseQueryGpu(csv);
    if (!gpus && gpus.error().empty()) {
        std::fprintf(stderr, "parseQueryGpu failed without a message\n");
        std::abort();
    }
    auto apps = jb::parseQueryComputeApps(csv);
    if (!apps && apps.error().empty()) {
        std::fprintf(stderr, "parseQueryComputeApps failed without a message\n");
        std::abort();
    }
    return 0;
}
