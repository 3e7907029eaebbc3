#include <jb/sampling/Decimation.h>

#include <algorithm>
#include <array>

namespace jb {

int columnOf(std::int64_t mid_ns, std::int64_t t0_ns, std::int64_t t1_ns, int columns)
{
    if (columns <= 1 || t1_ns <= t0_ns || mid_ns <= t0_ns)
        return 0;
    // Doubles are monotone under * and /, so the column never decreases with the time: the
    // binary searches below rely on that.
    const double c = double(mid_ns - t0_ns) * double(columns) / double(t1_ns - t0_ns);
    return c >= double(columns - 1) ? columns - 1 : int(c);
}

void DecimationIndex::clear()
{
    levels_.clear();
    n_ = 0;
}

void DecimationIndex::update(std::span<const Interval> intervals)
{
    if (intervals.size() < n_)
        clear();  // not the sequence we indexed: start again
    n_ = intervals.size();
    // Level 0 from the intervals, each further level from 32 nodes of the one below.
    std::size_t below = n_;
    for (std::size_t level = 0; below / kFanout > 0; ++level) {
        if (levels_.size() <= level)
            levels_.emplace_back();
        std::vector<Node>& nodes = levels_[level];
        const std::size_t complete = below / kFanout;
        for (std::size_t j = nodes.size(); j < complete; ++j) {
            Node n{};
            for (std::size_t q = 0; q < kFanout; ++q) {
                Node part;
                if (level == 0) {
                    const std::size_t i = j * kFanout + q;
                    const double w = intervals[i].power_w();
                    part = {i, i, w, w};
                } else {
                    part = levels_[level - 1][j * kFanout + q];
                }
                if (q == 0) {
                    n = part;
                    continue;
                }
                // Strict comparisons: the earliest of equal values wins, as in a plain scan.
                if (part.min_w < n.min_w) {
                    n.min_w = part.min_w;
                    n.min_i = part.min_i;
                }
                if (part.max_w > n.max_w) {
                    n.max_w = part.max_w;
                    n.max_i = part.max_i;
                }
            }
            nodes.push_back(n);
        }
        below = nodes.size();
    }
}

DecimationIndex::MinMax DecimationIndex::minMax(std::span<const Interval> intervals, std::size_t begin,
                                                std::size_t end) const
{
    MinMax r{begin, begin};
    double min_w = intervals[begin].power_w();
    double max_w = min_w;
    auto take = [&](std::size_t min_i, double lo, std::size_t max_i, double hi) {
        if (lo < min_w) {
            min_w = lo;
            r.min_i = min_i;
        }
        if (hi > max_w) {
            max_w = hi;
            r.max_i = max_i;
        }
    };
    std::size_t i = begin + 1;
    while (i < end) {
        // The biggest whole block that starts at i and ends by `end`.
        int best = -1;
        std::size_t size = 1;
        for (std::size_t level = 0, s = kFanout; level < levels_.size(); ++level, s *= kFanout) {
            if (i % s != 0 || i + s > end || i / s >= levels_[level].size())
                break;
            best = int(level);
            size = s;
        }
        if (best < 0) {
            const double w = intervals[i].power_w();
            take(i, w, i, w);
        } else {
            const Node& n = levels_[std::size_t(best)][i / size];
            take(n.min_i, n.min_w, n.max_i, n.max_w);
        }
        i += size;
    }
    return r;
}

namespace {

// The one walk both traces share. Of the points [begin, end), time-sorted (so column(i) never
// decreases with i), each non-empty column keeps its first, minimum, maximum and last point, in
// time order: keep(i) is called with each such index once. A column's end is found by a binary
// search, and minMax(b, e) gives the first minimum and first maximum of [b, e).
template <class ColumnFn, class MinMaxFn, class KeepFn>
void keepColumnExtremes(std::size_t begin, std::size_t end, ColumnFn&& column, MinMaxFn&& minMax, KeepFn&& keep)
{
    std::size_t i = begin;
    while (i < end) {
        const int c = column(i);
        // First index in (i, end) whose column is past c. A plain binary search: clang 14 with
        // libstdc++ 12 (the fuzz build) cannot compile ranges over std::views::iota.
        std::size_t lo = i + 1, hi = end;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (column(mid) <= c)
                lo = mid + 1;
            else
                hi = mid;
        }
        const std::size_t j = lo;
        const DecimationIndex::MinMax mm = minMax(i, j);
        std::array<std::size_t, 4> k{i, mm.min_i, mm.max_i, j - 1};
        std::sort(k.begin(), k.end());
        const auto last = std::unique(k.begin(), k.end());
        for (auto it = k.begin(); it != last; ++it)
            keep(*it);
        i = j;
    }
}

template <class MinMaxFn>
std::vector<PlotPoint> decimateWith(std::span<const Interval> iv, std::int64_t origin_ns, std::int64_t t0_ns,
                                    std::int64_t t1_ns, int columns, MinMaxFn&& minMax)
{
    std::vector<PlotPoint> out;
    if (iv.empty() || t1_ns < t0_ns)
        return out;
    columns = std::max(columns, 1);
    auto lower = std::partition_point(iv.begin(), iv.end(),
                                      [&](const Interval& s) { return midpointNs(s) < t0_ns; });
    auto upper = std::partition_point(lower, iv.end(),
                                      [&](const Interval& s) { return midpointNs(s) <= t1_ns; });
    const auto b = std::size_t(lower - iv.begin()), e = std::size_t(upper - iv.begin());
    out.reserve(std::min<std::size_t>(e - b, std::size_t(columns) * 4));
    keepColumnExtremes(
        b, e, [&](std::size_t i) { return columnOf(midpointNs(iv[i]), t0_ns, t1_ns, columns); }, minMax,
        [&](std::size_t i) { out.push_back({double(midpointNs(iv[i]) - origin_ns) * 1e-9, iv[i].power_w()}); });
    return out;
}

}  // namespace

