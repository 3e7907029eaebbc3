#pragma once
// The job file (docs/JOBS.md): where runs go, which GPUs may be used, what provenance to
// record, and the jobs. Parsing applies the defaults and makes paths absolute (relative ones
// are taken from the job file's folder); every error names the JSON path and what was
// expected there.
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// What the source report records before any job runs.
struct ProvenanceSettings {
    std::string source;                            // folder, absolute; empty: no source report
    bool require_clean = true;                     // refuse to run with uncommitted changes to tracked files
    std::vector<std::string> files;                // hashed (sha256); relative to `source`
    std::vector<std::string> trees;                // hashed as hash_tree (sorted relative paths + bytes)
    std::vector<std::string> environment_command;  // argv; its stdout is hashed (pip freeze)
};

struct EnergySettings {
    double idle_seconds = 5.0;             // idle bracket before and after each job
    double sampling_period_seconds = 0.1;  // energy counters' sampling period
    bool gpu = true;                       // the job GPU's nvml:N counter
    std::string package_counter = "rapl";  // empty: none
};

// Where the jobs run (docs/JOBS.md "Slurm"): on this machine, or each submitted with sbatch to a
// Slurm cluster whose node runs it through `joulebench-cli jobs exec`.
enum class ExecutorKind { Local, Slurm };
std::string executorKindName(ExecutorKind k);  // "local", "slurm"
std::optional<ExecutorKind> executorKindFrom(const std::string& s);

struct ExecutorSettings {
    ExecutorKind kind = ExecutorKind::Local;
    // Slurm only (empty / unset: Slurm's default).
    std::string partition, account, qos;
    int gpus_per_job = 1;                    // --gres=gpu:N (0: no GPU asked for)
    std::optional<int> cpus_per_job;         // --cpus-per-task
    std::string mem_per_job;                 // --mem, as Slurm writes it ("16G")
    std::vector<std::string> sbatch_args;    // passed to sbatch as they are, before the script
    std::string slurm_bin;                   // folder of sbatch, squeue ...; empty: PATH
    std::string slurm_conf;                  // SLURM_CONF for them; empty: the environment's
    std::string joulebench_cli;              // on the nodes; empty: this program's own path
    double poll_seconds = 1.0;               // how often the driver asks Slurm about its jobs
};

struct JobSpec {
    std::string name;               // folder name under output_root: [A-Za-z0-9._-]+
    std::vector<std::string> argv;  // placeholders {run_dir} {name} {gpu} are filled at launch
    std::string cwd;                // absolute (may hold placeholders)
    // Added to (or, with null, removed from) the driver's environment.
    std::map<std::string, std::optional<std::string>> env;
    double timeout_seconds = 0;
    double grace_seconds = 10;  // SIGTERM, then SIGKILL this much later
    std::optional<int> gpu;     // physical index; none: any allowed GPU
    std::string result_glob;    // relative to the run folder unless absolute; empty: none
    nlohmann::json work = nlohmann::json::object();  // copied into the manifest as is

    // The job's fields as the manifest carries them at its top level (as the reference's **job).
    nlohmann::json toJson() const;
};

struct JobFile {
    std::string path;         // the file read (absolute), empty when parsed from text
    std::string output_root;  // absolute
    std::vector<int> allowed_gpus;
    ProvenanceSettings provenance;
    EnergySettings energy;
    double memory_sampling_period_seconds = 1.0;
    std::string nvml_library;  // empty: the default (libnvidia-ml.so.1)
    std::string nvidia_smi;    // empty: nvidia-smi on PATH
    ExecutorSettings executor;
    std::vector<JobSpec> jobs;
};

// base_dir: where relative paths start (the job file's folder). origin names the file in errors.
// executor: replaces the file's executor kind (`jobs run --executor`); the GPU rules follow it
// (a fixed `gpu` index and a required `allowed_gpus` are the local executor's).
Result<JobFile> parseJobFileText(const std::string& text, const std::string& base_dir,
                                 const std::string& origin = "job file",
                                 std::optional<ExecutorKind> executor = std::nullopt);
Result<JobFile> readJobFile(const std::string& path, std::optional<ExecutorKind> executor = std::nullopt);

// The GPU value a job file shows for a job ("any" or the index).
std::string gpuText(const std::optional<int>& gpu);

// {run_dir}, {name} and {gpu} replaced; other braces are left as they are.
std::string fillPlaceholders(const std::string& s, const std::string& run_dir, const std::string& name,
                             int gpu);

}  // namespace jb
