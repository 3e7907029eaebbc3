#pragma once
// `nvml:N`: GPU N's total-energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ) through
// NVML loaded at run time (CounterOptions::nvml_library, a path override for tests).
// `nvml-power:N`: the same GPU's power reading integrated over time between reads
// (trapezoids), to check the energy counter against: the instantaneous field
// (nvmlDeviceGetFieldValues, NVML_FI_DEV_POWER_INSTANT, mW) where the driver answers it, else
// nvmlDeviceGetPowerUsage (a 1 s average on recent drivers). counter_info's `reading` says which.
#include <jb/counters/CounterRegistry.h>

#include <memory>
#include <string>
#include <vector>

namespace jb {

// One entry per GPU NVML reports ("nvml:0", ...), or a single unavailable "nvml" entry with
// the reason (library not found, no GPU, energy counter not supported).
std::vector<CounterStatus> listNvmlCounters(const CounterOptions& opt);

// spec is "nvml:N" (or "nvml", GPU 0), or "nvml-power:N" (or "nvml-power").
Result<std::unique_ptr<EnergyCounter>> openNvmlCounter(const std::string& spec, const CounterOptions& opt);

// One "nvml-power:N" entry per GPU whose power NVML reads; none where NVML does not load (the
// `nvml` entry says why).
std::vector<CounterStatus> listNvmlPowerCounters(const CounterOptions& opt);

}  // namespace jb
