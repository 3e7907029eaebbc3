#include <jb/noise/LiveSim.h>

#include <jb/base/Clock.h>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

SimLayout liveLayout(const LiveSimSettings& s, std::int64_t origin_ns)
{
    SimLayout l;
    l.origin_ns = origin_ns;
    l.period_ns = std::max<std::int64_t>(1'000'000, secondsToNs(s.period_s));
    l.idle_ns = std::max<std::int64_t>(1, secondsToNs(s.idle_s));
    l.busy_ns = std::max<std::int64_t>(1, secondsToNs(s.busyS()));
    l.settle_ns = 2 * l.period_ns;  // the session waits two sample periods after a bracket
    l.rounds = -1;                  // until the page stops it
    l.k = s.k;
    l.jobs = s.jobs;
    return l;
}

SimPower livePower(const LiveSimSettings& s)
{
    SimPower p;
    p.idle_w = s.idle_w;
    p.noise_sd_w = s.noise_sd_w;
    p.busy_noise_sd_w = -1.0;  // one sd, busy or idle
    p.marginal_w = s.signal_w;
    return p;
}

}  // namespace

LiveSim::LiveSim(const LiveSimSettings& s, std::uint64_t seed, std::int64_t origin_ns)
    : s_(s), model_(liveLayout(s, origin_ns), livePower(s), seed, kSpec)
{
}

bool LiveSim::sameLayout(const LiveSimSettings& a, const LiveSimSettings& b)
{
    return a.period_s == b.period_s && a.idle_s == b.idle_s && a.k == b.k &&
        a.busy_s_per_k == b.busy_s_per_k && a.jobs == b.jobs;
}

void LiveSim::setPower(double idle_w, double noise_sd_w, double signal_w)
{
    s_.idle_w = idle_w;
    s_.noise_sd_w = std::max(0.0, noise_sd_w);
    s_.signal_w = signal_w;
    model_.setPower(livePower(s_));
}

std::array<std::int64_t, 2> LiveSim::busyWindow(int round) const
{
    return model_.busyWindow(round);
}

std::array<std::int64_t, 2> LiveSim::idleBracket(int j) const
{
    return model_.idleBracket(j);
}

std::int64_t LiveSim::roundDueNs(int round) const
{
    return model_.roundDueNs(round);
}

LiveSim::Step LiveSim::advance(std::int64_t dt_ns)
{
    return model_.advanceTo(model_.nowNs() + std::max<std::int64_t>(0, dt_ns));
}

LiveSim::Step LiveSim::advanceTo(std::int64_t t_ns)
{
    return model_.advanceTo(t_ns);
}

}  // namespace jb
