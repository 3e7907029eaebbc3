#include <jb/jobs/GpuProbe.h>

#include <jb/base/Numbers.h>
#include <jb/counters/NvmlLibrary.h>
#include <jb/jobs/Subprocess.h>

#include <charconv>

namespace jb {

namespace {

constexpr int kSmiTimeoutMs = 30'000;
constexpr std::int64_t kMiB = 1024 * 1024;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitComma(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    for (;;) {
        const std::size_t c = line.find(',', at);
        out.push_back(trim(line.substr(at, c == std::string_view::npos ? std::string_view::npos : c - at)));
        if (c == std::string_view::npos)
            break;
        at = c + 1;
    }
    return out;
}

template <class F>
void forLines(std::string_view text, F&& f)
{
    std::size_t at = 0, n = 0;
    while (at < text.size()) {
        const std::size_t end = text.find('\n', at);
        std::string_view line = trim(
            text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
        ++n;
        if (!line.empty())
            f(line, n);
        if (end == std::string_view::npos)
            break;
        at = end + 1;
    }
}

std::string smiProgram(const std::string& p)
{
    return p.empty() ? "nvidia-smi" : p;
}

}  // namespace

Result<std::vector<GpuInfo>> parseQueryGpu(std::string_view csv)
{
    std::vector<GpuInfo> out;
    std::string error;
    forLines(csv, [&](std::string_view line, std::size_t n) {
        if (!error.empty())
            return;
        auto f = splitComma(line);
        GpuInfo g;
        g.source = "nvidia-smi";
        // A name holding a comma would split in two: index and uuid come first, memory last.
        if (f.size() < 4 || !parseWhole(f[0], g.physical_index) ||
            !parseWhole(f.back(), g.total_memory_mib)) {
            error = "nvidia-smi --query-gpu line " + std::to_string(n) +
                ": expected 'index, uuid, name, memory.total', got '" + std::string(line) + "'";
            return;
        }
        g.uuid = std::string(f[1]);
        for (std::size_t i = 2; i + 1 < f.size(); ++i)
            g.name += (i > 2 ? ", " : "") + std::string(f[i]);
        out.push_back(g);
    });
    if (!error.empty())
        return Error{error};
    return out;
}

Result<std::vector<GpuAppMemory>> parseQueryComputeApps(std::string_view csv)
{
    std::vector<GpuAppMemory> out;
    std::string error;
    forLines(csv, [&](std::string_view line, std::size_t n) {
        if (!error.empty() || line.rfind("No running", 0) == 0)
            return;
        auto f = splitComma(line);
        GpuAppMemory a;
        if (f.size() != 3 || !parseWhole(f[0], a.pid)) {
            error = "nvidia-smi --query-compute-apps line " + std::to_string(n) +
                ": expected 'pid, gpu_uuid, used_memory', got '" + std::string(line) + "'";
            return;
        }
        a.gpu_uuid = std::string(f[1]);
        if (!parseWhole(f[2], a.used_mib))
            return;  // "[N/A]": the driver does not say (no permission, MIG without a view)
        out.push_back(a);
    });
    if (!error.empty())
        return Error{error};
    return out;
}

GpuProbe::GpuProbe(std::string nvml_library, std::string nvidia_smi)
    : nvml_path_(nvml_library.empty() ? std::string("libnvidia-ml.so.1") : std::move(nvml_library)),
      nvidia_smi_(smiProgram(nvidia_smi))
{
    auto lib = NvmlLibrary::load(nvml_path_);
    if (lib)
        nvml_ = *lib;
    else
        nvml_problem_ = lib.error();
}

GpuProbe::~GpuProbe() = default;

void* GpuProbe::nvmlDevice(const GpuInfo& gpu)
{
    if (!nvml_)
        return nullptr;
    auto it = devices_.find(gpu.physical_index);
    if (it != devices_.end())
        return it->second;
    auto dev = nvml_->deviceByIndex(gpu.physical_index);
    void* d = dev ? *dev : nullptr;
    devices_[gpu.physical_index] = d;
    return d;
}

Result<GpuInfo> GpuProbe::physicalGpu(int index)
{
    std::string nvml_why = nvml_problem_;
    if (nvml_) {
        auto dev = nvml_->deviceByIndex(index);
        if (dev) {
            auto name = nvml_->name(*dev);
            auto uuid = nvml_->uuid(*dev);
            auto mem = nvml_->totalMemoryBytes(*dev);
            if (name && uuid && mem) {
                devices_[index] = *dev;
                return GpuInfo{index, *uuid, *name, std::int64_t(*mem / std::uint64_t(kMiB)), "nvml"};
            }
            nvml_why = !name ? name.error() : !uuid ? uuid.error() : mem.error();
        } else
            nvml_why = dev.error();
    }
    auto smi = runCapture(
        {nvidia_smi_, "--query-gpu=index,uuid,name,memory.total", "--format=csv,noheader,nounits"}, "",
        kSmiTimeoutMs);
    std::string smi_why;
    if (!smi)
        smi_why = smi.error();
    else if (smi->exit_code != 0)
        smi_why = nvidia_smi_ + " ended with " + describeWaitStatus(smi->exit_code) + ": " +
            smi->err.substr(0, 300);
    else if (auto rows = parseQueryGpu(smi->out); !rows)
        smi_why = rows.error();
    else {
        std::vector<GpuInfo> matches;
        for (const GpuInfo& g : *rows)
            if (g.physical_index == index)
                matches.push_back(g);
        if (matches.size() == 1)
            return matches.front();
        smi_why = nvidia_smi_ + " lists " + std::to_string(matches.size()) + " GPU(s) with index " +
            std::to_string(index) + " among " + std::to_string(rows->size());
    }
    return Error{"cannot resolve physical GPU " + std::to_string(index) + ": NVML: " + nvml_why +
                 "; nvidia-smi: " + smi_why};
}

Result<GpuMemoryReading> GpuProbe::processMemory(const GpuInfo& gpu, const std::set<std::int64_t>& pids)
{
    GpuMemoryReading r;
    if (void* dev = nvmlDevice(gpu)) {
        auto procs = nvml_->computeProcesses(dev);
        if (procs) {
            r.source = "nvml";
            for (const NvmlProcess& p : *procs)
                if (pids.count(p.pid) && p.used_bytes) {
                    const std::int64_t mib = std::int64_t(*p.used_bytes / std::uint64_t(kMiB));
                    r.per_pid_mib[p.pid] += mib;
                    r.total_mib += mib;
                }
            return r;
        }
        // Fall through to nvidia-smi, which may still answer.
    }
    auto smi = runCapture(
        {nvidia_smi_, "--query-compute-apps=pid,gpu_uuid,used_memory", "--format=csv,noheader,nounits"}, "",
        kSmiTimeoutMs);
    if (!smi)
        return Error{smi.error()};
    if (smi->exit_code != 0)
        return Error{nvidia_smi_ + " ended with " + describeWaitStatus(smi->exit_code) + ": " +
                     smi->err.substr(0, 300)};
    auto rows = parseQueryComputeApps(smi->out);
    if (!rows)
        return Error{rows.error()};
    r.source = "nvidia-smi";
    for (const GpuAppMemory& a : *rows)
        if (a.gpu_uuid == gpu.uuid && pids.count(a.pid)) {
            r.per_pid_mib[a.pid] += a.used_mib;
            r.total_mib += a.used_mib;
        }
    return r;
}

std::optional<double> GpuProbe::powerW(const GpuInfo& gpu)
{
    void* dev = nvmlDevice(gpu);
    if (!dev)
        return std::nullopt;
    auto mw = nvml_->powerUsageMw(dev);
    if (!mw)
        return std::nullopt;
    return double(*mw) / 1000.0;
}

std::optional<JobAccounting> GpuProbe::accounting(const GpuInfo& gpu, const std::set<std::int64_t>& pids)
{
    void* dev = nvmlDevice(gpu);
    if (!dev || !nvml_->hasAccounting())
        return std::nullopt;
    JobAccounting a;
    auto mode = nvml_->accountingMode(dev);
    if (!mode) {
        a.error = mode.error();
        return a;
    }
    a.enabled = *mode;
    if (!*mode)
        return a;
    for (std::int64_t pid : pids) {
        auto s = nvml_->accountingStats(dev, pid);
        if (!s)
            continue;  // the process never touched this GPU
        const std::int64_t mib = std::int64_t(s->max_memory_bytes / std::uint64_t(kMiB));
        a.per_process_max_memory_mib[pid] = mib;
        a.max_process_memory_mib = std::max(a.max_process_memory_mib, mib);
        a.sum_of_process_max_memory_mib += mib;
    }
    return a;
}

}  // namespace jb
