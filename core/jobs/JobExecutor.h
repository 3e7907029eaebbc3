#pragma once
// Where a job runs. The queue decides what runs when and on which GPU and keeps the run
// folders and manifests; an executor does everything that touches the job's machine: the GPU
// report, starting the job in its own session, watching its memory and energy, ending it at
// its timeout, finding and hashing its result. LocalExecutor runs jobs on this machine;
// SlurmExecutor submits each to a Slurm cluster, where `joulebench-cli jobs exec` runs it through
// a LocalExecutor (run folders on a shared file system).
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/jobs/GpuProbe.h>
#include <jb/jobs/JobReports.h>
#include <jb/jobs/Manifest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// Everything an executor needs to run one job (placeholders already filled).
struct JobLaunch {
    std::string name;
    std::vector<std::string> argv;
    std::string cwd;
    std::map<std::string, std::optional<std::string>> env;  // changes to the executor's environment
    double timeout_seconds = 0;
    double grace_seconds = 10;
    std::string result_glob;  // empty: the job has no result file
    std::string run_dir;      // logs go here
    GpuInfo gpu;
    double memory_sampling_period_seconds = 1.0;
    EnergySettings energy;
    // For executors that hand the job to another machine (Slurm): the job file and the job's
    // index in it, the source report, and the Slurm job id of a job submitted by an earlier
    // driver (watched instead of submitted again).
    std::string job_file;
    std::size_t job_index = 0;
    nlohmann::json source;
    std::string adopt_job_id;
    std::size_t sequence = 0;  // the queue's count of jobs handed over before this one (submit order)
};

// Where a remote job is: Slurm's state (PENDING, RUNNING ...), why, its job id and node.
struct RemoteState {
    std::string state;
    std::string reason;
    std::string job_id;
    std::string node;
};

struct JobProgress {
    double elapsed_seconds = 0;
    std::int64_t memory_mib = 0;       // this sample
    std::int64_t peak_memory_mib = 0;  // so far
    std::optional<double> power_w;     // GPU board power
    int processes = 0;                 // live processes of the job
};

// Called on the executor's thread; implementations post to their own thread.
class JobObserver {
public:
    virtual ~JobObserver() = default;
    virtual void started(std::int64_t pid) = 0;
    virtual void progress(const JobProgress& p) = 0;
    virtual void logLine(const std::string& stream,
                         const std::string& line) = 0;  // "stdout"/"stderr"/"driver"
    // A remote job's state changed (the local executor never calls it).
    virtual void remoteState(const RemoteState&) {}
};

// What happened, for the manifest.
struct JobOutcome {
    JobStatus status = JobStatus::FailedToStart;
    std::optional<int> return_code;  // -N where signal N ended it
    std::int64_t pid = 0;
    double wall_seconds = 0;  // spawn to exit (the reference's driver_wall_seconds)
    double started_unix_time = 0;
    double completed_unix_time = 0;
    std::optional<std::string> result;
    std::optional<std::string> result_sha256;
    std::int64_t peak_memory_mib = 0;
    std::string memory_source;
    std::int64_t memory_samples = 0;
    std::int64_t memory_read_errors = 0;
    std::optional<std::string> memory_last_error;
    std::optional<JobAccounting> accounting;  // none where NVML is not loaded
    std::optional<JobEnergy> energy;          // none where the energy counters never ran
    std::optional<SessionEnding> termination;  // none: no session was started (null in the manifest)
    JobLogs logs;
    std::vector<std::string> notes;
    std::optional<SlurmRecord> slurm;  // the Slurm executor's record
    // The manifest the job's node wrote, completed by the executor: written as it is.
    std::optional<JobManifest> manifest;
};

class JobExecutor {
public:
    virtual ~JobExecutor() = default;
    // The physical GPU report (index, uuid, name, total memory).
    virtual Result<GpuInfo> probeGpu(int index) = 0;
    // Runs the job to its end; blocking, called on a worker thread, several at once for
    // different GPUs. cancel becomes true when the queue is stopped.
    virtual JobOutcome run(const JobLaunch& launch, JobObserver& observer,
                           const std::atomic<bool>& cancel) = 0;
    // True where the executor (a cluster's scheduler) picks each job's GPU: the queue then hands
    // it every job at once, without a GPU, and probes none.
    virtual bool placesJobs() const { return false; }
    // Checked once before any job starts (a Slurm partition that does not exist); called on a
    // worker thread.
    virtual Status prepare() { return Ok{}; }
};

}  // namespace jb
