// joulebench-gpu-load: a GPU workload that needs only the NVIDIA driver. It loads libcuda.so.1
// at run time (no CUDA toolkit to build or run it), loads a fused multiply-add loop kernel from
// PTX text compiled into the program, and either speaks the child protocol (`serve`: each
// `go k` runs k passes of --jobs kernel launches over the buffer, synchronises and answers
// `done`) or just works for a while (`run`, for the job queue's checks).
//
//   joulebench-gpu-load serve [options]
//   joulebench-gpu-load run --seconds S [options]
#include <jb/base/Clock.h>
#include <jb/child/ChildServer.h>
#include <jb/child/Protocol.h>
#include <joulebench/child.hpp>  // phases: launch and sync

#include <QCommandLineParser>
#include <QCoreApplication>

#include <dlfcn.h>
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr const char* kProgram = "joulebench-gpu-load";

// The kernel: x[i] = x[i] * a + b, `iters` times, for i < n. Hand-written PTX for sm_50 and
// newer; the driver compiles it for the GPU at hand (JIT) when the module is loaded.
constexpr const char* kPtx = R"PTX(
.version 6.0
.target sm_50
.address_size 64

.visible .entry fma_loop(
    .param .u64 fma_loop_buf,
    .param .u32 fma_loop_n,
    .param .u32 fma_loop_iters
)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [fma_loop_buf];
    ld.param.u32 %r1, [fma_loop_n];
    ld.param.u32 %r2, [fma_loop_iters];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r6, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    mov.f32 %f2, 0f3F7FFFEF;
    mov.f32 %f3, 0f3A83126F;
    mov.u32 %r7, 0;
    setp.eq.u32 %p2, %r2, 0;
    @%p2 bra STORE;
LOOP:
    fma.rn.f32 %f1, %f1, %f2, %f3;
    add.u32 %r7, %r7, 1;
    setp.lt.u32 %p2, %r7, %r2;
    @%p2 bra LOOP;
STORE:
    st.global.f32 [%rd4], %f1;
DONE:
    ret;
}
)PTX";

constexpr const char* kKernel = "fma_loop";
constexpr unsigned kBlock = 256;

// The driver API's types as the ABI has them (no cuda.h needed).
using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUdeviceptr = unsigned long long;
using CUstream = void*;

struct Cuda {
    void* handle = nullptr;
    std::string path;
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*cuCtxCreate)(CUcontext*, unsigned, CUdevice) = nullptr;
    CUresult (*cuCtxDestroy)(CUcontext) = nullptr;
    CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t) = nullptr;
    CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, std::size_t) = nullptr;
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void**, void**) = nullptr;
    CUresult (*cuCtxSynchronize)() = nullptr;
    CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;  // optional

    std::string message(const char* call, CUresult rc) const
    {
        const char* text = nullptr;
        if (cuGetErrorString && cuGetErrorString(rc, &text) != 0)
            text = nullptr;
        return std::string(call) + " failed with CUDA error " + std::to_string(rc) + (text ? std::string(" (") + text + ")" : "");
    }
};

template <class F>
bool resolve(Cuda& c, F& fn, const char* symbol, std::string& missing)
{
    fn = reinterpret_cast<F>(dlsym(c.handle, symbol));
    if (!fn)
        missing += (missing.empty() ? "" : ", ") + std::string(symbol);
    return fn != nullptr;
}

