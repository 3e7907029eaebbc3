#pragma once
// Allan deviation of a power series: how the scatter of an m-interval average falls as m
// grows. For white noise it falls as 1/sqrt(m); where it flattens or turns up (drift,
// thermal wander, a periodic load), averaging longer idle brackets stops helping.
#include <span>
#include <vector>

namespace jb {

struct AllanPoint {
    int m = 0;             // averaging factor: intervals per average
    double tau_s = 0.0;    // m * period
    double adev_w = 0.0;   // Allan deviation of the power, W
    int terms = 0;         // squared differences averaged (the estimate's weight)
};

enum class AllanKind {
    // Every start index j: sigma^2(m) = sum_j (ybar_{j+m} - ybar_j)^2 / (2 (N - 2m + 1)),
    // ybar_j = mean of y[j .. j+m-1]. The default: more terms, a steadier estimate.
    Overlapping,
    // Back-to-back blocks of m: sigma^2(m) = sum_k (Y_{k+1} - Y_k)^2 / (2 (K - 1)), K = N / m.
    NonOverlapping,
};

// Allan deviation at m = 1, 2, 4, ... while at least two averages fit (2m <= N).
// power_w: one value per sampling interval, equally spaced by period_s. Empty under 2 values.
std::vector<AllanPoint> allanDeviation(std::span<const double> power_w, double period_s,
                                       AllanKind kind = AllanKind::Overlapping);

// The same over several separate runs (the idle brackets of a record): each run's squared
// differences are pooled, never differences across the gap between two runs. An m is
// reported where at least one run holds 2m values.
std::vector<AllanPoint> allanDeviationPooled(const std::vector<std::vector<double>>& runs,
                                             double period_s,
                                             AllanKind kind = AllanKind::Overlapping);

}  // namespace jb
