#include <jb/stats/Paired.h>

#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace jb {

std::uint64_t uniformIndex(std::mt19937_64& rng, std::uint64_t n)
{
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
        const std::uint64_t x = rng();
        if (x >= threshold)
            return x % n;
    }
}

namespace {

// Ranks 1..n of |d| (ties share their average rank), in the order of `absd`.
std::vector<double> averageRanks(const std::vector<double>& absd)
{
    std::vector<std::size_t> idx(absd.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return absd[a] < absd[b]; });
    std::vector<double> rank(absd.size());
    for (std::size_t i = 0; i < idx.size();) {
        std::size_t j = i;
        while (j + 1 < idx.size() && absd[idx[j + 1]] == absd[idx[i]])
            ++j;
        const double r = (double(i + 1) + double(j + 1)) / 2.0;
        for (std::size_t k = i; k <= j; ++k)
            rank[idx[k]] = r;
        i = j + 1;
    }
    return rank;
}

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

SignedRank wilcoxonSignedRank(std::span<const double> differences)
{
    SignedRank out;
    std::vector<double> d, absd;
    for (double x : differences) {
        if (x == 0.0) {
            ++out.zeros;
            continue;
        }
        d.push_back(x);
        absd.push_back(std::fabs(x));
    }
    out.n = int(d.size());
    if (d.empty())
        return out;
    const std::vector<double> rank = averageRanks(absd);
    for (std::size_t i = 0; i < d.size(); ++i)
        (d[i] > 0 ? out.w_plus : out.w_minus) += rank[i];
    const double total = out.w_plus + out.w_minus;  // n(n+1)/2
    out.rank_biserial = (out.w_plus - out.w_minus) / total;

    if (out.n <= kExactSignedRankPairs) {
        // Doubled ranks are integers even with ties: the distribution of 2 W+ under the null
        // (each sign + or - with probability 1/2) by dynamic programming over the pairs.
        std::vector<int> r2(rank.size());
        int sum2 = 0;
        for (std::size_t i = 0; i < rank.size(); ++i) {
            r2[i] = int(std::lround(2.0 * rank[i]));
            sum2 += r2[i];
        }
        std::vector<double> p(std::size_t(sum2) + 1, 0.0);
        p[0] = 1.0;
        int reach = 0;
        for (int r : r2) {
            for (int s = reach; s >= 0; --s) {
                if (p[std::size_t(s)] == 0.0)
                    continue;
                const double half = p[std::size_t(s)] / 2.0;
                p[std::size_t(s)] = half;
                p[std::size_t(s + r)] += half;
            }
            reach += r;
        }
        const int w2 = int(std::lround(2.0 * out.w_plus));
        double lower = 0.0, upper = 0.0;
        for (int s = 0; s <= sum2; ++s) {
            if (s <= w2)
                lower += p[std::size_t(s)];
            if (s >= w2)
                upper += p[std::size_t(s)];
        }
        out.p_two_sided = std::min(1.0, 2.0 * std::min(lower, upper));
        out.exact = true;
        return out;
    }

    const double n = double(out.n);
    double ties = 0.0;  // sum of t^3 - t over groups of tied |d|
    {
        std::vector<double> sorted = rank;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 0; i < sorted.size();) {
            std::size_t j = i;
            while (j + 1 < sorted.size() && sorted[j + 1] == sorted[i])
                ++j;
            const double t = double(j - i + 1);
            ties += t * t * t - t;
            i = j + 1;
        }
    }
    const double mu = n * (n + 1.0) / 4.0;
    const double var = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - ties / 48.0;
    if (!(var > 0)) {
        out.p_two_sided = 1.0;
        return out;
    }
    const double dev = std::max(0.0, std::fabs(out.w_plus - mu) - 0.5);
    out.p_two_sided = std::min(1.0, 2.0 * (1.0 - normalCdf(dev / std::sqrt(var))));
    return out;
}

