#pragma once
// Energy of one job: whole-device counters (the job GPU's nvml:N, the package's rapl) each
// sampled by a jb::Sampler from before the idle bracket that precedes the job until after the
// one that follows it. The report gives, per counter, the total joules over the job's window
// and the marginal joules above the idle power of the brackets (jb::counterRound, the very
// arithmetic of a measure round). A counter that cannot be opened is reported with the reason.
#include <jb/counters/CounterRegistry.h>
#include <jb/jobs/JobReports.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class Sampler;

class EnergyMeter {
public:
    EnergyMeter(std::vector<std::string> specs, CounterOptions options, std::int64_t period_ns);
    ~EnergyMeter();
    EnergyMeter(const EnergyMeter&) = delete;
    EnergyMeter& operator=(const EnergyMeter&) = delete;

    void start();  // opens and starts every counter that can be
    void stop();

    // Times on the monotonic clock: idle before [t0, t1], the job [t1, t2], idle after [t2, t3].
    // gpu_counter and package_counter are left for the caller (it knows which is which).
    JobEnergy report(std::int64_t t0_ns, std::int64_t t1_ns, std::int64_t t2_ns, std::int64_t t3_ns,
                     double idle_seconds) const;

    // Mean power of a counter over its last intervals covering about window_ns (none where it
    // is not running or has no interval yet).
    std::optional<double> recentPowerW(const std::string& spec, std::int64_t window_ns) const;

private:
    struct Entry {
        std::string spec;
        std::unique_ptr<Sampler> sampler;
        std::string problem;  // why it is not sampled
    };
    std::vector<Entry> entries_;
    CounterOptions options_;
    std::int64_t period_ns_;
};

}  // namespace jb
