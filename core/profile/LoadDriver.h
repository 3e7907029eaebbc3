#pragma once
// The loads `characterize` drives a counter with: one pulse of work at a time, each reported
// with the clock times (monotonicNs) its work started and ended, so the counter's response is
// measured against the load's true edges.
//   cpu   burn threads (rapl, hwmon CPU channels, Apple CPU rails, the sim counter)
//   gpu   joulebench-gpu-load serve: each pulse k passes of its FMA kernel (nvml, Apple GPU)
//   file  a file that exists while the load is on, written as tests/clients/BusyFlag.h reads
//         it ("busy 0 T0"; when it goes, FLAG.end "T1 T0"): the test fakes (fakezone, the fake NVML's
//         busy_file) draw their busy power while it exists
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jb {

struct Pulse {
    std::int64_t t0_ns = 0;  // the work started
    std::int64_t t1_ns = 0;  // and ended
    double seconds() const { return double(t1_ns - t0_ns) / 1e9; }
};

class LoadDriver {
public:
    virtual ~LoadDriver() = default;
    // Prepares the load (threads, the GPU program); the error says what failed.
    virtual Status start() { return Ok{}; }
    // Works for about ms and returns the work's true edges. Blocks for the pulse.
    virtual Result<Pulse> pulse(double ms) = 0;
    // The shortest pulse the load can make (a GPU pass), in ms.
    virtual double shortestMs() const { return 0.5; }
    virtual std::string describe() const = 0;
    // A flag that ends a pulse early once set (characterize's cancel); the CPU and file loads
    // look at it while they wait, a GPU pass runs to its end.
    void setCancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }

protected:
    bool cancelled() const { return cancel_ && cancel_->load(); }

private:
    const std::atomic<bool>* cancel_ = nullptr;
};

// The load that reaches a counter of this kind: "gpu" for the NVML, Apple GPU and hwmon power
// readings, "cpu" otherwise (and for the sim counter, which turns this process's CPU into power).
std::string autoLoadFor(const std::string& spec, CounterKind kind);

// threads: 0 for all cores but one (the poller's).
std::unique_ptr<LoadDriver> cpuBurnLoad(int threads = 0);
std::unique_ptr<LoadDriver> flagFileLoad(const std::string& path);
// program: joulebench-gpu-load's path; extra arguments (--device N, --cuda-library ...).
std::unique_ptr<LoadDriver> gpuProgramLoad(const std::string& program, const std::vector<std::string>& args);

}  // namespace jb
