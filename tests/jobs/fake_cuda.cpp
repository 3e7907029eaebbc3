// A fake CUDA driver (libcuda) for the tests, loaded by joulebench-gpu-load through its
// --cuda-library / JB_CUDA_LIBRARY override. It exports the cu* entry points the workload
// resolves and checks how they are called (a context before a module, the built-in PTX has
// the fma_loop entry, launches carry three parameters and a buffer it handed out). It does no
// GPU work. Its behaviour comes from the environment:
//   JB_FAKE_CUDA_INIT_ERROR=N   cuInit returns N (100: no device)
//   JB_FAKE_CUDA_LAUNCH_LOG=F   appends "<grid> <block> <n> <iters>" per launch to F
//   JB_FAKE_GPU_PROCS=F         each allocation appends "<gpu> <pid> <bytes in use>" to F, as
//                               jobs_worker --gpu-mem does, so the fake NVML and the fake
//                               nvidia-smi see this process's memory: its latest line
//                               (gpu: CUDA_VISIBLE_DEVICES, else 0)
//   JB_FAKE_CUDA_LAUNCH_US=N    each launch "takes" N us: cuCtxSynchronize sleeps for the
//                               launches since the last one (default 0: no time)
//   JB_FAKE_CUDA_BUSY_FILE=F    F exists while cuCtxSynchronize sleeps (the fake NVML's
//                               busy_file: the GPU draws its busy power meanwhile)
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace {

std::mutex g_mutex;
bool g_init = false;
bool g_ctx = false;
bool g_module = false;
unsigned long long g_next = 0x10000;
std::map<unsigned long long, std::size_t> g_allocs;

std::size_t g_in_use = 0;
long g_pending = 0;  // launches since the last synchronise

void registerMemory(std::size_t bytes)
{
    const char* file = std::getenv("JB_FAKE_GPU_PROCS");
    if (!file || !*file)
        return;
    const char* gpu = std::getenv("CUDA_VISIBLE_DEVICES");
    if (FILE* f = std::fopen(file, "a")) {
        std::fprintf(f, "%s %ld %zu\n", gpu && *gpu ? gpu : "0", long(getpid()), bytes);
        std::fclose(f);
    }
}

constexpr int kInvalidValue = 1;
constexpr int kNotInitialized = 3;
constexpr int kInvalidContext = 201;
constexpr int kInvalidPtx = 218;
constexpr int kNotFound = 500;

}  // namespace

#define FAKE_CUDA_API extern "C" __attribute__((visibility("default")))

FAKE_CUDA_API int cuInit(unsigned flags)
{
    if (const char* e = std::getenv("JB_FAKE_CUDA_INIT_ERROR"); e && *e)
        return std::atoi(e);
    if (flags != 0)
        return kInvalidValue;
    std::lock_guard lock(g_mutex);
    g_init = true;
    return 0;
}

FAKE_CUDA_API int cuGetErrorString(int rc, const char** text)
{
    switch (rc) {
    case 100: *text = "no CUDA-capable device is detected"; return 0;
    case kInvalidPtx: *text = "a PTX JIT compilation failed"; return 0;
    default: *text = "fake CUDA error"; return 0;
    }
}

FAKE_CUDA_API int cuDeviceGetCount(int* count)
{
    if (!g_init)
        return kNotInitialized;
    *count = 1;
    return 0;
}

FAKE_CUDA_API int cuDeviceGet(int* dev, int ordinal)
{
    if (!g_init)
        return kNotInitialized;
    if (ordinal != 0)
        return kInvalidValue;
    *dev = 0;
    return 0;
}

FAKE_CUDA_API int cuDeviceGetName(char* name, int len, int dev)
{
    if (dev != 0 || len < 1)
        return kInvalidValue;
    std::snprintf(name, std::size_t(len), "Fake H200");
    return 0;
}

FAKE_CUDA_API int cuCtxCreate_v2(void** ctx, unsigned, int dev)
{
    if (!g_init)
        return kNotInitialized;
    if (dev != 0)
        return kInvalidValue;
    g_ctx = true;
    *ctx = &g_ctx;
    return 0;
}

