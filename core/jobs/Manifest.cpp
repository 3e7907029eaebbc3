#include <jb/jobs/Manifest.h>

#include <jb/base/JsonReader.h>
#include <jb/record/AtomicWrite.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace jb {

namespace {

constexpr const char* kStatusNames[] = {"completed",      "nonzero_exit",    "timeout",
                                        "missing_result", "failed_to_start", "cancelled",
                                        "node_failed", "preempted"};

// The manifest's own top-level keys; every other top-level key is one of the job's fields.
constexpr const char* kManifestKeys[] = {"source",
                                         "status",
                                         "return_code",
                                         "histogram",
                                         "histogram_sha256",
                                         "result",
                                         "result_sha256",
                                         "driver_wall_seconds",
                                         "started_unix_time",
                                         "completed_unix_time",
                                         "hardware",
                                         "work",
                                         "energy",
                                         "logs",
                                         "run_directory",
                                         "cuda_visible_devices",
                                         "argv_run",
                                         "concurrent_jobs",
                                         "termination",
                                         "notes",
                                         "joulebench_version",
                                         "slurm"};

bool isManifestKey(const std::string& k)
{
    for (const char* m : kManifestKeys)
        if (k == m)
            return true;
    return false;
}

template <class T>
nlohmann::json orNull(const std::optional<T>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace

std::string statusName(JobStatus s)
{
    return kStatusNames[int(s)];
}

std::optional<JobStatus> jobStatusFrom(const std::string& s)
{
    for (int i = 0; i < int(std::size(kStatusNames)); ++i)
        if (s == kStatusNames[i])
            return JobStatus(i);
    return std::nullopt;
}

nlohmann::json JobManifest::toJson() const
{
    nlohmann::json j = job.is_object() ? job : nlohmann::json::object();
    j["source"] = source;
    j["status"] = statusName(status);
    j["return_code"] = orNull(return_code);
    // The reference names the result file `histogram`; both names are written.
    j["histogram"] = orNull(result);
    j["histogram_sha256"] = orNull(result_sha256);
    j["result"] = orNull(result);
    j["result_sha256"] = orNull(result_sha256);
    j["driver_wall_seconds"] = driver_wall_seconds;
    j["started_unix_time"] = started_unix_time;
    j["completed_unix_time"] = completed_unix_time;
    nlohmann::json h;
    h["physical_index"] = hardware.physical_index;
    h["uuid"] = hardware.uuid;
    h["name"] = hardware.name;
    h["total_memory_mib"] = hardware.total_memory_mib;
    h["peak_process_gpu_memory_mib"] = hardware.peak_process_gpu_memory_mib;
    // The reference writes the period as the integer 1; a whole number of seconds stays an integer
    // so that scripts comparing its type (or its text) keep working.
    const double period = hardware.memory_sampling_period_seconds;
    if (period == std::floor(period) && std::abs(period) < 1e15)
        h["memory_sampling_period_seconds"] = static_cast<std::int64_t>(period);
    else
        h["memory_sampling_period_seconds"] = period;
    h["gpu_report_source"] = hardware.gpu_report_source;
    h["memory_source"] = hardware.memory_source;
    h["memory_samples"] = hardware.memory_samples;
    h["memory_read_errors"] = hardware.memory_read_errors;
    h["memory_last_error"] = orNull(hardware.memory_last_error);
    h["accounting"] = hardware.accounting ? hardware.accounting->toJson() : nlohmann::json();
    j["hardware"] = h;
    j["work"] = work;
    j["energy"] = energy ? energy->toJson() : nlohmann::json();
    j["logs"] = logs;
    j["run_directory"] = run_directory;
    j["cuda_visible_devices"] = cuda_visible_devices;
    j["argv_run"] = argv_run;
    j["concurrent_jobs"] = concurrent_jobs;
    j["termination"] = termination ? termination->toJson() : nlohmann::json();
    j["notes"] = notes;
    j["joulebench_version"] = joulebench_version;
    if (slurm)
        j["slurm"] = slurm->toJson();  // only jobs run by the Slurm executor have one
    return j;
}

Result<JobManifest> JobManifest::fromJson(const nlohmann::json& j, const std::string& origin)
{
    using json = nlohmann::json;
    using namespace jsonread;
    return readJson(origin, [&] {
        JobManifest m;
        asObject(j, "$");
        auto need = [&](const char* k) -> const json& {
            const json* v = member(j, k);
            if (!v)
                jsonFail(jsonPathKey("$", k), "missing");
            return *v;
        };
        auto optString = [&](const json* v, const std::string& path) -> std::optional<std::string> {
            if (!v || v->is_null())
                return std::nullopt;
            return asString(*v, path);
        };
        m.job = json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!isManifestKey(it.key()))
                m.job[it.key()] = *it;
        if (auto* v = member(j, "source"))
            m.source = *v;
        const std::string s = asString(need("status"), "$.status");
        if (auto st = jobStatusFrom(s))
            m.status = *st;
        else
            jsonFail("$.status",
                     "expected one of completed, nonzero_exit, timeout, missing_result, "
                     "failed_to_start, cancelled; found \"" +
                         s + "\"");
        if (auto* v = member(j, "return_code"); v && !v->is_null())
            m.return_code = int(asIntAtLeast(*v, "$.return_code", -1000));
        // `result` is JouleBench's name; a manifest of the reference driver has `histogram` only.
        const json* result = member(j, "result");
        m.result = optString(result ? result : member(j, "histogram"), result ? "$.result" : "$.histogram");
        const json* sha = member(j, "result_sha256");
        m.result_sha256 = optString(sha ? sha : member(j, "histogram_sha256"),
                                    sha ? "$.result_sha256" : "$.histogram_sha256");
        m.driver_wall_seconds = asNumberAtLeast(need("driver_wall_seconds"), "$.driver_wall_seconds", 0);
        if (auto* v = member(j, "started_unix_time"))
            m.started_unix_time = asNumberAtLeast(*v, "$.started_unix_time", 0);
        m.completed_unix_time = asNumberAtLeast(need("completed_unix_time"), "$.completed_unix_time", 0);
        const json& h = asObject(need("hardware"), "$.hardware");
        JobHardware& hw = m.hardware;
        if (auto* v = member(h, "physical_index"))
            hw.physical_index = int(asIntAtLeast(*v, "$.hardware.physical_index", -1));
        if (auto* v = member(h, "uuid"))
            hw.uuid = asString(*v, "$.hardware.uuid");
        if (auto* v = member(h, "name"))
            hw.name = asString(*v, "$.hardware.name");
        if (auto* v = member(h, "total_memory_mib"))
            hw.total_memory_mib = asIntAtLeast(*v, "$.hardware.total_memory_mib", 0);
        if (auto* v = member(h, "peak_process_gpu_memory_mib"))
            hw.peak_process_gpu_memory_mib = asIntAtLeast(*v, "$.hardware.peak_process_gpu_memory_mib", 0);
        if (auto* v = member(h, "memory_sampling_period_seconds"))
            hw.memory_sampling_period_seconds =
                asNumberAtLeast(*v, "$.hardware.memory_sampling_period_seconds", 0, true);
        if (auto* v = member(h, "gpu_report_source"))
            hw.gpu_report_source = asString(*v, "$.hardware.gpu_report_source");
        if (auto* v = member(h, "memory_source"))
            hw.memory_source = asString(*v, "$.hardware.memory_source");
        if (auto* v = member(h, "memory_samples"))
            hw.memory_samples = asIntAtLeast(*v, "$.hardware.memory_samples", 0);
        if (auto* v = member(h, "memory_read_errors"))
            hw.memory_read_errors = asIntAtLeast(*v, "$.hardware.memory_read_errors", 0);
        hw.memory_last_error = optString(member(h, "memory_last_error"), "$.hardware.memory_last_error");
        if (auto* v = member(h, "accounting"); v && !v->is_null())
            hw.accounting = JobAccounting::read(*v, "$.hardware.accounting");
        if (auto* v = member(j, "work"))
            m.work = *v;
        if (auto* v = member(j, "energy"); v && !v->is_null())
            m.energy = JobEnergy::read(*v, "$.energy");
        if (auto* v = member(j, "logs"))
            m.logs = readLogs(*v, "$.logs");
        if (auto* v = member(j, "run_directory"))
            m.run_directory = asString(*v, "$.run_directory");
        if (auto* v = member(j, "cuda_visible_devices"); v && !v->is_null())
            m.cuda_visible_devices = asString(*v, "$.cuda_visible_devices");
        if (auto* v = member(j, "argv_run"))
            m.argv_run = asStrings(*v, "$.argv_run");
        if (auto* v = member(j, "concurrent_jobs"))
            m.concurrent_jobs = asStrings(*v, "$.concurrent_jobs");
        if (auto* v = member(j, "termination"); v && !v->is_null())
            m.termination = SessionEnding::read(*v, "$.termination");
        if (auto* v = member(j, "notes"))
            m.notes = asStrings(*v, "$.notes");
        if (auto* v = member(j, "joulebench_version"))
            m.joulebench_version = asString(*v, "$.joulebench_version");
        if (auto* v = member(j, "slurm"); v && !v->is_null())
            m.slurm = SlurmRecord::read(*v, "$.slurm");
        return m;
    });
}

std::string manifestText(const nlohmann::json& j)
{
    // nlohmann::json keeps object keys sorted; ensure_ascii as Python's default.
    return j.dump(2, ' ', true) + "\n";
}

Status writeJsonAtomic(const std::string& path, const nlohmann::json& j)
{
    return writeFileAtomic(path, manifestText(j));
}

Result<JobManifest> readManifest(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{"cannot read manifest '" + path + "': " + std::strerror(errno)};
    std::ostringstream ss;
    ss << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(ss.str());
    } catch (const nlohmann::json::exception& e) {  // syntax, and numbers out of range (11e308)
        return Error{path + ": not valid JSON: " + e.what()};
    }
    return JobManifest::fromJson(j, path);
}

}  // namespace jb
