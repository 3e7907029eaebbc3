#pragma once
#include <jb/base/Interval.h>
#include <jb/stats/Statistics.h>

#include <cstdint>
#include <span>

namespace jb {

// The times a round's slices are cut at. A counter that averages over a window (NVML's
// GetPowerUsage: 1 s) still reads the busy window's energy for about that window after the
// work stops: with tail_ns > 0 the busy figures take that tail in (busy bracket and covering
// intervals up to t1 + tail) and each idle bracket starts tail_ns after its start, once the
// average has drained, so the smear is counted as the work's energy and not as idle noise.
// tail_ns 0: the reference's cuts.
struct RoundTimes {
    std::int64_t busy_t0 = 0, busy_t1 = 0;
    std::int64_t before_t0 = 0, before_t1 = 0;
    std::int64_t after_t0 = 0, after_t1 = 0;
};
RoundTimes roundTimes(std::int64_t window_t0, std::int64_t window_t1, std::int64_t before_t0,
                      std::int64_t before_t1, std::int64_t after_t0, std::int64_t after_t1,
                      std::int64_t tail_ns = 0);

// One counter's figures for one round from its intervals (time-sorted, contiguous, as a store
// or a record's samples hold them), cut at tt: the session and `verify` both call this.
//
// aligned false: the reference's cuts (between/covering, counterRound).
// aligned true: cuts on the counter's own updates, for a counter that updates less often than
// it is read (a coarse counter: its profile's update period above the sampling period; the
// record's aligned_cuts). Such a counter publishes energy in steps, one per update, and a cut
// at a read time counts one step more or fewer than the span it is divided by: with 100 ms
// updates of a 20 W idle, 2 J a step against a 30 J round, the same few steps bias every round
// alike (4-6% low in a 1 s boxcar's rounds, tst_session_sim). Here each span runs from one
// update to another, an update taken at the read that saw it:
//   - an idle bracket's power is the energy of the updates after its first one, up to its
//     last, over the time between those two (its sd, counts and span stay the reference's);
//   - the window's energy (window_nj) is that of the updates after the last one at or before
//     the busy window's start, up to the first one at or after its end (tail included), and
//     covered_ns the time between those two updates; the marginal is taken over that span.
// Where a bracket has fewer than two updates, or the window no update before or after it,
// that part keeps the reference's figure.
CounterRound roundFigures(std::span<const Interval> all, const RoundTimes& tt, bool aligned);

}  // namespace jb
