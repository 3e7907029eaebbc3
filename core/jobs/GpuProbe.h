#pragma once
// The physical GPUs and the GPU memory of a job's processes: NVML first (loaded at run time),
// `nvidia-smi` CSV where NVML cannot be loaded. Both the library path and the program are
// injected, so tests use a fake library and a fake nvidia-smi script.
#include <jb/base/Result.h>
#include <jb/jobs/JobReports.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

class NvmlLibrary;

struct GpuInfo {
    int physical_index = -1;
    std::string uuid;
    std::string name;
    std::int64_t total_memory_mib = 0;
    std::string source;  // "nvml" or "nvidia-smi"
    friend bool operator==(const GpuInfo&, const GpuInfo&) = default;
};

struct GpuAppMemory {
    std::int64_t pid = 0;
    std::string gpu_uuid;
    std::int64_t used_mib = 0;
};

// `nvidia-smi --query-gpu=index,uuid,name,memory.total --format=csv,noheader,nounits`.
Result<std::vector<GpuInfo>> parseQueryGpu(std::string_view csv);
// `nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory --format=csv,noheader,nounits`;
// rows whose memory is not a number ("[N/A]") are left out.
Result<std::vector<GpuAppMemory>> parseQueryComputeApps(std::string_view csv);

// One reading of the job's processes on one GPU.
struct GpuMemoryReading {
    std::int64_t total_mib = 0;  // summed over the job's processes on that GPU
    std::map<std::int64_t, std::int64_t> per_pid_mib;
    std::string source;  // "nvml" or "nvidia-smi"
};

class GpuProbe {
public:
    // nvml_library: path or soname (empty: libnvidia-ml.so.1); nvidia_smi: program (empty:
    // nvidia-smi on PATH).
    GpuProbe(std::string nvml_library, std::string nvidia_smi);
    ~GpuProbe();

    // The GPU with this physical index (as nvidia-smi numbers them); the error says what both
    // NVML and nvidia-smi answered.
    Result<GpuInfo> physicalGpu(int index);
    Result<GpuMemoryReading> processMemory(const GpuInfo& gpu, const std::set<std::int64_t>& pids);
    // Board power in W (NVML only).
    std::optional<double> powerW(const GpuInfo& gpu);
    // With NVML accounting mode on: each pid's maxMemoryUsage in MiB, their maximum and sum;
    // enabled false where it is off, nothing where NVML is not loaded.
    std::optional<JobAccounting> accounting(const GpuInfo& gpu, const std::set<std::int64_t>& pids);

    // Why NVML is not used (empty where it is).
    const std::string& nvmlProblem() const { return nvml_problem_; }

private:
    void* nvmlDevice(const GpuInfo& gpu);

    std::string nvml_path_;
    std::string nvidia_smi_;
    std::shared_ptr<NvmlLibrary> nvml_;
    std::string nvml_problem_;
    std::map<int, void*> devices_;
};

}  // namespace jb
