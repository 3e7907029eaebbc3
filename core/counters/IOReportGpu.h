#pragma once
// `ioreport-gpu`: the `GPU Energy` channel of IOReport's `Energy Model` group on macOS, the
// whole GPU, as the reference's IOReportGPU. The subscription lives in IOReportGpuMac.cpp
// (macOS only); the unit labels are portable and tested everywhere.
#include "base/Result.h"
#include "counters/CounterRegistry.h"
#include "counters/EnergyCounter.h"

#include <memory>
#include <string>
#include <string_view>

namespace jb {

// nJ per unit of an IOReport channel's unit label (nJ 1, uJ 1e3, mJ 1e6, J 1e9, pJ 1e-3),
// surrounding whitespace ignored; the error names an unknown label.
Result<double> ioreportUnitToNj(std::string_view label);

// Whether this machine can open ioreport-gpu, and why not.
CounterStatus ioreportGpuStatus();

// Subscribes to the GPU Energy channel; elsewhere than macOS, the error says it needs macOS.
Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter();

}  // namespace jb
