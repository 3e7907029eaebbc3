#pragma once
// Histogram of idle power with the normal distribution fitted to it (same mean and sample
// sd), as expected counts per bin, so a page can draw both and a reader can see skew, a
// second mode (a periodic background load) or heavy tails that the sd alone hides.
#include <span>
#include <string>
#include <vector>

namespace jb {

struct PowerHistogram {
    int n = 0;                   // values counted
    double mean_w = 0.0;
    double sd_w = 0.0;           // sample sd (n - 1)
    double bin_width_w = 0.0;
    std::string rule;            // "freedman-diaconis", "sqrt" or "single" (all values equal)
    std::vector<double> edges_w; // bins + 1 edges; bin i is [edges[i], edges[i+1]) (last closed)
    std::vector<int> counts;
    std::vector<double> expected;  // n * (Phi(hi) - Phi(lo)) of the fitted normal, per bin
};

// Bin width by Freedman-Diaconis, 2 IQR / n^(1/3), where the IQR is positive; else by the
// square-root rule (range / ceil(sqrt n)). Bins are capped at max_bins. Empty input: n = 0.
PowerHistogram powerHistogram(std::span<const double> power_w, int max_bins = 100);

}  // namespace jb
