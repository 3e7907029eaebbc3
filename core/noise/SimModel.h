#pragma once
// The `sim` counter model, one for both of its drivers: simulateRun (SimRun.h, batch: the
// whole run at once) and LiveSim (LiveSim.h, incremental: the Noise lab's clock advances it).
//
// Layout, as a session lays a run out (all in simulated monotonic ns):
//
//   idle bracket | busy window | idle bracket | settle | busy window | idle bracket | ...
//
// The sampler reads at a random phase against the run (its first read within one period
// before the origin), each read late by a uniform [0, jitter). Each interval's power is
//
//   idle W + drift W/s x (its midpoint - origin) + marginal W x (its share inside windows)
//   + sd x N(0, 1)     (sd: busy sd where the interval overlaps a window, else the idle sd)
//
// and a round's figures come from jb::between / covering / counterRound, the code a session
// runs, once the settle after its bracket after has ended. A bounded run (rounds >= 0) ends
// with the sampler's first read due more than three periods after the last bracket; an
// unbounded one goes on as long as it is advanced.
//
// The random stream (noise::Gaussian(seed)): the sampler's phase first; then, for a bounded
// run with jitter, every read's lateness, in read order; then one draw per interval. An
// unbounded run draws a read's lateness just before the interval it closes. Power figures may
// change between intervals (setPower); the layout is fixed for the run. Pure: no clock.
#include <jb/base/Interval.h>
#include <jb/noise/NoiseMath.h>
#include <jb/record/Record.h>
#include <jb/session/PhaseEvent.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace jb {

struct SimLayout {
    std::int64_t origin_ns = 1'000'000'000;  // the first idle bracket starts here
    std::int64_t period_ns = 100'000'000;    // > 0
    std::int64_t idle_ns = 5'000'000'000;    // each idle bracket
    std::int64_t busy_ns = 1'000'000'000;    // each busy window
    std::int64_t settle_ns = 200'000'000;    // after each bracket after, before the next window
    std::int64_t jitter_ns = 0;              // each read late by uniform [0, jitter), < period
    int rounds = -1;                         // < 0: unbounded
    int k = 1;
    int jobs = 4;  // decodes per round: k * jobs
};

struct SimPower {
    double idle_w = 20.0;
    double noise_sd_w = 0.15;       // sd of each interval's power
    double busy_noise_sd_w = -1.0;  // sd of an interval overlapping a window; < 0: noise_sd_w
    double marginal_w = 15.0;       // extra power while busy
    double drift_w_per_s = 0.0;     // slow linear drift of the idle power
};

class SimModel {
public:
    static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

    SimModel(const SimLayout& layout, const SimPower& power, std::uint64_t seed, std::string spec = "sim");

    const SimLayout& layout() const { return l_; }
    const SimPower& power() const { return p_; }
    const std::string& spec() const { return spec_; }
    // New power figures for the intervals generated from now on.
    void setPower(const SimPower& p) { p_ = p; }

    // What happened while the model advanced, in time order within each list.
    struct Step {
        std::vector<Interval> intervals;
        std::vector<PhaseEvent> phases;
        std::vector<std::pair<int, Round>> rounds;
        bool empty() const { return intervals.empty() && phases.empty() && rounds.empty(); }
    };
    // Every interval that ends by t_ns, every phase event and round due by t_ns. A time before
    // now gives nothing.
    Step advanceTo(std::int64_t t_ns);
    // The same, reporting nothing (intervals() and rounds() still grow).
    void runTo(std::int64_t t_ns);
    // A bounded run's end: its last read and its last round's figures (kNever if unbounded).
    std::int64_t endNs() const;

    std::int64_t nowNs() const { return now_ns_; }
    const std::vector<Interval>& intervals() const { return intervals_; }
    const std::vector<Round>& rounds() const { return rounds_; }
    std::vector<Interval> takeIntervals() { return std::move(intervals_); }
    std::vector<Round> takeRounds() { return std::move(rounds_); }

    // The layout. Bracket j: j = 0 before round 0, j = r + 1 after round r.
    std::array<std::int64_t, 2> busyWindow(int round) const;
    std::array<std::int64_t, 2> idleBracket(int j) const;
    std::int64_t roundDueNs(int round) const;  // when round r's figures are computed
    std::int64_t cycleNs() const { return l_.busy_ns + l_.idle_ns + l_.settle_ns; }

private:
    enum class Next { IdleStarted0, IdleEnded0, BusyStarted, BusyEnded, IdleStarted, IdleEnded, Round, Done };
    bool bounded() const { return l_.rounds >= 0; }
    std::int64_t readDueNs(std::int64_t k) const { return first_due_ns_ + k * l_.period_ns; }
    std::int64_t readNs(std::int64_t k);  // draws the lateness of an unbounded run's read
    std::int64_t nextDueNs() const;
    void advance(std::int64_t t_ns, Step* out);  // out may be null
    void fire(Step* out);
    void generateUpTo(std::int64_t t_ns, Step* out);
    std::int64_t busyOverlapNs(std::int64_t a, std::int64_t b) const;
    Round computeRound(int r) const;

    SimLayout l_;
    SimPower p_;
    std::string spec_;
    noise::Gaussian rng_;
    std::int64_t first_due_ns_ = 0;     // read 0 is due one period before the origin + phase
    std::int64_t last_read_ = -1;       // a bounded run's last read (-1: unbounded)
    std::vector<std::int64_t> late_;    // a bounded run's lateness per read
    std::int64_t next_read_ = 1;        // index of the read that closes the next interval
    std::int64_t next_read_ns_ = 0;     // its time
    std::int64_t prev_read_ns_ = 0;     // the time of the read before it
    std::int64_t now_ns_ = 0;
    Next next_ = Next::IdleStarted0;
    int round_ = 0;  // the round the next event belongs to
    std::vector<Interval> intervals_;
    std::vector<Round> rounds_;
};

}  // namespace jb
