#pragma once
// Which real whole-device counter the Noise lab's "real counter" button measures, or why the
// button is off: no readable counter here (with each one's reason and fix), or no demo decoder
// next to the dashboard. Pure: the counter list and the decoder check are inputs.
#include <jb/counters/CounterRegistry.h>

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

}  // namespace jb
