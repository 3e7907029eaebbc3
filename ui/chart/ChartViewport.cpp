#include "chart/ChartViewport.h"

#include "chart/AxisTicks.h"

#include <algorithm>
#include <cmath>

namespace jb {

ChartViewport::Change ChartViewport::setFollowing(bool follow)
{
    Change c;
    c.following = follow != following_;
    following_ = follow;
    return c;
}

ChartViewport::Change ChartViewport::setFrozen(bool frozen, std::optional<std::int64_t> end)
{
    Change c;
    if (frozen == frozen_)
        return c;
    frozen_ = frozen;
    frozen_end_ = frozen ? end : std::nullopt;
    c.frozen = true;
    return c;
}

void ChartViewport::setMinimumSpan(double seconds)
{
    min_span_ = std::max(kMinVisibleSpanS, std::isfinite(seconds) ? seconds : kDefaultSpanS);
}

ChartViewport::Change ChartViewport::setRange(double t0, double t1)
{
    if (!(t1 - t0 >= kMinVisibleSpanS)) {
        const double mid = t1 > t0 ? (t0 + t1) / 2 : t0;
        t0 = mid - kMinVisibleSpanS / 2;
        t1 = mid + kMinVisibleSpanS / 2;
    }
    t0_ = t0;
    t1_ = t1;
    Change c = setFollowing(false);
    c.range = true;
    return c;
}

ChartViewport::Change ChartViewport::zoom(double factor, double anchor_s)
{
    if (!(factor > 0))
        return {};
    return setRange(anchor_s - (anchor_s - t0_) * factor, anchor_s + (t1_ - anchor_s) * factor);
}

ChartViewport::Change ChartViewport::pan(double dt_s)
{
    return setRange(t0_ + dt_s, t1_ + dt_s);
}

void ChartViewport::follow(std::optional<std::pair<double, double>> data, bool live)
{
    if (!following_)
        return;
    if (!data) {
        t0_ = 0;
        t1_ = min_span_;
        return;
    }
    const auto [first, newest] = *data;
    t0_ = std::min(0.0, first);
    t1_ = std::max(newest, t0_ + min_span_);
    if (live && !frozen_) {
        const double step = xTickStep();
        t1_ = std::max(t1_, std::ceil(newest / step - 1e-9) * step);
    }
}

double ChartViewport::xTickStep() const
{
    return ticks::nearestStep((t1_ - t0_) / 8.0);
}

}  // namespace jb
