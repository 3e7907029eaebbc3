#pragma once
// Which counter's marginal energy to trust in absolute terms. Two counters of one device can
// disagree by tens of percent (an H200 record: nvml:0, the energy register, 188.7 J per decode;
// nvml-power:0, the driver's 1 s averaged power reading integrated, 114.8 J): both are right
// about what they read, but only an energy register counts the busy window's energy as it was
// spent. The rule reads the counter's kind (counterKindOf: the spec and the record's
// counter_info) and its profile (averaging window), and names the same device's energy counter
// where the record has one. The Library list, the Inspector's summary and the CLI's `summary`
// and `library list` print its sentence (docs/LIBRARY.md, "Which counter to trust").
#include <jb/counters/CounterProfile.h>

#include <optional>
#include <string>
#include <vector>

namespace jb {

struct Record;

struct CounterTrust {
    std::string spec;
    CounterKind kind = CounterKind::Unknown;
    // Its marginal energy is the device's energy in absolute terms (an energy register, or the
    // exact simulated counter); false: good for relative comparisons on that counter only.
    bool absolute = false;
    // Why, in words: "energy register", "averaged power reading (1 s window): marginal energy
    // under-counted".
    std::string reason;
    // The same device's counter to trust instead, where one is known ("nvml:0").
    std::optional<std::string> prefer;

    // "averaged power reading (1 s window): marginal energy under-counted; prefer nvml:0";
    // for an absolute counter its reason alone.
    std::string text() const;
    // For a table cell: "absolute", "relative only", "relative only, prefer nvml:0".
    std::string shortText() const;
};

// The device a counter reads, for pairing two counters of one device: "nvml:0" and
// "nvml-power:0" both "gpu 0"; "rapl" and "rapl:package-0" "cpu"; else the spec itself.
std::string counterDevice(const std::string& spec);

// The rule on a spec and its kind; averaging_window_ms from its profile (0: none or unknown,
// the kind's default is used); others: the record's (or library entry's) other counters, where
// the same device's energy counter is looked for.
CounterTrust counterTrust(const std::string& spec, CounterKind kind, double averaging_window_ms = 0,
                          const std::vector<std::string>& others = {});
// The spec alone (counterKindOfSpec; the Library keeps no counter_info): `nvml-power:N` is a
// power reading, averaged or not.
CounterTrust counterTrust(const std::string& spec, const std::vector<std::string>& others = {});
// A record's counter: its counter_info's kind and its profile's averaging window.
CounterTrust counterTrust(const Record& r, const std::string& spec);

// Of two counters of one device, the one to trust in absolute terms, and why ("nvml:0: energy
// register; nvml-power:0 is an averaged power reading ..."); none where they read different
// devices or the rule trusts both or neither.
struct TrustChoice {
    std::string trusted;
    std::string text;
};
std::optional<TrustChoice> preferredCounter(const CounterTrust& a, const CounterTrust& b);

// The rule in words, for tooltips and docs.
std::string counterTrustRuleText();

}  // namespace jb
