#pragma once
#include <cstdint>

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

}  // namespace jb
