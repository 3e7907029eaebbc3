#include "chart/AxisTicks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jb::ticks {

namespace {
// rough = f x 10^n with f in [1, 10): returns 10^n and f.
std::pair<double, double> decade(double rough)
{
    const double p = std::pow(10.0, std::floor(std::log10(rough)));
    return {p, rough / p};
}
bool usable(double rough)
{
    return rough > 0 && std::isfinite(rough);
}
}  // namespace

double nearestStep(double rough)
{
    if (!usable(rough))
        return 1.0;
    const auto [p, f] = decade(rough);
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * p;
}

double stepAtLeast(double rough)
{
    if (!usable(rough))
        return 1.0;
    const auto [p, f] = decade(rough);
    return (f <= 1.0 + 1e-9 ? 1.0 : f <= 2.0 + 1e-9 ? 2.0 : f <= 5.0 + 1e-9 ? 5.0 : 10.0) * p;
}

int decimalsFor(double step)
{
    return step >= 1.0 ? 0 : std::min(6, int(std::ceil(-std::log10(step) - 1e-9)));
}

QString labelFormat(double step)
{
    return QStringLiteral("%.") + QString::number(decimalsFor(step)) + QStringLiteral("f");
}

int intervalsThatFit(double extent_px, double label_px)
{
    if (!(extent_px > 0) || !(label_px > 0))
        return std::numeric_limits<int>::max();
    return std::max(1, int(std::floor(extent_px / label_px)));
}

double coarsenToFit(double lo, double hi, double step, int max_intervals)
{
    if (!usable(step) || !std::isfinite(lo) || !std::isfinite(hi) || hi < lo)
        return step;
    max_intervals = std::max(1, max_intervals);
    auto intervals = [&](double s) { return std::ceil(hi / s - 1e-9) - std::floor(lo / s + 1e-9); };
    for (int guard = 0; guard < 64 && intervals(step) > max_intervals; ++guard)
        step = stepAtLeast(step * 1.000001);
    return step;
}

double verticalLabelPx(double font_height_px)
{
    return 1.7 * font_height_px;
}

Scale fitScale(double lo, double hi, double step, double height_px, double font_height_px)
{
    step = coarsenToFit(lo, hi, step, intervalsThatFit(height_px, verticalLabelPx(font_height_px)));
    return {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
}

double toPixel(double v, double min, double max, double p0, double extent)
{
    const double span = max - min;
    return p0 + (v - min) / (span > 0 ? span : 1) * extent;
}

}  // namespace jb::ticks
