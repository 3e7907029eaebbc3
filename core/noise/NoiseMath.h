#pragma once
// Special functions the noise lab needs (no dependency beyond <cmath>): the normal
// distribution and the chi-square distribution through the regularized incomplete gamma.
#include <cstdint>
#include <random>

namespace jb::noise {

double normalCdf(double z);       // P(Z <= z), Z standard normal
double normalPdf(double z);
double normalQuantile(double p);  // inverse of normalCdf, p in (0, 1)

// Regularized lower incomplete gamma P(a, x) = gamma(a, x) / Gamma(a), a > 0, x >= 0.
double regularizedGammaP(double a, double x);
// P(chi-square with dof degrees of freedom <= x).
double chiSquareCdf(double x, double dof);

// A reproducible Gaussian stream: mt19937_64 (fully specified by the standard) and
// Box-Muller written here, because std::normal_distribution differs between standard
// libraries and seeded tests must give the same numbers everywhere.
class Gaussian {
public:
    explicit Gaussian(std::uint64_t seed);
    double next();     // standard normal
    double uniform();  // in (0, 1)

private:
    std::mt19937_64 engine_;
    bool has_spare_ = false;
    double spare_ = 0.0;
};

}  // namespace jb::noise
