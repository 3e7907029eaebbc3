#include <jb/noise/Histogram.h>

#include <jb/noise/NoiseMath.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>

namespace jb {

PowerHistogram powerHistogram(std::span<const double> power_w, int max_bins)
{
    PowerHistogram h;
    h.n = int(power_w.size());
    if (power_w.empty())
        return h;
    h.mean_w = mean(power_w);
    h.sd_w = sampleSd(power_w);
    const auto [minIt, maxIt] = std::minmax_element(power_w.begin(), power_w.end());
    const double lo = *minIt, hi = *maxIt;
    const double range = hi - lo;
    max_bins = std::max(1, max_bins);

    int bins = 1;
    if (!(range > 0.0)) {
        // Every value the same (a counter that never moved): one bin of nominal width.
        h.rule = "single";
        h.bin_width_w = std::max(std::abs(lo) * 1e-9, 1e-12);
    } else {
        const std::vector<double> v(power_w.begin(), power_w.end());
        const double iqr = quantile(v, 0.75) - quantile(v, 0.25);
        double want = 0.0;
        if (iqr > 0.0) {
            h.rule = "freedman-diaconis";
            // The slack keeps a range of exactly k widths at k bins despite rounding.
            want = std::ceil(range / (2.0 * iqr / std::cbrt(double(h.n))) - 1e-9);
        } else {
            h.rule = "sqrt";
            want = std::ceil(std::sqrt(double(h.n)) - 1e-9);
        }
        bins = int(std::clamp(want, 1.0, double(max_bins)));
        h.bin_width_w = range / bins;
    }
    const double start = h.rule == "single" ? lo - h.bin_width_w / 2 : lo;
    for (int i = 0; i <= bins; ++i)
        h.edges_w.push_back(start + h.bin_width_w * i);
    h.edges_w.back() = h.rule == "single" ? lo + h.bin_width_w / 2 : hi;  // no rounding gap

    h.counts.assign(std::size_t(bins), 0);
    for (double x : power_w) {
        int i = int(std::floor((x - start) / h.bin_width_w));
        h.counts[std::size_t(std::clamp(i, 0, bins - 1))] += 1;  // the maximum lands in the last bin
    }
    h.expected.assign(std::size_t(bins), 0.0);
    if (h.sd_w > 0.0) {
        for (int i = 0; i < bins; ++i) {
            const double a = noise::normalCdf((h.edges_w[std::size_t(i)] - h.mean_w) / h.sd_w);
            const double b = noise::normalCdf((h.edges_w[std::size_t(i) + 1] - h.mean_w) / h.sd_w);
            h.expected[std::size_t(i)] = h.n * (b - a);
        }
    } else {
        h.expected[0] = h.n;
    }
    return h;
}

}  // namespace jb
