#include <jb/counters/NvmlLibrary.h>

#include <algorithm>

#include <dlfcn.h>

#include <cstring>

namespace jb {

namespace {

// The few NVML types used here, as nvml.h declares them (no NVML header is installed).
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kNotSupported = 3;
constexpr nvmlReturn_t kNotFound = 6;
constexpr nvmlReturn_t kInsufficientSize = 7;
constexpr unsigned long long kValueNotAvailable = ~0ULL;  // NVML_VALUE_NOT_AVAILABLE
constexpr unsigned kNameBufferSize = 96;                  // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kUuidBufferSize = 96;                  // NVML_DEVICE_UUID_V2_BUFFER_SIZE

}  // namespace

struct NvmlLibrary::Api {
    // The structs NVML fills, as nvml.h declares them (members of Api so that they have the
    // class's linkage).
    struct nvmlMemory_t {
        unsigned long long total, free, used;
    };
    // Taken by nvmlDeviceGetComputeRunningProcesses (the original call).
    struct nvmlProcessInfo_v1_t {
        unsigned int pid;
        unsigned long long usedGpuMemory;
    };
    // Taken by the _v2 and _v3 calls.
    struct nvmlProcessInfo_v2_t {
        unsigned int pid;
        unsigned long long usedGpuMemory;
        unsigned int gpuInstanceId;
        unsigned int computeInstanceId;
    };
    struct nvmlAccountingStats_t {
        unsigned int gpuUtilization;
        unsigned int memoryUtilization;
        unsigned long long maxMemoryUsage;
        unsigned long long time;
        unsigned long long startTime;
        unsigned int isRunning;
        unsigned int reserved[5];
    };

    // nvmlValue_t and nvmlFieldValue_t as nvml.h declares them (40 bytes).
    union nvmlValue_t {
        double dVal;
        unsigned int uiVal;
        unsigned long ulVal;
        unsigned long long ullVal;
        long long sllVal;
        int siVal;
        unsigned short usVal;
    };
    struct nvmlFieldValue_t {
        unsigned int fieldId;
        unsigned int scopeId;
        long long timestamp;
        long long latencyUsec;
        int valueType;  // nvmlValueType_t
        nvmlReturn_t nvmlReturn;
        nvmlValue_t value;
    };
    static_assert(sizeof(nvmlFieldValue_t) == 40);

    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*getFieldValues)(nvmlDevice_t, int, nvmlFieldValue_t*) = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    const char* (*errorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*getCount)(unsigned int*) = nullptr;
    nvmlReturn_t (*getHandleByIndex)(unsigned int, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*getName)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*getUuid)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*getMemoryInfo)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
    nvmlReturn_t (*getTotalEnergy)(nvmlDevice_t, unsigned long long*) = nullptr;
    nvmlReturn_t (*getPowerUsage)(nvmlDevice_t, unsigned int*) = nullptr;
    nvmlReturn_t (*getProcessesV2)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_v2_t*) = nullptr;
    nvmlReturn_t (*getProcessesV1)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_v1_t*) = nullptr;
    int process_api = 0;
    nvmlReturn_t (*getAccountingMode)(nvmlDevice_t, int*) = nullptr;
    nvmlReturn_t (*getAccountingStats)(nvmlDevice_t, unsigned int, nvmlAccountingStats_t*) = nullptr;
};

namespace {

template <class F>
bool resolve(void* handle, const char* symbol, F& into)
{
    into = reinterpret_cast<F>(dlsym(handle, symbol));
    return into != nullptr;
}

}  // namespace

