#pragma once
// Per-pixel-column decimation: pure math, used by the chart. Of the intervals in a visible
// time range, keep at most four points per column (first, min, max, last, in time order), so a
// redraw costs the same after an hour as after a minute and every column's extremes are exact.
#include "base/Interval.h"

#include <cstdint>
#include <span>
#include <vector>

namespace jb {

struct PlotPoint {
    double t_s;      // seconds since origin_ns (interval midpoint)
    double power_w;  // interval's mean power
};

// intervals: time-sorted. Only intervals whose midpoint lies in [t0_ns, t1_ns] are used.
// columns >= 1. origin_ns is the time shown as 0 s.
std::vector<PlotPoint> decimate(std::span<const Interval> intervals, std::int64_t origin_ns,
                                std::int64_t t0_ns, std::int64_t t1_ns, int columns);

}  // namespace jb
