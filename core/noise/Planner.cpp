#include <jb/noise/Planner.h>

#include <jb/base/Text.h>

#include <jb/noise/NoiseMath.h>
#include <jb/noise/RoundModel.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace jb {

namespace {

// Candidate values lo..hi: every value up to lo + dense, then steps of `growth`.
std::vector<int> candidates(int lo, int hi, int dense, double growth)
{
    std::vector<int> out;
    for (int v = lo; v <= hi && v < lo + dense; ++v)
        out.push_back(v);
    for (double v = double(lo + dense); v <= double(hi); v = std::max(v + 1.0, v * growth))
        out.push_back(int(v));
    if (hi >= lo && (out.empty() || out.back() != hi))
        out.push_back(hi);
    return out;
}

RoundModel modelAt(const PlanInputs& in, int nIdle, int nBusy)
{
    RoundModel m;
    m.marginal_w = in.marginal_w;
    m.idle_sd_w = in.idle_sd_w;
    m.busy_sd_w = in.busy_sd_w > 0.0 ? in.busy_sd_w : in.idle_sd_w;
    m.idle_intervals = nIdle;
    m.busy_intervals = nBusy;
    return m;
}

}  // namespace

PlanCheck checkPlanInputs(const PlanInputs& in)
{
    auto bad = [](std::string e) { return PlanCheck{false, std::move(e)}; };
    if (!(in.idle_sd_w >= 0.0) || !std::isfinite(in.idle_sd_w))
        return bad("idle sd must be a number >= 0 W");
    if (!std::isfinite(in.busy_sd_w))
        return bad("busy sd must be a finite number");
    if (!std::isfinite(in.marginal_w))
        return bad("marginal power must be a finite number");
    if (!(in.period_s > 0.0) || !std::isfinite(in.period_s))
        return bad("sample period must be > 0 s");
    if (!(in.busy_s_per_k > 0.0) || !std::isfinite(in.busy_s_per_k))
        return bad("busy seconds per k must be > 0");
    if (!verdictThreshold(in.target))
        return bad(std::string("target must be clean, relative-only or noisy, not '") + verdictName(in.target) + "'");
    if (!(in.confidence > 0.5 && in.confidence < 1.0))
        return bad("confidence must lie between 0.5 and 1 (both excluded)");
    if (!(in.ci_halfwidth > 0.0))
        return bad("CI half-width must be > 0");
    if (!(in.ci_level > 0.0 && in.ci_level < 1.0))
        return bad("CI level must lie between 0 and 1 (both excluded)");
    if (in.min_idle_intervals < 2)
        return bad("an idle bracket needs at least 2 intervals (min_idle_intervals)");
    if (in.min_rounds < 1 || in.max_rounds < in.min_rounds)
        return bad("rounds limits must satisfy 1 <= min_rounds <= max_rounds");
    if (!(in.extra_rel_sd >= 0.0))
        return bad("extra relative sd must be >= 0");
    if (!(in.max_idle_s > 0.0) || !(in.max_busy_s > 0.0))
        return bad("search limits must be > 0 s");
    return {};
}

double roundRelativeSd(const PlanInputs& in, int idle_intervals, double busy_s)
{
    if (!(in.marginal_w > 0.0) || !(busy_s > 0.0) || idle_intervals < 1)
        return std::nan("");
    const double p = in.period_s;
    const double sb = in.busy_sd_w > 0.0 ? in.busy_sd_w : in.idle_sd_w;
    const double si = in.idle_sd_w;
    // Intervals overlapping the window: at most floor(window / period) + 2.
    const double nCov = std::floor(busy_s / p + 1e-9) + 2.0;
    const double varE = p * p * (nCov * sb * sb + nCov * nCov * si * si / (2.0 * idle_intervals));
    return std::sqrt(varE) / (in.marginal_w * busy_s);
}

int roundsForMedianCi(double rel_sd, double halfwidth, double level)
{
    if (!(rel_sd >= 0.0) || !(halfwidth > 0.0))
        return 1;
    const double z = noise::normalQuantile(0.5 + level / 2.0);
    constexpr double kMedianEfficiency = 1.2533141373155003;  // sqrt(pi / 2)
    const double n = std::ceil(std::pow(z * kMedianEfficiency * rel_sd / halfwidth, 2.0) - 1e-9);
    return int(std::clamp(n, 1.0, 1e9));
}

