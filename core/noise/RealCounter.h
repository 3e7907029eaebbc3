#pragma once
// Which real whole-device counter the Noise lab's "real counter" button measures, or why the
// button is off: no readable counter here (with each one's reason and fix), or no demo decoder
// next to the dashboard. Pure: the counter list and the decoder check are inputs.
#include <jb/counters/CounterRegistry.h>
#include <jb/noise/LiveSim.h>
#include <jb/session/Plan.h>

#include <string>
#include <vector>

namespace jb {

struct RealCounterChoice {
    std::string spec;    // empty: none
    std::string reason;  // why none, for the button's tooltip
    bool ok() const { return !spec.empty(); }
};

// The first available whole-device counter that is not `sim` (rapl first, as listCounters
// orders them). decoder_ok: the demo decoder exists and is executable at decoder_path.
RealCounterChoice chooseRealCounter(const std::vector<CounterStatus>& counters, bool decoder_ok,
                                    const std::string& decoder_path);

// The real counter's run: the lab's layout (k, idle brackets, sample period) on the chosen
// counter with the demo decoder (decoder_argv: its program and arguments), round after round
// until the page stops it.
Plan realCounterPlan(const RealCounterChoice& choice, const LiveSimSettings& settings,
                     std::vector<std::string> decoder_argv, const CounterOptions& counters);
// The lab's layout changed in what a running real run fixes (k, brackets, sample period): the run
// must start again.
bool realLayoutChanged(const Plan& running, const LiveSimSettings& settings);

// Whether a longer sample period lowers this counter's per-interval sd, so the planner may suggest
// one from the Allan curve: a real counter's does; the `sim` counter's sd is per interval whatever
// the period, there the suggestion would mislead (docs/PLANNER.md, section 4).
bool longerPeriodLowersNoise(const std::string& spec);

}  // namespace jb
