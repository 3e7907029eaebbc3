#include <jb/jobs/JobReports.h>

#include <jb/base/JsonReader.h>

#include <charconv>

namespace jb {

namespace {

using json = nlohmann::json;
using namespace jsonread;

template <class T>
json orNull(const std::optional<T>& v)
{
    return v ? json(*v) : json();
}

std::optional<std::string> optString(const json& obj, const std::string& path, const char* key)
{
    const json* v = member(obj, key);
    return v ? asStringOrNull(*v, jsonPathKey(path, key)) : std::nullopt;
}

std::optional<Verdict> optVerdict(const json& obj, const std::string& path, const char* key)
{
    const std::optional<std::string> word = optString(obj, path, key);
    if (!word)
        return std::nullopt;
    const std::optional<Verdict> v = parseVerdict(*word);
    if (!v)
        wrongType(*member(obj, key), jsonPathKey(path, key), kVerdictExpected);
    return v;
}

std::optional<double> optNumber(const json& obj, const std::string& path, const char* key)
{
    const json* v = member(obj, key);
    return v ? asNumberOrNull(*v, jsonPathKey(path, key)) : std::nullopt;
}

double number(const json& obj, const std::string& path, const char* key, double fallback = 0)
{
    const json* v = member(obj, key);
    return v ? asNumber(*v, jsonPathKey(path, key)) : fallback;
}

std::int64_t integer(const json& obj, const std::string& path, const char* key)
{
    const json* v = member(obj, key);
    return v ? asIntAtLeast(*v, jsonPathKey(path, key), 0) : 0;
}

std::optional<int> optInt(const json& obj, const std::string& path, const char* key)
{
    const json* v = member(obj, key);
    if (!v || v->is_null())
        return std::nullopt;
    return asSmallInt(*v, jsonPathKey(path, key));
}

bool hasAny(const json& obj, std::initializer_list<const char*> keys)
{
    for (const char* k : keys)
        if (obj.contains(k))
            return true;
    return false;
}

json bracketJson(const std::optional<EnergyBracket>& b)
{
    if (!b)
        return nullptr;
    json j;
    j["intervals"] = b->intervals;
    j["mean_w"] = b->mean_w;
    j["sd_w"] = b->sd_w;
    j["span_seconds"] = b->span_seconds;
    return j;
}

std::optional<EnergyBracket> readBracket(const json& obj, const std::string& path, const char* key)
{
    const json* v = member(obj, key);
    if (!v || v->is_null())
        return std::nullopt;
    const std::string p = jsonPathKey(path, key);
    asObject(*v, p);
    EnergyBracket b;
    b.intervals = integer(*v, p, "intervals");
    b.mean_w = number(*v, p, "mean_w");
    b.sd_w = number(*v, p, "sd_w");
    b.span_seconds = number(*v, p, "span_seconds");
    return b;
}

json counterJson(const CounterEnergy& c)
{
    json j;
    j["spec"] = c.spec;
    j["available"] = c.available;
    if (!c.available) {
        j["reason"] = c.reason;
        return j;
    }
    j["info"] = c.info;
    j["total_j"] = c.total_j;
    j["covered_seconds"] = c.covered_seconds;
    j["busy"] = bracketJson(c.busy);
    j["idle_before"] = bracketJson(c.idle_before);
    j["idle_after"] = bracketJson(c.idle_after);
    j["marginal_j"] = orNull(c.marginal_j);
    j["ratio"] = orNull(c.ratio);
    j["verdict"] = c.verdict ? json(verdictName(*c.verdict)) : json();
    if (c.marginal_note)
        j["marginal_note"] = *c.marginal_note;
    j["intervals"] = c.intervals;
    j["read_errors"] = c.read_errors;
    j["last_error"] = orNull(c.last_error);
    return j;
}

CounterEnergy readCounter(const json& v, const std::string& path, const std::string& key)
{
    asObject(v, path);
    CounterEnergy c;
    c.spec = key;
    if (const json* s = member(v, "spec"))
        c.spec = asString(*s, jsonPathKey(path, "spec"));
    if (const json* a = member(v, "available"))
        c.available = asBool(*a, jsonPathKey(path, "available"));
    if (!c.available) {
        if (const json* r = member(v, "reason"))
            c.reason = asString(*r, jsonPathKey(path, "reason"));
        return c;
    }
    if (const json* i = member(v, "info"))
        c.info = *i;
    c.total_j = number(v, path, "total_j");
    c.covered_seconds = number(v, path, "covered_seconds");
    c.busy = readBracket(v, path, "busy");
    c.idle_before = readBracket(v, path, "idle_before");
    c.idle_after = readBracket(v, path, "idle_after");
    c.marginal_j = optNumber(v, path, "marginal_j");
    c.ratio = optNumber(v, path, "ratio");
    c.verdict = optVerdict(v, path, "verdict");
    c.marginal_note = optString(v, path, "marginal_note");
    c.intervals = integer(v, path, "intervals");
    c.read_errors = integer(v, path, "read_errors");
    c.last_error = optString(v, path, "last_error");
    return c;
}

}  // namespace

const CounterEnergy* JobEnergy::gpuCounter() const
{
    if (!gpu_counter)
        return nullptr;
    const auto it = counters.find(*gpu_counter);
    return it == counters.end() ? nullptr : &it->second;
}

json JobEnergy::toJson() const
{
    json j;
    j["idle_seconds"] = idle_seconds;
    j["sampling_period_seconds"] = sampling_period_seconds;
    json c = json::object();
    for (const auto& [spec, counter] : counters)
        c[spec] = counterJson(counter);
    j["counters"] = c;
    j["gpu_counter"] = orNull(gpu_counter);
    j["package_counter"] = orNull(package_counter);
    return j;
}

JobEnergy JobEnergy::read(const json& j, const std::string& path)
{
    asObject(j, path);
    JobEnergy e;
    e.idle_seconds = number(j, path, "idle_seconds");
    e.sampling_period_seconds = number(j, path, "sampling_period_seconds");
    if (const json* c = member(j, "counters")) {
        const std::string cp = jsonPathKey(path, "counters");
        asObject(*c, cp);
        for (auto it = c->begin(); it != c->end(); ++it)
            e.counters[it.key()] = readCounter(*it, jsonPathKey(cp, it.key()), it.key());
    }
    e.gpu_counter = optString(j, path, "gpu_counter");
    e.package_counter = optString(j, path, "package_counter");
    return e;
}

Result<JobEnergy> JobEnergy::fromJson(const json& j)
{
    return readJson("", [&] { return read(j, "$"); });
}

json JobAccounting::toJson() const
{
    json j;
    j["enabled"] = orNull(enabled);
    if (!enabled) {
        j["error"] = error;
        return j;
    }
    if (!*enabled)
        return j;
    json per = json::object();
    for (const auto& [pid, mib] : per_process_max_memory_mib)
        per[std::to_string(pid)] = mib;
    j["per_process_max_memory_mib"] = per;
    j["max_process_memory_mib"] = max_process_memory_mib;
    j["sum_of_process_max_memory_mib"] = sum_of_process_max_memory_mib;
    return j;
}

JobAccounting JobAccounting::read(const json& j, const std::string& path)
{
    asObject(j, path);
    JobAccounting a;
    if (const json* v = member(j, "enabled"); v && !v->is_null())
        a.enabled = asBool(*v, jsonPathKey(path, "enabled"));
    if (const json* v = member(j, "error"))
        a.error = asString(*v, jsonPathKey(path, "error"));
    if (const json* v = member(j, "per_process_max_memory_mib")) {
        const std::string pp = jsonPathKey(path, "per_process_max_memory_mib");
        asObject(*v, pp);
        for (auto it = v->begin(); it != v->end(); ++it) {
            const std::string& k = it.key();
            std::int64_t pid = 0;
            const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), pid);
            if (ec != std::errc() || end != k.data() + k.size() || pid <= 0)
                jsonFail(jsonPathKey(pp, k), "expected a process id as the key");
            a.per_process_max_memory_mib[pid] = asIntAtLeast(*it, jsonPathKey(pp, k), 0);
        }
    }
    a.max_process_memory_mib = integer(j, path, "max_process_memory_mib");
    a.sum_of_process_max_memory_mib = integer(j, path, "sum_of_process_max_memory_mib");
    return a;
}

