#pragma once
// A sampling counter as a model: every period_ms it takes a new value, booking the whole period
// at the power it sensed during the last sensed_ms of it (NVML's energy counter on an H200
// senses about a quarter of each 100 ms, docs/GPU.md). A burst of work then counts in full, in
// part, several times over or not at all, depending on where it falls in the period: its
// counted share has a mean of 1 over uniformly random phases but a wide spread, and at one
// fixed phase it is biased by whatever that phase gives. Pure functions: the planner's spread
// of a round's energy and the tests of the random round phases (session/Plan) rest on them.
#include <jb/counters/CounterProfile.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

struct SampledCounterModel {
    double period_ms = 100.0;  // a new value every period_ms
    double sensed_ms = 25.0;   // of which the last sensed_ms are sensed (= period_ms: an integrator)
};

// The share of a burst's energy (constant power, busy_ms long, starting phase_ms after an
// update) that the counter books: 1 for an integrator at any phase.
double countedShare(const SampledCounterModel& m, double busy_ms, double phase_ms);

// countedShare over phases uniform in [0, period): its mean and standard deviation (a
// midpoint rule over `steps` phases).
struct ShareSpread {
    double mean = 1.0;
    double sd = 0.0;
};
ShareSpread shareSpread(const SampledCounterModel& m, double busy_ms, int steps = 2000);

// Rounds whose mean share is within +-halfwidth (relative) of the truth at a level (normal
// approximation: ceil((z sd / halfwidth)^2), at least 1), for a per-round relative sd.
int roundsForMean(double rel_sd, double halfwidth = 0.10, double level = 0.95);

// What a counter's profile asks of a plan: busy windows and idle brackets that span at least
// kCoarseUpdates of its updates (stats/CounterResolution's rule), and, for a counter that
// samples (sensed_fraction below 1), the model of its sampling. An averaging counter's brackets
// wait its window out by themselves (Plan::averaged_brackets), so the plan's idle_s is what is
// left of them.
struct ProfileNeeds {
    double min_busy_s = 0.0;
    double min_idle_s = 0.0;
    std::optional<SampledCounterModel> sampling;
};
ProfileNeeds profileNeeds(const CounterProfile& p);

// For a counter that samples: rounds of busy_s spread by `sd` (relative), and `rounds` of them
// bring the mean to +-halfwidth at 95%. text: "nvml:0 samples (it senses about 25% of each
// 100 ms period): a 0.03 s round's energy spreads by sd 119%, so 541 rounds reach +-10% at 95%".
struct SamplingRounds {
    double sd = 0.0;
    int rounds = 1;
    std::string text;
};
std::optional<SamplingRounds> samplingRounds(const std::string& spec, const CounterProfile& p, double busy_s,
                                             double halfwidth = 0.10);

}  // namespace jb
