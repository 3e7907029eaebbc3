#pragma once
// Is the energy counter fine enough for the busy windows? A counter that changes only every
// 250 ms cannot resolve a 0.8 s window: three or four updates carry all of its energy, and a
// round that comes out "unusable" is then a fact about the counter, not about the decoder.
// The rule, as pure functions (no widgets), so the rounds can say "coarse counter: 3 updates
// in the window" instead of only "unusable".
//
// The number of counter updates in a busy window is estimated, in this order, from:
//  1. the counter's update cadence (counter_info.<spec>.update_cadence_ms, else the sampler's
//     figure): window / cadence. The sampler measures the cadence as the median time between
//     reads that saw the counter change, so a cadence near the sampling period (within a factor
//     kSamplerBoundFactor either way) only says the counter changed at every read: it may
//     update faster, and window / period is a lower bound.
//  2. the busy bracket's `advanced` count where some intervals did not advance (the counter
//     is slower than the sampler, so each advancing interval is about one update); where every
//     interval advanced it is again only a lower bound.
// Coarse: fewer than kCoarseUpdates updates (an estimate, never a lower bound).
//
// A record that carries its counters' profiles (counter_profiles, counters/CounterProfile.h)
// takes the update period from there first where it was measured; a kind's default profile
// only where the record shows nothing better (no cadence, or one that is the sampler's bound).
// With a profile the rounds' verdicts also name what else limits them (roundLimitText): a
// counter that samples (senses part of each period), and busy windows short against an
// averaging window that the brackets did not wait out.
#include <jb/counters/CounterProfile.h>
#include <jb/record/Record.h>

#include <cstdint>
#include <optional>
#include <string>

