#pragma once
// A whole-device energy counter behind one interface: rapl zone, sim, ioreport-gpu, nvml.
// Readers take their paths (zone folder, library path, /proc root) so tests feed fixtures.
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace jb {

// Energy from power readings, for the counters that only have a power sensor (hwmon power
// channels, nvml-power): trapezoids between reads. W x ns = nJ.
class PowerIntegral {
public:
    PowerIntegral(double first_w, std::int64_t t_ns) : last_w_(first_w), last_ns_(t_ns) {}
    // The energy since the first reading, with this reading at t_ns.
    std::int64_t addNj(double w, std::int64_t t_ns)
    {
        total_nj_ += (last_w_ + w) / 2.0 * double(t_ns - last_ns_);
        last_w_ = w;
        last_ns_ = t_ns;
        return std::int64_t(total_nj_);
    }

private:
    double last_w_;
    std::int64_t last_ns_;
    double total_nj_ = 0;
};

class EnergyCounter {
public:
    virtual ~EnergyCounter() = default;

    // The spec as the user gave it ("rapl", "rapl:psys", "sim", "ioreport-gpu", "nvml:0");
    // the record's per-round key.
    virtual std::string spec() const = 0;

    // Cumulative energy in nJ since the counter was opened, wraparound already undone, so the
    // sampler's interval energy is simply the difference of two reads. Called from the sampler
    // thread only; an error names the file or call that failed.
    virtual Result<std::int64_t> readNj() = 0;

    // The counter's own facts for the record's `counter_info` (kind, path, zone name, range,
    // unit, parameters of a simulated counter ...).
    virtual nlohmann::ordered_json info() const = 0;

    // The highest power in W this counter's hardware could draw; an interval above it is a
    // read fault (a jump no hardware could make), excluded and counted. 0: no ceiling.
    virtual double plausibleMaxW() const { return 0.0; }

    // The process whose work the run measures (the decoder child); 0 for none. A simulated
    // counter turns that process's CPU use into power. May be called from any thread.
    virtual void setWorkloadPid(std::int64_t pid) { (void)pid; }
};

}  // namespace jb
