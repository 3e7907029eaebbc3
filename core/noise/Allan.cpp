#include <jb/noise/Allan.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace jb {

namespace {

struct Sums {
    double squares = 0.0;
    long long terms = 0;
};

// Squared differences of adjacent m-averages of one run, per the kind.
Sums allanSums(std::span<const double> y, std::size_t m, AllanKind kind)
{
    Sums s;
    const std::size_t n = y.size();
    if (m == 0 || 2 * m > n)
        return s;
    if (kind == AllanKind::NonOverlapping) {
        const std::size_t blocks = n / m;
        double prev = 0.0;
        for (std::size_t b = 0; b < blocks; ++b) {
            double sum = 0.0;
            for (std::size_t i = 0; i < m; ++i)
                sum += y[b * m + i];
            const double avg = sum / double(m);
            if (b > 0) {
                s.squares += (avg - prev) * (avg - prev);
                ++s.terms;
            }
            prev = avg;
        }
        return s;
    }
    // Overlapping: prefix sums make each m-average O(1). Deviations from the first value keep
    // the prefix sums small, so long series at ~20 W lose no precision to cancellation.
    std::vector<double> prefix(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        prefix[i + 1] = prefix[i] + (y[i] - y[0]);
    for (std::size_t j = 0; j + 2 * m <= n; ++j) {
        const double a = (prefix[j + m] - prefix[j]) / double(m);
        const double b = (prefix[j + 2 * m] - prefix[j + m]) / double(m);
        s.squares += (b - a) * (b - a);
        ++s.terms;
    }
    return s;
}

}  // namespace

std::vector<AllanPoint> allanDeviation(std::span<const double> power_w, double period_s, AllanKind kind)
{
    return allanDeviationPooled({std::vector<double>(power_w.begin(), power_w.end())}, period_s, kind);
}

std::vector<AllanPoint> allanDeviationPooled(const std::vector<std::vector<double>>& runs,
                                             double period_s, AllanKind kind)
{
    std::vector<AllanPoint> out;
    std::size_t longest = 0;
    for (const auto& r : runs)
        longest = std::max(longest, r.size());
    for (std::size_t m = 1; 2 * m <= longest; m *= 2) {
        Sums total;
        for (const auto& r : runs) {
            const Sums s = allanSums(r, m, kind);
            total.squares += s.squares;
            total.terms += s.terms;
        }
        if (total.terms == 0)
            continue;
        AllanPoint p;
        p.m = int(m);
        p.tau_s = double(m) * period_s;
        p.adev_w = std::sqrt(total.squares / (2.0 * double(total.terms)));
        p.terms = int(total.terms);
        out.push_back(p);
    }
    return out;
}

}  // namespace jb
