#include <jb/jobs/Slurm.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace jb {

namespace {

std::optional<std::string> envValue(const char* name)
{
    const char* v = std::getenv(name);
    if (!v || !*v)
        return std::nullopt;
    return std::string(v);
}

std::string firstWord(const std::string& s)
{
    const auto at = s.find_first_of(" \t");
    return at == std::string::npos ? s : s.substr(0, at);
}

// "(null)", "Unknown", "None" and "N/A" are Slurm's ways of printing nothing.
std::string valueOrEmpty(const std::map<std::string, std::string>& kv, const char* key)
{
    auto it = kv.find(key);
    if (it == kv.end())
        return "";
    const std::string& v = it->second;
    if (v == "(null)" || v == "Unknown" || v == "N/A")
        return "";
    return v;
}

std::optional<int> toInt(const std::string& s)
{
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoi(s);
}

// "3:0" -> exit 3, signal 0.
void exitCodeInto(const std::string& text, SlurmJobInfo& info)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return;
    info.exit_code = toInt(text.substr(0, colon));
    info.signal = toInt(text.substr(colon + 1));
}

SlurmJobInfo infoFrom(const std::map<std::string, std::string>& kv, const std::string& source)
{
    SlurmJobInfo i;
    i.job_id = valueOrEmpty(kv, "JobId");
    i.name = valueOrEmpty(kv, "JobName");
    if (i.name.empty())
        i.name = valueOrEmpty(kv, "Name");
    i.state = firstWord(valueOrEmpty(kv, "JobState"));
    i.reason = valueOrEmpty(kv, "Reason");
    if (i.reason == "None")
        i.reason.clear();
    i.partition = valueOrEmpty(kv, "Partition");
    i.node = valueOrEmpty(kv, "NodeList");
    i.submit_time = valueOrEmpty(kv, "SubmitTime");
    i.start_time = valueOrEmpty(kv, "StartTime");
    i.end_time = valueOrEmpty(kv, "EndTime");
    exitCodeInto(valueOrEmpty(kv, "ExitCode"), i);
    i.std_out = valueOrEmpty(kv, "StdOut");
    i.std_err = valueOrEmpty(kv, "StdErr");
    i.source = source;
    return i;
}

}  // namespace

SlurmPrograms SlurmPrograms::from(const ExecutorSettings& e)
{
    SlurmPrograms p;
    p.bin_dir = !e.slurm_bin.empty() ? e.slurm_bin : envValue("JOULEBENCH_SLURM_BIN").value_or("");
    p.slurm_conf = !e.slurm_conf.empty() ? e.slurm_conf : envValue("SLURM_CONF").value_or("");
    return p;
}

std::string SlurmPrograms::program(const std::string& name) const
{
    return bin_dir.empty() ? name : bin_dir + "/" + name;
}

std::vector<std::string> SlurmPrograms::command(const std::string& name, std::vector<std::string> args) const
{
    std::vector<std::string> argv;
    if (!slurm_conf.empty())
        argv = {"/usr/bin/env", "SLURM_CONF=" + slurm_conf};
    argv.push_back(program(name));
    argv.insert(argv.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
    return argv;
}

bool SlurmJobInfo::pending() const
{
    return state == "PENDING" || state == "CONFIGURING" || state == "REQUEUED" || state == "REQUEUE_HOLD" ||
        state == "REQUEUE_FED" || state == "RESV_DEL_HOLD";
}

bool SlurmJobInfo::finished() const
{
    static const char* live[] = {"PENDING",  "CONFIGURING", "RUNNING",      "COMPLETING",  "SUSPENDED",
                                 "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING",    "SIGNALING",
                                 "STAGE_OUT", "STOPPED",    "RESV_DEL_HOLD", "SPECIAL_EXIT"};
    if (state.empty())
        return false;
    return std::none_of(std::begin(live), std::end(live), [&](const char* s) { return state == s; });
}

std::map<std::string, std::string> parseKeyValues(const std::string& text)
{
    std::map<std::string, std::string> kv;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos || eq == 0)
            continue;
        kv.emplace(word.substr(0, eq), word.substr(eq + 1));
    }
    return kv;
}

