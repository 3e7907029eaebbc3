#include <jb/stats/RoundTimes.h>

#include <algorithm>

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

}  // namespace jb
