#pragma once
// A job's live samples as the Jobs page's chart shows them: GPU memory of the job's processes
// and the GPU's board power against seconds since the job's process started, one sample per
// memory sampling period. Plain values; the decimation is pure math so it is tested apart
// from the painting.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace jb {

struct TracePoint {
    double t_s;
    double v;
    friend bool operator==(const TracePoint&, const TracePoint&) = default;
};

class JobTrace {
public:
    // power_w NaN (unknown) adds no power point; memory_mib < 0 (unread) adds no memory point.
    void add(double t_s, double memory_mib, double power_w);
    const std::vector<TracePoint>& memory() const { return memory_; }
    const std::vector<TracePoint>& power() const { return power_; }
    double lastT() const { return last_t_; }
    std::size_t samples() const { return samples_; }
    std::optional<double> maxMemory() const;
    std::optional<double> maxPower() const;

private:
    std::vector<TracePoint> memory_, power_;
    double last_t_ = 0;
    std::size_t samples_ = 0;
    double max_memory_ = -1, max_power_ = -1;
};

// At most four points per column of [t0_s, t1_s] cut into `columns` parts (the first, the
// minimum, the maximum and the last, in time order), so a six-hour job draws as fast as a
// minute's; each column's extremes are exact. Points outside the range are dropped; with few
// points they are returned as they are.
std::vector<TracePoint> decimateColumns(std::span<const TracePoint> points, double t0_s, double t1_s,
                                        int columns);

}  // namespace jb
