#pragma once
// The typed reports an executor hands the manifest: the job's energy (EnergyMeter), NVML's
// accounting of its processes (GpuProbe), how its session was ended (the executors), and the
// Slurm record (the node's `jobs exec` and the Slurm executor). Each writes exactly the JSON object the manifest has always carried (the keys
// a report has are the keys it writes) and reads it back through the one reader kit
// (base/JsonReader), its errors naming the JSON path ($.energy.counters["nvml:0"].total_j).
#include <jb/base/Result.h>
#include <jb/stats/Verdict.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// One bracket of a counter (jb::Bracket as the manifest writes it).
struct EnergyBracket {
    std::int64_t intervals = 0;
    double mean_w = 0;
    double sd_w = 0;
    double span_seconds = 0;
    friend bool operator==(const EnergyBracket&, const EnergyBracket&) = default;
};

// One counter of a job's energy report. A counter that could not be opened writes spec,
// available (false) and reason only.
struct CounterEnergy {
    std::string spec;
    bool available = true;
    std::string reason;   // why it is not available
    nlohmann::json info;  // the counter's description (Sampler::counterInfo), as a record has it
    double total_j = 0;   // every interval that overlaps the job
    double covered_seconds = 0;
    std::optional<EnergyBracket> busy, idle_before, idle_after;
    std::optional<double> marginal_j;  // null without both idle brackets
    std::optional<double> ratio;
    std::optional<Verdict> verdict;
    std::optional<std::string> marginal_note;  // written only where there is no marginal energy
    std::int64_t intervals = 0;
    std::int64_t read_errors = 0;
    std::optional<std::string> last_error;
    friend bool operator==(const CounterEnergy&, const CounterEnergy&) = default;
};

// The manifest's `energy`.
struct JobEnergy {
    double idle_seconds = 0;
    double sampling_period_seconds = 0;
    std::map<std::string, CounterEnergy> counters;  // by spec
    std::optional<std::string> gpu_counter;         // null where energy.gpu is false
    std::optional<std::string> package_counter;     // null where none was asked for
    // The GPU counter's report; nothing where there is none or it was not reported.
    const CounterEnergy* gpuCounter() const;

    nlohmann::json toJson() const;
    // Throws JsonReadError (inside jb::readJson); path is where the object is ("$.energy").
    static JobEnergy read(const nlohmann::json& j, const std::string& path);
    // read() at "$", as a Result.
    static Result<JobEnergy> fromJson(const nlohmann::json& j);
    friend bool operator==(const JobEnergy&, const JobEnergy&) = default;
};

// hardware.accounting: NVML accounting of the job's processes. {enabled: false} where the mode
// is off; {enabled: null, error} where it could not be read; with the mode on, each process's
// own peak and their maximum and sum.
struct JobAccounting {
    std::optional<bool> enabled;
    std::string error;  // written only where enabled is null
    std::map<std::int64_t, std::int64_t> per_process_max_memory_mib;  // pid -> MiB
    std::int64_t max_process_memory_mib = 0;
    // Each process's own peak, added up: an upper bound of the job's peak, not the peak itself.
    std::int64_t sum_of_process_max_memory_mib = 0;

    nlohmann::json toJson() const;
    static JobAccounting read(const nlohmann::json& j, const std::string& path);
    friend bool operator==(const JobAccounting&, const JobAccounting&) = default;
};

// The manifest's `termination`: how the job's session was ended (signals, survivors). All five
// keys are always written (sigterm_sent, sigkill_sent, signalled_pids, surviving_pids, seconds).
struct SessionEnding {
    bool sigterm_sent = false;
    bool sigkill_sent = false;
    std::vector<std::int64_t> signalled;  // signalled_pids: every pid that got a signal
    std::vector<std::int64_t> survivors;  // surviving_pids: still alive at the end (should be empty)
    double seconds = 0;

    nlohmann::json toJson() const;
    static SessionEnding read(const nlohmann::json& j, const std::string& path);
    friend bool operator==(const SessionEnding&, const SessionEnding&) = default;
};

// The manifest's `logs`: each stream's file (stdout, stderr; slurm for the Slurm executor).
// nlohmann writes the map as that same object; readLogs names the path of a bad value.
using JobLogs = std::map<std::string, std::string>;
JobLogs readLogs(const nlohmann::json& j, const std::string& path);

// A GPU of the allocation as the node resolved it.
struct SlurmGpu {
    int physical_index = -1;
    std::string uuid;
    std::string name;
    friend bool operator==(const SlurmGpu&, const SlurmGpu&) = default;
};

// What the node saw of its allocation (written by `jobs exec` under Slurm).
struct SlurmAllocation {
    std::optional<std::string> cluster;               // SLURM_CLUSTER_NAME
    std::optional<std::string> cuda_visible_devices;  // as Slurm set it
    std::optional<std::string> job_gpus;              // SLURM_JOB_GPUS
    std::vector<SlurmGpu> gpus;
    friend bool operator==(const SlurmAllocation&, const SlurmAllocation&) = default;
};

// Slurm's word once the job is over (added by the driver): SlurmJobInfo's fields.
struct SlurmEnd {
    std::optional<std::string> state, reason, submit_time, start_time, end_time;
    std::optional<int> exit_code, signal;
    std::optional<std::string> state_source;  // "scontrol", "jobcomp"
    friend bool operator==(const SlurmEnd&, const SlurmEnd&) = default;
};

// The manifest's `slurm`. job_id, partition and node are always written; the allocation's keys
// where the node wrote them, Slurm's end keys where the driver added them, written_by where the
// driver wrote the whole manifest.
struct SlurmRecord {
    std::optional<std::string> job_id;
    std::optional<std::string> partition;
    std::optional<std::string> node;
    std::optional<SlurmAllocation> allocation;
    std::optional<SlurmEnd> end;
    std::optional<std::string> written_by;  // "driver"

    nlohmann::json toJson() const;
    static SlurmRecord read(const nlohmann::json& j, const std::string& path);
    friend bool operator==(const SlurmRecord&, const SlurmRecord&) = default;
};

}  // namespace jb
