#include <jb/counters/CounterRegistry.h>

#include <jb/counters/CounterProfile.h>
#include <jb/counters/HwmonCounter.h>
#include <jb/counters/IOReportGpu.h>
#include <jb/counters/NvmlCounter.h>
#include <jb/counters/RaplCounter.h>
#include <jb/counters/SimCounter.h>
#include <jb/counters/SysFile.h>
#include <jb/counters/TaskCounter.h>

#include <chrono>
#include <set>
#include <sstream>
#include <thread>

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
bool isHwmonSpec(const std::string& s)
{
    return startsWith(s, "hwmon:");
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
CounterStatus raplStatus(const std::string& spec, const RaplZone& zone)
{
    CounterStatus s;
    s.spec = spec;
    s.whole_device = true;
    auto c = RaplCounter::open(zone.path, spec, zone.scope);
    s.available = c.ok();
    if (!c)
        s.reason = c.error();
    const std::string name = c ? c.value()->zoneName() : zone.name;
    s.description = std::string(zone.mmio ? "RAPL MMIO zone " : "RAPL zone ") +
                    (name.empty() ? std::string() : "'" + name + "' ") + "(" + zone.path + ")";
    return s;
}

}  // namespace}  // namespace

bool isWholeDeviceSpec(const std::string& spec)
{
    return isRaplSpec(spec) || isHwmonSpec(spec) || isNvmlSpec(spec) || spec == "sim" || isIOReportSpec(spec);
}

std::vector<CounterStatus> listCounters(const CounterOptions& opt)
{
    std::vector<CounterStatus> list;

    {
        auto def = raplZoneInfoFor("rapl", opt);
        RaplZone z = def ? *def : RaplZone{};
        if (!def)
            z.path = *raplZoneFor("rapl", opt);
        list.push_back(raplStatus("rapl", z));
        list.back().description += opt.rapl_zone.empty() ? ", the default zone" : ", from --rapl-zone";
    }

    const std::vector<RaplZone> zones = findRaplZones(opt.powercap_root);
    int packages = 0;
    for (const RaplZone& z : zones) {
        list.push_back(raplStatus(z.spec, z));
        packages += !z.mmio && z.parent.empty() && startsWith(z.name, "package-");
    }
    if (packages > 0) {
        CounterStatus sum;
        sum.spec = kRaplPackagesSpec;
        auto c = openRaplPackages(opt);
        sum.available = c.ok();
        if (!c)
            sum.reason = c.error();
        sum.description = "the sum of the " + std::to_string(packages) + " package zone" +
                          (packages == 1 ? "" : "s") + " under " + opt.powercap_root;
        list.push_back(std::move(sum));
    }

    for (CounterStatus& s : listHwmonCounters(opt))
        list.push_back(std::move(s));

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

    CounterStatus sim;
    sim.spec = "sim";
    sim.available = true;
    sim.description = simDescription(opt.sim);
    list.push_back(std::move(sim));

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

CounterDetails counterDetails(const std::string& spec, const CounterOptions& opt)
{
    CounterDetails d;
    if (spec == kRaplPackagesSpec) {
        d.scope = "every CPU socket's package (cores, caches, uncore); excludes dram and psys";
        d.unit = "uJ";
        d.source = opt.powercap_root + "/intel-rapl:*/energy_uj";
    } else if (isRaplSpec(spec)) {
        if (auto z = raplZoneInfoFor(spec, opt)) {
            d.scope = z->scope;
            d.unit = "uJ";
            d.source = z->path + "/energy_uj";
            std::string t;
            if (readSysFile(z->path + "/max_energy_range_uj", t) == 0)
                if (auto v = parseRaplNumber(z->path + "/max_energy_range_uj", t))
                    d.wrap_range = *v;
        }
    } else if (isHwmonSpec(spec)) {
        for (const HwmonChannel& c : findHwmonChannels(opt.hwmon_root))
            if (c.spec == spec) {
                d.scope = c.scope;
                d.unit = c.integrated ? "uW (integrated from power readings)" : "uJ";
                d.source = c.file;
            }
    } else if (spec == "sim") {
        d.scope = "a simulated device (no hardware)";
        d.unit = "nJ";
    } else if (isNvmlSpec(spec)) {
        d.scope = "one NVIDIA GPU (the board's power sensor)";
        d.unit = "mJ";
    } else if (spec == "task") {
        d.scope = "the child process's own CPU time (energy on macOS)";
    } else if (isIOReportSpec(spec)) {
        d.scope = ioreportScope(spec);  // ioreport:cpu: CPU Energy, or the dies' totals added
    }
    return d;
}

Status checkCounterOverlap(const std::vector<std::string>& specs, const CounterOptions& opt)
{
    if (Status r = checkRaplOverlap(specs, opt); !r)
        return r;
    return checkHwmonOverlap(specs, opt);
}

Result<std::unique_ptr<EnergyCounter>> openCounter(const std::string& spec, const CounterOptions& opt)
{
    if (spec == kRaplPackagesSpec) {
        auto c = openRaplPackages(opt);
        if (!c)
            return Error{"counter " + spec + ": " + c.error()};
        return c;
    }
    if (isHwmonSpec(spec)) {
        auto c = openHwmonCounter(spec, opt);
        if (!c)
            return Error{"counter " + spec + ": " + c.error()};
        return c;
    }
    if (isRaplSpec(spec)) {
        auto zone = raplZoneInfoFor(spec, opt);
        if (!zone)
            return Error{"counter " + spec + ": " + zone.error()};
        auto c = RaplCounter::open(zone->path, spec, zone->scope);
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
    for (const RaplZone& z : findRaplZones(opt.powercap_root))
        rapl_names += (rapl_names.empty() ? "" : ", ") + z.spec;
    return Error{
        "unknown counter '" + spec + "'; known counters: rapl, rapl:NAME" +
        (rapl_names.empty() ? std::string() : " (here: " + rapl_names + ")") +
        ", rapl:packages, hwmon:CHIP:LABEL, task, ioreport-gpu, ioreport:cpu, sim, nvml, nvml:N, nvml-power:N, "
        "ioreport:CHANNEL "
        "('joulebench-cli counters' says which are readable)"};
}

std::vector<std::pair<std::string, std::string>> mirrorCandidates(const std::vector<std::string>& specs,
                                                                  const CounterOptions& opt)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& spec : specs) {
        if (spec == kRaplPackagesSpec) {
            for (const RaplZone& z : findRaplZones(opt.powercap_root))
                if (!z.mmio && z.parent.empty() && z.name.rfind("package-", 0) == 0)
                    out.emplace_back(z.spec, spec);
            continue;
        }
        switch (counterKindOfSpec(spec)) {
        case CounterKind::Rapl:
        case CounterKind::HwmonEnergy:
        case CounterKind::HwmonPower:
            out.emplace_back(spec, spec);
            break;
        default:
            break;
        }
    }
    if (out.size() < 2)
        out.clear();
    return out;
}

}  // namespace jb