namespace jb {

inline constexpr double kCoarseUpdates = 10.0;
// A cadence within this factor of the sampling period (either way) is the sampler's.
inline constexpr double kSamplerBoundFactor = 1.5;
// A busy window shorter than this many averaging windows is smeared by the average, unless the
// brackets waited the window out (averaged_brackets).
inline constexpr double kAveragingWindows = 10.0;

// The record's profile of a counter (counter_profiles.<spec>), where it has one that reads.
std::optional<CounterProfile> profileOf(const Record& r, const std::string& spec);

// What a record says about one counter's update cadence and sampling period.
struct CounterCadence {
    std::optional<double> update_cadence_ms;
    std::string cadence_source;      // "profile", "counter_info", "sampler" or empty
    bool profile_measured = false;   // with "profile": measured on the host, else the kind's default
    std::optional<double> period_s;  // the sampler's period, else the record's sample_s
};
CounterCadence cadenceOf(const Record& r, const std::string& spec);

struct WindowResolution {
    enum class Basis {
        Cadence,       // window / update cadence
        SamplerBound,  // the counter changed at every read: at least window / period
        Advanced,      // busy intervals that advanced
        AllAdvanced,   // every busy interval advanced: at least that many
        Unknown,       // neither a cadence nor a busy bracket
    };
    Basis basis = Basis::Unknown;
    std::optional<double> updates;  // estimated counter updates in the window
    bool lower_bound = false;       // updates is "at least"
    bool coarse = false;
    std::string text;  // for people: "coarse counter: 3 updates in the window (it changes every 250 ms)"
    // For a table cell: "coarse counter: 3 updates in the window", "≈800", "≥ 8 (every read)".
    std::string short_text;
};

// window_ns: the round's busy window; busy: its busy bracket (null where it had < 2 intervals).
WindowResolution windowResolution(std::int64_t window_ns, const CounterCadence& cadence,
                                  const std::optional<Bracket>& busy);
// The round's resolution on counter `spec` (uses the round's window_ns and busy bracket).
WindowResolution roundResolution(const Record& r, std::size_t round, const std::string& spec);

// What a counter's limits make of one round, in words for the round's verdict; empty where the
// round is within them. "too short for nvml:0: 0.3 updates, needs 10 (it takes a new value every
// 100 ms, the kind's default profile; it senses about 25% of each period, so a round's energy
// depends on its phase)"; "too short for nvml-power:0: a 0.8 s busy window against its 1 s
// averaging window, needs 10 s (or brackets that wait the window out)". tail_ms: the averaging
// tail the round's brackets waited out (0: none).
std::string roundLimitText(const std::string& spec, std::int64_t window_ns, const CounterCadence& cadence,
                           const std::optional<Bracket>& busy, const std::optional<CounterProfile>& profile,
                           double tail_ms);
// The same for a whole counter round, first asking whether the counter moved at all: where
// none of the round's intervals advanced (busy window and both idle brackets, each present) and
// nothing says the counter publishes less often than the round lasts (no cadence, or one shorter
// than half the round's span), "ioreport:GPU Energy never advanced in this round: its energy is
// missing" (the counter is frozen, reads 0 or is dead; its verdict is empty, its marginal 0).
std::string roundLimitText(const std::string& spec, std::int64_t window_ns, const CounterCadence& cadence,
                           const CounterRound& round, const std::optional<CounterProfile>& profile,
                           double tail_ms);
// "<spec> never advanced in this round: its energy is missing", or empty (see above).
std::string neverAdvancedText(const std::string& spec, const CounterCadence& cadence, const CounterRound& round);
// Every counter's limit text for a round of a record (counters within their limits left out).
std::vector<std::pair<std::string, std::string>> roundLimits(const Record& r, std::size_t round);
// A phase of a round (stats/PhaseEnergy.h) needs this many counter updates for a figure.
inline constexpr double kPhaseUpdates = 2.0;
// What the counter makes of a phase span_ns long: the updates in it (the span over the longer of
// the counter's observed update period, observedCadence, and the sampling period: a phase
// cannot be resolved finer than the reads), and where it is under kPhaseUpdates, or short against
// the averaging window of a counter that averages (its profile), why it is too short, in the
// words of roundLimitText: "too short for rapl: 0.3 updates in 30 ms, needs 2 (a new value every
// 100 ms, the sampler's figure)".
struct PhaseLimit {
    std::optional<double> updates;
    std::string too_short;  // empty: within the counter's limits
};
PhaseLimit phaseLimit(const Record& r, const std::string& spec, std::int64_t span_ns);
// "it senses about 25% of each 100 ms period", or empty for a counter that does not sample.
std::string samplingText(const CounterProfile& p);

// The rule in words, for tooltips and docs.
std::string resolutionRuleText();

// A counter over a whole record: how many rounds it resolved coarsely, in the words the
// Inspector's banner and the CLI's `summary` and `plan` print (written once, here).
struct CoarseCounter {
    std::string spec;
    int rounds = 0;         // the record's rounds
    int coarse_rounds = 0;  // rounds whose busy window saw fewer than kCoarseUpdates updates
    WindowResolution example;  // the first coarse round's resolution
    // With a profile: rounds short against an averaging window the brackets did not wait out,
    // and, for a counter that samples, the rounds' spread (sd of their marginal energies over
    // their mean), which the detail reports.
    int averaging_rounds = 0;
    std::optional<double> spread;
    bool coarse() const { return coarse_rounds > 0 || averaging_rounds > 0; }
    // Empty where no round is coarse. headline: "Coarse counter (rapl):"; detail: "in 3 of 3
    // rounds the busy window saw fewer than 10 counter updates (...). Those verdicts ...".
    std::string headline, detail;
    std::string text() const { return headline.empty() ? std::string() : headline + " " + detail; }
};
CoarseCounter coarseCounter(const Record& r, const std::string& spec);

// The counter's update cadence as the record shows it: the record's own figure (counter_info,
// else the sampler's) where it is not the sampler's bound, else pooled over every
// stored bracket (idle and busy) where some sampling intervals did not advance: their spans
// over their advancing intervals (each advancing interval is about one update of a counter
// slower than the sampler), kept within what each bracket allows (a span S with a advancing
// intervals: S / (a + 1) < cadence < S / (a - 1)). None where every interval advanced or
// nothing says.
struct ObservedCadence {
    double ms = 0;
    std::string source;  // "profile", "counter_info", "sampler" or "brackets"
    // For "brackets": the intervals and advancing intervals pooled.
    long long intervals = 0, advanced = 0;
    std::string text;  // "every 400 ms (the sampler's figure)", "about every 397 ms (51 of 204 sampling intervals advanced)"
};
std::optional<ObservedCadence> observedCadence(const Record& r, const std::string& spec);

}  // namespace jb
