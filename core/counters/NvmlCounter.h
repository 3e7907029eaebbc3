#pragma once
// `nvml:N`: GPU N's total-energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ) through
// NVML loaded at run time (CounterOptions::nvml_library, a path override for tests).
#include "counters/CounterRegistry.h"

#include <memory>
#include <string>
#include <vector>

namespace jb {

// One entry per GPU NVML reports ("nvml:0", ...), or a single unavailable "nvml" entry with
// the reason (library not found, no GPU, energy counter not supported).
std::vector<CounterStatus> listNvmlCounters(const CounterOptions& opt);

// spec is "nvml:N" (or "nvml", GPU 0).
Result<std::unique_ptr<EnergyCounter>> openNvmlCounter(const std::string& spec, const CounterOptions& opt);

}  // namespace jb
