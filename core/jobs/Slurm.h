#pragma once
// Everything Slurm-specific in one place: the programs (sbatch, squeue, scontrol, scancel and
// their SLURM_CONF), the sbatch command line and batch script of a job, and the parsing of what
// sbatch, scontrol and the jobcomp/filetxt log print. The parsers are pure functions, tested on
// output captured from a real cluster (tests/fixtures/slurm/).
#include <jb/base/Result.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/JobReports.h>
#include <jb/jobs/Manifest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// Where the Slurm programs are and which SLURM_CONF they read.
struct SlurmPrograms {
    std::string bin_dir;     // empty: each program is looked up on PATH
    std::string slurm_conf;  // empty: the environment's SLURM_CONF (or Slurm's own default)
    // The job file's settings, else the environment's JOULEBENCH_SLURM_BIN / SLURM_CONF.
    static SlurmPrograms from(const ExecutorSettings& e);
    std::string program(const std::string& name) const;  // bin_dir/name or name
    // argv run with SLURM_CONF set where one is named.
    std::vector<std::string> command(const std::string& name, std::vector<std::string> args) const;
};

// One finished or live job as Slurm describes it.
struct SlurmJobInfo {
    std::string job_id;
    std::string name;
    std::string state;   // PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL ...
    std::string reason;  // why it pends or ended (Resources, Priority, TimeLimit, NonZeroExitCode)
    std::string partition;
    std::string node;  // the node list ("" while pending)
    std::string submit_time, start_time, end_time;  // as Slurm prints them (local time); "" unknown
    std::optional<int> exit_code;                   // the batch script's exit status
    std::optional<int> signal;                      // the signal that ended it (0: none)
    std::string std_out, std_err;                   // the batch output files
    std::string source;                             // "scontrol", "jobcomp"

    bool pending() const;
    bool finished() const;  // no longer pending, running, suspended or completing
};

// "KEY=VALUE KEY=VALUE ..." over any whitespace (scontrol show, the jobcomp log); a value runs to
// the next whitespace.
std::map<std::string, std::string> parseKeyValues(const std::string& text);

// sbatch --parsable: "ID" or "ID;CLUSTER".
struct SbatchReply {
    std::string job_id;
    std::string cluster;
};
Result<SbatchReply> parseSbatchParsable(const std::string& out);

// `scontrol show job ID` (one job's record).
Result<SlurmJobInfo> parseScontrolJob(const std::string& out);
// One line of the jobcomp/filetxt log.
Result<SlurmJobInfo> parseJobcompLine(const std::string& line);
// The last line for job_id in a jobcomp/filetxt log; nothing where the job is not in it.
std::optional<SlurmJobInfo> findInJobcomp(const std::string& log_text, const std::string& job_id);
// `scontrol show config`: the jobcomp log, where jobcomp/filetxt keeps one; "" otherwise.
std::string jobcompLogFromConfig(const std::string& config_text);
// "Partition X not found" (scontrol's words for a missing partition).
bool scontrolSaysNotFound(const std::string& text);

// What a job Slurm ended without a manifest from the node gets as its status; nothing for
// states that are not an end.
std::optional<JobStatus> statusForSlurmState(const std::string& state);

// The job on the node: which GPUs Slurm gave (SLURM_JOB_GPUS, else CUDA_VISIBLE_DEVICES) as
// physical indices; empty where neither is set or they are not indices.
std::vector<int> allocatedGpus(const std::optional<std::string>& slurm_job_gpus,
                               const std::optional<std::string>& cuda_visible_devices);

// The sbatch command line for one job (the batch script is its last argument).
struct SbatchJob {
    std::string name;         // the job's name (the Slurm job name is "jb-" + name)
    std::string run_dir;      // --chdir, and where Slurm's own output goes
    std::string script_path;  // the batch script (batchScript())
    int time_limit_minutes = 0;
};
std::vector<std::string> sbatchArgv(const SlurmPrograms& programs, const ExecutorSettings& settings,
                                    const SbatchJob& job);
// The batch script: exec argv (each word quoted for /bin/sh).
std::string batchScript(const std::vector<std::string>& argv);
std::string shellQuote(const std::string& s);
// --time in whole minutes: the job's timeout, its grace period and both idle brackets, plus a
// margin, so Slurm's limit is only a backstop behind JouleBench's own timeout.
int backstopMinutes(double timeout_seconds, double grace_seconds, double idle_seconds);

}  // namespace jb

namespace jb {

// The `slurm` object the node's `jobs exec` starts the manifest with, from the allocation's
// environment (SLURM_JOB_ID, SLURM_CLUSTER_NAME, SLURM_JOB_PARTITION, SLURMD_NODENAME,
// CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS) and the GPUs resolved on the node (index, uuid).
SlurmRecord slurmNodeRecord(const std::vector<std::string>& environment, const std::vector<SlurmGpu>& gpus);

// The driver's additions once Slurm says the job is over: its final state, reason, exit code,
// signal, times and node (fields Slurm does not know are left as the node wrote them); a record
// is made where there is none.
void mergeSlurmInfo(std::optional<SlurmRecord>& slurm, const SlurmJobInfo& info);

}  // namespace jb
