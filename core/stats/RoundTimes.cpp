#include <jb/stats/RoundTimes.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace jb {

RoundTimes roundTimes(std::int64_t window_t0, std::int64_t window_t1, std::int64_t before_t0,
                      std::int64_t before_t1, std::int64_t after_t0, std::int64_t after_t1,
                      std::int64_t tail_ns)
{
    tail_ns = std::max<std::int64_t>(tail_ns, 0);
    RoundTimes t;
    t.busy_t0 = window_t0;
    t.busy_t1 = window_t1 + tail_ns;
    t.before_t0 = std::min(before_t0 + tail_ns, before_t1);
    t.before_t1 = before_t1;
    t.after_t0 = std::min(after_t0 + tail_ns, after_t1);
    t.after_t1 = after_t1;
    return t;
}

namespace {

// The power between a slice's first and last update (nj != 0), where it has two.
std::optional<double> updateToUpdateW(std::span<const Interval> iv)
{
    std::size_t f = iv.size(), l = 0;
    for (std::size_t i = 0; i < iv.size(); ++i) {
        if (iv[i].nj == 0)
            continue;
        if (f == iv.size())
            f = i;
        l = i;
    }
    if (f == iv.size() || l <= f || iv[l].t1_ns <= iv[f].t1_ns)
        return std::nullopt;
    double nj = 0;
    for (std::size_t i = f + 1; i <= l; ++i)
        nj += double(iv[i].nj);
    return nj / double(iv[l].t1_ns - iv[f].t1_ns);  // nJ / ns = W
}

}  // namespace

CounterRound roundFigures(std::span<const Interval> all, const RoundTimes& tt, bool aligned)
{
    auto slice = [&](IndexRange x) { return all.subspan(x.begin, x.size()); };
    const IndexRange cov = covering(all, tt.busy_t0, tt.busy_t1);
    RoundSlices s;
    s.busy = slice(between(all, tt.busy_t0, tt.busy_t1));
    s.covering = slice(cov);
    s.idle_before = slice(between(all, tt.before_t0, tt.before_t1));
    s.idle_after = slice(between(all, tt.after_t0, tt.after_t1));
    CounterRound r = counterRound(s);
    if (!aligned)
        return r;
    for (auto [b, iv] : {std::pair{&r.idle_before, s.idle_before}, std::pair{&r.idle_after, s.idle_after}})
        if (*b)
            if (const auto w = updateToUpdateW(iv))
                (*b)->mean_w = *w;
    if (cov.size() > 0) {
        // The last update at or before the window's start, the first at or after its end, each
        // looked for in the round's own brackets only (the session cuts under the store's lock:
        // a counter that never advances costs the round's span, not the run's).
        std::optional<std::size_t> a, z;
        for (std::size_t i = cov.begin; i-- > 0 && all[i].t1_ns >= tt.before_t0;)
            if (all[i].nj != 0) {
                a = i;
                break;
            }
        for (std::size_t i = cov.end - 1; i < all.size() && all[i].t0_ns <= tt.after_t1; ++i)
            if (all[i].nj != 0 && all[i].t1_ns >= tt.busy_t1) {
                z = i;
                break;
            }
        if (a && z && all[*z].t1_ns > all[*a].t1_ns) {
            std::int64_t nj = 0;
            for (std::size_t i = *a + 1; i <= *z; ++i)
                nj += all[i].nj;
            r.window_nj = nj;
            r.covered_ns = all[*z].t1_ns - all[*a].t1_ns;
        }
    }
    setMarginal(r);
    return r;
}

}  // namespace jb