PlanOutcome planRun(const PlanInputs& in)
{
    PlanOutcome o;
    if (const PlanCheck c = checkPlanInputs(in); !c.ok) {
        o.message = c.error;
        return o;
    }
    const double T = *verdictThreshold(in.target);
    const double p = in.period_s;
    o.threshold = T;
    o.settle_s = in.settle_s >= 0.0 ? in.settle_s : 2.0 * p;
    o.needed_marginal_w = T * in.idle_sd_w;
    o.needed_idle_sd_w = in.marginal_w > 0.0 ? in.marginal_w / T : 0.0;

    if (!(in.idle_sd_w > 0.0)) {
        o.message = "the idle sd is 0: the ratio is undefined and the reference gives no verdict "
                    "(a counter that never moves, or too coarse for its period)";
        return o;
    }
    o.asymptotic_ratio = in.marginal_w / in.idle_sd_w;

    if (!(in.marginal_w > T * in.idle_sd_w)) {
        o.message = "unreachable: marginal " + formatted("%.4g", in.marginal_w) + " W over idle sd " +
                    formatted("%.4g", in.idle_sd_w) + " W is a ratio of " + formatted("%.3g", o.asymptotic_ratio) +
                    ", below " + verdictName(in.target) + " (" + formatted("%g", T) +
                    ") however long the brackets and rounds: the ratio is a power ratio. Needed: idle sd "
                    "below " + formatted("%.4g", o.needed_idle_sd_w) + " W (a quieter machine or counter), or a "
                    "marginal power above " + formatted("%.4g", o.needed_marginal_w) + " W";
        // The Allan curve says how far averaging over a longer sample period lowers the sd.
        for (const AllanPoint& a : in.allan) {
            if (a.m > 1 && a.adev_w > 0.0 && in.marginal_w > T * a.adev_w * 1.2) {
                o.suggested_sample_s = a.tau_s;
                o.message += "; the idle Allan deviation falls to " + formatted("%.4g", a.adev_w) + " W at " +
                             formatted("%g", a.tau_s) + " s, so a sample period near " + formatted("%g", a.tau_s * 1000.0) +
                             " ms may reach it (re-measure the idle noise there)";
                break;
            }
        }
        return o;
    }

    const int kMin = int(std::ceil(std::max(windowHolding(2, p), in.min_busy_s) / in.busy_s_per_k - 1e-9));
    const int kMax = int(std::floor(in.max_busy_s / in.busy_s_per_k + 1e-9));
    const int nIdleMax = intervalsInside(in.max_idle_s, p);
    const int minIdle = std::max({2, in.min_idle_intervals, int(std::ceil(in.min_idle_s / p - 1e-9))});
    if (kMax < std::max(kMin, 1) || nIdleMax < minIdle) {
        o.message = "unreachable within the limits: a busy window must hold 2 sample intervals (" +
                    formatted("%g", windowHolding(2, p)) + " s) and an idle bracket " + std::to_string(minIdle) + " (" +
                    formatted("%g", windowHolding(minIdle, p)) + " s), within " +
                    formatted("%g", in.max_busy_s) + " s and " + formatted("%g", in.max_idle_s) + " s";
        return o;
    }

    struct Best {
        bool found = false;
        double total_s = 0;
        int k = 0, nIdle = 0, rounds = 0;
        bool ciMet = false;
        double relSd = 0, halfwidth = 0, prob = 0;
    } best;

    const double z = noise::normalQuantile(0.5 + in.ci_level / 2.0);
    // No plan at k can take less than min_rounds busy windows plus their shortest brackets:
    // once that floor passes the best total, larger k cannot win.
    const double floorIdle_s = (in.min_rounds + 1) * windowHolding(minIdle, p);
    const std::vector<int> ks = candidates(std::max(kMin, 1), kMax, 64, 1.08);
    // The probability rises with k (a longer window steadies the busy mean): find the first
    // k at which even the longest brackets suffice by bisection, and start there.
    auto feasible = [&](int k) {
        return verdictProbability(modelAt(in, nIdleMax, intervalsInside(k * in.busy_s_per_k, p)), T) >= in.confidence;
    };
    std::size_t first = 0;
    if (!feasible(ks.back())) {
        first = ks.size();
    } else {
        std::size_t lo = 0, hi = ks.size() - 1;  // feasible(ks[hi]) holds
        if (feasible(ks[lo]))
            hi = lo;
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            (feasible(ks[mid]) ? hi : lo) = mid;
        }
        first = hi;
    }
    for (std::size_t ki = first; ki < ks.size(); ++ki) {
        const int k = ks[ki];
        const double busy_s = k * in.busy_s_per_k;
        if (best.found && floorIdle_s + in.min_rounds * (busy_s + o.settle_s) > best.total_s)
            break;
        const int nBusy = intervalsInside(busy_s, p);
        auto prob = [&](int nIdle) { return verdictProbability(modelAt(in, nIdle, nBusy), T); };
        // Smallest idle count reaching the confidence: the probability rises with the count
        // (where marginal > T sd), so gallop up, then bisect.
        int lo = minIdle - 1, hi = minIdle;
        while (hi < nIdleMax && prob(hi) < in.confidence) {
            lo = hi;
            hi = std::min(nIdleMax, hi * 2);
        }
        if (hi == nIdleMax && prob(hi) < in.confidence)
            continue;  // not even the longest brackets do at this k
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            (prob(mid) < in.confidence ? lo : hi) = mid;
        }
        const int nIdleMin = hi;
        // Longer brackets than the least also shrink the idle mean's error in the energy,
        // which may save rounds: try a few.
        for (int nIdle : candidates(nIdleMin, std::min(nIdleMax, nIdleMin * 8 + 16), 8, 1.25)) {
            const double idle_s = windowHolding(nIdle, p);
            const double relSd = std::hypot(roundRelativeSd(in, nIdle, busy_s), in.extra_rel_sd);
            int rounds = std::max(in.min_rounds, roundsForMedianCi(relSd, in.ci_halfwidth, in.ci_level));
            const bool ciMet = rounds <= in.max_rounds;
            rounds = std::min(rounds, in.max_rounds);
            const double total = (rounds + 1) * idle_s + rounds * (busy_s + o.settle_s);
            // Prefer plans that meet the CI; among those, the shortest.
            const bool better = !best.found || (ciMet && !best.ciMet) ||
                                (ciMet == best.ciMet && total < best.total_s - 1e-9);
            if (better) {
                best.found = true;
                best.total_s = total;
                best.k = k;
                best.nIdle = nIdle;
                best.rounds = rounds;
                best.ciMet = ciMet;
                best.relSd = relSd;
                best.halfwidth = z * 1.2533141373155003 * relSd / std::sqrt(double(rounds));
                best.prob = prob(nIdle);
            }
        }
    }
    if (!best.found) {
        o.message = "unreachable within the limits: " + std::string(verdictName(in.target)) + " in " + formatted("%g", in.confidence * 100.0) +
                    "% of rounds needs idle brackets longer than " + formatted("%g", in.max_idle_s) +
                    " s or busy windows longer than " + formatted("%g", in.max_busy_s) +
                    " s (marginal/idle sd is only " + formatted("%.3g", o.asymptotic_ratio) + " against " + formatted("%g", T) + ")";
        return o;
    }

    o.reachable = true;
    o.k = best.k;
    o.busy_s = best.k * in.busy_s_per_k;
    o.busy_intervals = intervalsInside(o.busy_s, p);
    o.idle_intervals = best.nIdle;
    o.idle_s = windowHolding(best.nIdle, p);
    o.rounds = best.rounds;
    o.total_s = best.total_s;
    o.round_probability = best.prob;
    o.rel_sd_per_round = best.relSd;
    o.ci_halfwidth = best.halfwidth;
    o.ci_met = best.ciMet;
    const RoundModel m = modelAt(in, o.idle_intervals, o.busy_intervals);
    o.p_clean = verdictProbability(m, kCleanRatio);
    o.p_relative_only = verdictProbability(m, kRelativeOnlyRatio);
    o.p_noisy = verdictProbability(m, kNoisyRatio);
    o.message = "idle " + formatted("%g", o.idle_s) + " s, k " + std::to_string(o.k) + ", " + std::to_string(o.rounds) +
                " rounds: " + verdictName(in.target) + " in " + formatted("%.1f", o.round_probability * 100.0) +
                "% of rounds expected, " + formatted("%.0f", o.total_s) + " s in all";
    if (!o.ci_met)
        o.message += " (the median's CI stays wider than asked: " + std::to_string(in.max_rounds) +
                     " rounds at most)";
    return o;
}

}  // namespace jb
