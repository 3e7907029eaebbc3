#pragma once
// The jobs dry run's checks: what can be known before anything runs. For every job: its command
// with {run_dir}, {name} and {gpu} filled in as the launch would (the run folder's time stamp
// shown as driver_<start time>), its program found and executable, a script it hands an
// interpreter (train.py) present, its working folder present; for the queue: the GPUs it would
// use reachable (NVML, else nvidia-smi); a note where NVML cannot load and the file asks for
// the GPU's energy counter (the jobs run, without it). The Jobs page's Dry Run and `jobs run --dry-run` print
// the same report; a blocking problem means Run All would fail.
#include <jb/base/Result.h>
#include <jb/jobs/JobFile.h>

#include <functional>
#include <string>
#include <vector>

namespace jb {

struct DryRunJob {
    std::string name;
    std::string gpu;                    // the GPU it would be given ("3", or "any allowed" / "the cluster's")
    std::string run_dir;                // where its run folder would be
    std::vector<std::string> argv;      // placeholders filled
    std::string cwd;                    // filled; empty: the driver's folder
    std::vector<std::string> problems;  // what would make it fail (blocking)
    std::string commandLine() const;    // argv quoted for a shell where needed
};

struct DryRunReport {
    std::vector<DryRunJob> jobs;
    std::vector<std::string> problems;  // the queue's own (GPUs, NVML)
    std::vector<std::string> notes;     // worth knowing, not blocking
    bool blocking() const;
    int problemCount() const;
    // For people: one line per problem, "train: the program python3x is not on PATH".
    std::string text() const;
    std::string notesText() const;  // one line per note
};

// What the checks look at, injected for tests.
struct DryRunEnvironment {
    std::string path;  // PATH for programs without a slash (empty: this process's PATH)
    // The GPU with this physical index, or why it cannot be reached (default: GpuProbe with the
    // file's nvml_library and nvidia_smi).
    std::function<Status(int index)> gpu;
    // Why NVML cannot be loaded, empty where it can (default: GpuProbe's nvmlProblem()).
    std::function<std::string()> nvml_problem;
};

DryRunReport dryRunCheck(const JobFile& file, DryRunEnvironment env = {});

// The run folder a dry run shows for a job: output_root/name/driver_<start time>.
std::string dryRunFolder(const JobFile& file, const std::string& job);

}  // namespace jb
