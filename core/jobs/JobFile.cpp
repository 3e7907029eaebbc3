#include <jb/jobs/JobFile.h>

#include <jb/base/JsonReader.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

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

using json = nlohmann::json;
using namespace jsonread;

// Every number of seconds a job file holds ends up as nanoseconds in an int64 (timers, deadlines):
// bounded where it is read, so 1e10 is an error naming its path instead of an instant timeout.
constexpr double kMaxSeconds = 1e7;  // about 115 days

double secondsAt(const json& v, const std::string& path, double min, bool exclusive = false)
{
    const double s = asNumberAtLeast(v, path, min, exclusive);
    if (s > kMaxSeconds)
        jsonFail(path, "expected seconds up to 10000000 (about 115 days), found " + describe(v));
    return s;
}

// The JSON path of the number the parser could not hold (1e400 overflows a double): the JSON
// library says "number overflow" and where in the text, never which value it was.
class OverflowPath : public nlohmann::json_sax<json> {
public:
    std::string path() const { return where_; }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override
    {
        frames_.push_back({here(), false, 0});
        return true;
    }
    bool key(string_t& k) override
    {
        key_ = k;
        return true;
    }
    bool end_object() override { return end(); }
    bool start_array(std::size_t) override
    {
        frames_.push_back({here(), true, 0});
        return true;
    }
    bool end_array() override { return end(); }
    bool parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception&) override
    {
        where_ = here();
        token_ = token;
        return false;
    }
    const std::string& token() const { return token_; }

private:
    struct Frame {
        std::string path;
        bool array = false;
        std::size_t index = 0;
    };
    std::string here() const
    {
        if (frames_.empty())
            return "$";
        const Frame& f = frames_.back();
        return f.array ? jsonPathIndex(f.path, f.index) : jsonPathKey(f.path, key_);
    }
    bool value()
    {
        if (!frames_.empty() && frames_.back().array)
            ++frames_.back().index;
        return true;
    }
    bool end()
    {
        frames_.pop_back();
        return value();
    }
    std::vector<Frame> frames_;
    std::string key_;
    std::string where_, token_;
};

void readFields(const json& o, const std::string& path, JobFields& f)
{
    if (auto* v = member(o, "argv"))
        f.argv = asStrings(*v, jsonPathKey(path, "argv"), true);
    if (auto* v = member(o, "cwd"))
        f.cwd = asString(*v, jsonPathKey(path, "cwd"), true);
    if (auto* v = member(o, "env")) {
        const std::string ep = jsonPathKey(path, "env");
        for (auto it = asObject(*v, ep).begin(); it != v->end(); ++it) {
            const std::string p = jsonPathKey(ep, it.key());
            if (it.key().empty() || it.key().find('=') != std::string::npos)
                jsonFail(p, "an environment variable's name must be non-empty and hold no '='");
            if (it->is_null())
                f.env[it.key()] = std::nullopt;
            else
                f.env[it.key()] = asString(*it, p);
        }
    }
    if (auto* v = member(o, "timeout_seconds"))
        f.timeout_seconds = secondsAt(*v, jsonPathKey(path, "timeout_seconds"), 0, true);
    if (auto* v = member(o, "grace_seconds"))
        f.grace_seconds = secondsAt(*v, jsonPathKey(path, "grace_seconds"), 0);
    if (auto* v = member(o, "gpu")) {
        const std::string gp = jsonPathKey(path, "gpu");
        f.gpu_set = true;
        if (v->is_string() && v->get<std::string>() == "any")
            f.gpu = std::nullopt;
        else if (v->is_number_integer()) {
            const std::int64_t i = asIntAtLeast(*v, gp, 0);
            if (i >= kMaxGpuIndex)
                jsonFail(gp, "GPU index " + std::to_string(i) + " is too large");
            f.gpu = int(i);
        } else
            wrongType(*v, gp, "a GPU index (an integer >= 0) or \"any\"");
    }
    if (auto* v = member(o, "result_glob"))
        f.result_glob = asString(*v, jsonPathKey(path, "result_glob"), true);
    if (auto* v = member(o, "work"))
        f.work = asObject(*v, jsonPathKey(path, "work"));
}

