#pragma once
// The `sim` counter, live and incremental, for the Noise lab page: intervals come out as the
// simulated clock advances (the page's timer, at any speed), laid out as a session lays a run
// out
//
//   idle bracket | busy window | idle bracket | settle | busy window | idle bracket | ...
//
// with each interval's power = idle W + Gaussian noise (sd per interval) + the signal W
// prorated over the part of the interval inside a busy window. The incremental driver of the
// model in SimModel.h (simulateRun, SimRun.h, is its batch one; docs/PLANNER.md): an unbounded
// run, two sample periods of settling, no jitter or drift. Each round's figures come from
// jb::between / covering / counterRound, the code a real session runs, at the moment a session
// would compute them (two sample periods after the bracket after the round ends). Pure: no
// widgets, no timers, no wall clock; tests drive it.
#include <jb/base/Interval.h>
#include <jb/noise/SimModel.h>
#include <jb/record/Record.h>
#include <jb/session/PhaseEvent.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace jb {

struct LiveSimSettings {
    // Power: a change takes effect from the next interval on; the run continues.
    double idle_w = 20.0;
    double noise_sd_w = 0.15;  // sd of each interval's power
    double signal_w = 15.0;    // marginal power while busy
    // Layout: a change needs a new run (LiveSim::sameLayout tells).
    double period_s = 0.1;
    double idle_s = 5.0;
    int k = 1;
    double busy_s_per_k = 1.0;  // one pass over the decoder's jobs
    int jobs = 4;               // decodes per pass (decodes per round: k * jobs)

    double busyS() const { return busy_s_per_k * k; }
};

class LiveSim {
public:
    static constexpr const char* kSpec = "sim";

    // origin_ns: the simulated monotonic time the first idle bracket starts at. The seed fixes
    // the noise and the sampler's phase against the run.
    explicit LiveSim(const LiveSimSettings& s = {}, std::uint64_t seed = 1,
                     std::int64_t origin_ns = 1'000'000'000);

    const LiveSimSettings& settings() const { return s_; }
    // True where b can continue a run laid out by a (same period, brackets and windows).
    static bool sameLayout(const LiveSimSettings& a, const LiveSimSettings& b);
    // New power figures from now on (the layout fields of s are ignored).
    void setPower(double idle_w, double noise_sd_w, double signal_w);

    // What happened while the clock advanced, in time order within each list.
    using Step = SimModel::Step;  // intervals, phases, rounds (index, figures); empty()
    Step advance(std::int64_t dt_ns);
    Step advanceTo(std::int64_t t_ns);

    std::int64_t originNs() const { return model_.layout().origin_ns; }
    std::int64_t nowNs() const { return model_.nowNs(); }
    std::int64_t periodNs() const { return model_.layout().period_ns; }
    const std::vector<Interval>& intervals() const { return model_.intervals(); }
    const std::vector<Round>& rounds() const { return model_.rounds(); }

    // The layout, in simulated ns. Bracket j: j = 0 before round 0, j = r + 1 after round r.
    std::array<std::int64_t, 2> busyWindow(int round) const;
    std::array<std::int64_t, 2> idleBracket(int j) const;
    // When round r's figures are computed (the settle after its bracket after ends).
    std::int64_t roundDueNs(int round) const;
    std::int64_t cycleNs() const { return model_.cycleNs(); }

private:
    LiveSimSettings s_;
    SimModel model_;
};

}  // namespace jb
