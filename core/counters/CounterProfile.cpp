#include <jb/counters/CounterProfile.h>

#include <jb/base/JsonReader.h>

#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace jb {

namespace {

constexpr std::array<std::pair<CounterKind, const char*>, 11> kKindNames{{
    {CounterKind::Rapl, "rapl"},
    {CounterKind::HwmonEnergy, "hwmon-energy"},
    {CounterKind::HwmonPower, "hwmon-power"},
    {CounterKind::Task, "task"},
    {CounterKind::Sim, "sim"},
    {CounterKind::IOReportEnergy, "ioreport-energy"},
    {CounterKind::IOReportGpu, "ioreport-gpu"},
    {CounterKind::NvmlEnergy, "nvml-energy"},
    {CounterKind::NvmlPowerInstant, "nvml-power-instant"},
    {CounterKind::NvmlPowerAverage, "nvml-power-average"},
    {CounterKind::Unknown, "unknown"},
}};

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

nlohmann::ordered_json stepJson(const StepResponse& s)
{
    nlohmann::ordered_json j;
    j["delay_ms"] = s.delay_ms;
    j["settle_ms"] = s.settle_ms;
    return j;
}

template <class J>
StepResponse readStep(const J& j, const std::string& path)
{
    using namespace jsonread;
    asObject(j, path);
    onlyKeys(j, path, {"delay_ms", "settle_ms"});
    StepResponse s;
    s.delay_ms = asNumberAtLeast(need(j, path, "delay_ms", "a number of ms"), jsonPathKey(path, "delay_ms"),
                                 0.0);
    s.settle_ms = asNumberAtLeast(need(j, path, "settle_ms", "a number of ms"),
                                  jsonPathKey(path, "settle_ms"), 0.0);
    return s;
}

}  // namespace

const char* counterKindName(CounterKind kind)
{
    for (const auto& [k, name] : kKindNames)
        if (k == kind)
            return name;
    return "unknown";
}

std::optional<CounterKind> counterKindFromName(const std::string& name)
{
    for (const auto& [k, n] : kKindNames)
        if (name == n)
            return k;
    return std::nullopt;
}

CounterKind counterKindOfSpec(const std::string& spec)
{
    if (spec == "rapl" || startsWith(spec, "rapl:"))
        return CounterKind::Rapl;
    if (startsWith(spec, "hwmon:"))
        return CounterKind::HwmonEnergy;
    if (spec == "task")
        return CounterKind::Task;
    if (spec == "sim")
        return CounterKind::Sim;
    if (spec == "ioreport-gpu")
        return CounterKind::IOReportGpu;
    if (startsWith(spec, "ioreport:"))
        return CounterKind::IOReportEnergy;
    if (spec == "nvml-power" || startsWith(spec, "nvml-power:"))
        return CounterKind::NvmlPowerInstant;
    if (spec == "nvml" || startsWith(spec, "nvml:"))
        return CounterKind::NvmlEnergy;
    return CounterKind::Unknown;
}