json SessionEnding::toJson() const
{
    json j;
    j["sigterm_sent"] = sigterm_sent;
    j["sigkill_sent"] = sigkill_sent;
    j["signalled_pids"] = signalled;
    j["surviving_pids"] = survivors;
    j["seconds"] = seconds;
    return j;
}

namespace {

std::vector<std::int64_t> pids(const json& obj, const std::string& path, const char* key)
{
    const std::string p = jsonPathKey(path, key);
    const json& a = asArray(need(obj, path, key, "an array of pids"), p);
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < a.size(); ++i)
        out.push_back(asIntAtLeast(a[i], jsonPathIndex(p, i), 0));
    return out;
}

}  // namespace

SessionEnding SessionEnding::read(const json& j, const std::string& path)
{
    asObject(j, path);
    SessionEnding e;
    e.sigterm_sent = asBool(need(j, path, "sigterm_sent", "true or false"), jsonPathKey(path, "sigterm_sent"));
    e.sigkill_sent = asBool(need(j, path, "sigkill_sent", "true or false"), jsonPathKey(path, "sigkill_sent"));
    e.signalled = pids(j, path, "signalled_pids");
    e.survivors = pids(j, path, "surviving_pids");
    e.seconds = asNumberAtLeast(need(j, path, "seconds", "a number"), jsonPathKey(path, "seconds"), 0);
    return e;
}