Result<std::shared_ptr<NvmlLibrary>> NvmlLibrary::load(const std::string& path)
{
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        return Error{"cannot load NVML library '" + path + "': " + (why ? why : "unknown error") +
                     " (install the NVIDIA driver, or pass the library's path with --nvml-library)"};
    }
    std::shared_ptr<NvmlLibrary> lib(new NvmlLibrary);
    lib->path_ = path;
    lib->handle_ = handle;
    lib->api_ = std::make_unique<Api>();
    Api& a = *lib->api_;
    // The calls every use needs; the others are optional and checked where used.
    const char* missing = nullptr;
    if (!resolve(handle, "nvmlInit_v2", a.init))
        missing = "nvmlInit_v2";
    else if (!resolve(handle, "nvmlShutdown", a.shutdown))
        missing = "nvmlShutdown";
    else if (!resolve(handle, "nvmlErrorString", a.errorString))
        missing = "nvmlErrorString";
    else if (!resolve(handle, "nvmlDeviceGetCount_v2", a.getCount))
        missing = "nvmlDeviceGetCount_v2";
    else if (!resolve(handle, "nvmlDeviceGetHandleByIndex_v2", a.getHandleByIndex))
        missing = "nvmlDeviceGetHandleByIndex_v2";
    if (missing) {
        a.shutdown = nullptr;  // not initialised: the destructor must not shut down
        return Error{"NVML library '" + path + "' lacks " + missing + " (a driver too old, or not NVML)"};
    }
    resolve(handle, "nvmlDeviceGetName", a.getName);
    resolve(handle, "nvmlDeviceGetUUID", a.getUuid);
    resolve(handle, "nvmlDeviceGetMemoryInfo", a.getMemoryInfo);
    resolve(handle, "nvmlDeviceGetTotalEnergyConsumption", a.getTotalEnergy);
    resolve(handle, "nvmlDeviceGetPowerUsage", a.getPowerUsage);
    resolve(handle, "nvmlDeviceGetFieldValues", a.getFieldValues);
    resolve(handle, "nvmlDeviceGetAccountingMode", a.getAccountingMode);
    resolve(handle, "nvmlDeviceGetAccountingStats", a.getAccountingStats);
    if (resolve(handle, "nvmlDeviceGetComputeRunningProcesses_v3", a.getProcessesV2))
        a.process_api = 3;
    else if (resolve(handle, "nvmlDeviceGetComputeRunningProcesses_v2", a.getProcessesV2))
        a.process_api = 2;
    else if (resolve(handle, "nvmlDeviceGetComputeRunningProcesses", a.getProcessesV1))
        a.process_api = 1;

    const nvmlReturn_t rc = a.init();
    if (rc != kSuccess) {
        const std::string why = lib->message("nvmlInit_v2", rc);
        a.shutdown = nullptr;
        return Error{"NVML library '" + path + "': " + why +
                     " (is the NVIDIA kernel driver loaded? nvidia-smi says more)"};
    }
    return lib;
}

NvmlLibrary::~NvmlLibrary()
{
    if (api_ && api_->shutdown)
        api_->shutdown();  // NVML counts inits: this undoes only ours
    // No dlclose: the driver library may keep threads or atexit handlers of its own, and
    // dlopen already counts references, so keeping it mapped costs nothing.
}

std::string NvmlLibrary::message(const char* call, int rc) const
{
    const char* text = api_ && api_->errorString ? api_->errorString(rc) : nullptr;
    return std::string(call) + ": " + (text ? text : "NVML error") + " (" + std::to_string(rc) + ")";
}

Result<int> NvmlLibrary::deviceCount() const
{
    unsigned int n = 0;
    const nvmlReturn_t rc = api_->getCount(&n);
    if (rc != kSuccess)
        return Error{message("nvmlDeviceGetCount_v2", rc)};
    return int(n);
}

Result<void*> NvmlLibrary::deviceByIndex(int index) const
{
    if (index < 0)
        return Error{"GPU index " + std::to_string(index) + " is negative"};
    nvmlDevice_t dev = nullptr;
    const nvmlReturn_t rc = api_->getHandleByIndex(unsigned(index), &dev);
    if (rc != kSuccess)
        return Error{message("nvmlDeviceGetHandleByIndex_v2", rc) + " for GPU " + std::to_string(index)};
    return dev;
}

