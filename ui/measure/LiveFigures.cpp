#include "measure/LiveFigures.h"

#include <jb/stats/Statistics.h>

#include <algorithm>
#include <vector>

namespace jb {

LiveSamplerFigures liveFigures(std::span<const Interval> all, std::int64_t period_ns, std::size_t tail)
{
    LiveSamplerFigures f;
    f.intervals = all.size();
    if (all.empty() || period_ns <= 0)
        return f;
    const std::int64_t grid0 = all.front().t0_ns;
    const auto last = all.last(std::min(tail, all.size()));
    std::vector<double> late_ms;
    late_ms.reserve(last.size());
    for (const Interval& s : last) {
        // The read closing this interval was due at the grid point at or before it.
        const std::int64_t since = s.t1_ns - grid0;
        late_ms.push_back(double(since % period_ns) / 1e6);
    }
    f.lateness_p50_ms = median(late_ms);
    f.lateness_max_ms = *std::max_element(late_ms.begin(), late_ms.end());
    std::vector<double> gaps_ms;
    std::optional<std::int64_t> prev;
    for (const Interval& s : last) {
        if (s.nj == 0)
            continue;
        if (prev)
            gaps_ms.push_back(double(s.t1_ns - *prev) / 1e6);
        prev = s.t1_ns;
    }
    if (!gaps_ms.empty())
        f.cadence_ms = median(gaps_ms);
    return f;
}

}  // namespace jb
