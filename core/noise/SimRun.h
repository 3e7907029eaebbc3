#pragma once
// A simulated run, pure and instant: the intervals the `sim` counter would give (idle power +
// Gaussian noise of a fixed sd on each interval's power + a constant marginal power while
// busy, prorated over an interval that straddles a window edge), laid out as the session
// lays a run out
//
//   idle bracket | busy window | idle bracket | settle | busy window | idle bracket | ...
//
// and each round's figures computed by the statistics code the session uses (between,
// covering, counterRound). The batch driver of the model in SimModel.h (LiveSim is its
// incremental one). Tests check the planner and the noise figures against it.
#include <jb/record/Record.h>

#include <cstdint>
#include <string>

namespace jb {

struct SimRunSpec {
    std::string spec = "sim";
    double idle_w = 20.0;
    double noise_sd_w = 0.15;       // sd of each interval's power
    double busy_noise_sd_w = -1.0;  // sd of an interval overlapping a busy window; < 0: noise_sd_w
    double marginal_w = 15.0;       // extra power while busy
    double period_s = 0.1;
    double idle_s = 5.0;
    double busy_s = 1.0;            // each busy window
    int rounds = 7;
    int k = 1;
    int jobs = 4;                   // decodes per round: k * jobs
    double settle_s = -1.0;         // after each idle bracket before the next window; < 0: 2 periods
    double jitter_s = 0.0;          // each read late by uniform [0, jitter) (< period)
    double drift_w_per_s = 0.0;     // slow linear drift of the idle power (for Allan tests)
    std::uint64_t seed = 1;         // noise, sampler phase and jitter
};

// The record of the run: rounds with window, brackets and the counter's figures, and the raw
// intervals under samples[spec].
Record simulateRun(const SimRunSpec& s);

}  // namespace jb
