#pragma once
// The planner: idle seconds, k and rounds that let a run reach a chosen verdict in a chosen
// share of its rounds, in the least total time. The arithmetic and its assumptions are in
// docs/PLANNER.md; RoundModel.h gives the per-round probability it rests on.
#include <jb/noise/Allan.h>
#include <jb/stats/Verdict.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

struct PlanInputs {
    double idle_sd_w = 0.0;     // sd of one interval's idle power (pooled within brackets)
    double busy_sd_w = 0.0;     // sd of one interval's busy power; <= 0: the idle sd
    double marginal_w = 0.0;    // expected marginal power of the workload
    double period_s = 0.1;      // sampling period of the counter
    double busy_s_per_k = 0.0;  // busy window per unit of k (one pass over the child's jobs)

    Verdict target = Verdict::Clean;  // clean, relative-only or noisy
    double confidence = 0.9;       // share of rounds that should reach the target, in (0.5, 1)

    // Rounds: enough that the median J/decode is known to +-ci_halfwidth (relative) at
    // ci_level, and never fewer than min_rounds.
    double ci_halfwidth = 0.05;
    double ci_level = 0.95;
    int min_rounds = 6;
    // Round-to-round relative spread of J/decode that the counter noise does not explain
    // (the workload itself varies); planInputsFrom() estimates it from a record.
    double extra_rel_sd = 0.0;

    // Fewest whole intervals in an idle bracket, whatever the model says: the model takes
    // the noise as white and Gaussian, and with a handful of intervals one odd interval (a
    // timer tick, a daemon waking) decides the sd and the idle mean.
    int min_idle_intervals = 5;
    // The counter's profile asks for busy windows and idle brackets at least this long (10 of
    // its updates, noise/SampledCounter's profileNeeds); 0: no such floor.
    double min_busy_s = 0.0;
    double min_idle_s = 0.0;

    // Search limits.
    double max_idle_s = 600.0;
    double max_busy_s = 600.0;
    int max_rounds = 1000;
    // Time between an idle bracket's end and the next busy window (the session waits two
    // sample periods for the last intervals); < 0: two periods.
    double settle_s = -1.0;

    // Optional: the idle Allan deviation (from a record's samples); used only to say which
    // sample period would make an unreachable target reachable.
    std::vector<AllanPoint> allan;
};

struct PlanOutcome {
    bool reachable = false;
    std::string message;  // one line: the plan in words, or why none and what would be needed

    double threshold = 0.0;
    double asymptotic_ratio = 0.0;  // marginal / idle sd: the ratio long brackets tend to
    double needed_idle_sd_w = 0.0;  // the target is reachable where the idle sd is below this
    double needed_marginal_w = 0.0; // ... or the marginal power above this
    std::optional<double> suggested_sample_s;  // from the Allan curve, where it helps

    // The plan (meaningful where reachable).
    double idle_s = 0.0;
    int idle_intervals = 0;
    int k = 0;
    double busy_s = 0.0;
    int busy_intervals = 0;
    int rounds = 0;
    double settle_s = 0.0;
    double total_s = 0.0;            // (rounds + 1) idle_s + rounds (busy_s + settle_s)
    double round_probability = 0.0;  // P(ratio >= threshold) per round at these settings
    double p_clean = 0.0, p_relative_only = 0.0, p_noisy = 0.0;  // P(at least that verdict)
    double rel_sd_per_round = 0.0;   // expected relative sd of one round's J/decode
    double ci_halfwidth = 0.0;       // expected relative half-width of the median's CI
    bool ci_met = false;             // false where max_rounds could not reach ci_halfwidth
};

// Checks the inputs (the message names the field) and plans.
struct PlanCheck {
    bool ok = true;
    std::string error;
};
PlanCheck checkPlanInputs(const PlanInputs& in);
PlanOutcome planRun(const PlanInputs& in);

// Expected relative sd of one round's marginal energy (hence J/decode) from the counter noise:
// the covering intervals' noise plus the idle mean's error times the covered span.
double roundRelativeSd(const PlanInputs& in, int idle_intervals, double busy_s);

// Rounds for a relative half-width h of the median at a level, for a per-round relative sd:
// ceil((z * sqrt(pi/2) * sd / h)^2) (the median's standard error of a normal sample).
int roundsForMedianCi(double rel_sd, double halfwidth, double level);

}  // namespace jb
