#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jb {

std::optional<Bracket> bracket(std::span<const Interval> iv)
{
    if (iv.size() < 2)
        return std::nullopt;
    Bracket b;
    b.intervals = int(iv.size());
    std::vector<double> p;
    p.reserve(iv.size());
    int run = 0;
    for (const Interval& s : iv) {
        p.push_back(s.power_w());
        const bool adv = s.nj > 0;
        b.advanced += adv ? 1 : 0;
        run = adv ? run + 1 : 0;
        b.longest_run = std::max(b.longest_run, run);
    }
    b.span_ns = iv.back().t1_ns - iv.front().t0_ns;
    b.mean_w = mean(p);
    b.sd_w = sampleSd(p);
    return b;
}

std::optional<Verdict> verdict(std::optional<double> ratio)
{
    if (!ratio)
        return std::nullopt;
    const double r = *ratio;
    if (r >= kCleanRatio)
        return Verdict::Clean;
    if (r >= kRelativeOnlyRatio)
        return Verdict::RelativeOnly;
    if (r >= kNoisyRatio)
        return Verdict::Noisy;
    return Verdict::Unusable;
}

std::string verdictThresholdsText()
{
    return "ratio = marginal power / idle standard deviation\n"
           "clean: ratio >= 10 (absolute figures can be trusted)\n"
           "relative-only: 3 <= ratio < 10 (compare like with like only)\n"
           "noisy: 1 <= ratio < 3\n"
           "unusable: ratio < 1 (the signal is below the idle noise)";
}

CounterRound counterRound(const RoundSlices& s)
{
    CounterRound r;
    r.busy = bracket(s.busy);
    r.idle_before = bracket(s.idle_before);
    r.idle_after = bracket(s.idle_after);
    for (const Interval& i : s.covering)
        r.window_nj += i.nj;
    r.covered_ns = s.covering.empty() ? 0 : s.covering.back().t1_ns - s.covering.front().t0_ns;
    setMarginal(r);
    return r;
}

void setMarginal(CounterRound& r)
{
    r.has_marginal = false;
    r.marginal_nj = 0.0;
    r.ratio.reset();
    r.verdict.reset();
    if (r.busy && r.idle_before && r.idle_after) {
        const double idle_w = (r.idle_before->mean_w + r.idle_after->mean_w) / 2.0;
        const double idle_sd = std::max(r.idle_before->sd_w, r.idle_after->sd_w);
        const double marg_w = r.busy->mean_w - idle_w;
        r.has_marginal = true;
        r.marginal_nj = double(r.window_nj) - idle_w * double(r.covered_ns);
        if (idle_sd > 0)
            r.ratio = marg_w / idle_sd;
        r.verdict = verdict(r.ratio);
    }
}

IndexRange between(std::span<const Interval> all, std::int64_t t0, std::int64_t t1)
{
    // Sorted and contiguous: t0_i and t1_i both rise with i.
    auto first = std::lower_bound(all.begin(), all.end(), t0,
                                  [](const Interval& s, std::int64_t t) { return s.t0_ns < t; });
    auto last = std::upper_bound(first, all.end(), t1,
                                 [](std::int64_t t, const Interval& s) { return t < s.t1_ns; });
    return {std::size_t(first - all.begin()), std::size_t(last - all.begin())};
}

IndexRange covering(std::span<const Interval> all, std::int64_t t0, std::int64_t t1)
{
    auto first = std::upper_bound(all.begin(), all.end(), t0,
                                  [](std::int64_t t, const Interval& s) { return t < s.t1_ns; });
    auto last = std::lower_bound(first, all.end(), t1,
                                 [](const Interval& s, std::int64_t t) { return s.t0_ns < t; });
    return {std::size_t(first - all.begin()), std::size_t(last - all.begin())};
}

double median(std::vector<double> v)
{
    return quantile(std::move(v), 0.5);
}

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * double(v.size() - 1);
    const auto lo = std::size_t(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

double mean(std::span<const double> v)
{
    if (v.empty())
        return std::nan("");
    // Kahan-compensated sum: long idle brackets are summed without drift.
    double sum = 0, c = 0;
    for (double x : v) {
        const double y = x - c;
        const double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum / double(v.size());
}

double sampleSd(std::span<const double> v)
{
    if (v.size() < 2)
        return 0.0;
    const double m = mean(v);
    double ss = 0;
    for (double x : v)
        ss += (x - m) * (x - m);
    return std::sqrt(ss / double(v.size() - 1));
}

std::vector<int> madOutliers(std::span<const double> v, double threshold)
{
    std::vector<int> out;
    if (v.size() < 3)
        return out;
    const double med = median({v.begin(), v.end()});
    std::vector<double> dev;
    dev.reserve(v.size());
    for (double x : v)
        dev.push_back(std::abs(x - med));
    const double mad = median(dev);
    if (!(mad > 0))
        return out;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (0.6745 * std::abs(v[i] - med) / mad > threshold)
            out.push_back(int(i));
    return out;
}

int CounterSummary::count(std::optional<Verdict> v) const
{
    if (!v)
        return no_verdict;
    switch (*v) {
    case Verdict::Clean:
        return clean;
    case Verdict::RelativeOnly:
        return relative_only;
    case Verdict::Noisy:
        return noisy;
    case Verdict::Unusable:
        return unusable;
    }
    return no_verdict;
}

void CounterSummary::add(std::optional<Verdict> v)
{
    int* n = &no_verdict;
    if (v)
        switch (*v) {
        case Verdict::Clean:
            n = &clean;
            break;
        case Verdict::RelativeOnly:
            n = &relative_only;
            break;
        case Verdict::Noisy:
            n = &noisy;
            break;
        case Verdict::Unusable:
            n = &unusable;
            break;
        }
    ++*n;
}

CounterSummary summarize(std::span<const RoundForSummary> rounds)
{
    CounterSummary s;
    std::vector<double> jpd;
    std::vector<int> jpdRound;
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        const CounterRound* c = rounds[i].counter;
        if (!c || !c->has_marginal)
            continue;
        ++s.rounds;
        s.add(c->verdict);
        if (rounds[i].decodes > 0) {
            jpd.push_back(c->marginal_nj / 1e9 / double(rounds[i].decodes));
            jpdRound.push_back(int(i));
        }
    }
    if (!jpd.empty()) {
        s.median_j_per_decode = median(jpd);
        s.min_j_per_decode = *std::min_element(jpd.begin(), jpd.end());
        s.max_j_per_decode = *std::max_element(jpd.begin(), jpd.end());
        for (int k : madOutliers(jpd))
            s.outlier_rounds.push_back(jpdRound[std::size_t(k)]);
    }
    return s;
}

}  // namespace jb