void readExecutor(const json& v, const std::string& base_dir, ExecutorSettings& e)
{
    const std::string path = "$.executor";
    asObject(v, path);
    const std::string kp = jsonPathKey(path, "kind");
    auto* kind = member(v, "kind");
    if (!kind)
        jsonFail(kp, "missing; expected \"local\" or \"slurm\"");
    const std::string k = asString(*kind, kp, true);
    if (auto parsed = executorKindFrom(k))
        e.kind = *parsed;
    else
        jsonFail(kp, "unknown executor \"" + k + "\"; expected \"local\" or \"slurm\"");
    if (e.kind == ExecutorKind::Local) {
        onlyKeys(v, path, {"kind"});
        return;
    }
    onlyKeys(v, path,
             {"kind", "partition", "account", "qos", "gpus_per_job", "cpus_per_job", "mem_per_job",
              "sbatch_args", "slurm_bin", "slurm_conf", "joulebench_cli", "poll_seconds"});
    auto str = [&](const char* key, std::string& to) {
        if (auto* x = member(v, key))
            to = asString(*x, jsonPathKey(path, key), true);
    };
    str("partition", e.partition);
    str("account", e.account);
    str("qos", e.qos);
    str("mem_per_job", e.mem_per_job);
    if (auto* x = member(v, "gpus_per_job")) {
        const std::int64_t i = asIntAtLeast(*x, "$.executor.gpus_per_job", 0);
        if (i > 1024)
            jsonFail("$.executor.gpus_per_job", std::to_string(i) + " GPUs per job is too many");
        e.gpus_per_job = int(i);
    }
    if (auto* x = member(v, "cpus_per_job")) {
        const std::int64_t i = asIntAtLeast(*x, "$.executor.cpus_per_job", 1);
        if (i > 1'000'000)
            jsonFail("$.executor.cpus_per_job", std::to_string(i) + " CPUs per job is too many");
        e.cpus_per_job = int(i);
    }
    if (auto* x = member(v, "sbatch_args"))
        e.sbatch_args = asStrings(*x, "$.executor.sbatch_args");
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
    if (auto* x = member(v, "poll_seconds"))
        e.poll_seconds = secondsAt(*x, "$.executor.poll_seconds", 0.05);
}