jb::Result<Cuda> loadCuda(const std::string& path)
{
    Cuda c;
    c.path = path;
    c.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!c.handle) {
        const char* why = dlerror();
        return jb::Error{"cannot load the NVIDIA driver library " + path + ": " + (why ? why : "unknown reason") +
                         ". Install the NVIDIA driver (it provides libcuda.so.1), or pass --cuda-library PATH "
                         "(or set JB_CUDA_LIBRARY)"};
    }
    std::string missing;
    resolve(c, c.cuInit, "cuInit", missing);
    resolve(c, c.cuDeviceGetCount, "cuDeviceGetCount", missing);
    resolve(c, c.cuDeviceGet, "cuDeviceGet", missing);
    resolve(c, c.cuDeviceGetName, "cuDeviceGetName", missing);
    resolve(c, c.cuCtxCreate, "cuCtxCreate_v2", missing);
    resolve(c, c.cuCtxDestroy, "cuCtxDestroy_v2", missing);
    resolve(c, c.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
    resolve(c, c.cuModuleGetFunction, "cuModuleGetFunction", missing);
    resolve(c, c.cuMemAlloc, "cuMemAlloc_v2", missing);
    resolve(c, c.cuMemsetD32, "cuMemsetD32_v2", missing);
    resolve(c, c.cuLaunchKernel, "cuLaunchKernel", missing);
    resolve(c, c.cuCtxSynchronize, "cuCtxSynchronize", missing);
    c.cuGetErrorString = reinterpret_cast<decltype(c.cuGetErrorString)>(dlsym(c.handle, "cuGetErrorString"));
    if (!missing.empty())
        return jb::Error{path + " lacks the CUDA driver entry points " + missing + " (a driver older than CUDA 4?)"};
    return c;
}

struct Options {
    int device = 0;
    std::uint64_t buffer_mib = 64;
    unsigned iterations = 256;  // FMAs per element per launch
    int jobs = 4;               // launches per pass: `ready <jobs>`, `go k` runs k passes
    std::uint64_t hold_mib = 0;
    double seconds = 0;  // `run` only
    bool ignore_term = false;
    std::string library;
};

// The GPU side: context, module, buffer and the memory held.
class Load {
public:
    explicit Load(Cuda cuda) : c_(std::move(cuda)) {}
    ~Load()
    {
        if (ctx_)
            c_.cuCtxDestroy(ctx_);  // frees the module and every allocation
    }

    jb::Status open(const Options& o)
    {
        CUresult rc = c_.cuInit(0);
        if (rc != 0)
            return jb::Error{c_.message("cuInit", rc) + " (" + c_.path + "): is an NVIDIA GPU present and its driver loaded?"};
        int count = 0;
        if ((rc = c_.cuDeviceGetCount(&count)) != 0)
            return jb::Error{c_.message("cuDeviceGetCount", rc)};
        if (o.device < 0 || o.device >= count)
            return jb::Error{"--device " + std::to_string(o.device) + ": the driver shows " + std::to_string(count) +
                             " GPU(s) (CUDA_VISIBLE_DEVICES narrows them)"};
        CUdevice dev = 0;
        if ((rc = c_.cuDeviceGet(&dev, o.device)) != 0)
            return jb::Error{c_.message("cuDeviceGet", rc)};
        char name[256] = {};
        if (c_.cuDeviceGetName(name, sizeof name - 1, dev) == 0)
            name_ = name;
        if ((rc = c_.cuCtxCreate(&ctx_, 0, dev)) != 0)
            return jb::Error{c_.message("cuCtxCreate", rc)};
        // The JIT's error log says what is wrong with the PTX, should a driver refuse it.
        std::vector<char> log(8192, '\0');
        int keys[] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */};
        void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size() - 1))};
        CUmodule module = nullptr;
        if ((rc = c_.cuModuleLoadDataEx(&module, kPtx, 2, keys, values)) != 0)
            return jb::Error{c_.message("cuModuleLoadDataEx", rc) + " loading the built-in PTX: " + log.data()};
        if ((rc = c_.cuModuleGetFunction(&fn_, module, kKernel)) != 0)
            return jb::Error{c_.message("cuModuleGetFunction", rc) + " for " + kKernel};
        n_ = o.buffer_mib * 1024 * 1024 / sizeof(float);
        if (n_ == 0 || n_ > 0xffffffffull)
            return jb::Error{"--buffer-mib " + std::to_string(o.buffer_mib) + ": must be 1 to 16383"};
        if ((rc = c_.cuMemAlloc(&buf_, n_ * sizeof(float))) != 0)
            return jb::Error{c_.message("cuMemAlloc", rc) + " for the " + std::to_string(o.buffer_mib) + " MiB buffer"};
        if ((rc = c_.cuMemsetD32(buf_, 0x3f800000u /* 1.0f */, n_)) != 0)
            return jb::Error{c_.message("cuMemsetD32", rc)};
        if (o.hold_mib > 0) {
            // Held and written, so the driver commits it and nvidia-smi counts it.
            const std::size_t words = o.hold_mib * 1024 * 1024 / 4;
            if ((rc = c_.cuMemAlloc(&hold_, words * 4)) != 0)
                return jb::Error{c_.message("cuMemAlloc", rc) + " for --hold-mib " + std::to_string(o.hold_mib)};
            if ((rc = c_.cuMemsetD32(hold_, 0, words)) != 0)
                return jb::Error{c_.message("cuMemsetD32", rc) + " on the held memory"};
        }
        iterations_ = o.iterations;
        if ((rc = c_.cuCtxSynchronize()) != 0)
            return jb::Error{c_.message("cuCtxSynchronize", rc)};
        return jb::Ok{};
    }

    // `launches` kernel launches, then a synchronise.
    jb::Status work(std::int64_t launches)
    {
        auto n = static_cast<unsigned>(n_);
        unsigned iters = iterations_;
        void* params[] = {&buf_, &n, &iters};
        const auto grid = static_cast<unsigned>((n_ + kBlock - 1) / kBlock);
        {
            const joulebench::Phase phase("launch");  // a marker only with JOULEBENCH_MARKS=1
            for (std::int64_t i = 0; i < launches; ++i) {
                const CUresult rc = c_.cuLaunchKernel(fn_, grid, 1, 1, kBlock, 1, 1, 0, nullptr, params, nullptr);
                if (rc != 0)
                    return jb::Error{c_.message("cuLaunchKernel", rc)};
            }
        }
        const joulebench::Phase phase("sync");
        const CUresult rc = c_.cuCtxSynchronize();
        if (rc != 0)
            return jb::Error{c_.message("cuCtxSynchronize", rc)};
        return jb::Ok{};
    }

    const std::string& name() const { return name_; }