namespace {
// nvmlDeviceGetName and nvmlDeviceGetUUID share one shape: a device, a buffer, its size.
using StringCall = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned int);
constexpr unsigned kStringBufferSize = std::max(kNameBufferSize, kUuidBufferSize);
}  // namespace

Result<std::string> NvmlLibrary::deviceString(void* device, StringCall call, const char* symbol) const
{
    if (!call)
        return Error{"NVML library '" + path_ + "' lacks " + symbol};
    char buf[kStringBufferSize] = {};
    const nvmlReturn_t rc = call(device, buf, kStringBufferSize);
    if (rc != kSuccess)
        return Error{message(symbol, rc)};
    return std::string(buf, strnlen(buf, kStringBufferSize));
}

Result<std::string> NvmlLibrary::name(void* device) const
{
    return deviceString(device, api_->getName, "nvmlDeviceGetName");
}

Result<std::string> NvmlLibrary::uuid(void* device) const
{
    return deviceString(device, api_->getUuid, "nvmlDeviceGetUUID");
}

Result<std::uint64_t> NvmlLibrary::totalMemoryBytes(void* device) const
{
    if (!api_->getMemoryInfo)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetMemoryInfo"};
    Api::nvmlMemory_t m{};
    const nvmlReturn_t rc = api_->getMemoryInfo(device, &m);
    if (rc != kSuccess)
        return Error{message("nvmlDeviceGetMemoryInfo", rc)};
    return std::uint64_t(m.total);
}

Result<std::uint64_t> NvmlLibrary::totalEnergyMj(void* device) const
{
    if (!api_->getTotalEnergy)
        return Error{"NVML library '" + path_ +
                     "' lacks nvmlDeviceGetTotalEnergyConsumption (driver too old)"};
    unsigned long long mj = 0;
    const nvmlReturn_t rc = api_->getTotalEnergy(device, &mj);
    if (rc != kSuccess) {
        std::string m = message("nvmlDeviceGetTotalEnergyConsumption", rc);
        if (rc == kNotSupported)
            m += "; the total energy counter needs a Volta or newer GPU";
        return Error{m};
    }
    return std::uint64_t(mj);
}

Result<std::uint32_t> NvmlLibrary::powerUsageMw(void* device) const
{
    if (!api_->getPowerUsage)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetPowerUsage"};
    unsigned int mw = 0;
    const nvmlReturn_t rc = api_->getPowerUsage(device, &mw);
    if (rc != kSuccess)
        return Error{message("nvmlDeviceGetPowerUsage", rc)};
    return std::uint32_t(mw);
}

bool NvmlLibrary::hasFieldValues() const
{
    return api_->getFieldValues != nullptr;
}

Result<std::uint64_t> NvmlLibrary::powerFieldMw(void* device, unsigned field_id) const
{
    if (!api_->getFieldValues)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetFieldValues"};
    Api::nvmlFieldValue_t v{};
    v.fieldId = field_id;
    const nvmlReturn_t rc = api_->getFieldValues(device, 1, &v);
    const std::string call = "nvmlDeviceGetFieldValues(field " + std::to_string(field_id) + ")";
    if (rc != kSuccess)
        return Error{message(call.c_str(), rc)};
    if (v.nvmlReturn != kSuccess)
        return Error{message(call.c_str(), v.nvmlReturn)};
    switch (v.valueType) {
    case 0:  // double
        if (!(v.value.dVal >= 0) || v.value.dVal > 1e12)
            return Error{call + ": value " + std::to_string(v.value.dVal) + " mW is not a power"};
        return std::uint64_t(v.value.dVal);
    case 1:  // unsigned int (the H200's answer)
        return std::uint64_t(v.value.uiVal);
    case 2:
        return std::uint64_t(v.value.ulVal);
    case 3:
        return std::uint64_t(v.value.ullVal);
    case 4:
        if (v.value.sllVal < 0)
            return Error{call + ": negative value " + std::to_string(v.value.sllVal) + " mW"};
        return std::uint64_t(v.value.sllVal);
    case 5:
        if (v.value.siVal < 0)
            return Error{call + ": negative value " + std::to_string(v.value.siVal) + " mW"};
        return std::uint64_t(v.value.siVal);
    case 6:
        return std::uint64_t(v.value.usVal);
    default:
        return Error{call + ": unknown value type " + std::to_string(v.valueType)};
    }
}