FAKE_CUDA_API int cuCtxDestroy_v2(void* ctx)
{
    if (ctx != &g_ctx)
        return kInvalidContext;
    std::lock_guard lock(g_mutex);
    g_ctx = false;
    g_module = false;
    g_allocs.clear();
    g_in_use = 0;
    return 0;
}

FAKE_CUDA_API int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* keys, void** values)
{
    if (!g_ctx)
        return kInvalidContext;
    const char* ptx = static_cast<const char*>(image);
    const bool good = std::strstr(ptx, ".version ") && std::strstr(ptx, ".target sm_") &&
                      std::strstr(ptx, ".entry fma_loop(") && std::strstr(ptx, "fma.rn.f32");
    if (!good) {
        for (unsigned i = 0; i + 1 < n; ++i)
            if (keys[i] == 5 && keys[i + 1] == 6)
                std::snprintf(static_cast<char*>(values[i]), std::size_t(reinterpret_cast<std::uintptr_t>(values[i + 1])),
                              "fake ptxas: no .entry fma_loop");
        return kInvalidPtx;
    }
    g_module = true;
    *module = &g_module;
    return 0;
}

FAKE_CUDA_API int cuModuleGetFunction(void** fn, void* module, const char* name)
{
    if (module != &g_module || !g_module)
        return kInvalidValue;
    if (std::strcmp(name, "fma_loop") != 0)
        return kNotFound;
    *fn = &g_module;
    return 0;
}

FAKE_CUDA_API int cuMemAlloc_v2(unsigned long long* ptr, std::size_t bytes)
{
    if (!g_ctx)
        return kInvalidContext;
    if (bytes == 0)
        return kInvalidValue;
    std::lock_guard lock(g_mutex);
    *ptr = g_next;
    g_next += (bytes + 0xffff) & ~std::size_t(0xffff);
    g_allocs[*ptr] = bytes;
    g_in_use += bytes;
    registerMemory(g_in_use);
    return 0;
}

FAKE_CUDA_API int cuMemsetD32_v2(unsigned long long ptr, unsigned, std::size_t words)
{
    std::lock_guard lock(g_mutex);
    const auto it = g_allocs.find(ptr);
    return it != g_allocs.end() && words * 4 <= it->second ? 0 : kInvalidValue;
}

FAKE_CUDA_API int cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                 unsigned, void*, void** params, void** extra)
{
    if (fn != &g_module || !params || extra || gx == 0 || gy != 1 || gz != 1 || bx == 0 || by != 1 || bz != 1)
        return kInvalidValue;
    const auto buf = *static_cast<unsigned long long*>(params[0]);
    const auto n = *static_cast<unsigned*>(params[1]);
    const auto iters = *static_cast<unsigned*>(params[2]);
    {
        std::lock_guard lock(g_mutex);
        const auto it = g_allocs.find(buf);
        if (it == g_allocs.end() || std::size_t(n) * 4 > it->second || std::size_t(gx) * bx < n)
            return kInvalidValue;
    }
    if (const char* log = std::getenv("JB_FAKE_CUDA_LAUNCH_LOG"); log && *log)
        if (FILE* f = std::fopen(log, "a")) {
            std::fprintf(f, "%u %u %u %u\n", gx, bx, n, iters);
            std::fclose(f);
        }
    ++g_pending;
    return 0;
}

FAKE_CUDA_API int cuCtxSynchronize()
{
    if (!g_ctx)
        return kInvalidContext;
    const char* us = std::getenv("JB_FAKE_CUDA_LAUNCH_US");
    const long pending = g_pending;
    g_pending = 0;
    if (!us || !*us || pending == 0)
        return 0;
    const char* busy = std::getenv("JB_FAKE_CUDA_BUSY_FILE");
    if (busy && *busy)
        if (FILE* f = std::fopen(busy, "w"))
            std::fclose(f);
    const long long ns = std::atoll(us) * 1000LL * pending;
    timespec ts{time_t(ns / 1000000000LL), long(ns % 1000000000LL)};
    while (nanosleep(&ts, &ts) != 0) {}
    if (busy && *busy)
        std::remove(busy);
    return 0;
}
