#include <jb/noise/RecordNoise.h>

#include <jb/noise/RoundModel.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>

namespace jb {

namespace {

struct Pool {
    double weighted_var = 0.0;  // sum (n - 1) sd^2
    double dof = 0.0;           // sum (n - 1)
    double weighted_mean = 0.0; // sum n mean
    int n = 0;
    int brackets = 0;
    double sd_max = 0.0;
    void add(const Bracket& b)
    {
        weighted_var += (b.intervals - 1) * b.sd_w * b.sd_w;
        dof += b.intervals - 1;
        weighted_mean += b.intervals * b.mean_w;
        n += b.intervals;
        brackets += 1;
        sd_max = std::max(sd_max, b.sd_w);
    }
    double sd() const { return dof > 0 ? std::sqrt(weighted_var / dof) : 0.0; }
    double mean() const { return n > 0 ? weighted_mean / n : 0.0; }
};

// The idle time ranges of a record, in time order, without repeats (round r's bracket after
// is round r+1's bracket before). From the stored bracket times where every round has them;
// else the stretches between busy windows; else, with no rounds, everything.
std::vector<std::array<std::int64_t, 2>> idleRanges(const Record& r, const std::vector<Interval>& s)
{
    std::set<std::array<std::int64_t, 2>> seen;
    std::vector<std::array<std::int64_t, 2>> out;
    auto add = [&](std::array<std::int64_t, 2> a) {
        if (a[1] > a[0] && seen.insert(a).second)
            out.push_back(a);
    };
    const bool allBrackets = !r.rounds.empty() &&
                             std::all_of(r.rounds.begin(), r.rounds.end(), [](const Round& x) { return x.brackets.has_value(); });
    const bool allWindows = !r.rounds.empty() &&
                            std::all_of(r.rounds.begin(), r.rounds.end(), [](const Round& x) { return x.window.has_value(); });
    if (allBrackets) {
        for (const Round& x : r.rounds)
            for (const auto& b : *x.brackets)
                add(b);
    } else if (allWindows && !s.empty()) {
        std::int64_t from = s.front().t0_ns;
        for (const Round& x : r.rounds) {
            add({from, (*x.window)[0]});
            from = (*x.window)[1];
        }
        add({from, s.back().t1_ns});
    } else if (r.rounds.empty() && !s.empty()) {
        add({s.front().t0_ns, s.back().t1_ns});
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<double> powersOf(std::span<const Interval> iv)
{
    std::vector<double> p;
    p.reserve(iv.size());
    for (const Interval& i : iv)
        p.push_back(i.power_w());
    return p;
}

RecordNoise liveNoise(const std::vector<std::span<const Interval>>& brackets, const std::string& spec, double period_s)
{
    RecordNoise n;
    n.spec = spec;
    n.source = "live";
    n.period_s = period_s;
    Pool idle;
    for (const auto& b : brackets) {
        if (const auto f = bracket(b)) {
            idle.add(*f);
            n.idle_power_w.push_back(powersOf(b));
        }
    }
    n.brackets = idle.brackets;
    n.intervals = idle.n;
    n.idle_mean_w = idle.mean();
    n.idle_sd_w = idle.sd();
    n.idle_sd_max_w = idle.sd_max;
    return n;
}

Result<RecordNoise> recordNoise(const Record& r, const std::string& specIn)
{
    const std::vector<std::string> specs = r.wholeDeviceCounters();
    if (specs.empty())
        return Error{"the record has no whole-device counter (no per-round counter figures and no samples)"};
    std::string spec = specIn.empty() ? specs.front() : specIn;
    if (std::find(specs.begin(), specs.end(), spec) == specs.end()) {
        std::string list;
        for (const auto& s : specs)
            list += (list.empty() ? "" : ", ") + s;
        return Error{"the record has no counter '" + spec + "' (it has: " + list + ")"};
    }
    RecordNoise n;
    n.spec = spec;
    n.period_s = r.sample_s;
    for (const auto& [k, f] : r.sampler)
        if (k == spec && f.period_s > 0)
            n.period_s = f.period_s;

    Pool idle;
    const std::vector<Interval>* samples = r.samplesOf(spec);
    if (samples && !samples->empty()) {
        const std::span<const Interval> all(*samples);
        for (const auto& range : idleRanges(r, *samples)) {
            const IndexRange ir = between(all, range[0], range[1]);
            const auto slice = all.subspan(ir.begin, ir.size());
            if (const auto b = bracket(slice)) {
                idle.add(*b);
                n.idle_power_w.push_back(powersOf(slice));
            }
        }
        if (idle.brackets > 0)
            n.source = "samples";
    }
    if (idle.brackets == 0) {
        // Stored figures: each distinct bracket once (round r's after is round r+1's before).
        std::vector<Bracket> seen;
        for (const Round& x : r.rounds) {
            const CounterRound* c = x.counter(spec);
            if (!c)
                continue;
            for (const auto& b : {c->idle_before, c->idle_after})
                if (b && b->intervals >= 2 && std::find(seen.begin(), seen.end(), *b) == seen.end()) {
                    seen.push_back(*b);
                    idle.add(*b);
                }
        }
        n.idle_power_w.clear();
        if (idle.brackets > 0)
            n.source = "brackets";
    }
    if (idle.brackets == 0)
        return Error{"the record has no idle bracket of two or more intervals for '" + spec + "'"};
    n.brackets = idle.brackets;
    n.intervals = idle.n;
    n.idle_mean_w = idle.mean();
    n.idle_sd_w = idle.sd();
    n.idle_sd_max_w = idle.sd_max;

    std::vector<double> marg, perK, win, jpd;
    Pool busy;
    for (const Round& x : r.rounds) {
        const CounterRound* c = x.counter(spec);
        if (x.window_ns > 0) {
            win.push_back(double(x.window_ns) / 1e9);
            if (r.k > 0)
                perK.push_back(double(x.window_ns) / 1e9 / double(r.k));
        }
        if (!c || !c->has_marginal || !c->busy || !c->idle_before || !c->idle_after)
            continue;
        n.rounds_with_marginal += 1;
        marg.push_back(c->busy->mean_w - (c->idle_before->mean_w + c->idle_after->mean_w) / 2.0);
        busy.add(*c->busy);
        if (c->ratio)
            n.ratios.push_back(*c->ratio);
        if (x.decodes > 0)
            jpd.push_back(c->marginal_nj / 1e9 / double(x.decodes));
    }
    if (!marg.empty())
        n.marginal_w = median(marg);
    if (busy.brackets > 0)
        n.busy_sd_w = busy.sd();
    if (!perK.empty())
        n.busy_s_per_k = median(perK);
    if (!win.empty())
        n.window_s = median(win);
    if (!jpd.empty()) {
        const double med = median(jpd);
        n.j_per_decode = med;
        if (jpd.size() >= 3 && med != 0.0) {
            std::vector<double> dev;
            for (double v : jpd)
                dev.push_back(std::abs(v - med));
            n.j_per_decode_rel_spread = 1.4826 * median(dev) / std::abs(med);
        }
    }
    return n;
}

PlanInputs planInputsFrom(const RecordNoise& n, const Record& r)
{
    PlanInputs in;
    in.idle_sd_w = n.idle_sd_w;
    in.busy_sd_w = n.busy_sd_w.value_or(0.0);
    in.marginal_w = n.marginal_w.value_or(0.0);
    in.period_s = n.period_s;
    in.busy_s_per_k = n.busy_s_per_k.value_or(0.0);
    if (!n.idle_power_w.empty())
        in.allan = allanDeviationPooled(n.idle_power_w, n.period_s);
    // The observed spread holds the counter noise at the record's own settings; what is left
    // over is the workload's, carried into the plan as a floor on the per-round spread.
    if (n.j_per_decode_rel_spread && n.window_s && in.marginal_w > 0 && in.period_s > 0) {
        const int nIdle = intervalsInside(r.idle_s, in.period_s);
        const double noiseRel = nIdle >= 1 ? roundRelativeSd(in, nIdle, *n.window_s) : 0.0;
        const double obs = *n.j_per_decode_rel_spread;
        if (std::isfinite(noiseRel) && obs > noiseRel)
            in.extra_rel_sd = std::sqrt(obs * obs - noiseRel * noiseRel);
    }
    return in;
}

}  // namespace jb
