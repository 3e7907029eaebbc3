#pragma once
// The run folders on disk, as the reference driver keeps them: OUTPUT_ROOT/NAME/driver_<time>/
// holds a job's logs, its driver.json (which driver runs it) and, once it is over, its
// manifest. A job whose manifest exists is preserved; a folder without one is an orphan, left
// for someone to audit; a folder whose driver is alive is running. A folder whose job was
// submitted to Slurm (slurm.json: the job id) by a driver that is gone is "submitted": the Slurm
// executor watches it again instead of submitting it again.
#include <jb/base/Result.h>
#include <jb/jobs/Manifest.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

enum class DiskState { NotRun, Preserved, Orphaned, Running, Conflict, Submitted };
// "not_run", "preserved", "orphaned", "running", "conflict", "submitted" (the names `jobs
// status` prints and its --json writes); diskStateFrom is the inverse (nothing for other text).
std::string diskStateName(DiskState s);
std::optional<DiskState> diskStateFrom(const std::string& name);

// RUN_DIR/slurm.json: the Slurm job id (and cluster, submit time), written at submit.
inline constexpr const char* kSlurmSubmitName = "slurm.json";

struct JobDiskInfo {
    DiskState state = DiskState::NotRun;
    std::string job_folder;     // OUTPUT_ROOT/NAME
    std::string run_dir;        // the driver_* folder, where there is exactly one
    std::string manifest_path;  // where preserved
    std::optional<JobManifest> manifest;
    std::string detail;  // for people: why orphaned/conflict, who runs it
    std::string remote_job_id;  // the Slurm job id of a submitted (or running) job, where recorded
};

// What is on disk for one job (as the reference's record_path and result_directory). A driver
// named in a driver.json is alive where its pid answers and <proc_root>/<pid>/stat gives the
// start time it recorded (else the pid was reused).
JobDiskInfo inspectJob(const std::string& output_root, const std::string& name,
                       const std::string& proc_root = "/proc");

// Creates OUTPUT_ROOT/NAME/driver_YYYY_MM_DD_HH_MM_SS and its driver.json (this process's pid,
// host and start time from <proc_root>/self's stat); the job folder must not exist yet.
Result<std::string> createRunDirectory(const std::string& output_root, const std::string& name,
                                       const std::string& proc_root = "/proc");

// Makes this process the driver of an existing run folder (rewrites its driver.json).
Result<std::string> claimRunDirectory(const std::string& run_dir, const std::string& proc_root = "/proc");

// Files matching pattern (shell wildcards per path component; relative patterns start at
// base_dir; '*' does not match a leading dot), sorted.
std::vector<std::string> globFiles(const std::string& base_dir, const std::string& pattern);

}  // namespace jb
