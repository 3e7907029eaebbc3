#pragma once
// `characterize`: measures how a counter behaves on this machine, driving it with a load
// (LoadDriver) while a poller thread reads it as fast as it can. Three phases:
//   1. dither: short random pulses; the counter's new values (its energy changing, or for a
//      power reading its rate changing) give the update period and its jitter;
//   2. steps: long load on / off; the reading's apparent power against the edges gives the
//      delay (half-way) and settle (within 5% or 3 noise sd) up and down, and the implied
//      averaging window (the ramp's slope: a boxcar of A ms ramps over A ms);
//   3. bursts: short pulses at random phases of the update period; each burst's counted energy
//      over (the long load's extra power x the burst's time) is its coverage: mean and spread.
// The result is a measured CounterProfile (core/counters/CounterProfile.h).
// As it goes it can feed a live view (CharacterizeOptions::feed: the reads, each pulse as it
// ends, each burst's coverage, the figures known so far), and it stops promptly at a cancel
// flag. CharacterizeLive (CharacterizeLive.h) folds the feed for a view; CharacterizeRun
// (CharacterizeRun.h) runs it all on a thread of its own for the dashboard.
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>
#include <jb/counters/EnergyCounter.h>
#include <jb/profile/LoadDriver.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace jb {

enum class CharacterizePhase { Dither, Steps, Bursts, Done };
// "update period", "step response", "burst coverage", "done".
const char* characterizePhaseName(CharacterizePhase p);

// What characterize learnt since its last feed. Handed to CharacterizeOptions::feed on the
// thread that called characterize (never the poller's), between pulses; the feeds together
// hold every read, pulse and burst coverage of the final CharacterizeTrace, in its order.
struct CharacterizeFeed {
    CharacterizePhase phase = CharacterizePhase::Dither;
    std::vector<std::pair<std::int64_t, std::int64_t>> reads;  // new reads (t_ns, cumulative nJ)
    std::vector<Pulse> steps;                                   // long loads that ended
    std::vector<Pulse> bursts;                                  // bursts that ended
    std::vector<std::pair<int, double>> coverage;               // (burst index, coverage) measured
    // The figures known so far (0 / none: not yet): the update period after the dither, the
    // levels, step responses and averaging window after the steps.
    double update_period_ms = 0, update_jitter_ms = 0;
    double idle_w = 0, busy_w = 0;
    std::optional<StepResponse> step_up, step_down;
    double averaging_window_ms = 0;
    double burst_ms = 0;  // each burst's planned length, once the bursts begin
    int bursts_planned = 0;
};

struct CharacterizeOptions {
    double seconds = 60;     // the whole measurement's budget (about)
    double poll_ms = 0.5;    // between the poller's reads
    int bursts = 40;         // at most this many bursts
    double burst_ms = 0;     // each burst (0: a fifth of the update period, 2 to 20 ms)
    std::uint64_t seed = 0;  // of the random phases (0: from the clock)
    std::string host;        // the profile's host (measured_at is now, UTC)
    std::function<void(const std::string&)> progress;  // one line per phase (may be empty)
    std::function<void(const CharacterizeFeed&)> feed;   // the live feed (may be empty)
    double feed_ms = 100;                                // at most about this far apart
    // Set (from any thread) to stop: characterize returns the error "cancelled" within about
    // feed_ms or one pulse, whichever is longer (a load of the LoadDriver's ends its pulse early).
    const std::atomic<bool>* cancel = nullptr;
};

// The error characterize returns when its cancel flag was set.
inline constexpr const char* kCharacterizeCancelled = "cancelled";

// What the poller saw and what the load did, for a sensor view and for checks.
struct CharacterizeTrace {
    std::vector<std::pair<std::int64_t, std::int64_t>> reads;  // (t_ns, cumulative nJ)
    std::vector<Pulse> steps;                                   // the long loads
    std::vector<Pulse> bursts;
    std::vector<double> coverage;  // per burst
    double idle_w = 0, busy_w = 0;
};

// The counter is read from the poller thread only; load pulses run on the calling thread.
// info is the counter's counter_info (which reading it integrates).
Result<CounterProfile> characterize(EnergyCounter& counter, LoadDriver& load, const CharacterizeOptions& opt,
                                    CharacterizeTrace* trace = nullptr);

// What a measured profile of this kind cannot tell, in words for its note and the printout;
// empty where nothing. The simulated counter is exact by construction: it books the CPU time the
// kernel accounts to the load (busy cores x w_per_core, read by read, plus its noise), so its
// period, steps and burst coverage describe how the load's bursts use this machine's CPUs, never
// a sampling or averaging counter.
std::string characterizeCaveat(CounterKind kind);
// Adds characterizeCaveat(kind) to the profile's note ("...; note: ..."); nothing where it is empty.
void addCharacterizeCaveat(CounterProfile& profile, CounterKind kind);

}  // namespace jb
