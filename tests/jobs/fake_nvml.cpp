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
//                               not count): the fake CUDA driver creates it while it "computes"
//   init_error <code>           nvmlInit_v2 fails with this code
// Built twice: FAKE_NVML_OLD leaves out the energy, accounting and _v2/_v3 process calls, as a
// driver too old to have them.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
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
    double last_s = -1;
    std::string busy_file;
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
        } else if (word == "init_error") {
            ls >> init_error;
        }
    }
    if (init_error != 0) {
        g_inits = 0;
        return init_error;
    }
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
    *mw = unsigned(busy(*dev(h)) ? dev(h)->busy_mw : dev(h)->idle_mw);
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
    const double t = nowS();
    if (d.last_s >= 0)
        d.energy_mj += (busy(d) ? d.busy_mw : d.idle_mw) * (t - d.last_s);  // mW x s = mJ
    d.last_s = t;
    *mj = static_cast<unsigned long long>(std::floor(d.energy_mj));
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
