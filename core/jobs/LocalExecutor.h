#pragma once
// Runs jobs on this machine: each in its own session (setsid) with its output in
// RUN_DIR/stdout.log and stderr.log; its processes (session members, their descendants, and
// any process carrying the job's environment marker) sampled for GPU memory every period;
// past its timeout, or when cancelled, SIGTERM to all of them, SIGKILL after the grace period,
// until none is left. Processes a finished job left behind are ended the same way.
#include <jb/counters/CounterRegistry.h>
#include <jb/jobs/JobExecutor.h>

#include <string>

namespace jb {

struct LocalExecutorOptions {
    std::string nvml_library;  // empty: libnvidia-ml.so.1
    std::string nvidia_smi;    // empty: nvidia-smi on PATH
    CounterOptions counters;   // where rapl is read (its nvml_library is replaced by the above)
    std::string proc_root = "/proc";
};

class LocalExecutor final : public JobExecutor {
public:
    explicit LocalExecutor(LocalExecutorOptions options);

    Result<GpuInfo> probeGpu(int index) override;
    JobOutcome run(const JobLaunch& launch, JobObserver& observer, const std::atomic<bool>& cancel) override;

private:
    LocalExecutorOptions options_;
};

// SIGTERM to every process of the job (session sid, the leader while not reaped, the marker),
// up to grace_seconds for them to go, then SIGKILL until none is left (at most ~10 s more).
// Reaps the leader when it exits: leader_status receives its waitpid status.
SessionEnding endSession(const std::string& proc_root, std::int64_t leader, bool& leader_reaped,
                         int& leader_status, const std::string& marker, double grace_seconds);

}  // namespace jb