Result<SbatchReply> parseSbatchParsable(const std::string& out)
{
    std::string s = out;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    // Warnings may come first; the reply is the last line.
    const auto nl = s.rfind('\n');
    if (nl != std::string::npos)
        s = s.substr(nl + 1);
    SbatchReply r;
    const auto semi = s.find(';');
    r.job_id = s.substr(0, semi);
    if (semi != std::string::npos)
        r.cluster = s.substr(semi + 1);
    if (!toInt(r.job_id))
        return Error{"sbatch printed no job id: '" + out + "'"};
    return r;
}

Result<SlurmJobInfo> parseScontrolJob(const std::string& out)
{
    const auto kv = parseKeyValues(out);
    SlurmJobInfo i = infoFrom(kv, "scontrol");
    if (i.job_id.empty() || i.state.empty())
        return Error{"scontrol printed no job record (no JobId/JobState): '" + out.substr(0, 200) + "'"};
    return i;
}

Result<SlurmJobInfo> parseJobcompLine(const std::string& line)
{
    const auto kv = parseKeyValues(line);
    SlurmJobInfo i = infoFrom(kv, "jobcomp");
    if (i.job_id.empty() || i.state.empty())
        return Error{"not a jobcomp line (no JobId/JobState): '" + line.substr(0, 200) + "'"};
    // The jobcomp log keeps the exit status but drops the signal: unknown, not 0.
    i.signal.reset();
    return i;
}

std::optional<SlurmJobInfo> findInJobcomp(const std::string& log_text, const std::string& job_id)
{
    std::optional<SlurmJobInfo> found;
    std::istringstream in(log_text);
    std::string line;
    const std::string key = "JobId=" + job_id + " ";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0)
            if (auto i = parseJobcompLine(line))
                found = *i;
    return found;
}

std::string jobcompLogFromConfig(const std::string& config_text)
{
    // Lines "JobCompType             = jobcomp/filetxt".
    std::istringstream in(config_text);
    std::string line, type, loc;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            continue;
        auto trim = [](std::string s) {
            const auto a = s.find_first_not_of(" \t");
            const auto b = s.find_last_not_of(" \t\r");
            return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
        };
        const std::string k = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
        if (k == "JobCompType")
            type = v;
        else if (k == "JobCompLoc")
            loc = v;
    }
    return type == "jobcomp/filetxt" ? loc : std::string();
}

bool scontrolSaysNotFound(const std::string& text)
{
    return text.find("not found") != std::string::npos || text.find("Invalid partition") != std::string::npos;
}

std::optional<JobStatus> statusForSlurmState(const std::string& state)
{
    if (state == "TIMEOUT" || state == "DEADLINE")
        return JobStatus::Timeout;
    if (state == "CANCELLED")
        return JobStatus::Cancelled;
    if (state == "NODE_FAIL")
        return JobStatus::NodeFailed;
    if (state == "PREEMPTED")
        return JobStatus::Preempted;
    if (state == "BOOT_FAIL")
        return JobStatus::FailedToStart;
    // COMPLETED or FAILED without a manifest: the node's JouleBench did not get to write one
    // (not installed there, a bad path); OUT_OF_MEMORY: the job's memory limit.
    if (state == "COMPLETED" || state == "FAILED" || state == "OUT_OF_MEMORY")
        return JobStatus::FailedToStart;
    return std::nullopt;
}

std::vector<int> allocatedGpus(const std::optional<std::string>& slurm_job_gpus,
                               const std::optional<std::string>& cuda_visible_devices)
{
    const std::optional<std::string>& list = slurm_job_gpus && !slurm_job_gpus->empty() ? slurm_job_gpus
                                                                                        : cuda_visible_devices;
    std::vector<int> out;
    if (!list)
        return out;
    std::istringstream in(*list);
    std::string item;
    while (std::getline(in, item, ',')) {
        auto i = toInt(item);
        if (!i)
            return {};  // UUIDs or MIG names: not indices
        out.push_back(*i);
    }
    return out;
}