std::vector<PlotPoint> decimate(std::span<const Interval> intervals, std::int64_t origin_ns,
                                std::int64_t t0_ns, std::int64_t t1_ns, int columns)
{
    const DecimationIndex none;  // no blocks: minMax scans
    return decimateWith(intervals, origin_ns, t0_ns, t1_ns, columns,
                        [&](std::size_t b, std::size_t e) { return none.minMax(intervals, b, e); });
}

std::vector<PlotPoint> decimate(std::span<const Interval> intervals, const DecimationIndex& index,
                                std::int64_t origin_ns, std::int64_t t0_ns, std::int64_t t1_ns, int columns)
{
    return decimateWith(intervals, origin_ns, t0_ns, t1_ns, columns,
                        [&](std::size_t b, std::size_t e) { return index.minMax(intervals, b, e); });
}

std::vector<TracePoint> decimateColumns(std::span<const TracePoint> points, double t0_s, double t1_s,
                                        int columns)
{
    std::vector<TracePoint> out;
    if (points.empty() || !(t1_s > t0_s))
        return out;
    columns = std::max(columns, 1);
    const auto lower = std::partition_point(points.begin(), points.end(),
                                            [&](const TracePoint& p) { return p.t_s < t0_s; });
    const auto upper = std::partition_point(lower, points.end(),
                                            [&](const TracePoint& p) { return p.t_s <= t1_s; });
    if (upper - lower <= 4 * std::ptrdiff_t(columns)) {
        out.assign(lower, upper);
        return out;
    }
    out.reserve(4 * std::size_t(columns));
    const double width = (t1_s - t0_s) / columns;
    // Strict comparisons: the earliest of equal values, as DecimationIndex::minMax.
    auto scan = [&](std::size_t b, std::size_t e) {
        DecimationIndex::MinMax r{b, b};
        for (std::size_t i = b + 1; i < e; ++i) {
            if (points[i].v < points[r.min_i].v)
                r.min_i = i;
            if (points[i].v > points[r.max_i].v)
                r.max_i = i;
        }
        return r;
    };
    keepColumnExtremes(
        std::size_t(lower - points.begin()), std::size_t(upper - points.begin()),
        [&](std::size_t i) { return std::min(columns - 1, int((points[i].t_s - t0_s) / width)); }, scan,
        [&](std::size_t i) { out.push_back(points[i]); });
    return out;
}

}  // namespace jb
