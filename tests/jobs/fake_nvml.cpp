// A fake NVML for the tests, loaded through the library path override. It exports the nvml*
// symbols JouleBench resolves; its GPUs and their behaviour come from the script file named by
// the JB_FAKE_NVML environment variable, read at nvmlInit_v2:
//   gpu <index> <uuid> <total_mib> <name ...>
//   idle_mw <index> <mW>        power while none of its processes is alive
//   busy_mw <index> <mW>        power while one is
//   no_energy <index>           nvmlDeviceGetTotalEnergyConsumption says Not Supported
//   accounting <index> <0|1>
//   procs <path>                lines "<gpu index> <pid> <bytes>" (appended by jobs_worker)
//   busy_file <index> <path>    GPU index is busy while <path> exists (its processes then do
//                               not count): the fake CUDA driver creates it while it "computes";
//                               written as tests/clients/BusyFlag.h says (edge times), its
//                               busy spans are booked to the nanosecond, however short
//   init_error <code>           nvmlInit_v2 fails with this code
//   energy_mode <index> <mode> <P_ms> <W_ms> <D_ms>   how the readings show the true energy
//   average_mode <index> ...    (tests/clients/CounterModes.h: exact, sampled, boxcar, late;
//   instant_mode <index> ...     W the sampled or boxcar window, D the late delay): the energy
//                               counter, nvmlDeviceGetPowerUsage = field 185 (the averaged
//                               reading), field 186 (instantaneous). Default exact, all three.
//   no_instant <index>          field 186 answers Not Supported (a driver without it)
// The true power is busy_mw or idle_mw, taken at each call (callers poll often).
// Built twice: FAKE_NVML_OLD leaves out the energy, accounting, field values and _v2/_v3
// process calls, as a driver too old to have them.
#include "../clients/BusyFlag.h"
#include "../clients/CounterModes.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Device {
    int index = 0;
    std::string uuid, name;
    unsigned long long total_mib = 0;
    double idle_mw = 50000, busy_mw = 250000;
    bool energy = true;
    int accounting = 0;
    double energy_mj = 1.0e6;  // arbitrary start, as a driver loaded a while ago
    std::string busy_file;
    bool instant = true;
    std::shared_ptr<busyflag::Watcher> watcher;  // of busy_file
    std::int64_t last_ns = -1;
    bool busy_now = false;
    // The true energy (J) and the three readings' modes over it.
    double true_j = 0, true_last_s = -1;
    countermode::Model energy_model, average_model, instant_model;
};

std::mutex g_mutex;
std::vector<Device> g_devices;
std::string g_procs;
int g_inits = 0;

[[maybe_unused]] double nowS()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

bool alive(long pid)
{
    if (kill(pid_t(pid), 0) != 0)
        return false;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

struct ProcLine {
    int gpu;
    long pid;
    unsigned long long bytes;
};

std::vector<ProcLine> readProcs()
{
    std::vector<ProcLine> out;
    if (g_procs.empty())
        return out;
    std::ifstream in(g_procs);
    ProcLine p{};
    while (in >> p.gpu >> p.pid >> p.bytes)
        out.push_back(p);
    return out;
}

bool busy(const Device& d)
{
    if (!d.busy_file.empty())
        return access(d.busy_file.c_str(), F_OK) == 0;
    for (const ProcLine& p : readProcs())
        if (p.gpu == d.index && alive(p.pid))
            return true;
    return false;
}

Device* dev(void* h)
{
    return static_cast<Device*>(h);
}

// Books the true energy since the last call and feeds the modes: with a busy file, its spans
// to the nanosecond; else the busy state of now for the whole time since the last call.
// Called with g_mutex held.
double truePowerMw(const Device& d)
{
    return d.busy_now ? d.busy_mw : d.idle_mw;
}
void tick(Device& d)
{
    const double t = nowS();
    const std::int64_t now_ns = busyflag::nowNs();
    if (d.watcher) {
        const auto share = d.last_ns >= 0 ? d.watcher->tick(d.last_ns, now_ns) : d.watcher->tick(now_ns, now_ns);
        d.busy_now = share.busy_now;
        if (d.true_last_s >= 0)
            d.true_j += d.idle_mw * (t - d.true_last_s) / 1000.0 +
                        (d.busy_mw - d.idle_mw) / 1000.0 * share.joules([](double) { return 1.0; });
        d.watcher->published();
    } else {
        d.busy_now = busy(d);
        if (d.true_last_s >= 0)
            d.true_j += truePowerMw(d) * (t - d.true_last_s) / 1000.0;
    }
    d.last_ns = now_ns;
    d.true_last_s = t;
    d.energy_model.addTrue(t, d.true_j);
    d.average_model.addTrue(t, d.true_j);
    d.instant_model.addTrue(t, d.true_j);
}
// A power reading in mW through a mode: exact is the true power of now.
unsigned powerThrough(Device& d, const countermode::Model& m)
{
    tick(d);
    if (m.params().mode == countermode::Mode::Exact)
        return unsigned(truePowerMw(d));
    return unsigned(std::max(0.0, m.powerW() * 1000.0));
}

struct ProcessInfoV1 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
};
struct ProcessInfoV2 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};
struct Memory {
    unsigned long long total, free, used;
};
struct AccountingStats {
    unsigned int gpuUtilization;
    unsigned int memoryUtilization;
    unsigned long long maxMemoryUsage;
    unsigned long long time;
    unsigned long long startTime;
    unsigned int isRunning;
    unsigned int reserved[5];
};

