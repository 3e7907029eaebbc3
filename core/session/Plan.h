#pragma once
// A measurement plan: everything a run needs, as a value. The GUI's form and the CLI's flags
// both build one and hand it to the same Session.
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>
#include <jb/counters/CounterRegistry.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace jb {

// One of several children in an interleaved run (measure -- A ::: B).
struct PlanChild {
    std::string name;
    std::vector<std::string> argv;
    std::string workdir;  // empty: the plan's workdir
};

struct Plan {
    std::optional<std::string> label;           // --label (null in the record when absent)
    int rounds = 7;                             // --rounds
    int k = 1;                                  // --k: passes over the child's jobs per round
    double idle_s = 5.0;                        // --idle-s: each idle bracket
    double sample_ms = 100.0;                   // --sample-ms: whole-device counter period
    std::vector<std::string> counters;          // --counter, as given (task included)
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();  // --meta
    std::vector<std::string> child;             // argv after --
    std::string workdir;                        // child's working folder (empty: current)
    double ready_timeout_s = 300.0;             // --ready-timeout
    std::optional<double> round_timeout_s;      // --round-timeout (none by default)
    CounterOptions counter_options;             // where counters are read, sim parameters
    bool with_samples = false;                  // --samples: raw intervals in the record
    std::string journal_path;                   // --journal: crash-safe journal (empty: none)
    // Several children, interleaved: `rounds` blocks, each running every child once in a
    // balanced order (stats/Paired balancedOrder, seeded by order_seed), after `warmup` blocks
    // that are recorded but kept out of the statistics. Empty: the one child in `child`.
    std::vector<PlanChild> children;
    int warmup = 0;               // --warmup
    std::uint64_t order_seed = 1;  // --order-seed
    // --keep-going: a child that fails or times out is dropped (its record aborted, with its
    // rounds and the reason) and the others go on; without it the failure ends the run.
    bool keep_going = false;
    // Random round phases: each idle bracket before a round lasts idle_s plus an offset drawn
    // uniformly from [0, phasePeriodMs()) by a generator seeded with phase_seed, so the rounds'
    // busy windows start at random phases of the counters' update period and a sampling
    // counter's error averages out over rounds instead of biasing them all alike. The seed and
    // each round's offset go into the record ("phases", rounds[i].phase_offset_ns).
    bool random_phase = true;      // --fixed-phase turns it off
    std::uint64_t phase_seed = 1;  // --phase-seed
    // The period the offsets span; 0: the longest of the sampling period and the counters'
    // update periods (phase_period_source names where it came from).
    double phase_period_ms = 0.0;
    std::string phase_period_source;
    // The counters' profiles measured on this host (characterize); a counter without one gets
    // its kind's documented default, marked as such. Both go into the record
    // (counter_profiles), size the phase period and name each round's limits.
    std::vector<CounterProfile> profiles;
    // A counter whose profile averages (averaging_window_ms > 0): its idle brackets start once
    // the average has drained and its busy figures take that tail in (the record's
    // averaged_brackets); the session lengthens every bracket by the longest tail. Off: the
    // reference's cuts, the smear left in the idle bracket after the round.
    bool averaged_brackets = true;
    // --exec: every child is a plain command (no protocol), run by the exec shim
    // (joulebench-exec -- CMD...) once per decode, k times per round; its start-up cost is inside
    // each decode. `child` and `children` keep the commands as given; launchPlan wraps them, and
    // the record says so (its "exec", execRecordField).
    bool exec = false;
    std::string exec_shim;  // the shim's path; empty: joulebench-exec next to the running program


    int childCount() const { return children.empty() ? 1 : int(children.size()); }
    int totalRounds() const { return (rounds + warmup) * childCount(); }

    std::vector<std::string> wholeDeviceCounters() const;
    bool hasTask() const;
    bool hasGpuTime() const;  // ioreport-gpu: per-round GPU-time share
    double periodS() const { return sample_ms / 1000.0; }
    // The span of the random phase offsets in ms (0 with random_phase off).
    double phasePeriodMs() const;
    // Seconds the plan takes if each busy window lasts busy_s.
    double expectedDurationS(double busy_s) const;
};

// The random round phases' offsets: uniform in [0, period) from a seeded generator, the same
// sequence on every platform (the Session draws one per idle bracket, in bracket order).
class PhaseOffsets {
public:
    explicit PhaseOffsets(std::uint64_t seed) : rng_(seed) {}
    std::int64_t nextNs(double period_ms);

private:
    std::mt19937_64 rng_;
};

// How far a run is: since_first_idle_s after its first idle bracket began (none: the child is
// still starting, which the plan cannot foresee), a round's busy window estimated as busy_s.
// fraction stays below 1 until the record is in; remaining_s never goes negative (a run slower
// than its estimate says 0, not a time in the past).
struct PlanProgress {
    double fraction = 0;
    double remaining_s = 0;
};
PlanProgress planProgress(const Plan& p, std::optional<double> since_first_idle_s, double busy_s);

// Checks ranges and consistency; the message names the flag.
Status validatePlan(const Plan& p);

// The exec shim's path: p.exec_shim, else joulebench-exec in the running program's folder.
std::string execShimPath(const Plan& p);
// The plan the session runs: with p.exec, every child's argv becomes [shim, --, CMD...];
// without, p itself.
Plan launchPlan(const Plan& p);
// The record's "exec" of a child run as a plain command (docs/RECORD.md): its command as given
// (launched: the argv launchPlan made, [shim, --, CMD...], or the command itself), the shim that
// ran it, and that its start-up cost is inside each decode.
nlohmann::ordered_json execRecordField(const Plan& p, const std::vector<std::string>& launched);

}  // namespace jb
