#include "jobs/JobFile.h"

#include "jobs/JsonRead.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace jb {

namespace fs = std::filesystem;

namespace {

std::string absoluteFrom(const std::string& base_dir, const std::string& p)
{
    fs::path path(p);
    if (path.is_relative())
        path = fs::path(base_dir) / path;
    std::string s = path.lexically_normal().string();
    if (s.size() > 1 && s.back() == '/')
        s.pop_back();
    return s;
}

// A program or library named with a folder is a path (relative to the job file); a bare name
// is looked up (PATH, the dynamic loader) as it is.
std::string programFrom(const std::string& base_dir, const std::string& p)
{
    return p.find('/') == std::string::npos ? p : absoluteFrom(base_dir, p);
}

constexpr std::int64_t kMaxGpuIndex = 1'000'000;

bool validName(const std::string& n)
{
    if (n.empty() || n == "." || n == ".." || n.size() > 200)
        return false;
    return std::all_of(n.begin(), n.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
            c == '_' || c == '-';
    });
}

// The job fields that may come from `defaults` or the job itself.
struct JobFields {
    std::optional<std::vector<std::string>> argv;
    std::optional<std::string> cwd;
    std::map<std::string, std::optional<std::string>> env;
    std::optional<double> timeout_seconds, grace_seconds;
    bool gpu_set = false;
    std::optional<int> gpu;
    std::optional<std::string> result_glob;
    std::optional<nlohmann::json> work;
};

void readFields(JsonRead& r, const nlohmann::json& o, const std::string& path, JobFields& f)
{
    if (auto* v = JsonRead::member(o, "argv"))
        f.argv = r.strings(*v, JsonRead::key(path, "argv"), true);
    if (auto* v = JsonRead::member(o, "cwd"))
        f.cwd = r.string(*v, JsonRead::key(path, "cwd"), true);
    if (auto* v = JsonRead::member(o, "env"); v && r.object(*v, JsonRead::key(path, "env"))) {
        for (auto it = v->begin(); it != v->end(); ++it) {
            const std::string p = JsonRead::key(JsonRead::key(path, "env"), it.key());
            if (it.key().empty() || it.key().find('=') != std::string::npos)
                r.fail(p, "an environment variable's name must be non-empty and hold no '='");
            else if (it->is_null())
                f.env[it.key()] = std::nullopt;
            else if (auto s = r.string(*it, p))
                f.env[it.key()] = *s;
        }
    }
    if (auto* v = JsonRead::member(o, "timeout_seconds"))
        f.timeout_seconds = r.number(*v, JsonRead::key(path, "timeout_seconds"), 0, true);
    if (auto* v = JsonRead::member(o, "grace_seconds"))
        f.grace_seconds = r.number(*v, JsonRead::key(path, "grace_seconds"), 0, false);
    if (auto* v = JsonRead::member(o, "gpu")) {
        f.gpu_set = true;
        if (v->is_string() && v->get<std::string>() == "any")
            f.gpu = std::nullopt;
        else if (v->is_number_integer() || v->is_number_unsigned()) {
            if (auto i = r.integer(*v, JsonRead::key(path, "gpu"), 0)) {
                if (*i < kMaxGpuIndex)
                    f.gpu = int(*i);
                else
                    r.fail(JsonRead::key(path, "gpu"), "GPU index " + std::to_string(*i) + " is too large");
            }
        } else
            r.fail(JsonRead::key(path, "gpu"),
                   "expected a GPU index (an integer >= 0) or \"any\", found " +
                       (v->is_string() ? v->dump() : JsonRead::typeName(*v)));
    }
    if (auto* v = JsonRead::member(o, "result_glob"))
        f.result_glob = r.string(*v, JsonRead::key(path, "result_glob"), true);
    if (auto* v = JsonRead::member(o, "work"); v && r.object(*v, JsonRead::key(path, "work")))
        f.work = *v;
}