// Live processes on a device, each pid once with its latest size.
std::vector<ProcLine> liveOn(const Device& d)
{
    std::map<long, ProcLine> m;
    for (const ProcLine& p : readProcs())
        if (p.gpu == d.index && alive(p.pid))
            m[p.pid] = p;
    std::vector<ProcLine> out;
    for (auto& [pid, p] : m)
        out.push_back(p);
    return out;
}

template <class Info>
int listProcesses(void* h, unsigned int* count, Info* infos)
{
    std::lock_guard lock(g_mutex);
    const auto live = liveOn(*dev(h));
    if (*count < live.size() || !infos) {
        *count = unsigned(live.size());
        return live.empty() ? 0 : 7;  // NVML_ERROR_INSUFFICIENT_SIZE
    }
    for (std::size_t i = 0; i < live.size(); ++i) {
        infos[i] = Info{};
        infos[i].pid = unsigned(live[i].pid);
        infos[i].usedGpuMemory = live[i].bytes;
    }
    *count = unsigned(live.size());
    return 0;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int nvmlInit_v2()
{
    std::lock_guard lock(g_mutex);
    const char* script = std::getenv("JB_FAKE_NVML");
    if (!script)
        return 9;  // NVML_ERROR_DRIVER_NOT_LOADED
    if (g_inits++ > 0)
        return 0;
    g_devices.clear();
    g_procs.clear();
    std::ifstream in(script);
    std::string line;
    int init_error = 0;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string word;
        ls >> word;
        int index = -1;
        auto find = [&](int i) -> Device* {
            for (Device& d : g_devices)
                if (d.index == i)
                    return &d;
            return nullptr;
        };
        if (word == "gpu") {
            Device d;
            ls >> d.index >> d.uuid >> d.total_mib;
            std::getline(ls >> std::ws, d.name);
            g_devices.push_back(d);
        } else if (word == "idle_mw" && (ls >> index) && find(index)) {
            ls >> find(index)->idle_mw;
        } else if (word == "busy_mw" && (ls >> index) && find(index)) {
            ls >> find(index)->busy_mw;
        } else if (word == "no_energy" && (ls >> index) && find(index)) {
            find(index)->energy = false;
        } else if (word == "accounting" && (ls >> index) && find(index)) {
            ls >> find(index)->accounting;
        } else if (word == "busy_file" && (ls >> index) && find(index)) {
            ls >> find(index)->busy_file;
        } else if (word == "procs") {
            ls >> g_procs;
        } else if ((word == "energy_mode" || word == "average_mode" || word == "instant_mode") && (ls >> index) &&
                   find(index)) {
            std::string mode;
            countermode::Params p;
            double period_ms = 100, window_ms = 0, delay_ms = 0;
            ls >> mode >> period_ms >> window_ms >> delay_ms;
            if (!countermode::parseMode(mode, p.mode) || period_ms <= 0) {
                std::fprintf(stderr, "fake NVML: bad line '%s'\n", line.c_str());
                init_error = 999;
                continue;
            }
            p.period_s = period_ms / 1000.0;
            p.window_s = window_ms / 1000.0;
            p.delay_s = delay_ms / 1000.0;
            Device& d = *find(index);
            (word == "energy_mode" ? d.energy_model : word == "average_mode" ? d.average_model : d.instant_model) =
                countermode::Model(p);
        } else if (word == "no_instant" && (ls >> index) && find(index)) {
            find(index)->instant = false;
        } else if (word == "init_error") {
            ls >> init_error;
        }
    }
    if (init_error != 0) {
        g_inits = 0;
        return init_error;
    }
    for (Device& d : g_devices)
        if (!d.busy_file.empty())
            d.watcher = std::make_shared<busyflag::Watcher>(d.busy_file);
    return 0;
}

__attribute__((visibility("default"))) int nvmlShutdown()
{
    std::lock_guard lock(g_mutex);
    if (g_inits > 0)
        --g_inits;
    return 0;
}

