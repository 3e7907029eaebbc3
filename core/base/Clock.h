#pragma once
// The monotonic clock every sample and window is stamped with (CLOCK_MONOTONIC, as the
// reference's time.monotonic_ns()).
#include <cmath>
#include <cstdint>

namespace jb {

std::int64_t monotonicNs();

// The wall clock in seconds since the Unix epoch (time.time(), for manifests and job reports).
double unixSeconds();

// Seconds to nanoseconds, rounded to the nearest.
inline std::int64_t secondsToNs(double s)
{
    return std::llround(s * 1e9);
}

}  // namespace jb