private:
    Cuda c_;
    CUcontext ctx_ = nullptr;
    CUfunction fn_ = nullptr;
    CUdeviceptr buf_ = 0, hold_ = 0;
    std::uint64_t n_ = 0;
    unsigned iterations_ = 0;
    std::string name_;
};

int fail(const std::string& message, int code)
{
    std::cerr << kProgram << ": " << message << '\n';
    return code;
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "A GPU workload through the NVIDIA driver alone (libcuda.so.1, loaded at run time).\n"
        "serve: prints 'ready <jobs>', answers 'go K' with K passes of <jobs> kernel launches and\n"
        "       'done <launches> <wall-ns> ran=<start-ns>,<end-ns> gpu=<name>' (CLOCK_MONOTONIC);\n"
        "       exits on 'exit' or end of input.\n"
        "run:   works for --seconds, then exits (a job for the GPU job queue).\n"
        "Exit status 1 where the driver or GPU cannot be used, 2 for bad usage."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("mode"), QStringLiteral("serve or run"));
    const QCommandLineOption device(QStringLiteral("device"), QStringLiteral("CUDA device index (default 0)."),
                                    QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption buffer(QStringLiteral("buffer-mib"), QStringLiteral("Work buffer in MiB (default 64)."),
                                    QStringLiteral("MIB"), QStringLiteral("64"));
    const QCommandLineOption iterations(QStringLiteral("iterations"),
                                        QStringLiteral("FMAs per element per launch (default 256)."),
                                        QStringLiteral("N"), QStringLiteral("256"));
    const QCommandLineOption jobs(QStringLiteral("jobs"), QStringLiteral("Kernel launches per pass (default 4)."),
                                  QStringLiteral("N"), QStringLiteral("4"));
    const QCommandLineOption hold(QStringLiteral("hold-mib"),
                                  QStringLiteral("Keep N MiB more allocated and written while running (default 0)."),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption seconds(QStringLiteral("seconds"), QStringLiteral("run: how long to work."),
                                     QStringLiteral("S"));
    const QCommandLineOption ignoreTerm(QStringLiteral("ignore-term"),
                                        QStringLiteral("Ignore SIGTERM (a process the job queue must SIGKILL)."));
    const QCommandLineOption library(QStringLiteral("cuda-library"),
                                     QStringLiteral("The driver library (default $JB_CUDA_LIBRARY, else libcuda.so.1)."),
                                     QStringLiteral("PATH"));
    p.addOptions({device, buffer, iterations, jobs, hold, seconds, ignoreTerm, library});
    if (!p.parse(app.arguments()))
        return fail(p.errorText().toStdString(), 2);
    if (p.isSet(QStringLiteral("help"))) {
        std::cout << p.helpText().toStdString();
        return 0;
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 1 || (pos[0] != QLatin1String("serve") && pos[0] != QLatin1String("run")))
        return fail("expected one mode, serve or run (--help lists the options)", 2);
    const bool serve = pos[0] == QLatin1String("serve");

    Options o;
    bool ok1 = false, ok2 = false, ok3 = false, ok4 = false, ok5 = false;
    o.device = p.value(device).toInt(&ok1);
    o.buffer_mib = p.value(buffer).toULongLong(&ok2);
    o.iterations = p.value(iterations).toUInt(&ok3);
    o.jobs = p.value(jobs).toInt(&ok4);
    o.hold_mib = p.value(hold).toULongLong(&ok5);
    if (!ok1 || o.device < 0)
        return fail("--device takes a non-negative integer, got '" + p.value(device).toStdString() + "'", 2);
    if (!ok2 || o.buffer_mib < 1 || o.buffer_mib > 16383)
        return fail("--buffer-mib takes 1 to 16383, got '" + p.value(buffer).toStdString() + "'", 2);
    if (!ok3)
        return fail("--iterations takes a non-negative integer, got '" + p.value(iterations).toStdString() + "'", 2);
    if (!ok4 || o.jobs < 1)
        return fail("--jobs takes a positive integer, got '" + p.value(jobs).toStdString() + "'", 2);
    if (!ok5)
        return fail("--hold-mib takes a non-negative integer, got '" + p.value(hold).toStdString() + "'", 2);
    if (!serve) {
        bool ok = false;
        o.seconds = p.value(seconds).toDouble(&ok);
        if (!p.isSet(seconds) || !ok || o.seconds <= 0)
            return fail("run needs --seconds S, S > 0", 2);
    }
    o.ignore_term = p.isSet(ignoreTerm);
    if (p.isSet(library))
        o.library = p.value(library).toStdString();
    else if (const char* env = std::getenv("JB_CUDA_LIBRARY"); env && *env)
        o.library = env;
    else
        o.library = "libcuda.so.1";
    if (o.ignore_term)
        ::signal(SIGTERM, SIG_IGN);

    auto cuda = loadCuda(o.library);
    if (!cuda)
        return fail(cuda.error(), 1);
    Load load(std::move(*cuda));
    if (auto st = load.open(o); !st)
        return fail(st.error(), 1);
    if (auto st = load.work(1); !st)  // warm-up: the first launch pays for the JIT and clocks
        return fail(st.error(), 1);

    if (!serve) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.seconds);
        while (std::chrono::steady_clock::now() < end)
            if (auto st = load.work(o.jobs); !st)
                return fail(st.error(), 1);
        return 0;
    }
    std::string note = "gpu=";
    for (char ch : load.name())
        note += (ch == ' ' || ch < 0x20) ? '_' : ch;
    if (load.name().empty())
        note = {};
    const joulebench::AsProtocolChild marks(std::cout);  // markers on stdout, when asked for
    return jb::serveChild(kProgram, o.jobs,
                          [&](int k) -> jb::Result<jb::ChildBatch> {
                              const std::int64_t launches = std::int64_t(k) * o.jobs;
                              // When the work ran, by the machine's monotonic clock: the caller
                              // reads this answer late on a loaded machine, and its own stamps
                              // would put the edges late by as much.
                              const std::int64_t t0 = jb::monotonicNs();
                              if (auto st = load.work(launches); !st)
                                  return jb::Error{st.error()};
                              const std::int64_t t1 = jb::monotonicNs();
                              const std::string ran = jb::formatRan(t0, t1);
                              return jb::ChildBatch{launches, note.empty() ? ran : ran + " " + note};
                          },
                          std::cin, std::cout, std::cerr);
}
