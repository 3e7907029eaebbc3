#include <jb/jobs/LocalExecutor.h>

#include <jb/base/Clock.h>
#include <jb/jobs/EnergyMeter.h>
#include <jb/jobs/LogTail.h>
#include <jb/jobs/ProcessTree.h>
#include <jb/jobs/Provenance.h>
#include <jb/jobs/RunFolders.h>
#include <jb/jobs/Subprocess.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <thread>

namespace jb {

namespace {

constexpr std::int64_t kTickNs = 20'000'000;        // how often the watch loop wakes
constexpr std::int64_t kTailEveryNs = 100'000'000;  // how often the logs are read

void sleepNs(std::int64_t ns)
{
    if (ns > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

int exitCodeOf(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? -WTERMSIG(status) : -1;
}

std::string randomHex()
{
    std::random_device rd;
    std::string s;
    const char* digits = "0123456789abcdef";
    for (int i = 0; i < 4; ++i) {
        unsigned v = rd();
        for (int k = 0; k < 8; ++k, v >>= 4)
            s += digits[v & 15];
    }
    return s;
}

}  // namespace

SessionEnding endSession(const std::string& proc_root, std::int64_t leader, bool& leader_reaped,
                         int& leader_status, const std::string& marker, double grace_seconds)
{
    SessionEnding e;
    const std::int64_t t0 = monotonicNs();
    const std::int64_t sid = leader;  // setsid made the leader's pid the session id
    auto reap = [&] {
        if (!leader_reaped && ::waitpid(pid_t(leader), &leader_status, WNOHANG) == pid_t(leader))
            leader_reaped = true;
    };
    auto collect = [&] {
        reap();
        std::set<std::int64_t> roots;
        if (!leader_reaped)
            roots.insert(leader);  // a reaped pid may already name another process
        auto pids = findJobProcesses(proc_root, sid, roots, marker);
        pids.erase(std::int64_t(::getpid()));
        return pids;
    };
    std::set<std::int64_t> signalled;
    auto signalAll = [&](const std::set<std::int64_t>& pids, int sig) {
        // The process group too, while the unreaped leader keeps its id from being reused.
        if (!leader_reaped)
            ::kill(-pid_t(sid), sig);
        for (std::int64_t p : pids) {
            ::kill(pid_t(p), sig);
            signalled.insert(p);
        }
    };

    std::set<std::int64_t> pids = collect();
    if (!pids.empty()) {
        e.sigterm_sent = true;
        std::set<std::int64_t> termed = pids;
        signalAll(pids, SIGTERM);
        const std::int64_t deadline = monotonicNs() + std::int64_t(grace_seconds * 1e9);
        while (!pids.empty() && monotonicNs() < deadline) {
            sleepNs(std::min<std::int64_t>(kTickNs / 2, deadline - monotonicNs()));
            pids = collect();
            // Children forked after the first signal get theirs too.
            std::set<std::int64_t> fresh;
            for (std::int64_t p : pids)
                if (termed.insert(p).second)
                    fresh.insert(p);
            if (!fresh.empty())
                signalAll(fresh, SIGTERM);
        }
        const std::int64_t kill_deadline = monotonicNs() + 10'000'000'000;
        while (!pids.empty() && monotonicNs() < kill_deadline) {
            e.sigkill_sent = true;
            signalAll(pids, SIGKILL);
            sleepNs(5'000'000);
            pids = collect();
        }
    }
    // The leader was signalled (or had already exited): wait for it, bounded.
    const std::int64_t reap_deadline = monotonicNs() + 5'000'000'000;
    while (!leader_reaped && monotonicNs() < reap_deadline) {
        reap();
        if (!leader_reaped)
            sleepNs(5'000'000);
    }
    e.signalled.assign(signalled.begin(), signalled.end());
    pids = collect();
    e.survivors.assign(pids.begin(), pids.end());
    e.seconds = double(monotonicNs() - t0) / 1e9;
    return e;
}

LocalExecutor::LocalExecutor(LocalExecutorOptions options) : options_(std::move(options))
{
    if (!options_.nvml_library.empty())
        options_.counters.nvml_library = options_.nvml_library;
}

Result<GpuInfo> LocalExecutor::probeGpu(int index)
{
    GpuProbe probe(options_.nvml_library, options_.nvidia_smi);
    return probe.physicalGpu(index);
}

JobOutcome LocalExecutor::run(const JobLaunch& launch, JobObserver& observer, const std::atomic<bool>& cancel)
{
    JobOutcome out;
    const std::string stdout_path = launch.run_dir + "/stdout.log";
    const std::string stderr_path = launch.run_dir + "/stderr.log";
    out.logs["stdout"] = stdout_path;
    out.logs["stderr"] = stderr_path;
    GpuProbe probe(options_.nvml_library, options_.nvidia_smi);
    if (!probe.nvmlProblem().empty())
        out.notes.push_back("GPU memory from nvidia-smi: " + probe.nvmlProblem());

    // Energy counters run from the idle bracket before the job to the one after it.
    std::vector<std::string> specs;
    const std::string gpu_spec = "nvml:" + std::to_string(launch.gpu.physical_index);
    if (launch.energy.gpu)
        specs.push_back(gpu_spec);
    if (!launch.energy.package_counter.empty())
        specs.push_back(launch.energy.package_counter);
    EnergyMeter meter(specs, options_.counters, std::int64_t(launch.energy.sampling_period_seconds * 1e9));
    meter.start();
    const std::int64_t idle_ns = std::int64_t(launch.energy.idle_seconds * 1e9);
    auto idle = [&] {
        const std::int64_t until = monotonicNs() + idle_ns;
        while (!cancel.load() && monotonicNs() < until)
            sleepNs(std::min<std::int64_t>(kTickNs, until - monotonicNs()));
    };
    const std::int64_t t0 = monotonicNs();
    idle();
    const std::int64_t t1 = monotonicNs();
    out.started_unix_time = unixSeconds();
    auto finishEnergy = [&](std::int64_t t2) {
        const std::int64_t t3 = monotonicNs();
        meter.stop();
        JobEnergy e = meter.report(t0, t1, t2, t3, launch.energy.idle_seconds);
        if (launch.energy.gpu)
            e.gpu_counter = gpu_spec;
        if (!launch.energy.package_counter.empty())
            e.package_counter = launch.energy.package_counter;
        out.energy = std::move(e);
    };
    if (cancel.load()) {
        out.status = JobStatus::Cancelled;
        out.notes.push_back("cancelled before the job was started");
        out.completed_unix_time = unixSeconds();
        finishEnergy(t1);
        return out;
    }

    // The marker lets a daemon that left the session with setsid still be found.
    const std::string marker_value = launch.name + "-" + randomHex();
    auto env_changes = launch.env;
    env_changes["JOULEBENCH_JOB_MARKER"] = marker_value;
    const std::string marker = "JOULEBENCH_JOB_MARKER=" + marker_value;
    SessionSpawn spawn{launch.argv, launch.cwd, mergedEnvironment(env_changes), stdout_path, stderr_path};
    auto pid = spawnInSession(spawn);
    if (!pid) {
        out.status = JobStatus::FailedToStart;
        out.notes.push_back(pid.error());
        observer.logLine("driver", "failed to start: " + pid.error());
        out.completed_unix_time = unixSeconds();
        finishEnergy(monotonicNs());
        return out;
    }
    out.pid = *pid;
    observer.started(*pid);

    LogTail tails[2] = {{stdout_path, "stdout"}, {stderr_path, "stderr"}};
    const std::int64_t period_ns = std::max<std::int64_t>(
        std::int64_t(launch.memory_sampling_period_seconds * 1e9), 1'000'000);
    const std::int64_t timeout_ns = std::int64_t(launch.timeout_seconds * 1e9);
    std::int64_t next_sample = t1, next_tail = t1 + kTailEveryNs;
    std::set<std::int64_t> ever;  // every pid of the job seen (for accounting)
    bool reaped = false, timed_out = false, cancelled = false;
    int status = 0;
    SessionEnding ending;
    for (;;) {
        if (::waitpid(pid_t(*pid), &status, WNOHANG) == pid_t(*pid)) {
            reaped = true;
            break;
        }
        const std::int64_t now = monotonicNs();
        if (cancel.load() || now - t1 > timeout_ns) {
            cancelled = cancel.load();
            timed_out = !cancelled;
            observer.logLine("driver",
                             cancelled ? std::string("cancelled: ending the job's session")
                                       : "timeout after " + seconds(launch.timeout_seconds) +
                                     " s: ending the job's session");
            ending = endSession(options_.proc_root, *pid, reaped, status, marker, launch.grace_seconds);
            break;
        }
        if (now >= next_sample) {
            auto pids = findJobProcesses(options_.proc_root, *pid, {*pid}, marker);
            ever.insert(pids.begin(), pids.end());
            JobProgress p;
            p.elapsed_seconds = double(now - t1) / 1e9;
            p.processes = int(pids.size());
            auto mem = probe.processMemory(launch.gpu, pids);
            ++out.memory_samples;
            if (mem) {
                out.memory_source = mem->source;
                p.memory_mib = mem->total_mib;
                out.peak_memory_mib = std::max(out.peak_memory_mib, mem->total_mib);
            } else {
                ++out.memory_read_errors;
                out.memory_last_error = mem.error();
            }
            p.peak_memory_mib = out.peak_memory_mib;
            p.power_w = meter.recentPowerW(gpu_spec, 1'000'000'000);
            if (!p.power_w)
                p.power_w = probe.powerW(launch.gpu);
            observer.progress(p);
            // Absolute deadlines; a slow nvidia-smi skips samples rather than piling them up.
            while (next_sample <= monotonicNs())
                next_sample += period_ns;
        }
        if (now >= next_tail) {
            for (LogTail& t : tails)
                t.poll(observer, false);
            next_tail = now + kTailEveryNs;
        }
        sleepNs(
            std::min<std::int64_t>(kTickNs, std::max<std::int64_t>(next_sample - monotonicNs(), 1'000'000)));
    }
    if (!timed_out && !cancelled) {
        // The leader is gone; whatever it left behind in its session is ended too, so nothing
        // of this job holds the GPU when the next one starts.
        ending = endSession(options_.proc_root, *pid, reaped, status, marker, launch.grace_seconds);
        if (!ending.signalled.empty()) {
            out.notes.push_back(std::to_string(ending.signalled.size()) +
                                " process(es) the job left running were ended");
            observer.logLine("driver", out.notes.back());
        }
    }
    const std::int64_t t2 = monotonicNs();
    out.wall_seconds = double(t2 - t1) / 1e9;
    out.termination = ending;
    if (!ending.survivors.empty())
        out.notes.push_back(std::to_string(ending.survivors.size()) +
                            " process(es) of the job survived SIGKILL");
    out.return_code = reaped ? std::optional<int>(exitCodeOf(status)) : std::nullopt;
    out.accounting = probe.accounting(launch.gpu, ever);
    for (LogTail& t : tails)
        t.poll(observer, true);
    idle();
    out.completed_unix_time = unixSeconds();
    finishEnergy(t2);
    if (cancel.load() && !cancelled)
        out.notes.push_back("cancelled during the idle bracket after the job; energy brackets are short");

    if (!launch.result_glob.empty()) {
        const auto matches = globFiles(launch.run_dir, launch.result_glob);
        if (matches.size() == 1) {
            out.result = matches.front();
            auto sha = sha256File(matches.front());
            if (sha)
                out.result_sha256 = *sha;
            else
                out.notes.push_back("result: " + sha.error());
        } else if (matches.size() > 1) {
            out.notes.push_back("result_glob '" + launch.result_glob + "' matches " +
                                std::to_string(matches.size()) + " files; expected exactly one");
        }
    }
    if (cancelled)
        out.status = JobStatus::Cancelled;
    else if (timed_out)
        out.status = JobStatus::Timeout;
    else if (out.return_code != 0)
        out.status = JobStatus::NonzeroExit;
    else if (!launch.result_glob.empty() && !out.result_sha256)
        out.status = JobStatus::MissingResult;
    else
        out.status = JobStatus::Completed;
    return out;
}

}  // namespace jb
