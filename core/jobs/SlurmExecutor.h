#pragma once
// Runs each job on a Slurm cluster: writes a batch script that execs `joulebench-cli jobs exec
// FILE --job NAME --run-dir RUN_DIR` (the node runs the job with a LocalExecutor and writes its
// manifest into the shared run folder), submits it with sbatch (--time as a backstop behind the
// job's own timeout), records the job id in RUN_DIR/slurm.json, and watches it with scontrol
// until it ends. A job Slurm ended before the node could write a manifest (time limit, node
// failure, preemption, a person's scancel) gets one from Slurm's state. Cancelling scancels it.
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/Slurm.h>

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>

namespace jb {

struct SlurmExecutorOptions {
    ExecutorSettings settings;
    SlurmPrograms programs;
    std::string joulebench_cli;  // the program the node runs (absolute path)
    int command_timeout_ms = 30000;
};

class SlurmExecutor final : public JobExecutor {
public:
    explicit SlurmExecutor(SlurmExecutorOptions options);

    Result<GpuInfo> probeGpu(int index) override;  // Slurm picks the GPU: an error
    JobOutcome run(const JobLaunch& launch, JobObserver& observer, const std::atomic<bool>& cancel) override;
    bool placesJobs() const override { return true; }
    // The programs are there and the partition exists (else nothing is submitted).
    Status prepare() override;

    // The job as Slurm sees it now: scontrol, else (after MinJobAge) the jobcomp log.
    Result<SlurmJobInfo> query(const std::string& job_id) const;

private:
    Result<std::string> submit(const JobLaunch& launch) const;
    JobOutcome finish(const JobLaunch& launch, const SlurmJobInfo& info, const std::string& job_id,
                      bool cancelled_by_driver) const;

    SlurmExecutorOptions options_;
    // Jobs are submitted in the queue's order (the file's), though each watches on its own thread.
    std::mutex turn_mutex_;
    std::condition_variable turn_;
    std::size_t next_turn_ = 0;
};

}  // namespace jb
