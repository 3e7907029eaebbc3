#pragma once
// One sampled interval of a whole-device energy counter, on the monotonic clock.
// Units are in the names: nanoseconds for times, nanojoules for energy; W = nJ / ns.
#include <cstdint>

namespace jb {

struct Interval {
    std::int64_t t0_ns = 0;  // monotonic time of the read that opens the interval
    std::int64_t t1_ns = 0;  // monotonic time of the read that closes it
    std::int64_t nj = 0;     // counter advance over the interval, in nJ (wrap already undone)

    std::int64_t span_ns() const { return t1_ns - t0_ns; }
    double power_w() const { return t1_ns > t0_ns ? double(nj) / double(t1_ns - t0_ns) : 0.0; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

}  // namespace jb
