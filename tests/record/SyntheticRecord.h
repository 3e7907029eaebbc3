#pragma once
// A JouleBench record built by hand for the record tests: a made-up RAPL counter read every
// ~100 ms (with jitter) through idle brackets of ~1 s and busy windows of ~0.8 s, its round
// figures computed the way the reference does it, by filtering the whole sample list with
// plain loops (not with jb::between / jb::covering, which `verify` uses: the two must agree).
#include <jb/base/Version.h>
#include <jb/record/Record.h>
#include <jb/stats/Statistics.h>

#include <cstdint>
#include <string>
#include <vector>

namespace jbtest {

// A tiny deterministic generator (the same numbers on every platform).
struct Lcg {
    std::uint64_t s;
    double next01()
    {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(s >> 11) / double(1ULL << 53);
    }
};

inline std::vector<jb::Interval> inside(const std::vector<jb::Interval>& all, std::int64_t t0,
                                        std::int64_t t1)
{
    std::vector<jb::Interval> out;
    for (const jb::Interval& i : all)
        if (i.t0_ns >= t0 && i.t1_ns <= t1)
            out.push_back(i);
    return out;
}

inline std::vector<jb::Interval> overlapping(const std::vector<jb::Interval>& all, std::int64_t t0,
                                             std::int64_t t1)
{
    std::vector<jb::Interval> out;
    for (const jb::Interval& i : all)
        if (i.t1_ns > t0 && i.t0_ns < t1)
            out.push_back(i);
    return out;
}

// rounds >= 1; busy_w is the busy power, the idle power is 20 W; noise_w the +- spread.
inline jb::Record syntheticRecord(int rounds = 3, std::uint64_t seed = 7, double busy_w = 35.0,
                                  double noise_w = 0.2, const std::string& spec = "rapl")
{
    Lcg rng{seed};
    const std::int64_t ms = 1'000'000;
    std::int64_t t = 5'000 * ms;  // monotonic origin of the made-up run
    std::vector<std::array<std::int64_t, 2>> brackets, windows;
    std::int64_t cursor = t + 3 * ms;
    brackets.push_back({cursor, cursor + 1'000 * ms + 137'000});
    for (int r = 0; r < rounds; ++r) {
        const std::int64_t w0 = brackets.back()[1] + 4 * ms + 211'000;
        windows.push_back({w0, w0 + 800 * ms + std::int64_t(rng.next01() * 2e6)});
        const std::int64_t b0 = windows.back()[1] + 1 * ms + 5'000;
        brackets.push_back({b0, b0 + 1'000 * ms + std::int64_t(rng.next01() * 1e6)});
    }
    // Samples from the origin to past the last bracket, every 100 ms +- 1 ms.
    std::vector<jb::Interval> iv;
    const std::int64_t end = brackets.back()[1] + 250 * ms;
    while (t < end) {
        const std::int64_t t1 = t + 100 * ms + std::int64_t((rng.next01() - 0.5) * 2e6);
        const std::int64_t mid = (t + t1) / 2;
        bool busy = false;
        for (const auto& w : windows)
            busy = busy || (mid >= w[0] && mid < w[1]);
        const double w = (busy ? busy_w : 20.0) + (rng.next01() - 0.5) * 2.0 * noise_w;
        // RAPL counts whole microjoules: nJ in steps of 1000, as the reference's delta * 1000.
        iv.push_back({t, t1, std::int64_t(w * double(t1 - t) / 1000.0) * 1000});
        t = t1;
    }

    jb::Record r;
    r.label = "synthetic";
    r.meta = jb::ojson::object();
    r.meta["seed"] = seed;
    r.jobs = 4;
    r.k = 2;
    r.counters = {spec};
    r.idle_s = 1.0;
    r.sample_s = 0.1;
    r.host = {"Linux", "x86_64", 2, false, jb::ojson::object()};
    r.child = {"joulebench-demo", "--jobs", "4"};
    for (int i = 0; i < rounds; ++i) {
        jb::Round round;
        round.load_avg_before = {0.25, 0.5, 0.125};
        round.decodes = 8;
        round.window_ns = windows[std::size_t(i)][1] - windows[std::size_t(i)][0];
        round.child_wall_ns = round.window_ns - 250'000;
        if (i == 0)
            round.child_note = "warm";
        round.load_avg_after = {0.5, 0.5, 0.125};
        const auto [w0, w1] = windows[std::size_t(i)];
        const auto busy = inside(iv, w0, w1);
        const auto cov = overlapping(iv, w0, w1);
        const auto pre = inside(iv, brackets[std::size_t(i)][0], brackets[std::size_t(i)][1]);
        const auto post = inside(iv, brackets[std::size_t(i) + 1][0], brackets[std::size_t(i) + 1][1]);
        round.counters.emplace_back(spec, jb::counterRound({busy, cov, pre, post}));
        round.window = windows[std::size_t(i)];
        round.brackets = std::array<std::array<std::int64_t, 2>, 2>{brackets[std::size_t(i)],
                                                                    brackets[std::size_t(i) + 1]};
        r.rounds.push_back(round);
    }
    r.tool = std::pair{std::string(jb::kToolName), std::string("0.1.0")};
    r.status = "complete";
    jb::ojson info = jb::ojson::object();
    info["kind"] = "rapl";
    info["zone"] = "/sys/class/powercap/intel-rapl:0";
    info["name"] = "package-0";
    r.counter_info.emplace_back(spec, info);
    jb::SamplerFigures f;
    f.period_s = 0.1;
    f.intervals = std::int64_t(iv.size());
    f.lateness_p50_ns = 61'000;
    f.lateness_p99_ns = 480'000;
    f.lateness_max_ns = 1'210'000;
    f.update_cadence_ms = 1.0;
    r.sampler.emplace_back(spec, f);
    r.samples.emplace_back(spec, iv);
    return r;
}

}  // namespace jbtest
