#pragma once
// `sim`: a simulated whole-device counter for machines without a readable one. Power per
// interval = idle_w + Gaussian noise (sd noise_sd_w, drawn per read from a generator seeded
// with SimParams::seed) + w_per_core x the workload's busy cores (its CPU time advance over
// the wall-clock advance). Energy per read = power x dt on the monotonic clock.
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/CpuTime.h>
#include <jb/counters/EnergyCounter.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <random>

namespace jb {

class SimCounter final : public EnergyCounter {
public:
    using ClockNs = std::function<std::int64_t()>;

    // clock: the monotonic clock in ns (default monotonicNs); cpu: a process's cumulative CPU
    // time in ns (default processCpuNs over proc_root). Tests inject both.
    explicit SimCounter(SimParams params, ClockNs clock = {}, CpuTimeSource cpu = {},
                        std::string proc_root = "/proc");

    std::string spec() const override { return "sim"; }
    Result<std::int64_t> readNj() override;
    nlohmann::ordered_json info() const override;
    void setWorkloadPid(std::int64_t pid) override { workload_pid_.store(pid); }

private:
    SimParams params_;
    ClockNs clock_;
    CpuTimeSource cpu_;
    std::mt19937_64 rng_;
    std::normal_distribution<double> noise_;
    std::atomic<std::int64_t> workload_pid_{0};

    std::int64_t last_ns_ = 0;
    std::int64_t cpu_pid_ = 0;  // the pid last_cpu_ns_ belongs to (0: no baseline)
    std::int64_t last_cpu_ns_ = 0;
    std::int64_t total_nj_ = 0;
    double carry_nj_ = 0;  // the fraction of a nJ not yet added to total_nj_
};

}  // namespace jb
