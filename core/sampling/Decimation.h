#pragma once
// Per-pixel-column decimation: pure math, used by the chart. Of the intervals in a visible
// time range, keep at most four points per column (first, min, max, last, in time order), so a
// redraw costs the same after an hour as after a minute and every column's extremes are exact.
//
// Two ways in: decimate() scans the visible intervals once (cost grows with how many are
// visible); with a DecimationIndex (min/max of the power over blocks of intervals, kept up to
// date as the store grows) a column that spans many intervals is answered from whole blocks,
// so even "show the whole run" costs about the same with a million samples as with ten
// thousand. Both give the very same points. decimateColumns() does the same for a plain trace
// of (time, value) points sampled at its own pace (a GPU job's memory and power).
#include <jb/base/Interval.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace jb {

struct PlotPoint {
    double t_s;      // seconds since origin_ns (interval midpoint)
    double power_w;  // interval's mean power
    friend bool operator==(const PlotPoint&, const PlotPoint&) = default;
};

// The time an interval is plotted at (its midpoint, rounded down to the nanosecond).
inline std::int64_t midpointNs(const Interval& iv)
{
    return iv.t0_ns + (iv.t1_ns - iv.t0_ns) / 2;
}

// The column (0 .. columns-1) a midpoint falls in, for a range [t0_ns, t1_ns] cut into
// `columns` equal parts; t1_ns itself belongs to the last column.
int columnOf(std::int64_t mid_ns, std::int64_t t0_ns, std::int64_t t1_ns, int columns);

// Min/max of the intervals' power over blocks of 32, 32^2, ... intervals. The store is
// append-only, so update() reads only the intervals added since the last call.
class DecimationIndex {
public:
    // Brings the index up to all of `intervals` (the same, grown, sequence each time).
    void update(std::span<const Interval> intervals);
    void clear();
    std::size_t size() const { return n_; }

    // Indices of the first minimum and the first maximum of the power in [begin, end) of the
    // intervals the index was built from (begin < end <= size(); beyond size() is scanned).
    struct MinMax {
        std::size_t min_i, max_i;
    };
    MinMax minMax(std::span<const Interval> intervals, std::size_t begin, std::size_t end) const;

    static constexpr std::size_t kFanout = 32;

private:
    struct Node {
        std::size_t min_i, max_i;
        double min_w, max_w;
    };
    // levels_[L][j] covers intervals [j * 32^(L+1), (j + 1) * 32^(L+1)); complete blocks only.
    std::vector<std::vector<Node>> levels_;
    std::size_t n_ = 0;
};

// intervals: time-sorted. Only intervals whose midpoint lies in [t0_ns, t1_ns] are used.
// columns >= 1. origin_ns is the time shown as 0 s.
std::vector<PlotPoint> decimate(std::span<const Interval> intervals, std::int64_t origin_ns,
                                std::int64_t t0_ns, std::int64_t t1_ns, int columns);

// The same points, using an index built over (a prefix of) the same intervals.
std::vector<PlotPoint> decimate(std::span<const Interval> intervals, const DecimationIndex& index,
                                std::int64_t origin_ns, std::int64_t t0_ns, std::int64_t t1_ns, int columns);

// A point of a trace sampled at its own pace: seconds, value.
struct TracePoint {
    double t_s;
    double v;
    friend bool operator==(const TracePoint&, const TracePoint&) = default;
};

// At most four points per column of [t0_s, t1_s] cut into `columns` parts (the first, the
// minimum, the maximum and the last, in time order), so a six-hour job draws as fast as a
// minute's; each column's extremes are exact. points: time-sorted. Points outside the range are
// dropped; with few points they are returned as they are.
std::vector<TracePoint> decimateColumns(std::span<const TracePoint> points, double t0_s, double t1_s,
                                        int columns);

}  // namespace jb
