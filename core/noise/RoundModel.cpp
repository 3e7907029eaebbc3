#include <jb/noise/RoundModel.h>

#include <jb/noise/NoiseMath.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace jb {

namespace {

// Adaptive Simpson on [a, b]: refines where the integrand bends (the chi-square step can be
// narrow against the normal weight), stops at depth 24.
double simpson(const std::function<double(double)>& f, double a, double b, double fa, double fm, double fb,
               double whole, double eps, int depth)
{
    const double m = 0.5 * (a + b);
    const double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
    const double flm = f(lm), frm = f(rm);
    const double left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
    const double right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
    const double diff = left + right - whole;
    if (depth <= 0 || std::abs(diff) <= 15.0 * eps)
        return left + right + diff / 15.0;
    return simpson(f, a, m, fa, flm, fm, left, eps / 2.0, depth - 1) +
           simpson(f, m, b, fm, frm, fb, right, eps / 2.0, depth - 1);
}

double integrate(const std::function<double(double)>& f, double a, double b, int panels, double eps)
{
    double total = 0.0;
    const double h = (b - a) / panels;
    for (int i = 0; i < panels; ++i) {
        const double x0 = a + h * i, x1 = x0 + h, xm = 0.5 * (x0 + x1);
        const double f0 = f(x0), fm = f(xm), f1 = f(x1);
        const double whole = h / 6.0 * (f0 + 4.0 * fm + f1);
        total += simpson(f, x0, x1, f0, fm, f1, whole, eps / panels, 24);
    }
    return total;
}

}  // namespace

double verdictProbability(const RoundModel& m, double threshold)
{
    if (m.idle_intervals < 2 || m.busy_intervals < 2 || !(m.idle_sd_w > 0.0) || !(m.busy_sd_w >= 0.0))
        return 0.0;
    const double nu = m.idle_intervals - 1.0;
    const double sdD = std::sqrt(m.busy_sd_w * m.busy_sd_w / m.busy_intervals +
                                 m.idle_sd_w * m.idle_sd_w / (2.0 * m.idle_intervals));
    const double scale = threshold * m.idle_sd_w;  // the sd a ratio of exactly T needs
    if (!(scale > 0.0)) {
        // Threshold 0 or below: the ratio (sd > 0) reaches it where the numerator does.
        return noise::normalCdf(m.marginal_w / sdD);
    }
    auto cdfMax = [nu](double y) {
        if (!(y > 0.0))
            return 0.0;
        const double f = noise::chiSquareCdf(nu * y * y, nu);
        return f * f;
    };
    // z: the numerator's standard score; the ratio reaches T where sd_max <= D / T.
    auto integrand = [&](double z) { return cdfMax((m.marginal_w + sdD * z) / scale) * noise::normalPdf(z); };
    constexpr double kZ = 9.0;  // the normal weight beyond +-9 is below 1e-18
    const double zLow = std::max(-kZ, -m.marginal_w / sdD);  // below it the numerator is negative
    if (zLow >= kZ)
        return 0.0;
    return std::clamp(integrate(integrand, zLow, kZ, 32, 1e-8), 0.0, 1.0);
}

int intervalsInside(double window_s, double period_s)
{
    if (!(period_s > 0.0) || !(window_s > 0.0))
        return 0;
    // The small slack keeps 1.0 / 0.1 from flooring to 9.
    return std::max(0, int(std::floor(window_s / period_s + 1e-9)) - 1);
}

double windowHolding(int intervals, double period_s)
{
    // Rounded to the nanosecond, the clock's unit: 6 * 0.1 prints as 0.6, not 0.6000000000000001.
    return std::round((std::max(0, intervals) + 1) * period_s * 1e9) / 1e9;
}

double requiredMarginalW(RoundModel m, double threshold, double probability)
{
    auto p = [&](double w) {
        m.marginal_w = w;
        return verdictProbability(m, threshold);
    };
    if (m.idle_intervals < 2 || m.busy_intervals < 2 || !(m.idle_sd_w > 0.0))
        return std::nan("");
    double hi = std::max(threshold, 1.0) * m.idle_sd_w;
    for (int i = 0; i < 200 && p(hi) < probability; ++i)
        hi *= 2.0;
    double lo = 0.0;
    for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (p(mid) < probability ? lo : hi) = mid;
    }
    return hi;
}

}  // namespace jb