JobFile readJobFileTree(const json& root, const std::string& base_dir, std::optional<ExecutorKind> executor)
{
    JobFile f;
    asObject(root, "$");
    onlyKeys(root, "$",
             {"version", "output_root", "allowed_gpus", "provenance", "energy",
              "memory_sampling_period_seconds", "nvml_library", "nvidia_smi", "executor", "defaults", "jobs"});
    if (auto* v = member(root, "version"); v && asIntAtLeast(*v, "$.version", 1) != 1)
        jsonFail("$.version", "this JouleBench reads job files of version 1");

    if (auto* v = member(root, "output_root"))
        f.output_root = absoluteFrom(base_dir, asString(*v, "$.output_root", true));
    else
        jsonFail("$.output_root", "missing; expected the folder runs are written to");

    if (auto* v = member(root, "executor"))
        readExecutor(*v, base_dir, f.executor);
    if (executor)
        f.executor.kind = *executor;
    const bool slurm = f.executor.kind == ExecutorKind::Slurm;

    if (auto* v = member(root, "allowed_gpus")) {
        if (!v->is_array() || v->empty())
            wrongType(*v, "$.allowed_gpus", "a non-empty array of GPU indices (as nvidia-smi numbers them)");
        for (std::size_t i = 0; i < v->size(); ++i) {
            const std::string gp = jsonPathIndex("$.allowed_gpus", i);
            const std::int64_t g = asIntAtLeast((*v)[i], gp, 0);
            if (g >= kMaxGpuIndex)
                jsonFail(gp, "GPU index " + std::to_string(g) + " is not a GPU index (too large)");
            if (std::find(f.allowed_gpus.begin(), f.allowed_gpus.end(), int(g)) != f.allowed_gpus.end())
                jsonFail(gp, "GPU " + std::to_string(g) + " is listed twice");
            f.allowed_gpus.push_back(int(g));
        }
    } else if (!slurm)
        jsonFail("$.allowed_gpus", "missing; expected the GPU indices jobs may use, such as [5, 7]");

    if (auto* v = member(root, "memory_sampling_period_seconds"))
        f.memory_sampling_period_seconds = secondsAt(*v, "$.memory_sampling_period_seconds", 0, true);
    if (auto* v = member(root, "nvml_library"))
        f.nvml_library = programFrom(base_dir, asString(*v, "$.nvml_library", true));
    if (auto* v = member(root, "nvidia_smi"))
        f.nvidia_smi = programFrom(base_dir, asString(*v, "$.nvidia_smi", true));

    if (auto* v = member(root, "energy")) {
        asObject(*v, "$.energy");
        onlyKeys(*v, "$.energy", {"idle_seconds", "sampling_period_seconds", "gpu", "package_counter"});
        if (auto* x = member(*v, "idle_seconds"))
            f.energy.idle_seconds = secondsAt(*x, "$.energy.idle_seconds", 0);
        if (auto* x = member(*v, "sampling_period_seconds"))
            f.energy.sampling_period_seconds = secondsAt(*x, "$.energy.sampling_period_seconds", 0.001);
        if (auto* x = member(*v, "gpu"))
            f.energy.gpu = asBool(*x, "$.energy.gpu");
        if (auto* x = member(*v, "package_counter")) {
            if (x->is_null())
                f.energy.package_counter.clear();
            else
                f.energy.package_counter = asString(*x, "$.energy.package_counter", true);
        }
    }

    if (auto* v = member(root, "provenance")) {
        asObject(*v, "$.provenance");
        onlyKeys(*v, "$.provenance", {"source", "require_clean", "files", "trees", "environment_command"});
        ProvenanceSettings& p = f.provenance;
        if (auto* x = member(*v, "source"))
            p.source = absoluteFrom(base_dir, asString(*x, "$.provenance.source", true));
        else
            jsonFail("$.provenance.source", "missing; expected the source folder whose state is recorded");
        if (auto* x = member(*v, "require_clean"))
            p.require_clean = asBool(*x, "$.provenance.require_clean");
        if (auto* x = member(*v, "files"))
            p.files = asStrings(*x, "$.provenance.files");
        if (auto* x = member(*v, "trees"))
            p.trees = asStrings(*x, "$.provenance.trees");
        if (auto* x = member(*v, "environment_command")) {
            if (x->is_string())
                p.environment_command = {"/bin/sh", "-c",
                                         asString(*x, "$.provenance.environment_command", true)};
            else
                p.environment_command = asStrings(*x, "$.provenance.environment_command", true);
        }
    }

    JobFields defaults;
    if (auto* v = member(root, "defaults")) {
        asObject(*v, "$.defaults");
        onlyKeys(*v, "$.defaults",
                 {"argv", "cwd", "env", "timeout_seconds", "grace_seconds", "gpu", "result_glob", "work"});
        readFields(*v, "$.defaults", defaults);
    }

    const json* jobs = member(root, "jobs");
    if (!jobs)
        jsonFail("$.jobs", "missing; expected an array of jobs");
    if (!jobs->is_array() || jobs->empty())
        wrongType(*jobs, "$.jobs", "a non-empty array of jobs");
    std::set<std::string> names;
    for (std::size_t i = 0; i < jobs->size(); ++i) {
        const std::string path = jsonPathIndex("$.jobs", i);
        const json& o = asObject((*jobs)[i], path);
        onlyKeys(o, path,
                 {"name", "argv", "cwd", "env", "timeout_seconds", "grace_seconds", "gpu", "result_glob", "work"});
        JobFields own;
        readFields(o, path, own);
        JobSpec job;
        const std::string np = jsonPathKey(path, "name");
        if (auto* v = member(o, "name")) {
            job.name = asString(*v, np, true);
            if (!validName(job.name))
                jsonFail(np, "\"" + job.name + "\" cannot name a folder; use letters, digits, '.', '_' and '-'");
            if (!names.insert(job.name).second)
                jsonFail(np, "\"" + job.name + "\" names an earlier job too");
        } else
            jsonFail(np, "missing; expected the job's name (its folder under output_root)");
        if (own.argv)
            job.argv = *own.argv;
        else if (defaults.argv)
            job.argv = *defaults.argv;
        else
            jsonFail(jsonPathKey(path, "argv"), "missing; expected the command as an array of strings");
        const std::optional<std::string>& cwd = own.cwd ? own.cwd : defaults.cwd;
        job.cwd = absoluteFrom(base_dir, cwd ? *cwd : std::string("."));
        job.env = defaults.env;
        for (const auto& [k, v] : own.env)
            job.env[k] = v;
        if (own.timeout_seconds || defaults.timeout_seconds)
            job.timeout_seconds = own.timeout_seconds ? *own.timeout_seconds : *defaults.timeout_seconds;
        else
            jsonFail(jsonPathKey(path, "timeout_seconds"), "missing (here or in defaults); expected seconds > 0");
        if (own.grace_seconds || defaults.grace_seconds)
            job.grace_seconds = own.grace_seconds ? *own.grace_seconds : *defaults.grace_seconds;
        // Where the GPU came from: the job's own key, or the defaults' (named with the job).
        const std::string gp = own.gpu_set ? jsonPathKey(path, "gpu") : std::string("$.defaults.gpu");
        if (own.gpu_set || defaults.gpu_set)
            job.gpu = own.gpu_set ? own.gpu : defaults.gpu;
        else if (!slurm)
            jsonFail(jsonPathKey(path, "gpu"), "missing (here or in defaults); expected a GPU index or \"any\"");
        if (slurm && job.gpu)
            jsonFail(gp, "a fixed GPU index (" + std::to_string(*job.gpu) +
                             ") belongs to the local executor; with Slurm, Slurm picks the device: use \"any\" "
                             "(the default) and executor.gpus_per_job for how many");
        if (!slurm && job.gpu &&
            std::find(f.allowed_gpus.begin(), f.allowed_gpus.end(), *job.gpu) == f.allowed_gpus.end()) {
            std::string list;
            for (int g : f.allowed_gpus)
                list += (list.empty() ? "" : ", ") + std::to_string(g);
            jsonFail(gp, "GPU " + std::to_string(*job.gpu) + " is not in allowed_gpus [" + list + "]" +
                             (own.gpu_set ? "" : " (job \"" + job.name + "\")"));
        }
        if (own.result_glob || defaults.result_glob)
            job.result_glob = own.result_glob ? *own.result_glob : *defaults.result_glob;
        if (own.work || defaults.work)
            job.work = own.work ? *own.work : *defaults.work;
        f.jobs.push_back(std::move(job));
    }
    return f;
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
    } catch (const nlohmann::json::out_of_range& e) {
        // A number no double holds (1e400): named by its path and text, as any bad value is.
        OverflowPath where;
        nlohmann::json::sax_parse(text, &where);
        if (e.id == 406 && !where.path().empty())
            return Error{origin + ": " + where.path() + ": expected a number, found " + where.token() +
                         " (beyond any number a double holds)"};
        return Error{origin + ": not valid JSON: " + e.what()};
    } catch (const nlohmann::json::exception& e) {
        return Error{origin + ": not valid JSON: " + e.what()};
    }
    return readJson(origin, [&] { return readJobFileTree(root, base_dir, executor); });
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