PairedComparison comparePaired(std::span<const double> base, std::span<const double> other, int resamples,
                               std::uint64_t seed)
{
    PairedComparison c;
    c.resamples = resamples;
    c.seed = seed;
    if (base.size() != other.size()) {
        c.problem = "the two workloads have " + std::to_string(base.size()) + " and " +
            std::to_string(other.size()) + " rounds: a paired comparison needs one of each per block";
        return c;
    }
    c.pairs = int(base.size());
    if (base.empty()) {
        c.problem = "no block gave a round of both workloads";
        return c;
    }
    const std::vector<double> vb(base.begin(), base.end()), vo(other.begin(), other.end());
    c.median_base = median(vb);
    c.median_other = median(vo);
    c.difference = *c.median_other - *c.median_base;
    std::vector<double> diffs(vb.size());
    for (std::size_t i = 0; i < vb.size(); ++i)
        diffs[i] = vo[i] - vb[i];
    c.test = wilcoxonSignedRank(diffs);
    const bool ratio_ok = *c.median_base > 0;
    if (ratio_ok)
        c.ratio = *c.median_other / *c.median_base;
    else
        c.problem = "the baseline's median is not positive: the ratio means nothing";
    if (resamples <= 0) {
        if (c.problem.empty())
            c.problem = "no bootstrap resamples asked for: no confidence interval";
        return c;
    }
    std::mt19937_64 rng(seed);
    std::vector<double> ratios, differences, sb(vb.size()), so(vo.size());
    ratios.reserve(std::size_t(resamples));
    differences.reserve(std::size_t(resamples));
    for (int i = 0; i < resamples; ++i) {
        for (std::size_t k = 0; k < vb.size(); ++k) {
            const std::size_t j = std::size_t(uniformIndex(rng, vb.size()));
            sb[k] = vb[j];
            so[k] = vo[j];
        }
        const double mb = median(sb), mo = median(so);
        differences.push_back(mo - mb);
        if (mb > 0)
            ratios.push_back(mo / mb);
        else
            ++c.discarded_resamples;
    }
    c.difference_ci_low = quantile(differences, 0.025);
    c.difference_ci_high = quantile(differences, 0.975);
    if (!ratio_ok)
        return c;
    if (c.discarded_resamples > 0) {
        c.problem = "in " + std::to_string(c.discarded_resamples) + " of " + std::to_string(resamples) +
            " bootstrap draws the baseline's median was not positive: the ratio has no confidence interval";
        return c;
    }
    c.ratio_ci_low = quantile(ratios, 0.025);
    c.ratio_ci_high = quantile(ratios, 0.975);
    return c;
}

double normalQuantile(double p)
{
    if (!(p > 0 && p < 1))
        return std::nan("");
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double low = 0.02425;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low)
        return -normalQuantile(1 - p);
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

std::optional<BlocksPlan> blocksToResolve(double cv, double ratio_delta, double confidence, double power)
{
    if (!(std::isfinite(cv) && cv > 0) || !(ratio_delta > 0) || !(confidence > 0 && confidence < 1) ||
        !(power > 0 && power < 1))
        return std::nullopt;
    BlocksPlan p;
    p.per_block_sd = std::sqrt(2.0) * cv;
    const double z = normalQuantile(1 - (1 - confidence) / 2) + normalQuantile(power);
    const double n = std::pow(z * p.per_block_sd / std::log1p(ratio_delta), 2.0) / 0.955;
    const double needed = std::ceil(n - 1e-9);
    p.blocks = needed < 6 ? 6 : needed > 1e6 ? 1000000 : int(needed);
    p.floor_applied = needed < 6;
    return p;
}

std::vector<std::vector<int>> williamsRows(int children)
{
    std::vector<std::vector<int>> rows;
    if (children <= 0)
        return rows;
    // First row 0, 1, n-1, 2, n-2, ...; row r adds r to each entry, modulo n.
    std::vector<int> first;
    first.push_back(0);
    for (int k = 1, up = 1, down = children - 1; int(first.size()) < children; ++k)
        first.push_back(k % 2 == 1 ? up++ : down--);
    for (int r = 0; r < children; ++r) {
        std::vector<int> row;
        for (int x : first)
            row.push_back((x + r) % children);
        rows.push_back(std::move(row));
    }
    if (children % 2 == 1 && children > 1) {
        // An odd n needs the mirror rows too for the carry-over balance.
        for (int r = 0; r < children; ++r)
            rows.push_back(std::vector<int>(rows[std::size_t(r)].rbegin(), rows[std::size_t(r)].rend()));
    }
    return rows;
}

std::vector<std::vector<int>> balancedOrder(int children, int blocks, std::uint64_t seed)
{
    std::vector<std::vector<int>> order;
    if (children <= 0 || blocks <= 0)
        return order;
    const std::vector<std::vector<int>> rows = williamsRows(children);
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> cycle(rows.size());
    while (int(order.size()) < blocks) {
        std::iota(cycle.begin(), cycle.end(), 0);
        // Fisher-Yates with the portable index above.
        for (std::size_t i = cycle.size(); i > 1; --i)
            std::swap(cycle[i - 1], cycle[std::size_t(uniformIndex(rng, i))]);
        for (std::size_t r : cycle) {
            if (int(order.size()) == blocks)
                break;
            order.push_back(rows[r]);
        }
    }
    return order;
}

}  // namespace jb
