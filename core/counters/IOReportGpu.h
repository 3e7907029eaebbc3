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

// "ioreport-gpu", "ioreport:cpu" and "ioreport:NAME".
bool isIOReportSpec(const std::string& spec);
// The Energy Model channel a spec reads ("ioreport-gpu": "GPU Energy"; "ioreport:cpu": "cpu",
// the CPU total below); nullopt if not ioreport.
std::optional<std::string> ioreportChannelOf(const std::string& spec);

// The whole CPU on every chip: `CPU Energy` where the chip publishes it, else the sum of its
// dies' `DIE_<n>_CPU Energy` channels (M1 Ultra: no plain `CPU Energy`). Its counter_info
// names the channels it read.
inline constexpr const char* kIOReportCpuSpec = "ioreport:cpu";

// A channel's place in the Energy Model, read from its name by the rule table of the naming
// schemes chips publish (IOReportGpu.cpp): M1 (`ECPU`, `PCPU0`, `ECPM`), the ACC scheme of M1
// Max to M4 (`EACC_CPU`, `PACC0_CPU3`, `PACC1_CPM`), the `DIE_<n>_` copies of Ultra chips, and
// M5 (`MCPU0`, `MCPU0_5`, `PACC_0`, `MCPM0`, `*_SRAM`).
enum class IOReportRole {
    CpuTotal,     // CPU Energy, DIE_<n>_CPU Energy (and ioreport:cpu)
    Cluster,      // EACC_CPU, PACC0_CPU, ECPU, PCPU, MCPU0
    Core,         // EACC_CPU0, PACC0_CPU3, ECPU2, MCPU0_5, PACC_0, and other names holding CPU
    Unpublished,  // *CPM, *_SRAM, *DTL*: CPU-side, but which total holds them is not published
    GpuTotal,     // GPU Energy (nJ)
    GpuPart,      // GPU0, GPU0_0 (mJ): the same rail as GPU Energy, published again
    Other,        // ANE0, DRAM0_1, GPU SRAM0, PCIe Port 0 Energy, ...
};
struct IOReportChannelRole {
    IOReportRole role = IOReportRole::Other;
    std::string die;      // "DIE_1_" on a chip of several dies, else ""
    std::string cluster;  // a core's or an unpublished channel's cluster (without the die), if known
    std::string stem;     // an *_SRAM channel's owner ("MCPU0_0"), else the name without the die
};
IOReportChannelRole ioreportChannelRole(std::string_view name);

// Refuses specs that would count energy twice: a total with its part (CPU Energy or
// ioreport:cpu with a cluster or core, PACC_0 and MCPU0_0 included; a die's CPU total with its
// channels; a cluster with its cores), one rail published twice (GPU Energy with GPU0/GPU0_0,
// ioreport-gpu with ioreport:GPU Energy, ioreport:cpu with CPU Energy), and a total with a
// channel whose place in it is not published (*CPM, *_SRAM, *DTL*), saying so. The error names
// both specs and which to keep. Other specs pass.
Status checkIOReportOverlap(const std::vector<std::string>& specs);

// One line for `counters --json`'s scope: what a spec's channel covers and holds.
std::string ioreportScope(const std::string& spec);

// "<spec> needs macOS (IOReport); this machine runs Linux": no libraries to load here.
std::string ioreportNeedsMac(const std::string& spec);

// One channel of the group as a machine reports it.
struct IOReportChannel {
    std::string name;
    std::string unit;  // its unit label
    int copies = 1;    // how many channels of the group carry this name (Ultra's DTL names: 2)
};

// The Energy Model channels the libraries report, in their order (names once each, with how
// often each is published).
Result<std::vector<IOReportChannel>> ioreportEnergyChannels(const AppleLibraries& libs);

// `ioreport-gpu`, `ioreport:cpu`, then one `ioreport:NAME` per channel the machine reports (with
// the reason where the libraries cannot be loaded, a channel's unit is unknown or its name is
// published more than once).
std::vector<CounterStatus> ioreportStatuses(const AppleLibraries& libs);

// Whether this machine can open ioreport-gpu, and why not.
CounterStatus ioreportGpuStatus(const AppleLibraries& libs = defaultAppleLibraries());

// Subscribes to the group and reads the spec's channel; where no libraries are configured
// (elsewhere than macOS), the error says it needs macOS.
Result<std::unique_ptr<EnergyCounter>> openIOReportCounter(const std::string& spec, const AppleLibraries& libs);
Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter(const AppleLibraries& libs = defaultAppleLibraries());

}  // namespace jb
