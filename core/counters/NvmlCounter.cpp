// Placeholder until the GPU job queue's engineer lands the NVML reader.
#include "counters/NvmlCounter.h"

namespace jb {

std::vector<CounterStatus> listNvmlCounters(const CounterOptions&)
{
    return {{"nvml", true, false, "the NVML reader is not built yet", "NVIDIA GPU total energy (NVML)"}};
}

Result<std::unique_ptr<EnergyCounter>> openNvmlCounter(const std::string& spec, const CounterOptions&)
{
    return Error{spec + ": the NVML reader is not built yet"};
}

}  // namespace jb