Result<std::vector<NvmlProcess>> NvmlLibrary::computeProcesses(void* device) const
{
    if (api_->process_api == 0)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetComputeRunningProcesses"};
    const char* call = api_->process_api == 3 ? "nvmlDeviceGetComputeRunningProcesses_v3"
        : api_->process_api == 2              ? "nvmlDeviceGetComputeRunningProcesses_v2"
                                              : "nvmlDeviceGetComputeRunningProcesses";
    // The list may grow between the size query and the read: retry with room to spare.
    unsigned int capacity = 64;
    for (int attempt = 0; attempt < 5; ++attempt) {
        std::vector<NvmlProcess> out;
        unsigned int n = capacity;
        nvmlReturn_t rc;
        if (api_->process_api >= 2) {
            std::vector<Api::nvmlProcessInfo_v2_t> buf(capacity);
            rc = api_->getProcessesV2(device, &n, buf.data());
            if (rc == kSuccess)
                for (unsigned i = 0; i < n && i < capacity; ++i)
                    out.push_back({std::int64_t(buf[i].pid),
                                   buf[i].usedGpuMemory == kValueNotAvailable
                                       ? std::nullopt
                                       : std::optional<std::uint64_t>(buf[i].usedGpuMemory)});
        } else {
            std::vector<Api::nvmlProcessInfo_v1_t> buf(capacity);
            rc = api_->getProcessesV1(device, &n, buf.data());
            if (rc == kSuccess)
                for (unsigned i = 0; i < n && i < capacity; ++i)
                    out.push_back({std::int64_t(buf[i].pid),
                                   buf[i].usedGpuMemory == kValueNotAvailable
                                       ? std::nullopt
                                       : std::optional<std::uint64_t>(buf[i].usedGpuMemory)});
        }
        if (rc == kSuccess)
            return out;
        if (rc != kInsufficientSize)
            return Error{message(call, rc)};
        capacity = n > capacity ? n + 16 : capacity * 2;
    }
    return Error{std::string(call) + ": the process list kept growing"};
}

Result<bool> NvmlLibrary::accountingMode(void* device) const
{
    if (!api_->getAccountingMode)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetAccountingMode"};
    int mode = 0;
    const nvmlReturn_t rc = api_->getAccountingMode(device, &mode);
    if (rc != kSuccess)
        return Error{message("nvmlDeviceGetAccountingMode", rc)};
    return mode == 1;  // NVML_FEATURE_ENABLED
}

Result<NvmlAccounting> NvmlLibrary::accountingStats(void* device, std::int64_t pid) const
{
    if (!api_->getAccountingStats)
        return Error{"NVML library '" + path_ + "' lacks nvmlDeviceGetAccountingStats"};
    Api::nvmlAccountingStats_t s{};
    const nvmlReturn_t rc = api_->getAccountingStats(device, unsigned(pid), &s);
    if (rc != kSuccess) {
        std::string m = message("nvmlDeviceGetAccountingStats", rc) + " for pid " + std::to_string(pid);
        if (rc == kNotFound)
            m += " (the process did not use this GPU while accounting was on)";
        return Error{m};
    }
    return NvmlAccounting{s.maxMemoryUsage == kValueNotAvailable ? 0 : std::uint64_t(s.maxMemoryUsage),
                          s.isRunning != 0};
}

bool NvmlLibrary::hasEnergy() const
{
    return api_->getTotalEnergy != nullptr;
}

bool NvmlLibrary::hasAccounting() const
{
    return api_->getAccountingMode != nullptr && api_->getAccountingStats != nullptr;
}

int NvmlLibrary::processApiVersion() const
{
    return api_->process_api;
}

}  // namespace jb