void readExecutor(JsonRead& r, const nlohmann::json& v, const std::string& base_dir, ExecutorSettings& e)
{
    const std::string path = "executor";
    if (!r.object(v, path))
        return;
    auto* kind = JsonRead::member(v, "kind");
    if (!kind) {
        r.fail("executor.kind", "missing; expected \"local\" or \"slurm\"");
        return;
    }
    auto k = r.string(*kind, "executor.kind", true);
    if (!k)
        return;
    if (auto parsed = executorKindFrom(*k))
        e.kind = *parsed;
    else {
        r.fail("executor.kind", "unknown executor \"" + *k + "\"; expected \"local\" or \"slurm\"");
        return;
    }
    if (e.kind == ExecutorKind::Local) {
        r.onlyKeys(v, path, {"kind"});
        return;
    }
    r.onlyKeys(v, path,
               {"kind", "partition", "account", "qos", "gpus_per_job", "cpus_per_job", "mem_per_job",
                "sbatch_args", "slurm_bin", "slurm_conf", "joulebench_cli", "poll_seconds"});
    auto str = [&](const char* key, std::string& to) {
        if (auto* x = JsonRead::member(v, key))
            if (auto s = r.string(*x, JsonRead::key(path, key), true))
                to = *s;
    };
    str("partition", e.partition);
    str("account", e.account);
    str("qos", e.qos);
    str("mem_per_job", e.mem_per_job);
    if (auto* x = JsonRead::member(v, "gpus_per_job"))
        if (auto i = r.integer(*x, "executor.gpus_per_job", 0)) {
            if (*i > 1024)
                r.fail("executor.gpus_per_job", std::to_string(*i) + " GPUs per job is too many");
            else
                e.gpus_per_job = int(*i);
        }
    if (auto* x = JsonRead::member(v, "cpus_per_job"))
        if (auto i = r.integer(*x, "executor.cpus_per_job", 1)) {
            if (*i > 1'000'000)
                r.fail("executor.cpus_per_job", std::to_string(*i) + " CPUs per job is too many");
            else
                e.cpus_per_job = int(*i);
        }
    if (auto* x = JsonRead::member(v, "sbatch_args"))
        if (auto l = r.strings(*x, "executor.sbatch_args", false))
            e.sbatch_args = *l;
    std::string s;
    str("slurm_bin", s);
    if (!s.empty())
        e.slurm_bin = absoluteFrom(base_dir, s);
    s.clear();
    str("slurm_conf", s);
    if (!s.empty())
        e.slurm_conf = absoluteFrom(base_dir, s);
    s.clear();
    str("joulebench_cli", s);
    if (!s.empty())
        e.joulebench_cli = programFrom(base_dir, s);
    if (auto* x = JsonRead::member(v, "poll_seconds"))
        if (auto d = r.number(*x, "executor.poll_seconds", 0.05, false))
            e.poll_seconds = *d;
}

}  // namespace

std::string executorKindName(ExecutorKind k)
{
    return k == ExecutorKind::Slurm ? "slurm" : "local";
}

std::optional<ExecutorKind> executorKindFrom(const std::string& s)
{
    if (s == "local")
        return ExecutorKind::Local;
    if (s == "slurm")
        return ExecutorKind::Slurm;
    return std::nullopt;
}

nlohmann::json JobSpec::toJson() const
{
    nlohmann::json j;
    j["name"] = name;
    j["argv"] = argv;
    j["cwd"] = cwd;
    nlohmann::json e = nlohmann::json::object();
    for (const auto& [k, v] : env)
        e[k] = v ? nlohmann::json(*v) : nlohmann::json();
    j["env"] = e;
    j["timeout_seconds"] = timeout_seconds;
    j["grace_seconds"] = grace_seconds;
    j["gpu"] = gpu ? nlohmann::json(*gpu) : nlohmann::json("any");
    j["result_glob"] = result_glob.empty() ? nlohmann::json() : nlohmann::json(result_glob);
    return j;
}

std::string gpuText(const std::optional<int>& gpu)
{
    return gpu ? std::to_string(*gpu) : "any";
}

std::string fillPlaceholders(const std::string& s, const std::string& run_dir, const std::string& name,
                             int gpu)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        auto take = [&](const char* ph, const std::string& value) {
            const std::size_t n = std::char_traits<char>::length(ph);
            if (s.compare(i, n, ph) != 0)
                return false;
            out += value;
            i += n;
            return true;
        };
        if (s[i] == '{' &&
            (take("{run_dir}", run_dir) || take("{name}", name) || take("{gpu}", std::to_string(gpu))))
            continue;
        out += s[i++];
    }
    return out;
}

