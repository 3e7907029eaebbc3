#include <jb/noise/NoiseMath.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace jb::noise {

double normalCdf(double z)
{
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

double normalPdf(double z)
{
    constexpr double kInvSqrt2Pi = 0.39894228040143267794;
    return kInvSqrt2Pi * std::exp(-0.5 * z * z);
}

double normalQuantile(double p)
{
    if (!(p > 0.0))
        return -std::numeric_limits<double>::infinity();
    if (!(p < 1.0))
        return std::numeric_limits<double>::infinity();
    // Bisection on the cdf: called a handful of times per plan, so plain and sure beats fast.
    double lo = -40.0, hi = 40.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
        const double mid = 0.5 * (lo + hi);
        (normalCdf(mid) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double regularizedGammaP(double a, double x)
{
    if (!(a > 0.0) || std::isnan(x))
        return std::nan("");
    if (x <= 0.0)
        return 0.0;
    if (std::isinf(x))
        return 1.0;
    const double logPrefactor = a * std::log(x) - x - std::lgamma(a);
    constexpr int kMaxTerms = 100000;
    constexpr double kEps = 1e-15;
    if (x < a + 1.0) {
        // Power series: P = x^a e^-x / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n)).
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < kMaxTerms; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::abs(term) < std::abs(sum) * kEps)
                break;
        }
        return std::clamp(sum * std::exp(logPrefactor), 0.0, 1.0);
    }
    // Continued fraction for Q = 1 - P (modified Lentz), converging fast for x > a + 1.
    constexpr double kTiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / kTiny, d = 1.0 / b, f = d;
    for (int i = 1; i < kMaxTerms; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::abs(d) < kTiny)
            d = kTiny;
        c = b + an / c;
        if (std::abs(c) < kTiny)
            c = kTiny;
        d = 1.0 / d;
        const double delta = d * c;
        f *= delta;
        if (std::abs(delta - 1.0) < kEps)
            break;
    }
    return std::clamp(1.0 - std::exp(logPrefactor) * f, 0.0, 1.0);
}

double chiSquareCdf(double x, double dof)
{
    return regularizedGammaP(0.5 * dof, 0.5 * x);
}

Gaussian::Gaussian(std::uint64_t seed) : engine_(seed) {}

double Gaussian::uniform()
{
    // 53 random bits, shifted off zero so log() below is finite.
    return (double(engine_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double Gaussian::next()
{
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    constexpr double kTwoPi = 6.283185307179586477;
    const double r = std::sqrt(-2.0 * std::log(uniform()));
    const double theta = kTwoPi * uniform();
    spare_ = r * std::sin(theta);
    has_spare_ = true;
    return r * std::cos(theta);
}

}  // namespace jb::noise
