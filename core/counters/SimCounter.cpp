#include <jb/counters/SimCounter.h>

#include <jb/base/Clock.h>

#include <cmath>

namespace jb {

SimCounter::SimCounter(SimParams params, ClockNs clock, CpuTimeSource cpu, std::string proc_root)
    : params_(params),
      clock_(clock ? std::move(clock) : ClockNs(&monotonicNs)),
      cpu_(cpu ? std::move(cpu) : systemCpuTimeSource(proc_root)),
      rng_(params.seed),
      noise_(0.0, 1.0)
{
    last_ns_ = clock_();
}

Result<std::int64_t> SimCounter::readNj()
{
    const std::int64_t now_ns = clock_();
    const std::int64_t dt_ns = now_ns - last_ns_;
    last_ns_ = now_ns;
    // One draw per read, whatever happens below, so a seed always gives the same sequence.
    double power_w = params_.idle_w + params_.noise_sd_w * noise_(rng_);

    const std::int64_t pid = workload_pid_.load();
    if (pid > 0) {
        auto cpu = cpu_(pid);
        if (!cpu) {
            // The workload has gone (or cannot be seen): the device runs idle from here on.
            cpu_pid_ = 0;
        } else {
            // The first read of a new workload only sets its baseline.
            if (cpu_pid_ == pid && dt_ns > 0)
                power_w += params_.w_per_core * double(*cpu - last_cpu_ns_) / double(dt_ns);
            cpu_pid_ = pid;
            last_cpu_ns_ = *cpu;
        }
    } else {
        cpu_pid_ = 0;
    }

    // A real energy counter never runs backwards, so negative power (noise over a tiny idle
    // power) counts as none.
    if (dt_ns > 0 && power_w > 0) {
        const double add_nj = power_w * double(dt_ns) + carry_nj_;  // W x ns = nJ
        const double whole = std::floor(add_nj);
        total_nj_ += std::int64_t(whole);
        carry_nj_ = add_nj - whole;
    }
    return total_nj_;
}

nlohmann::ordered_json SimCounter::info() const
{
    nlohmann::ordered_json j;
    j["kind"] = "sim";
    j["simulated"] = true;
    j["idle_w"] = params_.idle_w;
    j["noise_sd_w"] = params_.noise_sd_w;
    j["w_per_core"] = params_.w_per_core;
    j["seed"] = params_.seed;
    j["unit"] = "nJ";
    return j;
}

}  // namespace jb
