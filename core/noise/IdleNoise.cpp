#include <jb/noise/IdleNoise.h>

#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace jb {

std::vector<std::vector<Interval>> liveIdleBrackets(std::span<const Interval> all,
                                                    const std::vector<IdleSpan>& spans, std::int64_t since_ns,
                                                    int max_brackets)
{
    std::vector<std::vector<Interval>> out;
    if (max_brackets <= 0)
        return out;
    // Newest first, so only the brackets kept are sliced.
    for (auto it = spans.rbegin(); it != spans.rend() && int(out.size()) < max_brackets; ++it) {
        const std::int64_t t0 = std::max(it->t0_ns, since_ns);
        const std::int64_t t1 = it->t1_ns.value_or(std::numeric_limits<std::int64_t>::max());
        if (t1 <= t0)
            continue;
        const IndexRange r = between(all, t0, t1);
        if (r.size() == 0)
            continue;
        out.emplace_back(all.begin() + std::ptrdiff_t(r.begin), all.begin() + std::ptrdiff_t(r.end));
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::optional<AveragingLimit> averagingLimit(const std::vector<AllanPoint>& curve, double min_independent)
{
    std::vector<AllanPoint> trusted;
    for (const AllanPoint& p : curve)
        if (p.m > 0 && double(p.terms) / double(p.m) >= min_independent && std::isfinite(p.adev_w))
            trusted.push_back(p);
    // One trusted point says nothing about where the curve goes.
    if (trusted.size() < 2 || trusted.front().m != 1)
        return std::nullopt;
    const double sigma1 = trusted.front().adev_w;
    const auto lowest = std::min_element(
        trusted.begin(), trusted.end(),
        [](const AllanPoint& a, const AllanPoint& b) { return a.adev_w < b.adev_w; });
    AveragingLimit lim;
    lim.tau_s = lowest->tau_s;
    lim.adev_w = lowest->adev_w;
    lim.white_adev_w = sigma1 / std::sqrt(double(lowest->m));
    // Still on white noise's line at the longest trusted point: the estimate's own scatter
    // there is some tens of percent, hence the loose factor.
    lim.still_falling = lowest == trusted.end() - 1 && lim.adev_w <= 1.5 * lim.white_adev_w;
    return lim;
}

std::optional<double> roundMarginalW(const CounterRound& c)
{
    if (!c.busy || !c.idle_before || !c.idle_after)
        return std::nullopt;
    return c.busy->mean_w - (c.idle_before->mean_w + c.idle_after->mean_w) / 2.0;
}

}  // namespace jb
