#pragma once
// Every counter JouleBench knows, with its availability (or the exact reason it is not
// available and the fix), and the one place that builds a counter from a spec.
#include <jb/base/Result.h>
#include <jb/counters/AppleLibraries.h>
#include <jb/counters/EnergyCounter.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jb {

class TaskReader;

// Parameters of the simulated whole-device counter; all are flags and go into the record.
struct SimParams {
    double idle_w = 20.0;      // power with nothing running
    double noise_sd_w = 0.15;  // sd of the Gaussian noise added to each interval's power
    double w_per_core = 15.0;  // extra power per fully busy core of the workload
    std::uint64_t seed = 1;    // seed of the noise generator
};

// Where the readers look; tests point these at fixtures.
struct CounterOptions {
    std::string powercap_root = "/sys/class/powercap";  // where rapl:NAME is resolved
    std::string hwmon_root = "/sys/class/hwmon";        // where hwmon:CHIP:LABEL is resolved
    std::string rapl_zone;  // --rapl-zone: overrides the zone folder of plain `rapl`
    std::string proc_root = "/proc";
    std::string nvml_library = "libnvidia-ml.so.1";
    // macOS's libraries for ioreport:* and task (system paths there, none elsewhere) and the
    // ioreg program for ioreport-gpu's GPU-time share.
    AppleLibraries apple = defaultAppleLibraries();
    std::string ioreg_program = kDefaultIoregProgram;
    SimParams sim;
};

struct CounterStatus {
    std::string spec;          // "rapl", "rapl:psys", "task", "sim", "ioreport-gpu", "ioreport:CPU Energy", "nvml:0"
    bool whole_device = true;  // sampled every period (false: task, read around rounds)
    bool available = false;
    std::string reason;       // why not, with the fix (empty where available)
    std::string description;  // one line for people
};

// A counter's facts beyond its availability (`counters --json`, the Measure page's list).
struct CounterDetails {
    // What hardware it covers and what it contains or is contained in (empty: not known).
    std::string scope;
    std::string unit;    // of the source file: "uJ", "uW (integrated from power readings)", ...
    std::string source;  // the file it reads, where there is one
    std::int64_t wrap_range = 0;  // where the raw counter wraps (0: no wrap range)
};
CounterDetails counterDetails(const std::string& spec, const CounterOptions& opt);

// True for counters the sampler reads every period.
bool isWholeDeviceSpec(const std::string& spec);

// Every counter this machine could have, each with its availability.
std::vector<CounterStatus> listCounters(const CounterOptions& opt);

// The best whole-device counter this machine can read ("rapl" where readable, else "sim").
std::string defaultCounterSpec(const CounterOptions& opt);

// Opens a whole-device counter, reads it twice `ms` apart and gives the mean power in W
// (`counters --probe`: proof that a counter moves, for a bug report).
Result<double> probeWatts(const std::string& spec, const CounterOptions& opt, int ms = 1000);

// The `task` reader: proc_pid_rusage where a libproc is configured (macOS), else the child's
// CPU time from proc_root.
Result<std::unique_ptr<TaskReader>> openTaskReader(const CounterOptions& opt);

// Refuses --counter sets that would count the same energy twice (RAPL containment, MMIO
// mirrors, rapl:packages with its parts, a hwmon channel listed twice); the message names
// both specs and says which to keep.
Status checkCounterOverlap(const std::vector<std::string>& specs, const CounterOptions& opt);

// The mirror check's candidates (stats/SessionChecks findMirroredPair): the hardware counters
// of `specs` that could be one counter read twice, by kind: RAPL zones and hwmon channels, and
// for rapl:packages each top-level package zone it sums (a per-die mirror counted twice).
// Each pair: (the spec to read, the --counter spec it belongs to). Fewer than two: none.
std::vector<std::pair<std::string, std::string>> mirrorCandidates(const std::vector<std::string>& specs,
                                                                  const CounterOptions& opt);

// Opens a whole-device counter; the error names the file and the fix.
Result<std::unique_ptr<EnergyCounter>> openCounter(const std::string& spec, const CounterOptions& opt);

}  // namespace jb