CounterKind counterKindOf(const std::string& spec, const nlohmann::ordered_json& info)
{
    const CounterKind k = counterKindOfSpec(spec);
    if (!info.is_object())
        return k;
    auto str = [&](const char* key) {
        auto it = info.find(key);
        return it != info.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (k == CounterKind::HwmonEnergy && str("kind") == "hwmon-power")
        return CounterKind::HwmonPower;
    // The NVML power reader names the reading it integrates; a record from before it did
    // integrated nvmlDeviceGetPowerUsage, the averaged reading.
    if (k == CounterKind::NvmlPowerInstant && str("reading") != "instant")
        return CounterKind::NvmlPowerAverage;
    return k;
}

double CounterProfile::resolutionNj() const
{
    if (unit == "nJ")
        return resolution;
    if (unit == "uJ")
        return resolution * 1e3;
    if (unit == "mJ")
        return resolution * 1e6;
    if (unit == "J")
        return resolution * 1e9;
    return 0.0;
}

double CounterProfile::updatesIn(double window_ms) const
{
    if (update_period_ms <= 0)
        return std::numeric_limits<double>::max();
    return window_ms / update_period_ms;
}

bool CounterProfile::samples() const
{
    return (coverage.sensed_fraction && *coverage.sensed_fraction < 0.999) || coverage.sd > 0.1;
}

nlohmann::ordered_json CounterProfile::toJson() const
{
    nlohmann::ordered_json j;
    j["profile_version"] = kVersion;
    j["spec"] = spec;
    j["kind"] = counterKindName(kind);
    nlohmann::ordered_json src;
    src["origin"] = measured ? "measured" : "default";
    src["host"] = host;
    src["measured_at"] = measured_at;
    src["note"] = note;
    j["source"] = src;
    j["update_period_ms"] = update_period_ms;
    j["update_jitter_ms"] = update_jitter_ms;
    nlohmann::ordered_json step;
    step["up"] = stepJson(step_up);
    step["down"] = stepJson(step_down);
    j["step_response"] = step;
    j["averaging_window_ms"] = averaging_window_ms;
    nlohmann::ordered_json cov;
    cov["mean"] = coverage.mean;
    cov["sd"] = coverage.sd;
    cov["bursts"] = coverage.bursts;
    cov["burst_ms"] = coverage.burst_ms;
    cov["sensed_fraction"] = coverage.sensed_fraction ? nlohmann::ordered_json(*coverage.sensed_fraction)
                                                      : nlohmann::ordered_json();
    j["burst_coverage"] = cov;
    j["unit"] = unit;
    j["resolution"] = resolution;
    j["reading"] = reading;
    j["seconds_taken"] = seconds_taken;
    return j;
}

Result<CounterProfile> CounterProfile::fromJson(const nlohmann::json& j, const std::string& origin)
{
    using namespace jsonread;
    return readJson(origin, [&] {
        CounterProfile p;
        asObject(j, "$");
        onlyKeys(j, "$",
                 {"profile_version", "spec", "kind", "source", "update_period_ms", "update_jitter_ms",
                  "step_response", "averaging_window_ms", "burst_coverage", "unit", "resolution", "reading",
                  "seconds_taken"});
        const std::int64_t version = asIntAtLeast(need(j, "$", "profile_version", "an integer"),
                                                  "$.profile_version", 1);
        if (version > kVersion)
            jsonFail("$.profile_version",
                     "expected at most " + std::to_string(kVersion) + " (this JouleBench's), found " +
                         std::to_string(version));
        p.spec = asString(need(j, "$", "spec", "a counter spec"), "$.spec", true);
        const std::string kind = asString(need(j, "$", "kind", "a counter kind"), "$.kind");
        if (auto k = counterKindFromName(kind))
            p.kind = *k;
        else
            jsonFail("$.kind",
                     "expected a counter kind (rapl, hwmon-energy, hwmon-power, task, sim, "
                     "ioreport-energy, ioreport-gpu, nvml-energy, nvml-power-instant, "
                     "nvml-power-average, unknown), found \"" +
                         kind + "\"");

        const auto& src = asObject(need(j, "$", "source", "an object"), "$.source");
        onlyKeys(src, "$.source", {"origin", "host", "measured_at", "note"});
        const std::string o = asString(need(src, "$.source", "origin", "\"measured\" or \"default\""),
                                       "$.source.origin");
        if (o != "measured" && o != "default")
            jsonFail("$.source.origin", "expected \"measured\" or \"default\", found \"" + o + "\"");
        p.measured = o == "measured";
        auto optString = [&](const char* key) {
            const auto* v = member(src, key);
            return v ? asString(*v, jsonPathKey("$.source", key)) : std::string();
        };
        p.host = optString("host");
        p.measured_at = optString("measured_at");
        p.note = optString("note");
        if (p.measured && p.host.empty())
            jsonFail("$.source.host", "a measured profile names its host");

        auto ms = [&](const char* key) {
            return asNumberAtLeast(need(j, "$", key, "a number of ms"), jsonPathKey("$", key), 0.0);
        };
        p.update_period_ms = ms("update_period_ms");
        p.update_jitter_ms = ms("update_jitter_ms");
        const auto& step = asObject(need(j, "$", "step_response", "an object with up and down"),
                                    "$.step_response");
        onlyKeys(step, "$.step_response", {"up", "down"});
        p.step_up = readStep(need(step, "$.step_response", "up", "an object"), "$.step_response.up");
        p.step_down = readStep(need(step, "$.step_response", "down", "an object"), "$.step_response.down");
        p.averaging_window_ms = ms("averaging_window_ms");

        const std::string cp = "$.burst_coverage";
        const auto& cov = asObject(need(j, "$", "burst_coverage", "an object"), cp);
        onlyKeys(cov, cp, {"mean", "sd", "bursts", "burst_ms", "sensed_fraction"});
        // A measured mean may come out below 0 where a burst is lost in the counter's noise.
        p.coverage.mean = asNumber(need(cov, cp, "mean", "a fraction"), cp + ".mean");
        p.coverage.sd = asNumberAtLeast(need(cov, cp, "sd", "a fraction"), cp + ".sd", 0.0);
        p.coverage.bursts = int(asIntAtLeast(need(cov, cp, "bursts", "a count"), cp + ".bursts", 0));
        if (p.coverage.bursts > 1'000'000)
            jsonFail(cp + ".bursts", "expected at most 1000000, found " + std::to_string(p.coverage.bursts));
        p.coverage.burst_ms = asNumberAtLeast(need(cov, cp, "burst_ms", "a number of ms"), cp + ".burst_ms",
                                              0.0);
        if (const auto* v = member(cov, "sensed_fraction"); v && !v->is_null()) {
            const double f = asNumberAtLeast(*v, cp + ".sensed_fraction", 0.0, true);
            if (f > 1.0)
                jsonFail(cp + ".sensed_fraction", "expected a fraction in (0, 1], found " + describe(*v));
            p.coverage.sensed_fraction = f;
        }

        p.unit = asString(need(j, "$", "unit", "a unit"), "$.unit");
        p.resolution = asNumberAtLeast(need(j, "$", "resolution", "a number"), "$.resolution", 0.0);
        if (const auto* v = member(j, "reading"))
            p.reading = asString(*v, "$.reading");
        if (const auto* v = member(j, "seconds_taken"))
            p.seconds_taken = asNumberAtLeast(*v, "$.seconds_taken", 0.0);
        return p;
    });
}

CounterProfile defaultProfile(CounterKind kind)
{
    CounterProfile p;
    p.kind = kind;
    p.measured = false;
    switch (kind) {
    case CounterKind::Rapl:
        // Intel SDM: the energy status registers update about every 1 ms (jitter seen on real
        // machines); the powercap files count in uJ.
        p.update_period_ms = 1.0;
        p.update_jitter_ms = 0.1;
        p.step_up = p.step_down = {1.0, 2.0};
        p.unit = "uJ";
        p.resolution = 1;
        p.reading = "energy register";
        p.note = "documented default for rapl: ~1 ms updates (Intel SDM), integrating";
        break;
    case CounterKind::HwmonEnergy:
        p.update_period_ms = 1.0;
        p.update_jitter_ms = 0.1;
        p.step_up = p.step_down = {1.0, 2.0};
        p.unit = "uJ";
        p.resolution = 1;
        p.reading = "energy channel (energyN_input)";
        p.note = "documented default for hwmon energy channels: assumed like rapl (not measured)";
        break;
    case CounterKind::HwmonPower:
        // amdgpu's power1_average is the SMU's averaged power; the window is not published.
        p.update_period_ms = 100.0;
        p.update_jitter_ms = 10.0;
        p.averaging_window_ms = 1000.0;
        p.step_up = p.step_down = {500.0, 1000.0};
        p.coverage.sd = 0.0;
        p.unit = "uW";
        p.resolution = 1;
        p.reading = "averaged power (powerN_average) integrated";
        p.note = "documented default for hwmon power (amdgpu power1_average): averaged, window assumed 1 s";
        break;
    case CounterKind::Task:
        // CPU time in clock ticks (USER_HZ 100): 10 ms steps.
        p.update_period_ms = 10.0;
        p.update_jitter_ms = 0.0;
        p.step_up = p.step_down = {10.0, 10.0};
        p.unit = "ns";
        p.resolution = 10'000'000;
        p.reading = "the child's CPU time (no energy)";
        p.note = "documented default for task: CPU time in 10 ms clock ticks";
        break;
    case CounterKind::Sim:
        p.update_period_ms = 0.0;
        p.unit = "nJ";
        p.resolution = 1;
        p.reading = "simulated, exact";
        p.note = "documented default for sim: exact at every read";
        break;
    case CounterKind::IOReportEnergy:
        // M1 Ultra: the mJ channels advance about twice every ~2.1 s (lablup/all-smi#415).
        p.update_period_ms = 1050.0;
        p.update_jitter_ms = 200.0;
        p.step_up = p.step_down = {1050.0, 2100.0};
        p.unit = "mJ";
        p.resolution = 1;
        p.reading = "Energy Model channel (a model estimate)";
        p.note = "documented default for ioreport mJ channels: about twice every 2.1 s on some chips "
                 "(lablup/all-smi#415)";
        break;
    case CounterKind::IOReportGpu:
        p.update_period_ms = 0.0;
        p.unit = "nJ";
        p.resolution = 1;
        p.reading = "GPU Energy channel shared by GPU time";
        p.note = "documented default for ioreport-gpu: GPU Energy (nJ) moves at every sample";
        break;
    case CounterKind::NvmlEnergy:
        // H200, driver 580 (issue 31): a new value every 100 ms; bursts sensed ~25% of each
        // period (Yang, Adamek, Armour, SC24), 17 ms bursts' sd 47% of their mean.
        p.update_period_ms = 100.0;
        p.update_jitter_ms = 0.5;
        p.step_up = {35.0, 231.0};
        p.step_down = {14.0, 114.0};
        p.coverage = {1.0, 0.47, 0, 17.0, 0.25};
        p.unit = "mJ";
        p.resolution = 1;
        p.reading = "energy counter (nvmlDeviceGetTotalEnergyConsumption), sampled";
        p.note = "documented default for nvml energy: H200 figures of issue 31 (100 ms updates, ~25% sensed)";
        break;
    case CounterKind::NvmlPowerInstant:
        p.update_period_ms = 100.0;
        p.update_jitter_ms = 0.5;
        p.step_up = {33.0, 234.0};
        p.step_down = {51.0, 156.0};
        p.coverage = {1.0, 0.47, 0, 17.0, 0.25};
        p.unit = "mW";
        p.resolution = 1;
        p.reading = "instantaneous power field (NVML_FI_DEV_POWER_INSTANT) integrated";
        p.note = "documented default for nvml instant power: H200 figures of issue 31 (~100 ms)";
        break;
    case CounterKind::NvmlPowerAverage:
        p.update_period_ms = 100.0;
        p.update_jitter_ms = 0.5;
        p.averaging_window_ms = 1000.0;
        p.step_up = {536.0, 940.0};
        p.step_down = {560.0, 1059.0};
        p.unit = "mW";
        p.resolution = 1;
        p.reading = "1 s average power (nvmlDeviceGetPowerUsage) integrated";
        p.note =
            "documented default for nvml average power: H200 figures of issue 31 (1 s boxcar, 100 ms updates)";
        break;
    case CounterKind::Unknown:
        p.note = "no default: unknown counter kind";
        break;
    }
    return p;
}

CounterProfile defaultProfile(const std::string& spec)
{
    CounterProfile p = defaultProfile(counterKindOfSpec(spec));
    p.spec = spec;
    return p;
}

}  // namespace jb
