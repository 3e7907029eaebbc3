#pragma once
// The sampler's health while a run goes on, estimated from the sample store alone (the
// session's own exact figures arrive with the record): how late the reads came after their
// deadlines on the absolute grid, and how often the counter's value changed.
#include <jb/base/Interval.h>

#include <cstdint>
#include <optional>
#include <span>

namespace jb {

struct LiveSamplerFigures {
    std::size_t intervals = 0;
    std::optional<double> lateness_p50_ms, lateness_max_ms;
    std::optional<double> cadence_ms;  // median time between reads that saw the counter move
};

// all: the whole store (the grid starts at the first read, all.front().t0_ns); only the last
// `tail` intervals are looked at, so the cost stays flat as the run grows.
LiveSamplerFigures liveFigures(std::span<const Interval> all, std::int64_t period_ns, std::size_t tail = 600);

}  // namespace jb
