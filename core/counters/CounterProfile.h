#pragma once
// How a counter really behaves, as a value: how often it takes a new value, how long it takes
// to follow a load step, whether it averages, and how much of a short burst's energy it sees.
// A profile is either measured on a host (`joulebench-cli characterize`) or the documented
// default of the counter's kind, marked as such (docs/COUNTERS.md lists the defaults and where
// each figure comes from). Records, verdicts and the planner read a counter's limits from here.
//
// JSON both ways (the file `characterize --out` writes, the record's per-counter profile); the
// reader goes through core/base/JsonReader, so a wrong value names its `$.path`.
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace jb {

// What sort of reading a counter integrates; the defaults are per kind.
enum class CounterKind {
    Rapl,              // rapl, rapl:NAME: an energy register, ~1 ms updates
    HwmonEnergy,       // hwmon:CHIP:LABEL energy channel (energyN_input)
    HwmonPower,        // hwmon:CHIP:LABEL power channel integrated (amdgpu power1_average: averaged)
    Task,              // task: the child's CPU time (no energy counter)
    Sim,               // sim: the simulated counter, exact
    IOReportEnergy,    // ioreport:NAME Energy Model channels (mJ, published late on some chips)
    IOReportGpu,       // ioreport-gpu: GPU Energy (nJ) shared by GPU time
    NvmlEnergy,        // nvml:N: nvmlDeviceGetTotalEnergyConsumption (mJ, sampled)
    NvmlPowerInstant,  // nvml-power:N integrating NVML_FI_DEV_POWER_INSTANT
    NvmlPowerAverage,  // nvml-power:N integrating nvmlDeviceGetPowerUsage (a 1 s average)
    Unknown,
};

// "rapl", "hwmon-energy", "hwmon-power", "task", "sim", "ioreport-energy", "ioreport-gpu",
// "nvml-energy", "nvml-power-instant", "nvml-power-average", "unknown".
const char* counterKindName(CounterKind kind);
std::optional<CounterKind> counterKindFromName(const std::string& name);

// The kind a spec names on its own: `nvml-power:N` is the instant reading (what the reader
// integrates where the driver has the field) and `hwmon:...` an energy channel; where the
// counter's `counter_info` is known, counterKindOf(spec, info) tells the averaged readings apart.
CounterKind counterKindOfSpec(const std::string& spec);
CounterKind counterKindOf(const std::string& spec, const nlohmann::ordered_json& counter_info);

// How a reading follows one load step (up: idle -> busy, down: busy -> idle), in ms after the
// load's edge.
struct StepResponse {
    double delay_ms = 0;   // until the reading has moved half-way to the new level
    double settle_ms = 0;  // until it stays within 5% of the new level
    bool operator==(const StepResponse&) const = default;
};

// The fraction of short bursts' true energy the counter sees: bursts of burst_ms at random
// phases of the update period, each one's counted energy / (a long load's power x burst_ms).
// An integrating counter sees 1.0 +- 0; a sampling one 1.0 on average with a wide spread (or
// less, where it misses bursts); an averaging one smears bursts into later updates.
struct BurstCoverage {
    double mean = 1.0;
    double sd = 0.0;                        // spread of the per-burst fraction (not of the mean)
    int bursts = 0;                         // how many were measured (0: a default's figures)
    double burst_ms = 0;                    // each burst's length (0: not measured)
    std::optional<double> sensed_fraction;  // of each update period the sensor sees, where known
    bool operator==(const BurstCoverage&) const = default;
};

struct CounterProfile {
    static constexpr int kVersion = 1;

    std::string spec;  // "nvml:0", "rapl:psys", ...
    CounterKind kind = CounterKind::Unknown;

    // Where the figures come from: measured on `host` at `measured_at` (UTC, ISO 8601), or the
    // kind's documented default (host and time empty) with `note` naming its provenance.
    bool measured = false;
    std::string host;
    std::string measured_at;
    std::string note;

    double update_period_ms = 0;  // between new values (0: a new value at every read)
    double update_jitter_ms = 0;  // sd of the period
    StepResponse step_up;
    StepResponse step_down;
    double averaging_window_ms = 0;  // boxcar window the reading averages over (0: none)
    BurstCoverage coverage;

    // The counter's own unit and the least change it can show in that unit: "uJ" 1, "mJ" 1,
    // "mW" 1 (a power reading integrated by JouleBench), "ns" (task: CPU time).
    std::string unit;
    double resolution = 0;
    std::string reading;  // in words: "energy register", "instantaneous power field", ...

    double seconds_taken = 0;  // how long `characterize` measured (0 for a default)

    // The unit's resolution in nJ for energy units (uJ -> 1000, mJ -> 1e6, nJ -> 1); 0 for
    // power and time units.
    double resolutionNj() const;
    // How many new values a window of window_ms spans (a large number for period 0).
    double updatesIn(double window_ms) const;
    bool averages() const { return averaging_window_ms > 0; }
    // A counter that sees only part of each period (or whose bursts spread over 10%).
    bool samples() const;

    nlohmann::ordered_json toJson() const;
    // origin names the file in errors ("profile.json: $.update_period_ms: expected ...").
    static Result<CounterProfile> fromJson(const nlohmann::json& j, const std::string& origin = "");

    bool operator==(const CounterProfile&) const = default;
};

// The documented default of a kind (docs/COUNTERS.md), spec left empty; measured = false and
// note names the source of the figures.
CounterProfile defaultProfile(CounterKind kind);
// The same with spec set and the kind taken from it (counterKindOfSpec).
CounterProfile defaultProfile(const std::string& spec);

}  // namespace jb
