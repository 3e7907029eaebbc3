#pragma once
// IOReport's `Energy Model` group on macOS: every rail it reports is a counter
// (`ioreport:CPU Energy`, `ioreport:GPU Energy`, `ioreport:ANE`, `ioreport:DRAM`, per-cluster CPU
// channels where the chip splits them ...), and `ioreport-gpu` is the reference's name for
// `ioreport:GPU Energy`. The subscription (IOReportGpuMac.cpp) loads CoreFoundation and
// libIOReport from the paths it is given, so it compiles and is tested on every platform against
// stand-in libraries; the unit labels and the overlap rules are plain functions.
#include <jb/base/Result.h>
#include <jb/counters/AppleLibraries.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/EnergyCounter.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

// nJ per unit of an IOReport channel's unit label (nJ 1, uJ 1e3, mJ 1e6, J 1e9, pJ 1e-3),
// surrounding whitespace ignored; the error names an unknown label.
Result<double> ioreportUnitToNj(std::string_view label);

// "ioreport-gpu" and "ioreport:NAME".
bool isIOReportSpec(const std::string& spec);
// The Energy Model channel a spec reads ("ioreport-gpu": "GPU Energy"); nullopt if not ioreport.
std::optional<std::string> ioreportChannelOf(const std::string& spec);

// Where a channel is the total of another (CPU Energy of a cluster, a die's CPU total of its
// clusters, a cluster of its cores) or the same channel twice (ioreport-gpu and
// ioreport:GPU Energy): the error names both specs and which to keep. Other specs pass.
Status checkIOReportOverlap(const std::vector<std::string>& specs);

// "<spec> needs macOS (IOReport); this machine runs Linux": no libraries to load here.
std::string ioreportNeedsMac(const std::string& spec);

// One channel of the group as a machine reports it.
struct IOReportChannel {
    std::string name;
    std::string unit;  // its unit label
};

// The Energy Model channels the libraries report, in their order (names once each).
Result<std::vector<IOReportChannel>> ioreportEnergyChannels(const AppleLibraries& libs);

// `ioreport-gpu`, then one `ioreport:NAME` per channel the machine reports (with the reason
// where the libraries cannot be loaded, or a channel's unit is unknown).
std::vector<CounterStatus> ioreportStatuses(const AppleLibraries& libs);

// Whether this machine can open ioreport-gpu, and why not.
CounterStatus ioreportGpuStatus(const AppleLibraries& libs = defaultAppleLibraries());

// Subscribes to the group and reads the spec's channel; where no libraries are configured
// (elsewhere than macOS), the error says it needs macOS.
Result<std::unique_ptr<EnergyCounter>> openIOReportCounter(const std::string& spec, const AppleLibraries& libs);
Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter(const AppleLibraries& libs = defaultAppleLibraries());

}  // namespace jb
