#pragma once
// What a coarse counter needs instead of a quieter machine. A counter that changes every 400 ms
// read every 100 ms shows each update as one interval of four times the power and three of
// none: its "idle sd" is that quantisation, not the machine's noise, and no idle bracket,
// k or round count planned from it fixes it. The remedy is a sampling period no shorter than
// the counter's update cadence and busy windows and idle brackets long enough to hold
// kCoarseUpdates updates (the coarse-counter rule, stats/CounterResolution.h). Pure.
#include <jb/noise/Planner.h>
#include <jb/record/Record.h>
#include <jb/stats/CounterResolution.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

struct CadencePlan {
    CoarseCounter counter;    // the record's coarse-counter finding (its text names it)
    ObservedCadence cadence;  // the update cadence the recommendation rests on
    double record_period_s = 0;
    // The smallest whole multiple of the record's period at or above the cadence (never
    // faster than the counter updates; a multiple so the new intervals line up with the old),
    // with 1% of slack for a measured cadence's scatter.
    double sample_s = 0;
    // Busy window: at least kCoarseUpdates updates, as k whole passes over the child's jobs.
    int k = 0;
    double busy_s = 0;
    // Idle brackets: at least kCoarseUpdates updates and min_idle_intervals intervals, never
    // shorter than the record's.
    double idle_s = 0;
    int rounds = 0;  // the record's, at least min_rounds
    // For people, one line each: why the noise figure is the counter's, what to run, what next.
    std::vector<std::string> lines;
    // The settings in one line: "sample every 400 ms, k 5 (busy 4 s), idle 4 s, 6 rounds".
    std::string settings;
    // The counter's finding and the three lines as sentences, for a panel.
    std::string text() const;
    // As the planner's outcome: not reachable from this noise, the message is the remedy (lines[1]),
    // the suggested sample period is sample_s, and idle_s, k, busy_s and rounds are the plan's.
    PlanOutcome outcome() const;
};

// None where the counter is not coarse in this record or its cadence cannot be told.
// busy_s_per_k: the busy window per unit of k (RecordNoise::busy_s_per_k).
std::optional<CadencePlan> cadencePlan(const Record& r, const std::string& spec, double busy_s_per_k,
                                       int min_idle_intervals = 5, int min_rounds = 6);

}  // namespace jb
