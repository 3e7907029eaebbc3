#include "counters/CounterRegistry.h"

#include "counters/IOReportGpu.h"
#include "counters/NvmlCounter.h"
#include "counters/RaplCounter.h"
#include "counters/SimCounter.h"
#include "counters/TaskCounter.h"

#include <chrono>
#include <set>
#include <thread>
#include <sstream>

namespace jb {

namespace {

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

bool isRaplSpec(const std::string& s)
{
    return s == "rapl" || startsWith(s, "rapl:");
}
bool isNvmlSpec(const std::string& s)
{
    return s == "nvml" || startsWith(s, "nvml:") || s == "nvml-power" || startsWith(s, "nvml-power:");
}

std::string simDescription(const SimParams& p)
{
    std::ostringstream d;
    d << "simulated whole device: " << p.idle_w << " W idle + Gaussian noise (sd " << p.noise_sd_w
      << " W, seed " << p.seed << ") + " << p.w_per_core << " W per busy core of the child";
    return d.str();
}

// A rapl entry: opening the zone is the availability check (name, range and a first
// energy_uj read), so the reason is exactly what a run would hit.
CounterStatus raplStatus(const std::string& spec, const std::string& zone_dir, const std::string& zone_name)
{
    CounterStatus s;
    s.spec = spec;
    s.whole_device = true;
    auto c = RaplCounter::open(zone_dir, spec);
    s.available = c.ok();
    if (!c)
        s.reason = c.error();
    const std::string name = c ? c.value()->zoneName() : zone_name;
    s.description = "RAPL zone " + (name.empty() ? std::string() : "'" + name + "' ") + "(" + zone_dir + ")";
    return s;
}

// The zones rapl:NAME can name: a name a second socket repeats ("core", "dram") resolves
// to the first zone in numeric order, so it is listed once.
std::vector<RaplZone> distinctRaplZones(const CounterOptions& opt)
{
    std::vector<RaplZone> zones;
    std::set<std::string> names;
    for (RaplZone& z : findRaplZones(opt.powercap_root))
        if (names.insert(z.name).second)
            zones.push_back(std::move(z));
    return zones;
}

}  // namespace

bool isWholeDeviceSpec(const std::string& spec)
{
    return isRaplSpec(spec) || isNvmlSpec(spec) || spec == "sim" || isIOReportSpec(spec);
}

std::vector<CounterStatus> listCounters(const CounterOptions& opt)
{
    std::vector<CounterStatus> list;

    list.push_back(raplStatus("rapl", *raplZoneFor("rapl", opt), {}));
    list.back().description += opt.rapl_zone.empty() ? ", the default zone" : ", from --rapl-zone";

    for (const RaplZone& z : distinctRaplZones(opt))
        list.push_back(raplStatus("rapl:" + z.name, z.path, z.name));

    CounterStatus task;
    task.spec = "task";
    task.whole_device = false;
    if (!opt.apple.libproc.empty()) {
        auto reader = openTaskReader(opt);
        task.available = reader.ok();
        if (!reader)
            task.reason = reader.error();
        task.description = "the child's own CPU energy, CPU time, billed and serviced energy (proc_pid_rusage), "
                           "read around each round";
    } else {
        task.available = true;
        task.description = "the child's CPU time over all its threads, read around each round "
                           "(energy needs macOS; Linux keeps none per process)";
    }
    list.push_back(task);

    for (CounterStatus& s : ioreportStatuses(opt.apple))
        list.push_back(std::move(s));

    list.push_back({"sim", true, true, {}, simDescription(opt.sim)});

    for (CounterStatus& s : listNvmlCounters(opt))
        list.push_back(std::move(s));
    for (CounterStatus& s : listNvmlPowerCounters(opt))
        list.push_back(std::move(s));
    return list;
}

std::string defaultCounterSpec(const CounterOptions& opt)
{
    auto rapl = openCounter("rapl", opt);
    if (rapl && rapl.value()->readNj())
        return "rapl";
    return "sim";
}

Result<double> probeWatts(const std::string& spec, const CounterOptions& opt, int ms)
{
    auto c = openCounter(spec, opt);
    if (!c)
        return Error{c.error()};
    const auto t0 = std::chrono::steady_clock::now();
    auto e0 = c.value()->readNj();
    if (!e0)
        return Error{"counter " + spec + ": " + e0.error()};
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    auto e1 = c.value()->readNj();
    if (!e1)
        return Error{"counter " + spec + ": " + e1.error()};
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return double(*e1 - *e0) * 1e-9 / s;
}

Result<std::unique_ptr<TaskReader>> openTaskReader(const CounterOptions& opt)
{
    if (opt.apple.libproc.empty())
        return makeTaskReader(opt.proc_root);
    return openRusageTaskReader(opt.apple.libproc, opt.apple.libsystem);
}

Result<std::unique_ptr<EnergyCounter>> openCounter(const std::string& spec, const CounterOptions& opt)
{
    if (isRaplSpec(spec)) {
        auto zone = raplZoneFor(spec, opt);
        if (!zone)
            return Error{"counter " + spec + ": " + zone.error()};
        auto c = RaplCounter::open(*zone, spec);
        if (!c)
            return Error{"counter " + spec + ": " + c.error()};
        return std::unique_ptr<EnergyCounter>(std::move(c.value()));
    }
    if (spec == "sim")
        return std::unique_ptr<EnergyCounter>(
            std::make_unique<SimCounter>(opt.sim, SimCounter::ClockNs{}, CpuTimeSource{}, opt.proc_root));
    if (isIOReportSpec(spec)) {
        auto c = openIOReportCounter(spec, opt.apple);
        if (!c)
            return Error{"counter " + spec + ": " + c.error()};
        return c;
    }
    if (isNvmlSpec(spec))
        return openNvmlCounter(spec, opt);
    if (spec == "task")
        return Error{"counter task is not a whole-device counter: it is read around each round, "
                     "not sampled; give a whole-device counter (rapl, sim, ...) alongside it"};

    std::string rapl_names;
    for (const RaplZone& z : distinctRaplZones(opt))
        rapl_names += (rapl_names.empty() ? "" : ", ") + ("rapl:" + z.name);
    return Error{
        "unknown counter '" + spec + "'; known counters: rapl, rapl:NAME" +
        (rapl_names.empty() ? std::string() : " (here: " + rapl_names + ")") +
        ", task, ioreport-gpu, sim, nvml, nvml:N, nvml-power:N, ioreport:CHANNEL ('joulebench-cli counters' says "
        "which are readable)"};
}

}  // namespace jb