Result<JobFile> parseJobFileText(const std::string& text, const std::string& base_dir,
                                 const std::string& origin, std::optional<ExecutorKind> executor)
{
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // syntax, and numbers out of range (11e308)
        return Error{origin + ": not valid JSON: " + e.what()};
    }
    JsonRead r(origin);
    JobFile f;
    if (!r.object(root, ""))
        return Error{r.error()};
    r.onlyKeys(root, "",
               {"version", "output_root", "allowed_gpus", "provenance", "energy",
                "memory_sampling_period_seconds", "nvml_library", "nvidia_smi", "executor", "defaults", "jobs"});
    if (auto* v = JsonRead::member(root, "version"); v && r.integer(*v, "version", 1) != 1)
        r.fail("version", "this JouleBench reads job files of version 1");

    if (auto* v = JsonRead::member(root, "output_root")) {
        if (auto s = r.string(*v, "output_root", true))
            f.output_root = absoluteFrom(base_dir, *s);
    } else
        r.fail("output_root", "missing; expected the folder runs are written to");

    if (auto* v = JsonRead::member(root, "executor"))
        readExecutor(r, *v, base_dir, f.executor);
    if (executor)
        f.executor.kind = *executor;
    const bool slurm = f.executor.kind == ExecutorKind::Slurm;

    if (auto* v = JsonRead::member(root, "allowed_gpus")) {
        if (!v->is_array() || v->empty())
            r.fail("allowed_gpus",
                   "expected a non-empty array of GPU indices (as nvidia-smi numbers them), found " +
                       (v->is_array() ? std::string("an empty array") : JsonRead::typeName(*v)));
        else
            for (std::size_t i = 0; i < v->size(); ++i)
                if (auto g = r.integer((*v)[i], JsonRead::index("allowed_gpus", i), 0)) {
                    if (*g >= kMaxGpuIndex)
                        r.fail(JsonRead::index("allowed_gpus", i),
                               "GPU index " + std::to_string(*g) + " is not a GPU index (too large)");
                    else if (std::find(f.allowed_gpus.begin(), f.allowed_gpus.end(), int(*g)) !=
                             f.allowed_gpus.end())
                        r.fail(JsonRead::index("allowed_gpus", i),
                               "GPU " + std::to_string(*g) + " is listed twice");
                    f.allowed_gpus.push_back(int(*g));
                }
    } else if (!slurm)
        r.fail("allowed_gpus", "missing; expected the GPU indices jobs may use, such as [5, 7]");

    if (auto* v = JsonRead::member(root, "memory_sampling_period_seconds"))
        if (auto d = r.number(*v, "memory_sampling_period_seconds", 0, true))
            f.memory_sampling_period_seconds = *d;
    if (auto* v = JsonRead::member(root, "nvml_library"))
        if (auto s = r.string(*v, "nvml_library", true))
            f.nvml_library = programFrom(base_dir, *s);
    if (auto* v = JsonRead::member(root, "nvidia_smi"))
        if (auto s = r.string(*v, "nvidia_smi", true))
            f.nvidia_smi = programFrom(base_dir, *s);

    if (auto* v = JsonRead::member(root, "energy"); v && r.object(*v, "energy")) {
        r.onlyKeys(*v, "energy", {"idle_seconds", "sampling_period_seconds", "gpu", "package_counter"});
        if (auto* x = JsonRead::member(*v, "idle_seconds"))
            if (auto d = r.number(*x, "energy.idle_seconds", 0, false))
                f.energy.idle_seconds = *d;
        if (auto* x = JsonRead::member(*v, "sampling_period_seconds"))
            if (auto d = r.number(*x, "energy.sampling_period_seconds", 0.001, false))
                f.energy.sampling_period_seconds = *d;
        if (auto* x = JsonRead::member(*v, "gpu"))
            if (auto b = r.boolean(*x, "energy.gpu"))
                f.energy.gpu = *b;
        if (auto* x = JsonRead::member(*v, "package_counter")) {
            if (x->is_null())
                f.energy.package_counter.clear();
            else if (auto s = r.string(*x, "energy.package_counter", true))
                f.energy.package_counter = *s;
        }
    }

    if (auto* v = JsonRead::member(root, "provenance"); v && r.object(*v, "provenance")) {
        r.onlyKeys(*v, "provenance", {"source", "require_clean", "files", "trees", "environment_command"});
        ProvenanceSettings& p = f.provenance;
        if (auto* x = JsonRead::member(*v, "source")) {
            if (auto s = r.string(*x, "provenance.source", true))
                p.source = absoluteFrom(base_dir, *s);
        } else
            r.fail("provenance.source", "missing; expected the source folder whose state is recorded");
        if (auto* x = JsonRead::member(*v, "require_clean"))
            if (auto b = r.boolean(*x, "provenance.require_clean"))
                p.require_clean = *b;
        if (auto* x = JsonRead::member(*v, "files"))
            if (auto l = r.strings(*x, "provenance.files", false))
                p.files = *l;
        if (auto* x = JsonRead::member(*v, "trees"))
            if (auto l = r.strings(*x, "provenance.trees", false))
                p.trees = *l;
        if (auto* x = JsonRead::member(*v, "environment_command")) {
            if (x->is_string()) {
                if (auto s = r.string(*x, "provenance.environment_command", true))
                    p.environment_command = {"/bin/sh", "-c", *s};
            } else if (auto l = r.strings(*x, "provenance.environment_command", true))
                p.environment_command = *l;
        }
    }

    JobFields defaults;
    if (auto* v = JsonRead::member(root, "defaults"); v && r.object(*v, "defaults")) {
        r.onlyKeys(*v, "defaults",
                   {"argv", "cwd", "env", "timeout_seconds", "grace_seconds", "gpu", "result_glob", "work"});
        readFields(r, *v, "defaults", defaults);
    }

    const nlohmann::json* jobs = JsonRead::member(root, "jobs");
    if (!jobs)
        r.fail("jobs", "missing; expected an array of jobs");
    else if (!jobs->is_array() || jobs->empty())
        r.fail("jobs",
               "expected a non-empty array of jobs, found " +
                   (jobs->is_array() ? std::string("an empty array") : JsonRead::typeName(*jobs)));
    std::set<std::string> names;
    for (std::size_t i = 0; r.ok() && jobs && jobs->is_array() && i < jobs->size(); ++i) {
        const std::string path = JsonRead::index("jobs", i);
        const nlohmann::json& o = (*jobs)[i];
        if (!r.object(o, path))
            break;
        r.onlyKeys(
            o, path,
            {"name", "argv", "cwd", "env", "timeout_seconds", "grace_seconds", "gpu", "result_glob", "work"});
        JobFields own;
        readFields(r, o, path, own);
        JobSpec job;
        if (auto* v = JsonRead::member(o, "name")) {
            if (auto s = r.string(*v, JsonRead::key(path, "name"), true)) {
                job.name = *s;
                if (!validName(job.name))
                    r.fail(JsonRead::key(path, "name"),
                           "\"" + job.name +
                               "\" cannot name a folder; use letters, digits, '.', '_' and '-'");
                else if (!names.insert(job.name).second)
                    r.fail(JsonRead::key(path, "name"), "\"" + job.name + "\" names an earlier job too");
            }
        } else
            r.fail(JsonRead::key(path, "name"),
                   "missing; expected the job's name (its folder under output_root)");
        if (!r.ok())
            break;
        if (own.argv)
            job.argv = *own.argv;
        else if (defaults.argv)
            job.argv = *defaults.argv;
        else
            r.fail(JsonRead::key(path, "argv"), "missing; expected the command as an array of strings");
        const std::optional<std::string>& cwd = own.cwd ? own.cwd : defaults.cwd;
        job.cwd = absoluteFrom(base_dir, cwd ? *cwd : std::string("."));
        job.env = defaults.env;
        for (const auto& [k, v] : own.env)
            job.env[k] = v;
        if (own.timeout_seconds || defaults.timeout_seconds)
            job.timeout_seconds = own.timeout_seconds ? *own.timeout_seconds : *defaults.timeout_seconds;
        else
            r.fail(JsonRead::key(path, "timeout_seconds"),
                   "missing (here or in defaults); expected seconds > 0");
        if (own.grace_seconds || defaults.grace_seconds)
            job.grace_seconds = own.grace_seconds ? *own.grace_seconds : *defaults.grace_seconds;
        if (own.gpu_set || defaults.gpu_set)
            job.gpu = own.gpu_set ? own.gpu : defaults.gpu;
        else if (!slurm)
            r.fail(JsonRead::key(path, "gpu"),
                   "missing (here or in defaults); expected a GPU index or \"any\"");
        if (r.ok() && slurm && job.gpu)
            r.fail(own.gpu_set ? JsonRead::key(path, "gpu") : std::string("defaults.gpu"),
                   "a fixed GPU index (" + std::to_string(*job.gpu) +
                       ") belongs to the local executor; with Slurm, Slurm picks the device: use \"any\" "
                       "(the default) and executor.gpus_per_job for how many");
        if (r.ok() && !slurm && job.gpu &&
            std::find(f.allowed_gpus.begin(), f.allowed_gpus.end(), *job.gpu) == f.allowed_gpus.end()) {
            std::string list;
            for (int g : f.allowed_gpus)
                list += (list.empty() ? "" : ", ") + std::to_string(g);
            r.fail(own.gpu_set ? JsonRead::key(path, "gpu") : std::string("defaults.gpu"),
                   "GPU " + std::to_string(*job.gpu) + " is not in allowed_gpus [" + list + "]" +
                       (own.gpu_set ? "" : " (job \"" + job.name + "\")"));
        }
        if (own.result_glob || defaults.result_glob)
            job.result_glob = own.result_glob ? *own.result_glob : *defaults.result_glob;
        if (own.work || defaults.work)
            job.work = own.work ? *own.work : *defaults.work;
        f.jobs.push_back(std::move(job));
    }
    if (!r.ok())
        return Error{r.error()};
    return f;
}

Result<JobFile> readJobFile(const std::string& path, std::optional<ExecutorKind> executor)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{"cannot read job file '" + path + "': " + std::strerror(errno)};
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string abs = fs::absolute(fs::path(path)).lexically_normal().string();
    auto f = parseJobFileText(ss.str(), fs::path(abs).parent_path().string(), path, executor);
    if (f)
        f->path = abs;
    return f;
}

}  // namespace jb
