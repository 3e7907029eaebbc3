#pragma once
// What the Noise lab's sensor view draws for a counter's profile (counters/CounterProfile.h),
// computed here so the CLI could print it too: the counter's reading after a load step up and
// down (modelled from the profile's step response: half-way at the delay, settled at the
// settle time, new values only every update period) against the load's edges; the share of a
// short burst's energy it counts at each phase of its update period (SampledCounter's model, a
// sampling counter by its sensed fraction, an integrator 1 at every phase), with their mean and
// spread; and the profile's figures in words. Pure.
#include <jb/counters/CounterProfile.h>
#include <jb/noise/SampledCounter.h>

#include <string>
#include <utility>
#include <vector>

namespace jb {

struct SensorFigures {
    std::string spec;
    double busy_s = 0;                               // the modelled load's length
    std::vector<std::pair<double, double>> load;     // (t s, 0 or 1): the load's edges at 0 and busy_s
    std::vector<std::pair<double, double>> reading;  // (t s, share of the step) as the counter reads it
    double burst_ms = 0;
    std::vector<std::pair<double, double>> bursts;  // (phase ms, counted share of the burst)
    ShareSpread spread;                             // of the bursts' shares over the phases
    std::vector<std::string> lines;                 // the profile's figures, one per line
};

// busy_s: the load's length (0: long enough for both steps to settle, at least 1 s).
SensorFigures sensorFigures(const CounterProfile& p, double busy_s = 0.0);

}  // namespace jb
