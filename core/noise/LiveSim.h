#pragma once
// The `sim` counter, live and incremental, for the Noise lab page: intervals come out as the
// simulated clock advances (the page's timer, at any speed), laid out as a session lays a run
// out
//
//   idle bracket | busy window | idle bracket | settle | busy window | idle bracket | ...
//
// with each interval's power = idle W + Gaussian noise (sd per interval) + the signal W
// prorated over the part of the interval inside a busy window (the model of core/noise,
// SimRun.h and docs/PLANNER.md). Each round's figures come from jb::between / covering /
// counterRound, the code a real session runs, at the moment a session would compute them (two
// sample periods after the bracket after the round ends). Pure: no widgets, no timers, no
// wall clock; tests drive it.
#include "base/Interval.h"
#include "noise/NoiseMath.h"
#include "record/Record.h"
#include "session/Session.h"

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
    struct Step {
        std::vector<Interval> intervals;
        std::vector<PhaseEvent> phases;
        std::vector<std::pair<int, Round>> rounds;
        bool empty() const { return intervals.empty() && phases.empty() && rounds.empty(); }
    };
    Step advance(std::int64_t dt_ns);
    Step advanceTo(std::int64_t t_ns);

    std::int64_t originNs() const { return origin_ns_; }
    std::int64_t nowNs() const { return now_ns_; }
    std::int64_t periodNs() const { return period_ns_; }
    const std::vector<Interval>& intervals() const { return intervals_; }
    const std::vector<Round>& rounds() const { return rounds_; }

    // The layout, in simulated ns. Bracket j: j = 0 before round 0, j = r + 1 after round r.
    std::array<std::int64_t, 2> busyWindow(int round) const;
    std::array<std::int64_t, 2> idleBracket(int j) const;
    // When round r's figures are computed (the settle after its bracket after ends).
    std::int64_t roundDueNs(int round) const;
    std::int64_t cycleNs() const { return busy_ns_ + idle_ns_ + settle_ns_; }

private:
    // The next phase event or round, and when.
    enum class Next { IdleStarted0, IdleEnded0, BusyStarted, BusyEnded, IdleStarted, IdleEnded, Round };
    std::int64_t nextDueNs() const;
    void fire(Step& out);
    void generateUpTo(std::int64_t t_ns, Step& out);
    double busyOverlap(std::int64_t a, std::int64_t b) const;  // share of [a, b] inside windows
    Round computeRound(int r) const;

    LiveSimSettings s_;
    noise::Gaussian rng_;
    std::int64_t origin_ns_;
    std::int64_t period_ns_, idle_ns_, busy_ns_, settle_ns_;
    std::int64_t first_read_ns_;  // the sampler's first read: one period before the origin + phase
    std::int64_t now_ns_;
    std::int64_t next_read_ = 1;  // index of the read that closes the next interval

    Next next_ = Next::IdleStarted0;
    int round_ = 0;  // the round the next event belongs to

    std::vector<Interval> intervals_;
    std::vector<Round> rounds_;
};

}  // namespace jb
