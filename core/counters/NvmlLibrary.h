#pragma once
// NVML loaded at run time with dlopen: no NVML header or link-time dependency, so one binary
// runs on machines with and without the NVIDIA driver, and tests load a fake library through
// the same path override (CounterOptions::nvml_library). The one wrapper that both the `nvml`
// counter and the GPU job queue use. Thread-safe (NVML itself is).
#include <jb/base/Result.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// One process NVML lists on a device.
struct NvmlProcess {
    std::int64_t pid = 0;
    std::optional<std::uint64_t> used_bytes;  // none where NVML says "not available"
};

// nvmlAccountingStats_t's fields that matter here.
struct NvmlAccounting {
    std::uint64_t max_memory_bytes = 0;
    bool running = false;
};

class NvmlLibrary {
public:
    // dlopen(path) and nvmlInit_v2. The error names the path and dlerror() or NVML's message,
    // with the fix (install the driver, pass --nvml-library).
    static Result<std::shared_ptr<NvmlLibrary>> load(const std::string& path);
    ~NvmlLibrary();  // nvmlShutdown (the library stays mapped: see NvmlLibrary.cpp)
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    const std::string& path() const { return path_; }

    Result<int> deviceCount() const;
    // NVML's index order is the PCI bus order, the order nvidia-smi shows.
    Result<void*> deviceByIndex(int index) const;
    Result<std::string> name(void* device) const;
    Result<std::string> uuid(void* device) const;
    Result<std::uint64_t> totalMemoryBytes(void* device) const;
    // Millijoules since the driver was loaded (Volta and newer); never wraps.
    Result<std::uint64_t> totalEnergyMj(void* device) const;
    // nvmlDeviceGetPowerUsage: on recent drivers the averaged reading (= field 185, a 1 s window).
    Result<std::uint32_t> powerUsageMw(void* device) const;
    // One power field through nvmlDeviceGetFieldValues, in mW: NVML_FI_DEV_POWER_INSTANT (186)
    // or NVML_FI_DEV_POWER_AVERAGE (185). An error where the library lacks the call or the
    // driver answers the field with an error (older drivers: Not Supported).
    static constexpr unsigned kFieldPowerAverage = 185;
    static constexpr unsigned kFieldPowerInstant = 186;
    Result<std::uint64_t> powerFieldMw(void* device, unsigned field_id) const;
    bool hasFieldValues() const;
    // Compute processes on the device (_v3, else _v2, else the original call).
    Result<std::vector<NvmlProcess>> computeProcesses(void* device) const;
    Result<bool> accountingMode(void* device) const;
    // Error NOT_FOUND where the pid never used the device with accounting on.
    Result<NvmlAccounting> accountingStats(void* device, std::int64_t pid) const;

    // Which optional entry points the library has (for the counter's info and the tests).
    bool hasEnergy() const;
    bool hasAccounting() const;
    int processApiVersion() const;  // 3, 2, 1, or 0 when none resolved

    struct Api;  // resolved function pointers (NvmlLibrary.cpp)

private:
    // Calls nvmlDeviceGetName/UUID-shaped functions (device, buffer, size); `symbol` names it.
    Result<std::string> deviceString(void* device, int (*call)(void*, char*, unsigned int),
                                     const char* symbol) const;
    NvmlLibrary() = default;
    std::string message(const char* call, int rc) const;

    std::string path_;
    void* handle_ = nullptr;
    std::unique_ptr<Api> api_;
};

}  // namespace jb
