#pragma once
// A job's manifest as values: every field of the reference driver's crossover manifest (the
// job's own fields at the top level, source, status, return_code, histogram + its sha256,
// driver_wall_seconds, completed_unix_time, hardware, work) plus JouleBench's: the result under
// its own name too, energy, logs, version. Written atomically (record/AtomicWrite) with sorted
// keys, indent 2 and a final newline, as the reference's json.dump(indent=2, sort_keys=True).
#include <jb/base/Result.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/JobReports.h>

#include <nlohmann/json.hpp>

#include <QMetaType>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// NodeFailed and Preempted: Slurm ended the job (NODE_FAIL, PREEMPTED) before it could finish.
enum class JobStatus { Completed, NonzeroExit, Timeout, MissingResult, FailedToStart, Cancelled, NodeFailed, Preempted };

std::string statusName(JobStatus s);  // "completed", "nonzero_exit", ...
std::optional<JobStatus> jobStatusFrom(const std::string& s);

struct JobHardware {
    int physical_index = -1;
    std::string uuid;
    std::string name;
    std::int64_t total_memory_mib = 0;
    std::int64_t peak_process_gpu_memory_mib = 0;
    double memory_sampling_period_seconds = 1.0;
    std::string gpu_report_source;  // "nvml" / "nvidia-smi"
    std::string memory_source;      // "nvml" / "nvidia-smi" / "" (never read)
    std::int64_t memory_samples = 0;
    std::int64_t memory_read_errors = 0;
    std::optional<std::string> memory_last_error;
    std::optional<JobAccounting> accounting;  // null where NVML is not loaded (GpuProbe::accounting)
    friend bool operator==(const JobHardware&, const JobHardware&) = default;
};

struct JobManifest {
    nlohmann::json job = nlohmann::json::object();  // JobSpec::toJson(): merged at the top level
    nlohmann::json source;                          // sourceReport(), null without provenance
    JobStatus status = JobStatus::FailedToStart;
    std::optional<int> return_code;     // -N where signal N ended it (as Python)
    std::optional<std::string> result;  // written as `result` and `histogram`
    std::optional<std::string> result_sha256;
    double driver_wall_seconds = 0;
    double started_unix_time = 0;
    double completed_unix_time = 0;
    JobHardware hardware;
    nlohmann::json work = nlohmann::json::object();
    std::optional<JobEnergy> energy;                 // EnergyMeter's report (null where none)
    JobLogs logs;  // {stdout, stderr}: paths
    std::string run_directory;
    std::string cuda_visible_devices;
    std::vector<std::string> argv_run;         // argv with placeholders filled
    std::vector<std::string> concurrent_jobs;  // jobs that ran at the same time
    std::optional<SessionEnding> termination;  // how the session was ended; null: none was started
    std::vector<std::string> notes;            // why it failed to start, ambiguous results ...
    std::string joulebench_version;
    // The Slurm executor's record (core/jobs/Slurm.h): job id, cluster, partition, node, times,
    // Slurm's state and exit code, the GPUs it gave. None (and not written) for local jobs.
    std::optional<SlurmRecord> slurm;

    nlohmann::json toJson() const;
    // The error names the file (origin) and the JSON path.
    static Result<JobManifest> fromJson(const nlohmann::json& j, const std::string& origin = "manifest");
    friend bool operator==(const JobManifest&, const JobManifest&) = default;
};

inline constexpr const char* kManifestName = "manifest.json";

// Sorted keys, indent 2, ASCII escapes as Python's json.dump, and a final newline.
std::string manifestText(const nlohmann::json& j);
// manifestText(j) through the one atomic write (record/AtomicWrite: temp file, fsync, rename),
// so a reader never sees half a manifest; the error names the path and the system's reason.
Status writeJsonAtomic(const std::string& path, const nlohmann::json& j);
Result<JobManifest> readManifest(const std::string& path);

}  // namespace jb

Q_DECLARE_METATYPE(jb::JobManifest)
