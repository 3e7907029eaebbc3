#pragma once
// The monotonic clock every sample and window is stamped with (CLOCK_MONOTONIC, as the
// reference's time.monotonic_ns()).
#include <cstdint>

namespace jb {

std::int64_t monotonicNs();

}  // namespace jb
