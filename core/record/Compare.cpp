#include <jb/record/Compare.h>

#include <jb/record/RecordJson.h>
#include <jb/stats/Paired.h>

#include <random>

namespace jb {

namespace {

double resampledMedian(const std::vector<double>& v, std::mt19937_64& rng, std::vector<double>& scratch)
{
    scratch.resize(v.size());
    for (double& x : scratch)
        x = v[uniformIndex(rng, v.size())];
    return median(scratch);
}

std::vector<double> values(const std::vector<RoundJ>& r)
{
    std::vector<double> v;
    v.reserve(r.size());
    for (const RoundJ& x : r)
        v.push_back(x.j_per_decode);
    return v;
}

ojson side(const std::vector<RoundJ>& rounds, const std::optional<double>& med, const CounterSummary& s)
{
    ojson o = ojson::object();
    ojson list = ojson::array();
    for (const RoundJ& r : rounds)
        list.push_back(ojson{{"round", r.round}, {"j_per_decode", r.j_per_decode}});
    o["median_j_per_decode"] = med ? ojson(*med) : ojson(nullptr);
    o["rounds"] = std::move(list);
    o["summary"] = summaryToJson(s);
    return o;
}

}  // namespace

std::vector<RoundJ> jPerDecode(const Record& r, const std::string& counter)
{
    std::vector<RoundJ> out;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const CounterRound* c = r.rounds[i].counter(counter);
        if (c && c->has_marginal && r.rounds[i].decodes > 0)
            out.push_back({int(i), c->marginal_nj / 1e9 / double(r.rounds[i].decodes)});
    }
    return out;
}

BootstrapRatios bootstrapRatioOfMedians(const std::vector<double>& a, const std::vector<double>& b,
                                        int resamples, std::uint64_t seed)
{
    BootstrapRatios out;
    if (a.empty() || b.empty() || resamples <= 0)
        return out;
    std::mt19937_64 rng(seed);
    std::vector<double> scratch;
    out.ratios.reserve(std::size_t(resamples));
    for (int i = 0; i < resamples; ++i) {
        const double ma = resampledMedian(a, rng, scratch);
        const double mb = resampledMedian(b, rng, scratch);
        if (mb > 0)
            out.ratios.push_back(ma / mb);
        else
            ++out.discarded;
    }
    return out;
}

Comparison compareRoundSets(std::vector<RoundJ> a, std::vector<RoundJ> b, const std::string& counter,
                            int resamples, std::uint64_t seed)
{
    Comparison c;
    c.counter = counter;
    c.resamples = resamples;
    c.seed = seed;
    c.a = std::move(a);
    c.b = std::move(b);
    const std::vector<double> va = values(c.a), vb = values(c.b);
    if (!va.empty())
        c.median_a = median(va);
    if (!vb.empty())
        c.median_b = median(vb);
    if (va.empty() || vb.empty()) {
        c.problem = std::string(va.empty() ? "A" : "B") +
            " has no round with a marginal energy on counter '" + counter + "' and at least one decode";
        return c;
    }
    if (!(*c.median_b > 0)) {
        c.problem = "B's median energy per decode is not positive (" + dumpJson(ojson(*c.median_b), -1) +
            " J): the ratio means nothing";
        return c;
    }
    c.ratio = *c.median_a / *c.median_b;
    if (resamples <= 0) {
        c.problem = "no bootstrap resamples asked for: no confidence interval";
        return c;
    }
    const BootstrapRatios boot = bootstrapRatioOfMedians(va, vb, resamples, seed);
    c.discarded_resamples = boot.discarded;
    if (boot.discarded > 0) {
        c.problem = "in " + std::to_string(boot.discarded) + " of " + std::to_string(resamples) +
            " bootstrap draws B's median was not positive: the ratio has no confidence interval";
        return c;
    }
    c.ci_low = quantile(boot.ratios, 0.025);
    c.ci_high = quantile(boot.ratios, 0.975);
    return c;
}

Comparison compareRecords(const Record& a, const Record& b, const std::string& counter, int resamples,
                          std::uint64_t seed)
{
    Comparison c = compareRoundSets(jPerDecode(a, counter), jPerDecode(b, counter), counter, resamples, seed);
    c.summary_a = summaryOf(a, counter);
    c.summary_b = summaryOf(b, counter);
    return c;
}

ojson comparisonToJson(const Comparison& c)
{
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); };
    ojson o = ojson::object();
    o["counter"] = c.counter;
    o["ratio"] = num(c.ratio);
    o["ci95"] = c.ci_low && c.ci_high ? ojson::array({*c.ci_low, *c.ci_high}) : ojson(nullptr);
    o["a"] = side(c.a, c.median_a, c.summary_a);
    o["b"] = side(c.b, c.median_b, c.summary_b);
    o["resamples"] = c.resamples;
    o["seed"] = c.seed;
    o["discarded_resamples"] = c.discarded_resamples;
    if (!c.problem.empty())
        o["problem"] = c.problem;
    return o;
}

}  // namespace jb