std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

std::string batchScript(const std::vector<std::string>& argv)
{
    std::string s = "#!/bin/sh\n# written by JouleBench: the job runs under joulebench-cli jobs exec\nexec";
    for (const std::string& a : argv)
        s += " " + shellQuote(a);
    return s + "\n";
}

int backstopMinutes(double timeout_seconds, double grace_seconds, double idle_seconds)
{
    // Room for the brackets, the grace period, a SIGKILL round and Slurm's 30 s check cycle.
    const double total = timeout_seconds + grace_seconds + 2 * idle_seconds + 120;
    return int(std::min(std::ceil(total / 60.0), 1e7));
}

std::vector<std::string> sbatchArgv(const SlurmPrograms& programs, const ExecutorSettings& s, const SbatchJob& job)
{
    std::vector<std::string> a{"--parsable", "--job-name=jb-" + job.name, "--chdir=" + job.run_dir,
                               "--output=" + job.run_dir + "/slurm-%j.out",
                               "--time=" + std::to_string(job.time_limit_minutes)};
    if (!s.partition.empty())
        a.push_back("--partition=" + s.partition);
    if (!s.account.empty())
        a.push_back("--account=" + s.account);
    if (!s.qos.empty())
        a.push_back("--qos=" + s.qos);
    if (s.gpus_per_job > 0)
        a.push_back("--gres=gpu:" + std::to_string(s.gpus_per_job));
    if (s.cpus_per_job)
        a.push_back("--cpus-per-task=" + std::to_string(*s.cpus_per_job));
    if (!s.mem_per_job.empty())
        a.push_back("--mem=" + s.mem_per_job);
    a.insert(a.end(), s.sbatch_args.begin(), s.sbatch_args.end());
    a.push_back(job.script_path);
    return programs.command("sbatch", a);
}

}  // namespace jb

namespace jb {

SlurmRecord slurmNodeRecord(const std::vector<std::string>& env, const std::vector<SlurmGpu>& gpus)
{
    auto get = [&](const char* name) -> std::optional<std::string> {
        const std::string key = std::string(name) + "=";
        for (const std::string& e : env)
            if (e.rfind(key, 0) == 0)
                return e.substr(key.size());
        return std::nullopt;
    };
    SlurmRecord r;
    r.job_id = get("SLURM_JOB_ID");
    r.partition = get("SLURM_JOB_PARTITION");
    r.node = get("SLURMD_NODENAME");
    SlurmAllocation& a = r.allocation.emplace();
    a.cluster = get("SLURM_CLUSTER_NAME");
    a.cuda_visible_devices = get("CUDA_VISIBLE_DEVICES");
    a.job_gpus = get("SLURM_JOB_GPUS");
    a.gpus = gpus;
    return r;
}

void mergeSlurmInfo(std::optional<SlurmRecord>& slurm, const SlurmJobInfo& info)
{
    SlurmRecord& r = slurm ? *slurm : slurm.emplace();
    // What Slurm does not know (an empty field) leaves what the record has.
    auto take = [](std::optional<std::string>& field, const std::string& v) {
        if (!v.empty())
            field = v;
    };
    auto takeInt = [](std::optional<int>& field, const std::optional<int>& v) {
        if (v)
            field = v;
    };
    r.job_id = info.job_id;
    take(r.partition, info.partition);
    take(r.node, info.node);
    SlurmEnd& e = r.end ? *r.end : r.end.emplace();
    take(e.state, info.state);
    take(e.reason, info.reason);
    take(e.submit_time, info.submit_time);
    take(e.start_time, info.start_time);
    take(e.end_time, info.end_time);
    takeInt(e.exit_code, info.exit_code);
    takeInt(e.signal, info.signal);
    take(e.state_source, info.source);
}

}  // namespace jb
