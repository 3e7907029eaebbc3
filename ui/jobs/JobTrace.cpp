#include "jobs/JobTrace.h"

#include <algorithm>
#include <cmath>

namespace jb {

void JobTrace::add(double t_s, double memory_mib, double power_w)
{
    ++samples_;
    last_t_ = std::max(last_t_, t_s);
    if (std::isfinite(memory_mib) && memory_mib >= 0) {
        memory_.push_back({t_s, memory_mib});
        max_memory_ = std::max(max_memory_, memory_mib);
    }
    if (std::isfinite(power_w)) {
        power_.push_back({t_s, power_w});
        max_power_ = std::max(max_power_, power_w);
    }
}

std::optional<double> JobTrace::maxMemory() const
{
    return memory_.empty() ? std::nullopt : std::optional<double>(max_memory_);
}

std::optional<double> JobTrace::maxPower() const
{
    return power_.empty() ? std::nullopt : std::optional<double>(max_power_);
}

std::vector<TracePoint> decimateColumns(std::span<const TracePoint> points, double t0_s, double t1_s,
                                        int columns)
{
    std::vector<TracePoint> out;
    if (points.empty() || !(t1_s > t0_s))
        return out;
    columns = std::max(columns, 1);
    auto inRange = [&](const TracePoint& p) { return p.t_s >= t0_s && p.t_s <= t1_s; };
    const auto n = std::size_t(std::count_if(points.begin(), points.end(), inRange));
    if (n <= 4 * std::size_t(columns)) {
        std::copy_if(points.begin(), points.end(), std::back_inserter(out), inRange);
        return out;
    }
    out.reserve(4 * std::size_t(columns));
    const double width = (t1_s - t0_s) / columns;
    std::size_t i = 0;
    while (i < points.size()) {
        if (!inRange(points[i])) {
            ++i;
            continue;
        }
        const int col = std::min(columns - 1, int((points[i].t_s - t0_s) / width));
        // The column's points: [first, end).
        const std::size_t first = i;
        std::size_t min_i = i, max_i = i;
        while (i < points.size() && inRange(points[i]) &&
               std::min(columns - 1, int((points[i].t_s - t0_s) / width)) == col) {
            if (points[i].v < points[min_i].v)
                min_i = i;
            if (points[i].v > points[max_i].v)
                max_i = i;
            ++i;
        }
        const std::size_t last = i - 1;
        std::size_t keep[4] = {first, min_i, max_i, last};
        std::sort(std::begin(keep), std::end(keep));
        for (std::size_t k = 0; k < 4; ++k)
            if (k == 0 || keep[k] != keep[k - 1])
                out.push_back(points[keep[k]]);
    }
    return out;
}

}  // namespace jb