__attribute__((visibility("default"))) const char* nvmlErrorString(int rc)
{
    switch (rc) {
    case 0:
        return "Success";
    case 2:
        return "Invalid Argument";
    case 3:
        return "Not Supported";
    case 6:
        return "Not Found";
    case 7:
        return "Insufficient Size";
    case 9:
        return "Driver Not Loaded";
    default:
        return "Unknown Error";
    }
}

__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned int* n)
{
    std::lock_guard lock(g_mutex);
    *n = unsigned(g_devices.size());
    return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void** h)
{
    std::lock_guard lock(g_mutex);
    for (Device& d : g_devices)
        if (d.index == int(i)) {
            *h = &d;
            return 0;
        }
    return 2;
}

__attribute__((visibility("default"))) int nvmlDeviceGetName(void* h, char* buf, unsigned int n)
{
    std::snprintf(buf, n, "%s", dev(h)->name.c_str());
    return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetUUID(void* h, char* buf, unsigned int n)
{
    std::snprintf(buf, n, "%s", dev(h)->uuid.c_str());
    return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(void* h, Memory* m)
{
    m->total = dev(h)->total_mib * 1024ULL * 1024ULL;
    m->used = 0;
    m->free = m->total;
    return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(void* h, unsigned int* mw)
{
    std::lock_guard lock(g_mutex);
    *mw = powerThrough(*dev(h), dev(h)->average_model);
    return 0;
}

#ifndef FAKE_NVML_OLD
__attribute__((visibility("default"))) int nvmlDeviceGetTotalEnergyConsumption(void* h,
                                                                               unsigned long long* mj)
{
    std::lock_guard lock(g_mutex);
    Device& d = *dev(h);
    if (!d.energy)
        return 3;
    tick(d);
    *mj = static_cast<unsigned long long>(std::floor(d.energy_mj + d.energy_model.energyJ() * 1000.0));
    return 0;
}

// nvmlFieldValue_t as nvml.h declares it (40 bytes).
struct FieldValue {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;
    long long latencyUsec;
    int valueType;
    int nvmlReturn;
    union {
        double dVal;
        unsigned int uiVal;
        unsigned long long ullVal;
    } value;
};
static_assert(sizeof(FieldValue) == 40);

// Fields 185 (average power) and 186 (instant power) in mW as unsigned int, as an H200 answers;
// any other field Not Supported.
__attribute__((visibility("default"))) int nvmlDeviceGetFieldValues(void* h, int count, FieldValue* values)
{
    std::lock_guard lock(g_mutex);
    Device& d = *dev(h);
    if (count < 0 || (count > 0 && !values))
        return 2;
    for (int i = 0; i < count; ++i) {
        FieldValue& v = values[i];
        v.timestamp = (long long)(nowS() * 1e6);
        v.latencyUsec = 0;
        v.valueType = 1;
        v.value.ullVal = 0;
        if (v.fieldId == 185) {
            v.value.uiVal = powerThrough(d, d.average_model);
            v.nvmlReturn = 0;
        } else if (v.fieldId == 186 && d.instant) {
            v.value.uiVal = powerThrough(d, d.instant_model);
            v.nvmlReturn = 0;
        } else {
            v.nvmlReturn = 3;
        }
    }
    return 0;
}

__attribute__((visibility("default"))) int
nvmlDeviceGetComputeRunningProcesses_v3(void* h, unsigned int* count, ProcessInfoV2* infos)
{
    return listProcesses(h, count, infos);
}

__attribute__((visibility("default"))) int
nvmlDeviceGetComputeRunningProcesses_v2(void* h, unsigned int* count, ProcessInfoV2* infos)
{
    return listProcesses(h, count, infos);
}

__attribute__((visibility("default"))) int nvmlDeviceGetAccountingMode(void* h, int* mode)
{
    *mode = dev(h)->accounting;
    return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetAccountingStats(void* h, unsigned int pid,
                                                                        AccountingStats* s)
{
    std::lock_guard lock(g_mutex);
    if (!dev(h)->accounting)
        return 3;
    bool found = false;
    *s = AccountingStats{};
    for (const ProcLine& p : readProcs())
        if (p.gpu == dev(h)->index && p.pid == long(pid)) {
            found = true;
            s->maxMemoryUsage = std::max(s->maxMemoryUsage, p.bytes);
        }
    if (!found)
        return 6;
    s->isRunning = alive(long(pid)) ? 1 : 0;
    return 0;
}
#else
__attribute__((visibility("default"))) int nvmlDeviceGetComputeRunningProcesses(void* h, unsigned int* count,
                                                                                ProcessInfoV1* infos)
{
    return listProcesses(h, count, infos);
}
#endif

}  // extern "C"
