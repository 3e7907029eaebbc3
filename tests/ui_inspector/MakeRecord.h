#pragma once
// JouleBench records made up for the inspector's tests and bench: a counter read every
// period_ns through idle brackets and busy windows, which itself changes only every
// cadence_ns (RAPL: about 1 ms; a coarse counter: hundreds of ms) in whole microjoules. The
// round figures are computed the way the session does (jb::between / jb::covering and
// jb::counterRound), so `verify` agrees with them; the sampler's cadence is measured the way
// the sampler does (median time between reads that saw the counter change).
#include <jb/base/Version.h>
#include <jb/record/Record.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace jbtest {

struct RunShape {
    int rounds = 3;
    std::string spec = "rapl";
    std::string label = "made";
    std::uint64_t seed = 1;
    std::int64_t period_ns = 100'000'000;
    std::int64_t cadence_ns = 1'000'000;
    double idle_s = 1.0, busy_s = 0.8;
    double idle_w = 20.0, busy_w = 35.0, noise_w = 0.2;
    std::int64_t decodes = 8;
    bool with_samples = true;
};

// A tiny deterministic generator (the same numbers on every platform).
struct Lcg {
    std::uint64_t s;
    double next01()
    {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(s >> 11) / double(1ULL << 53);
    }
};

inline jb::Record makeRecord(const RunShape& shape)
{
    Lcg rng{shape.seed * 2654435761ULL + 12345};
    const std::int64_t origin = 5'000'000'000LL;
    const auto idle_ns = std::int64_t(shape.idle_s * 1e9);
    const auto busy_ns = std::int64_t(shape.busy_s * 1e9);
    std::vector<std::array<std::int64_t, 2>> brackets, windows;
    std::int64_t cursor = origin + 3'000'000;
    brackets.push_back({cursor, cursor + idle_ns});
    for (int r = 0; r < shape.rounds; ++r) {
        const std::int64_t w0 = brackets.back()[1] + 4'000'000;
        windows.push_back({w0, w0 + busy_ns + std::int64_t(rng.next01() * 2e6)});
        const std::int64_t b0 = windows.back()[1] + 1'000'000;
        brackets.push_back({b0, b0 + idle_ns + std::int64_t(rng.next01() * 1e6)});
    }
    const std::int64_t end = brackets.back()[1] + 2 * shape.period_ns;

    // Read times, and the true energy at each read.
    std::vector<std::int64_t> reads{origin};
    std::vector<double> energy_nj{0.0};
    std::size_t w = 0;
    while (reads.back() < end) {
        const std::int64_t t0 = reads.back();
        const auto jitter = std::int64_t((rng.next01() - 0.5) * 0.02 * double(shape.period_ns));
        const std::int64_t t1 = t0 + shape.period_ns + jitter;
        // The decoder draws busy_w - idle_w more for exactly the part of the interval that
        // lies in a busy window; the noise is the idle noise.
        while (w < windows.size() && windows[w][1] <= t0)
            ++w;
        std::int64_t busy_ns = 0;
        for (std::size_t v = w; v < windows.size() && windows[v][0] < t1; ++v)
            busy_ns += std::min(t1, windows[v][1]) - std::max(t0, windows[v][0]);
        const double p = shape.idle_w + (shape.busy_w - shape.idle_w) * double(busy_ns) / double(t1 - t0) +
            (rng.next01() - 0.5) * 2.0 * shape.noise_w;
        reads.push_back(t1);
        energy_nj.push_back(energy_nj.back() + p * double(t1 - t0));
    }
    // What the counter shows at each read: the energy at its last update, in whole uJ.
    std::vector<std::int64_t> shown(reads.size());
    std::size_t j = 0;
    for (std::size_t k = 0; k < reads.size(); ++k) {
        const std::int64_t tick = shape.cadence_ns > 0
            ? origin + (reads[k] - origin) / shape.cadence_ns * shape.cadence_ns
            : reads[k];
        while (j + 1 < reads.size() && reads[j + 1] <= tick)
            ++j;
        double e = energy_nj[j];
        if (j + 1 < reads.size() && tick > reads[j])
            e += (energy_nj[j + 1] - energy_nj[j]) * double(tick - reads[j]) /
                double(reads[j + 1] - reads[j]);
        shown[k] = std::int64_t(e / 1000.0) * 1000;
    }
    std::vector<jb::Interval> iv;
    iv.reserve(reads.size());
    std::vector<double> changes_ms;
    std::int64_t last_change = -1;
    for (std::size_t k = 1; k < reads.size(); ++k) {
        iv.push_back({reads[k - 1], reads[k], shown[k] - shown[k - 1]});
        if (shown[k] != shown[k - 1]) {
            if (last_change >= 0)
                changes_ms.push_back(double(reads[k] - last_change) / 1e6);
            last_change = reads[k];
        }
    }

    jb::Record r;
    r.label = shape.label;
    r.meta = jb::ojson::object();
    r.meta["seed"] = shape.seed;
    r.meta["codec"] = "demo";
    r.jobs = 4;
    r.k = 2;
    r.counters = {shape.spec};
    r.idle_s = shape.idle_s;
    r.sample_s = double(shape.period_ns) / 1e9;
    r.host = {"Linux", "x86_64", 2, false, jb::ojson::object()};
    r.child = {"joulebench-demo", "--jobs", "4"};
    const std::span<const jb::Interval> all(iv);
    auto slice = [&](jb::IndexRange ir) { return all.subspan(ir.begin, ir.size()); };
    for (int i = 0; i < shape.rounds; ++i) {
        const auto ui = std::size_t(i);
        jb::Round round;
        round.load_avg_before = {0.25, 0.5, 0.125};
        round.decodes = shape.decodes;
        round.window_ns = windows[ui][1] - windows[ui][0];
        round.child_wall_ns = round.window_ns - 250'000;
        round.load_avg_after = {0.5, 0.5, 0.125};
        jb::RoundSlices s;
        s.busy = slice(jb::between(all, windows[ui][0], windows[ui][1]));
        s.covering = slice(jb::covering(all, windows[ui][0], windows[ui][1]));
        s.idle_before = slice(jb::between(all, brackets[ui][0], brackets[ui][1]));
        s.idle_after = slice(jb::between(all, brackets[ui + 1][0], brackets[ui + 1][1]));
        round.counters.emplace_back(shape.spec, jb::counterRound(s));
        round.window = windows[ui];
        round.brackets = std::array<std::array<std::int64_t, 2>, 2>{brackets[ui], brackets[ui + 1]};
        r.rounds.push_back(round);
    }
    r.tool = std::pair{std::string(jb::kToolName), std::string(jb::kToolVersion)};
    r.status = "complete";
    std::optional<double> cadence_ms;
    if (!changes_ms.empty())
        cadence_ms = jb::median(changes_ms);
    jb::ojson info = jb::ojson::object();
    info["kind"] = "rapl";
    info["zone"] = "/sys/class/powercap/intel-rapl:0";
    info["name"] = "package-0";
    info["update_cadence_ms"] = cadence_ms ? jb::ojson(*cadence_ms) : jb::ojson(nullptr);
    r.counter_info.emplace_back(shape.spec, info);
    jb::SamplerFigures f;
    f.period_s = double(shape.period_ns) / 1e9;
    f.intervals = std::int64_t(iv.size());
    f.lateness_p50_ns = 61'000;
    f.lateness_p99_ns = 480'000;
    f.lateness_max_ns = 1'210'000;
    f.update_cadence_ms = cadence_ms;
    r.sampler.emplace_back(shape.spec, f);
    if (shape.with_samples)
        r.samples.emplace_back(shape.spec, std::move(iv));
    return r;
}

}  // namespace jbtest
