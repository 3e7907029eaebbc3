#pragma once
// One job's launch and manifest, shared by the queue (which runs jobs on worker threads) and
// `joulebench-cli jobs exec` (which runs one job where Slurm placed it), so both run a job and
// record it the same way.
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/Manifest.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

// The job at index of file, placeholders filled, logs in run_dir, on gpu. cuda_visible_devices:
// what the job's CUDA_VISIBLE_DEVICES is set to; nothing: left as the environment has it (Slurm
// set it for the allocation).
JobLaunch makeJobLaunch(const JobFile& file, std::size_t index, const std::string& run_dir, const GpuInfo& gpu,
                        const std::optional<std::string>& cuda_visible_devices);

// The manifest of a job that ran (or an executor's own, where the outcome carries one).
JobManifest makeJobManifest(const JobFile& file, std::size_t index, const JobLaunch& launch,
                            const JobOutcome& outcome, const nlohmann::json& source,
                            const std::vector<std::string>& concurrent_jobs);

}  // namespace jb
