#include <jb/jobs/SlurmExecutor.h>

#include <jb/base/Clock.h>
#include <jb/jobs/LogTail.h>
#include <jb/jobs/RunFolders.h>
#include <jb/jobs/Subprocess.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace jb {

namespace {

constexpr const char* kScriptName = "slurm_job.sh";
constexpr const char* kSourceName = "source.json";
constexpr double kLostAfterSeconds = 60;  // Slurm not answering about a job this long: given up

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

SlurmExecutor::SlurmExecutor(SlurmExecutorOptions options) : options_(std::move(options)) {}

Result<GpuInfo> SlurmExecutor::probeGpu(int index)
{
    return Error{"GPU " + std::to_string(index) + ": with the Slurm executor, Slurm picks the GPU"};
}

Status SlurmExecutor::prepare()
{
    for (const char* p : {"sbatch", "scontrol", "scancel"}) {
        auto found = resolveProgram(options_.programs.program(p), "");
        if (!found)
            return Error{"the Slurm executor needs Slurm's " + std::string(p) + ": " + found.error() +
                         " (set executor.slurm_bin or JOULEBENCH_SLURM_BIN)"};
    }
    if (options_.joulebench_cli.empty())
        return Error{"the Slurm executor needs the path of joulebench-cli on the nodes (executor.joulebench_cli)"};
    const std::string& partition = options_.settings.partition;
    std::vector<std::string> args{"show", "partition"};
    if (!partition.empty())
        args.push_back(partition);
    auto r = runCapture(options_.programs.command("scontrol", args), "", options_.command_timeout_ms);
    if (!r)
        return Error{"scontrol: " + r.error()};
    if (r->exit_code != 0) {
        const std::string said = trimmed(r->err.empty() ? r->out : r->err);
        if (!partition.empty() && scontrolSaysNotFound(said))
            return Error{"executor.partition: Slurm has no partition '" + partition + "' (scontrol: " + said +
                         "); nothing was submitted"};
        return Error{"Slurm does not answer (scontrol show partition: " + said + "); nothing was submitted"};
    }
    return Ok{};
}

Result<SlurmJobInfo> SlurmExecutor::query(const std::string& job_id) const
{
    auto r = runCapture(options_.programs.command("scontrol", {"show", "job", job_id}), "",
                        options_.command_timeout_ms);
    if (!r)
        return Error{"scontrol: " + r.error()};
    if (r->exit_code == 0)
        return parseScontrolJob(r->out);
    const std::string said = trimmed(r->err.empty() ? r->out : r->err);
    if (said.find("Invalid job id") == std::string::npos)
        return Error{"scontrol show job " + job_id + ": " + said};
    // Gone from slurmctld (MinJobAge passed, or it restarted): the jobcomp log keeps its end.
    auto cfg = runCapture(options_.programs.command("scontrol", {"show", "config"}), "", options_.command_timeout_ms);
    if (cfg && cfg->exit_code == 0) {
        const std::string log = jobcompLogFromConfig(cfg->out);
        if (!log.empty())
            if (auto found = findInJobcomp(readAll(log), job_id))
                return *found;
    }
    return Error{"Slurm no longer knows job " + job_id + " (" + said + ") and no jobcomp log has it"};
}

Result<std::string> SlurmExecutor::submit(const JobLaunch& launch) const
{
    if (!launch.source.is_null())
        if (auto st = writeJsonAtomic(launch.run_dir + "/" + kSourceName, launch.source); !st)
            return Error{st.error()};
    const std::string script_path = launch.run_dir + "/" + kScriptName;
    {
        std::ofstream out(script_path, std::ios::binary | std::ios::trunc);
        out << batchScript({options_.joulebench_cli, "jobs", "exec", launch.job_file, "--job", launch.name,
                            "--run-dir", launch.run_dir, "--executor", "slurm"});
        if (!out)
            return Error{"cannot write the batch script '" + script_path + "'"};
    }
    ::chmod(script_path.c_str(), 0755);
    SbatchJob job{launch.name, launch.run_dir, script_path,
                  backstopMinutes(launch.timeout_seconds, launch.grace_seconds, launch.energy.idle_seconds)};
    const auto argv = sbatchArgv(options_.programs, options_.settings, job);
    auto r = runCapture(argv, launch.run_dir, options_.command_timeout_ms);
    if (!r)
        return Error{"sbatch: " + r.error()};
    if (r->exit_code != 0)
        return Error{"sbatch refused the job (" + describeWaitStatus(r->exit_code) + "): " + trimmed(r->err + r->out)};
    auto reply = parseSbatchParsable(r->out);
    if (!reply)
        return Error{reply.error()};
    nlohmann::json rec;
    rec["job_id"] = reply->job_id;
    rec["cluster"] = reply->cluster.empty() ? nlohmann::json() : nlohmann::json(reply->cluster);
    rec["submitted_unix_time"] = unixSeconds();
    rec["sbatch_argv"] = argv;
    rec["script"] = script_path;
    if (auto st = writeJsonAtomic(launch.run_dir + "/" + kSlurmSubmitName, rec); !st)
        return Error{"Slurm job " + reply->job_id + " was submitted but cannot be recorded: " + st.error()};
    return reply->job_id;
}

JobOutcome SlurmExecutor::finish(const JobLaunch& launch, const SlurmJobInfo& info, const std::string& job_id,
                                 bool cancelled_by_driver) const
{
    JobOutcome out;
    const std::string manifest_path = launch.run_dir + "/" + kManifestName;
    const std::optional<JobStatus> slurm_status = statusForSlurmState(info.state);
    if (auto m = readManifest(manifest_path)) {
        // The node ran the job and recorded it; Slurm's word on how it ended is added.
        mergeSlurmInfo(m->slurm, info);
        m->slurm->job_id = job_id;
        if (m->status == JobStatus::Cancelled && slurm_status &&
            (*slurm_status == JobStatus::Timeout || *slurm_status == JobStatus::NodeFailed ||
             *slurm_status == JobStatus::Preempted)) {
            m->status = *slurm_status;
            m->notes.push_back("Slurm ended the job: " + info.state +
                               (info.reason.empty() ? "" : " (" + info.reason + ")"));
        }
        out.status = m->status;
        out.manifest = std::move(*m);
        return out;
    }
    // The node could not write one: the driver does, from what Slurm says.
    out.status = slurm_status.value_or(JobStatus::FailedToStart);
    if (info.signal && *info.signal > 0)
        out.return_code = -*info.signal;
    else if (info.exit_code && (info.state != "CANCELLED" && info.state != "TIMEOUT"))
        out.return_code = *info.exit_code;
    out.completed_unix_time = unixSeconds();
    out.logs["stdout"] = launch.run_dir + "/stdout.log";
    out.logs["stderr"] = launch.run_dir + "/stderr.log";
    out.logs["slurm"] = launch.run_dir + "/slurm-" + job_id + ".out";
    out.notes.push_back("Slurm ended the job as " + info.state +
                        (info.reason.empty() ? "" : " (" + info.reason + ")") +
                        " and the node wrote no manifest; this one is the driver's, from Slurm's record");
    if (cancelled_by_driver)
        out.notes.push_back("cancelled by the driver (scancel)");
    mergeSlurmInfo(out.slurm, info);
    out.slurm->job_id = job_id;
    out.slurm->written_by = "driver";
    return out;
}

JobOutcome SlurmExecutor::run(const JobLaunch& launch, JobObserver& observer, const std::atomic<bool>& cancel)
{
    std::string job_id = launch.adopt_job_id;
    // Wait for this job's turn to submit; whatever happens, the next job's turn comes after.
    {
        std::unique_lock lock(turn_mutex_);
        turn_.wait(lock, [&] { return next_turn_ >= launch.sequence; });
    }
    auto giveTurn = [this] {
        {
            std::lock_guard lock(turn_mutex_);
            ++next_turn_;
        }
        turn_.notify_all();
    };
    if (job_id.empty()) {
        if (cancel.load()) {
            giveTurn();
            JobOutcome out;
            out.status = JobStatus::Cancelled;
            out.notes.push_back("cancelled before it was submitted");
            out.completed_unix_time = unixSeconds();
            return out;
        }
        auto id = submit(launch);
        giveTurn();
        if (!id) {
            JobOutcome out;
            out.status = JobStatus::FailedToStart;
            out.notes.push_back(id.error());
            out.completed_unix_time = unixSeconds();
            observer.logLine("driver", "failed to submit: " + id.error());
            return out;
        }
        job_id = *id;
        observer.logLine("driver", "submitted as Slurm job " + job_id);
    } else {
        giveTurn();
        observer.logLine("driver", "watching Slurm job " + job_id + " (submitted by an earlier driver)");
    }

    const auto poll_ns = std::int64_t(options_.settings.poll_seconds * 1e9);
    // The node writes the job's logs into the shared run folder: followed from here.
    LogTail tails[2] = {{launch.run_dir + "/stdout.log", "stdout"}, {launch.run_dir + "/stderr.log", "stderr"}};
    RemoteState last;
    bool scancelled = false;
    std::int64_t last_answer = monotonicNs();
    std::string last_error;
    for (;;) {
        if (cancel.load() && !scancelled) {
            scancelled = true;
            observer.logLine("driver", "cancelled: scancel " + job_id);
            auto r = runCapture(options_.programs.command("scancel", {job_id}), "", options_.command_timeout_ms);
            if (!r || r->exit_code != 0)
                observer.logLine("driver", "scancel " + job_id + " failed: " +
                                               (r ? trimmed(r->err) : r.error()));
        }
        auto info = query(job_id);
        if (info) {
            last_answer = monotonicNs();
            if (info->state == "RUNNING" || info->finished())
                for (LogTail& t : tails)
                    t.poll(observer, info->finished());
            if (info->finished())
                return finish(launch, *info, job_id, scancelled);
            RemoteState st{info->state, info->reason, job_id, info->node};
            if (st.state != last.state || st.reason != last.reason || st.node != last.node) {
                observer.remoteState(st);
                last = st;
            }
        } else {
            if (info.error() != last_error)
                observer.logLine("driver", info.error());
            last_error = info.error();
            if (double(monotonicNs() - last_answer) / 1e9 > kLostAfterSeconds) {
                SlurmJobInfo lost;
                lost.job_id = job_id;
                lost.state = scancelled ? "CANCELLED" : "UNKNOWN";
                lost.reason = info.error();
                lost.source = "driver";
                return finish(launch, lost, job_id, scancelled);
            }
        }
        const std::int64_t until = monotonicNs() + poll_ns;
        while (monotonicNs() < until && !(cancel.load() && !scancelled))
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace jb