JobLogs readLogs(const json& j, const std::string& path)
{
    asObject(j, path);
    JobLogs logs;
    for (auto it = j.begin(); it != j.end(); ++it)
        logs[it.key()] = asString(it.value(), jsonPathKey(path, it.key()));
    return logs;
}

json SlurmRecord::toJson() const
{
    json j;
    j["job_id"] = orNull(job_id);
    j["partition"] = orNull(partition);
    j["node"] = orNull(node);
    if (allocation) {
        j["cluster"] = orNull(allocation->cluster);
        j["cuda_visible_devices"] = orNull(allocation->cuda_visible_devices);
        j["job_gpus"] = orNull(allocation->job_gpus);
        json gpus = json::array();
        for (const SlurmGpu& g : allocation->gpus)
            gpus.push_back({{"physical_index", g.physical_index}, {"uuid", g.uuid}, {"name", g.name}});
        j["gpus"] = gpus;
    }
    if (end) {
        j["state"] = orNull(end->state);
        j["reason"] = orNull(end->reason);
        j["submit_time"] = orNull(end->submit_time);
        j["start_time"] = orNull(end->start_time);
        j["end_time"] = orNull(end->end_time);
        j["exit_code"] = orNull(end->exit_code);
        j["signal"] = orNull(end->signal);
        j["state_source"] = orNull(end->state_source);
    }
    if (written_by)
        j["written_by"] = *written_by;
    return j;
}

SlurmRecord SlurmRecord::read(const json& j, const std::string& path)
{
    asObject(j, path);
    SlurmRecord r;
    r.job_id = optString(j, path, "job_id");
    r.partition = optString(j, path, "partition");
    r.node = optString(j, path, "node");
    if (hasAny(j, {"cluster", "cuda_visible_devices", "job_gpus", "gpus"})) {
        SlurmAllocation a;
        a.cluster = optString(j, path, "cluster");
        a.cuda_visible_devices = optString(j, path, "cuda_visible_devices");
        a.job_gpus = optString(j, path, "job_gpus");
        if (const json* g = member(j, "gpus"); g && !g->is_null()) {
            const std::string gp = jsonPathKey(path, "gpus");
            asArray(*g, gp);
            for (std::size_t i = 0; i < g->size(); ++i) {
                const std::string ip = jsonPathIndex(gp, i);
                const json& e = asObject((*g)[i], ip);
                SlurmGpu gpu;
                gpu.physical_index = int(asIntAtLeast(need(e, ip, "physical_index", "an integer"),
                                                      jsonPathKey(ip, "physical_index"), -1));
                if (const json* u = member(e, "uuid"))
                    gpu.uuid = asString(*u, jsonPathKey(ip, "uuid"));
                if (const json* n = member(e, "name"))
                    gpu.name = asString(*n, jsonPathKey(ip, "name"));
                a.gpus.push_back(std::move(gpu));
            }
        }
        r.allocation = std::move(a);
    }
    if (hasAny(j, {"state", "reason", "submit_time", "start_time", "end_time", "exit_code", "signal",
                   "state_source"})) {
        SlurmEnd e;
        e.state = optString(j, path, "state");
        e.reason = optString(j, path, "reason");
        e.submit_time = optString(j, path, "submit_time");
        e.start_time = optString(j, path, "start_time");
        e.end_time = optString(j, path, "end_time");
        e.exit_code = optInt(j, path, "exit_code");
        e.signal = optInt(j, path, "signal");
        e.state_source = optString(j, path, "state_source");
        r.end = e;
    }
    r.written_by = optString(j, path, "written_by");
    return r;
}

}  // namespace jb
