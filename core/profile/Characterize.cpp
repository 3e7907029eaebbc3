#include <jb/profile/Characterize.h>

#include <jb/base/Clock.h>
#include <jb/base/Text.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <thread>
#include <utility>

namespace jb {

namespace {

using Read = std::pair<std::int64_t, std::int64_t>;  // (t_ns, nJ)

// Stats' median, 0 for none (a figure characterize reports, where it has no intervals).
double medianOr0(const std::vector<double>& v)
{
    return v.empty() ? 0 : median(v);
}

std::string isoNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// Reads the counter on its own thread as fast as poll_ms allows.
class Poller {
public:
    Poller(EnergyCounter& c, double poll_ms) : c_(c), poll_ns_(std::int64_t(poll_ms * 1e6)) {}
    ~Poller() { stop(); }
    void start()
    {
        thread_ = std::thread([this] { run(); });
    }
    void stop()
    {
        quit_.store(true);
        if (thread_.joinable())
            thread_.join();
    }
    std::vector<Read> reads() const
    {
        std::lock_guard lock(m_);
        return reads_;
    }
    // The reads from the i-th on.
    std::vector<Read> readsFrom(std::size_t i) const
    {
        std::lock_guard lock(m_);
        return i < reads_.size() ? std::vector<Read>(reads_.begin() + std::ptrdiff_t(i), reads_.end()) : std::vector<Read>{};
    }
    std::optional<std::string> error() const
    {
        std::lock_guard lock(m_);
        return error_;
    }

private:
    void run()
    {
        std::int64_t next = monotonicNs();
        while (!quit_.load()) {
            const std::int64_t before = monotonicNs();
            auto v = c_.readNj();
            const std::int64_t after = monotonicNs();
            {
                std::lock_guard lock(m_);
                if (!v) {
                    error_ = v.error();
                    return;
                }
                reads_.emplace_back(before + (after - before) / 2, *v);
            }
            next += poll_ns_;
            const std::int64_t now = monotonicNs();
            if (next < now)
                next = now;
            else
                std::this_thread::sleep_for(std::chrono::nanoseconds(next - now));
        }
    }

    EnergyCounter& c_;
    std::int64_t poll_ns_;
    std::thread thread_;
    std::atomic<bool> quit_{false};
    mutable std::mutex m_;
    std::vector<Read> reads_;
    std::optional<std::string> error_;
};

// The reads where the counter showed something new: for an energy counter the reads whose
// value changed; for a power reading integrated by the reader every read (its value always
// grows), the new values being where its rate changes.
struct Analysis {
    std::vector<Read> reads;
    bool power = false;

    // Anchors: reads at which the cumulative value is known fresh.
    std::vector<Read> anchors() const
    {
        std::vector<Read> a;
        for (std::size_t i = 0; i < reads.size(); ++i)
            if (power || i == 0 || reads[i].second != reads[i - 1].second)
                a.push_back(reads[i]);
        return a;
    }

    // The times the counter took a new value within [from, to].
    std::vector<std::int64_t> updates(std::int64_t from, std::int64_t to) const
    {
        std::vector<std::int64_t> u;
        if (!power) {
            for (std::size_t i = 1; i < reads.size(); ++i)
                if (reads[i].first >= from && reads[i].first <= to && reads[i].second != reads[i - 1].second)
                    u.push_back(reads[i].first);
            return u;
        }
        std::vector<double> dts;
        for (std::size_t i = 1; i < reads.size(); ++i)
            dts.push_back(double(reads[i].first - reads[i - 1].first));
        const double poll = medianOr0(dts);
        // A read soon after another (the poller, late, reads at once) gives a rate over too
        // short a time: the counter's resolution, not its power, and a change where there is
        // none. The rates are over reads at least half a poll apart.
        std::vector<Read> rs;
        for (const Read& r : reads)
            if (rs.empty() || double(r.first - rs.back().first) >= 0.5 * poll)
                rs.push_back(r);
        // rate[i]: over rs[i - 1] to rs[i] (rate[0] unused).
        std::vector<double> rate(rs.size(), 0.0);
        for (std::size_t i = 1; i < rs.size(); ++i)
            rate[i] = double(rs[i].second - rs[i - 1].second) /
                double(std::max<std::int64_t>(1, rs[i].first - rs[i - 1].first));
        std::int64_t last = -1;
        std::size_t last_i = 0;
        const double merge = 2.5 * poll;
        for (std::size_t i = 2; i + 1 < rs.size(); ++i) {
            if (rs[i].first < from || rs[i].first > to)
                continue;
            // The rate before: the median of the last three (one read stamped late, its call
            // slow on a loaded machine or under a sanitizer, makes one rate too high and the
            // next as much too low, +-4% at a 2 ms poll: neither is the level).
            const auto at = [&](std::size_t k) { return rate.begin() + std::ptrdiff_t(k); };
            const double a = median(std::vector<double>(at(i >= 4 ? i - 3 : 1), at(i)));
            const double b = rate[i], c = rate[i + 1];
            const double scale = std::max({std::abs(a), std::abs(b), std::abs(c), 1e-9});
            // A change that persists: the next rate also differs, and to the same side (a late
            // stamp's pair lies to both sides of the level). Read-timing jitter taken for new
            // values kept every tenth read of a steady reading and ended the dither before it
            // saw enough edges.
            if (std::abs(b - a) > 0.03 * scale && std::abs(c - a) > 0.03 * scale && (b > a) == (c > a)) {
                // One new value shows in two reads' rates (the trapezoid's half step, then the
                // rest): a change at the read after the last one is the same change.
                if ((last < 0 || double(rs[i].first - last) > merge) && i != last_i + 1)
                    u.push_back(rs[i].first);
                last = rs[i].first;
                last_i = i;
            }
        }
        return u;
    }

    // Mean power (W) over the anchors within [from, to]; nullopt with fewer than two.
    std::optional<double> level(std::int64_t from, std::int64_t to, double* noise_sd = nullptr) const
    {
        std::vector<Read> in;
        for (const Read& r : anchors())
            if (r.first >= from && r.first <= to)
                in.push_back(r);
        if (in.size() < 2 || in.back().first <= in.front().first)
            return std::nullopt;
        if (noise_sd) {
            std::vector<double> w;
            for (std::size_t i = 1; i < in.size(); ++i)
                w.push_back(double(in[i].second - in[i - 1].second) / double(in[i].first - in[i - 1].first));
            *noise_sd = sampleSd(w);
        }
        return double(in.back().second - in.front().second) / double(in.back().first - in.front().first);
    }

    // The index of the first read after t.
    std::size_t firstAfter(std::int64_t t) const
    {
        return std::size_t(std::upper_bound(reads.begin(), reads.end(), t,
                                            [](std::int64_t v, const Read& r) { return v < r.first; }) -
                           reads.begin());
    }
    // Whether read i is an anchor.
    bool isAnchor(std::size_t i) const { return power || i == 0 || reads[i].second != reads[i - 1].second; }
    // The last anchor at or before t (by search: as the first of anchors() at or before t).
    std::optional<Read> anchorAtOrBefore(std::int64_t t) const
    {
        std::size_t i = firstAfter(t);
        while (i > 0 && !isAnchor(i - 1))
            --i;
        if (i == 0)
            return std::nullopt;
        return reads[i - 1];
    }
    // The anchors within [from, to] with the anchor before them (anchors() of that span).
    std::vector<Read> anchorsAround(std::int64_t from, std::int64_t to) const
    {
        std::vector<Read> a;
        std::size_t i = firstAfter(from - 1);
        while (i > 0 && !isAnchor(i - 1))
            --i;
        if (i > 0)
            --i;  // the anchor before the span
        for (; i < reads.size() && reads[i].first <= to; ++i)
            if (isAnchor(i))
                a.push_back(reads[i]);
        return a;
    }
};

struct EdgeResponse {
    double delay_ms = 0, settle_ms = 0;
    std::optional<double> window_ms;  // from the ramp's slope, where it has 3 points or more
};

// The reading's response to one edge at t_edge, from level `from_w` to `to_w`, up to t_end.
// smooth_ns: each apparent power spans at least this long (a fine counter's single reads are
// noisy); 0 for a counter whose updates are far apart.
EdgeResponse respond(const Analysis& a, std::int64_t t_edge, std::int64_t t_end, double from_w, double to_w,
                     std::int64_t smooth_ns)
{
    EdgeResponse r;
    const auto anchors = a.anchors();
    const double step = to_w - from_w;
    std::vector<std::pair<double, double>> ramp;  // (t ms after the edge, fraction)
    std::vector<std::pair<double, double>> series;  // (t ms after the edge, W)
    bool half = false;
    std::size_t k = 0;
    for (std::size_t j = 1; j < anchors.size(); ++j) {
        const auto& [t, e] = anchors[j];
        if (t <= t_edge || t > t_end)
            continue;
        while (k + 1 < j && t - anchors[k + 1].first >= std::max<std::int64_t>(smooth_ns, 1))
            ++k;
        if (k >= j)
            k = j - 1;
        const std::size_t from = t - anchors[k].first >= smooth_ns ? k : j - 1;
        const double w = double(e - anchors[from].second) / double(t - anchors[from].first);
        const double ms = double(t - t_edge) / 1e6;
        const double f = step != 0 ? (w - from_w) / step : 1.0;
        if (!half && f >= 0.5) {
            half = true;
            r.delay_ms = ms;
        }
        series.emplace_back(ms, w);
        if (f > 0.1 && f < 0.9 && anchors[from].first >= t_edge)
            ramp.emplace_back(ms, f);
    }
    // Settled: from the first point after which at most 10% stray outside 5% of the step (or
    // 3 sd of the settled reading's noise).
    std::vector<double> tail;
    for (std::size_t i = series.size() * 6 / 10; i < series.size(); ++i)
        tail.push_back(series[i].second);
    const double band = std::max(0.05 * std::abs(step), 3.0 * sampleSd(tail));
    std::optional<double> settle;
    std::size_t out = 0;
    for (std::size_t i = series.size(); i-- > 0;) {
        const bool inside = std::abs(series[i].second - to_w) <= band;
        out += inside ? 0 : 1;
        if (inside && double(out) <= 0.1 * double(series.size() - i))
            settle = series[i].first;
    }
    r.settle_ms = settle ? *settle : double(t_end - t_edge) / 1e6;
    if (!half)
        r.delay_ms = r.settle_ms;
    // The ramp is what comes before the reading settles (later strays are noise).
    std::erase_if(ramp, [&](const std::pair<double, double>& p) { return p.first > r.settle_ms; });
    if (ramp.size() >= 3) {
        double mt = 0, mf = 0;
        for (auto [t, f] : ramp) {
            mt += t;
            mf += f;
        }
        mt /= double(ramp.size());
        mf /= double(ramp.size());
        double num = 0, den = 0;
        for (auto [t, f] : ramp) {
            num += (t - mt) * (f - mf);
            den += (t - mt) * (t - mt);
        }
        if (den > 0 && num > 0)
            r.window_ms = den / num;  // 1 / slope: the ramp's length
    }
    return r;
}

bool isPowerKind(CounterKind k)
{
    return k == CounterKind::NvmlPowerInstant || k == CounterKind::NvmlPowerAverage || k == CounterKind::HwmonPower;
}

// Gathers what characterize learnt and hands it to the feed, at most every feed_ms (or at once).
class Feeder {
public:
    Feeder(const CharacterizeOptions& opt, const Poller& poller) : opt_(opt), poller_(poller) {}
    CharacterizeFeed& next() { return next_; }
    void phase(CharacterizePhase p)
    {
        next_.phase = p;
        send(true);
    }
    // Whether a feed is wanted now (every feed_ms).
    bool due() const { return opt_.feed && double(monotonicNs() - last_ns_) >= opt_.feed_ms * 1e6; }
    void send(bool now = false)
    {
        if (!opt_.feed)
            return;
        const std::int64_t t = monotonicNs();
        if (!now && double(t - last_ns_) < opt_.feed_ms * 1e6)
            return;
        last_ns_ = t;
        next_.reads = poller_.readsFrom(sent_reads_);
        sent_reads_ += next_.reads.size();
        opt_.feed(next_);
        next_.reads.clear();
        next_.steps.clear();
        next_.bursts.clear();
        next_.coverage.clear();
    }

private:
    const CharacterizeOptions& opt_;
    const Poller& poller_;
    CharacterizeFeed next_;
    std::size_t sent_reads_ = 0;
    std::int64_t last_ns_ = 0;
};

// A power reading's update period where its new values come only where the load changes: a
// reading that never varies under a steady load (a noiseless one, or one finer than the load's
// pulses) shows a new value only at the first update after each of the load's edges, so the
// intervals between its new values are the load's, not the reading's. An edge falls at a random
// phase of the reading's period P, so that its new value comes a uniform [0, P) after it (plus
// a fixed delay, a late reading's): the spread of those lags is P however slow the load. It holds
// only where most edges get their own new value before the next edge and every stretch between
// edges is longer than the lags' spread (else the next edge cuts the lag short); nullopt where
// not, or with fewer than 4 such edges. Never finer than the poll (a reading that changes at
// every read: the poll is what can be seen of it).
std::optional<double> periodFromLags(const std::vector<std::int64_t>& updates, std::vector<std::int64_t> edges,
                                     std::int64_t end_ns, double poll_ms)
{
    std::sort(edges.begin(), edges.end());
    std::vector<double> lags;
    double shortest_quiet = 1e300;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const std::int64_t next = i + 1 < edges.size() ? edges[i + 1] : end_ns;
        if (next <= edges[i])
            continue;
        shortest_quiet = std::min(shortest_quiet, double(next - edges[i]) / 1e6);
        // The last new value before the next edge: the first may be the edge's own stir (the
        // reads around a load's change come late and the integrated rate wobbles, a few ms
        // after it), or a sampled reading's part of the change before the rest.
        const auto u = std::upper_bound(updates.begin(), updates.end(), next);
        if (u != updates.begin() && *std::prev(u) > edges[i])
            lags.push_back(double(*std::prev(u) - edges[i]) / 1e6);
    }
    if (lags.size() < 4 || double(lags.size()) < 0.8 * double(edges.size()))
        return std::nullopt;
    // A lag made longer by a late launch (tens of ms, for one edge) would set a range alone.
    // The quartiles of a uniform [d, d + P) are P/4 in from its ends and P/2 apart, so a lag
    // farther than that spread beyond them (P/4 past an end) is not the reading's.
    std::sort(lags.begin(), lags.end());
    const double q1 = quantile(lags, 0.25), q3 = quantile(lags, 0.75);
    const double fence = std::max(q3 - q1, 2 * poll_ms);
    std::vector<double> kept;
    for (double l : lags)
        if (l >= q1 - fence && l <= q3 + fence)
            kept.push_back(l);
    if (kept.size() < 4)
        return std::nullopt;
    // The spread of n uniform draws falls short of their range by 1/(n+1) on average.
    const double spread =
        (kept.back() - kept.front()) * double(kept.size() + 1) / double(kept.size() - 1);
    if (spread >= 0.8 * shortest_quiet)
        return std::nullopt;
    return std::max(spread, poll_ms);
}

struct GridFit {
    double period_ms = 0;
    double jitter_ms = 0;  // the new values' sd about the grid
};

// Refines a rough period p0 by the grid a reading publishes on: its new values fall on t0 + nP
// (however many updates there were between them), so P is where their phases line up best. It
// is looked for within [0.75, 1.35] x p0, which holds neither half nor twice a period p0 came
// near, then at its multiples (p0 a half or a third of the period); nullopt with fewer than 10
// new values or where they line up weakly (a resultant under 0.75 of its most: the new values
// keep no grid there, as a reading that changes at any read).
std::optional<GridFit> periodOnGrid(const std::vector<std::int64_t>& updates, double p0_ms)
{
    if (updates.size() < 10 || !(p0_ms > 0))
        return std::nullopt;
    // The candidates are about 15 x span / p0, each a pass over the new values: both bounded
    // (about 20000 and 512) however long the run, by taking the first new values only.
    std::vector<double> t;
    for (std::int64_t u : updates) {
        const double x = double(u - updates.front()) / 1e6;
        if (x > 1333 * p0_ms || t.size() >= 512)
            break;
        t.push_back(x);
    }
    if (t.size() < 10)
        return std::nullopt;
    const double span = t.back();
    if (!(span > 3 * p0_ms))
        return std::nullopt;
    constexpr double kTwoPi = 6.283185307179586;
    auto resultant = [&](double P, double* mean_phase = nullptr) {
        double c = 0, s = 0;
        for (double x : t) {
            c += std::cos(kTwoPi * x / P);
            s += std::sin(kTwoPi * x / P);
        }
        if (mean_phase)
            *mean_phase = std::atan2(s, c);
        return std::hypot(c, s) / double(t.size());
    };
    double best_p = 0, best_r = -1;
    // Steps small enough that the phase across the span moves by a twentieth of a cycle.
    for (double P = 0.75 * p0_ms; P <= 1.35 * p0_ms; P += P * P / (20 * span)) {
        const double r = resultant(P);
        if (r > best_r) {
            best_r = r;
            best_p = P;
        }
    }
    if (best_r < 0.75)
        return std::nullopt;
    // A grid of P holds every new value of a grid of kP too (a sampled reading's 40 ms grid was
    // found as 20.0 from lags that gave 19): the reading's grid is the widest that holds them as
    // well, a few of its periods within the span.
    for (int k = 8; k >= 2; --k) {
        if (3 * k * best_p < span && resultant(k * best_p) >= std::max(0.75, 0.9 * best_r)) {
            best_p *= k;
            break;
        }
    }
    double phase = 0;
    resultant(best_p, &phase);
    std::vector<double> off;
    for (double x : t) {
        double d = std::remainder(kTwoPi * x / best_p - phase, kTwoPi);
        off.push_back(d / kTwoPi * best_p);
    }
    return GridFit{best_p, sampleSd(off)};
}

// Clears a load's cancel flag when characterize returns (the load is the caller's).
struct CancelScope {
    LoadDriver& load;
    CancelScope(LoadDriver& l, const std::atomic<bool>* c) : load(l) { load.setCancel(c); }
    ~CancelScope() { load.setCancel(nullptr); }
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;
};

}  // namespace

const char* characterizePhaseName(CharacterizePhase p)
{
    switch (p) {
    case CharacterizePhase::Dither:
        return "update period";
    case CharacterizePhase::Steps:
        return "step response";
    case CharacterizePhase::Bursts:
        return "burst coverage";
    case CharacterizePhase::Done:
        return "done";
    }
    return "?";
}

Result<CounterProfile> characterize(EnergyCounter& counter, LoadDriver& load, const CharacterizeOptions& opt,
                                    CharacterizeTrace* trace)
{
    const std::int64_t t_start = monotonicNs();
    const double budget_s = std::max(2.0, opt.seconds);
    const nlohmann::ordered_json info = counter.info();
    const CounterKind kind = counterKindOf(counter.spec(), info);
    Analysis an;
    an.power = isPowerKind(kind);
    std::mt19937_64 rng(opt.seed ? opt.seed : std::uint64_t(t_start));
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto say = [&](const std::string& s) {
        if (opt.progress)
            opt.progress(s);
    };
    auto elapsed_s = [&] { return double(monotonicNs() - t_start) / 1e9; };
    auto cancelled = [&] { return opt.cancel && opt.cancel->load(); };
    const CancelScope cancel_scope(load, opt.cancel);

    // A power reading is integrated by its reader: read no faster than every 2 ms.
    const double read_poll_ms = an.power ? std::max(opt.poll_ms, 2.0) : opt.poll_ms;
    Poller poller(counter, read_poll_ms);
    poller.start();
    Feeder feeder(opt, poller);
    // What is measured as it goes before each feed (the bursts' coverage), only where there is a
    // feed: the feeds come at their own steady cadence, never timed to a burst, so that the
    // work they cause (here and in a view that draws them) lands as much in the idle before a
    // burst as in its window, and adds nothing to its coverage on average.
    std::function<void()> before_feed;
    // Sleeps in slices, feeding the live view between them, and stops early on a cancel.
    auto sleepMs = [&](double ms) {
        const std::int64_t until = monotonicNs() + std::int64_t(ms * 1e6);
        for (;;) {
            const std::int64_t left = until - monotonicNs();
            if (left <= 0 || cancelled())
                return;
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<std::int64_t>(left, 10'000'000)));
            if (feeder.due()) {
                if (before_feed)
                    before_feed();
                feeder.send(true);
            }
        }
    };
    auto failed = [&]() -> std::optional<Error> {
        if (cancelled())
            return Error{kCharacterizeCancelled};
        if (auto e = poller.error())
            return Error{counter.spec() + ": " + *e};
        return std::nullopt;
    };
    feeder.phase(CharacterizePhase::Dither);

    // 1. Dither: random short pulses; the counter's new values give its period.
    say("update period: random short pulses");
    const std::int64_t dither_from = monotonicNs();
    const double dither_max_s = std::clamp(0.15 * budget_s, 1.0, 15.0);
    const double shortest = std::max(1.0, load.shortestMs());
    // A power reading shows a new value only where its rate changes: the load rests between
    // pulses as long as it works in them, so that each edge stands as its own change (an energy
    // counter advances at idle too, and needs only the pulses' random lengths).
    const double rest_scale = an.power ? shortest : 1.0;
    // Where the pulses are long (a slow GPU pass), the dither goes on past its share of the
    // budget until the counter has shown enough new values, by up to 40 of the load's shortest
    // pulses (a fast load: at once).
    const double dither_cap_s = dither_max_s + std::min(15.0, 40.0 * shortest / 1e3);
    const std::size_t enough = an.power ? 12 : 3;
    // A slow load's pulses (a pass of 10 ms or more) are kept within three passes, so that a
    // power reading sees more edges in the dither's time.
    const double pulse_spread = an.power && shortest >= 10 ? 3.0 : 8.0;
    std::vector<std::int64_t> dither_edges;
    double dithered_s = 0;
    for (;;) {
        auto p = load.pulse(uniform(shortest, shortest * pulse_spread));
        if (!p)
            return Error{p.error()};
        dither_edges.push_back(p->t0_ns);
        dither_edges.push_back(p->t1_ns);
        sleepMs(uniform(1.0, pulse_spread) * rest_scale);
        if (auto e = failed())
            return *e;
        dithered_s = double(monotonicNs() - dither_from) / 1e9;
        an.reads = poller.reads();
        const std::size_t seen = an.updates(dither_from, monotonicNs()).size();
        if ((dithered_s >= dither_max_s && (seen >= enough || dithered_s >= dither_cap_s)) ||
            (dithered_s >= 0.5 && seen >= 40))
            break;
    }
    const std::int64_t dither_to = monotonicNs();
    auto intervalsOf = [](const std::vector<std::int64_t>& u) {
        std::vector<double> d;
        for (std::size_t i = 1; i < u.size(); ++i)
            d.push_back(double(u[i] - u[i - 1]) / 1e6);
        return d;
    };
    const std::vector<std::int64_t> dither_updates = an.updates(dither_from, dither_to);
    std::vector<double> intervals = intervalsOf(dither_updates);
    if (intervals.size() < 2) {
        return Error{counter.spec() + ": the counter showed fewer than 3 new values in " +
                     formatted("%.1f", dithered_s) + " s of load pulses (does the load reach it? " +
                     load.describe() + ")"};
    }
    double period_ms = medianOr0(intervals);
    // A power reading whose new values follow the load's edges: its period from the lags.
    std::optional<double> lag_period;
    std::optional<double> grid_jitter_ms;  // where the period came from the grid (below)
    if (an.power) {
        lag_period = periodFromLags(dither_updates, dither_edges, dither_to, read_poll_ms);
        // A reading that keeps its own time has lags as wide as its intervals: it is not this.
        if (lag_period && *lag_period < 0.75 * period_ms)
            period_ms = *lag_period;
        else
            lag_period.reset();
    }
    if (lag_period) {  // the load's intervals are not the reading's: its jitter is not known
        intervals.clear();
        say("update period: the reading changes only where the load does; from the lags after the load's edges");
    }
    feeder.next().update_period_ms = period_ms;
    feeder.next().update_jitter_ms = sampleSd(intervals);

    // 2. Steps: long load on and off.
    const double step_s = std::max({12.0 * period_ms / 1e3, std::min(1.5, budget_s / 20), 0.3});
    const int pairs = 4 * step_s * 2 <= 0.45 * budget_s ? 2 : 1;
    say("step response: " + std::to_string(pairs) + " x (" + std::to_string(step_s) + " s on, off)");
    std::vector<Pulse> steps;
    feeder.phase(CharacterizePhase::Steps);
    sleepMs(step_s * 1e3);
    for (int i = 0; i < pairs; ++i) {
        auto p = load.pulse(step_s * 1e3);
        if (!p)
            return Error{p.error()};
        steps.push_back(*p);
        feeder.next().steps.push_back(*p);
        feeder.send(true);
        sleepMs(step_s * 1e3);
        if (auto e = failed())
            return *e;
    }
    if (auto e = failed())
        return *e;
    an.reads = poller.reads();
    const std::int64_t L = std::int64_t(step_s * 1e9);
    // A counter with a new value every read or two: its apparent power over 5 ms at least.
    const double poll_ms = read_poll_ms;
    const std::int64_t smooth_ns = period_ms < 3 * poll_ms ? 5'000'000 : 0;
    std::vector<double> lo_levels, hi_levels;
    std::vector<EdgeResponse> ups, downs;
    for (const Pulse& p : steps) {
        const auto lo = an.level(p.t0_ns - L * 4 / 10, p.t0_ns);
        const auto hi = an.level(p.t1_ns - L * 4 / 10, p.t1_ns);
        const auto lo2 = an.level(p.t1_ns + L * 6 / 10, p.t1_ns + L);
        if (!lo || !hi || !lo2)
            return Error{counter.spec() + ": too few new values in " + std::to_string(step_s) +
                         " s to tell the load's level (update period " + std::to_string(period_ms) + " ms)"};
        lo_levels.push_back(*lo);
        lo_levels.push_back(*lo2);
        hi_levels.push_back(*hi);
        ups.push_back(respond(an, p.t0_ns, p.t1_ns, *lo, *hi, smooth_ns));
        downs.push_back(respond(an, p.t1_ns, p.t1_ns + L, *hi, *lo2, smooth_ns));
    }
    // The period again, now with the steps' ramps (a power reading's averaged window changes
    // at every update while it ramps).
    {
        std::vector<double> all = intervals;
        const auto more = intervalsOf(an.updates(steps.front().t0_ns - L, steps.back().t1_ns + L));
        // A power reading's ramps change at every update; its dithered readings may change by
        // less than the threshold (or by read-timing jitter): the ramps where there are enough.
        // A reading that changes only where the load does: whatever changed it during the steps
        // (their jumps, or the gaps between a GPU load's launches) keeps to its grid, below.
        if (lag_period)
            all.clear();
        else if (an.power && more.size() >= 10)
            all = more;
        else if (an.power)
            all.insert(all.end(), more.begin(), more.end());
        if (!all.empty()) {
            period_ms = medianOr0(all);
            intervals.clear();
            for (double d : all)
                if (d >= 0.5 * period_ms && d <= 1.5 * period_ms)
                    intervals.push_back(d);
            period_ms = medianOr0(intervals);
        } else if (auto g = periodOnGrid(an.updates(dither_from, steps.back().t1_ns + L), period_ms)) {
            // The lags' spread is rough (a dozen edges); the grid the new values keep, fine.
            period_ms = g->period_ms;
            grid_jitter_ms = g->jitter_ms;
        }
    }
    const double idle_w = std::accumulate(lo_levels.begin(), lo_levels.end(), 0.0) / double(lo_levels.size());
    const double busy_w = std::accumulate(hi_levels.begin(), hi_levels.end(), 0.0) / double(hi_levels.size());
    const double extra_w = busy_w - idle_w;
    if (!(extra_w > std::max(0.10 * std::abs(idle_w), 1e-3)))
        return Error{counter.spec() + ": the load did not raise the reading (idle " + std::to_string(idle_w) +
                     " W, loaded " + std::to_string(busy_w) + " W): does " + load.describe() + " reach this counter?"};
    auto medianOf = [](const std::vector<EdgeResponse>& v, double EdgeResponse::*f) {
        std::vector<double> x;
        for (const auto& e : v)
            x.push_back(e.*f);
        return medianOr0(x);
    };
    std::vector<double> windows;
    for (const auto* v : {&ups, &downs})
        for (const auto& e : *v)
            if (e.window_ms)
                windows.push_back(*e.window_ms);
    // A ramp no longer than about one update is a jump, not an average.
    double window_ms = windows.size() >= std::max<std::size_t>(1, (ups.size() + downs.size()) / 2)
                           ? medianOr0(windows)
                           : 0.0;
    if (window_ms < std::max(1.5 * period_ms, 2.0 * double(smooth_ns) / 1e6))
        window_ms = 0;

    // 3. Bursts at random phases of the update period.
    double burst_ms = opt.burst_ms > 0 ? opt.burst_ms : std::clamp(period_ms / 5, 2.0, 20.0);
    burst_ms = std::max(burst_ms, load.shortestMs());
    const double settle_down = medianOf(downs, &EdgeResponse::settle_ms);
    // Long enough for the counter to book a burst wholly before the next (and for a fake that
    // loses the CPU for a while on a loaded machine).
    const double gap_ms = std::max({3 * period_ms + settle_down + window_ms, 100.0});
    const double per_burst_s = (gap_ms + period_ms / 2 + burst_ms) / 1e3;
    const int n = std::max(5, std::min(opt.bursts, int((budget_s - elapsed_s()) / per_burst_s)));
    say("burst coverage: " + std::to_string(n) + " bursts of " + std::to_string(burst_ms) + " ms");
    {
        CharacterizeFeed& f = feeder.next();
        f.update_period_ms = period_ms;
        f.update_jitter_ms = grid_jitter_ms ? *grid_jitter_ms : sampleSd(intervals);
        f.idle_w = idle_w;
        f.busy_w = busy_w;
        f.step_up = StepResponse{medianOf(ups, &EdgeResponse::delay_ms), medianOf(ups, &EdgeResponse::settle_ms)};
        f.step_down = StepResponse{medianOf(downs, &EdgeResponse::delay_ms), settle_down};
        f.averaging_window_ms = window_ms;
    }
    // Per update only for a counter whose updates are far apart and so each hold one period
    // (a sampling or late counter); per second for the fine ones.
    const bool by_update = !an.power && period_ms >= 10 * poll_ms;
    std::vector<Pulse> bursts;
    // Burst i's coverage over its window up to `end` (the next burst's start, or the last read),
    // from an.reads, which must hold every read up to end (and so gives the same figure now as
    // at the end); none where the window holds too few new values.
    auto coverageOf = [&](std::size_t i, std::int64_t end) -> std::optional<double> {
        const Pulse& b = bursts[i];
        const auto a0 = an.anchorAtOrBefore(b.t0_ns);
        const auto a1 = an.anchorAtOrBefore(end);
        if (!a0 || !a1 || a1->first <= a0->first)
            return std::nullopt;
        // The idle energy in the window, from the idle just before the burst (after the last one
        // settled): per update for a counter with updates far apart (its updates each hold one
        // period, however late they are published), as a median (robust to a late-booked
        // neighbour); per second otherwise, as energy over time across the intervals, those of a
        // late-booked neighbour left out. (Not the median of the intervals' rates: where the
        // counter's updates and the reads beat, the intervals alternate short and long, and the
        // median of their rates sits off the true rate by a quarter or more. The window is mostly
        // idle, so an idle rate a few percent off moves a short burst's coverage by tens.)
        const std::int64_t from = b.t0_ns - std::int64_t(gap_ms / 2 * 1e6);
        std::vector<double> per_update, per_second;
        std::vector<std::pair<double, double>> spans;  // (J, s) of each idle interval
        std::optional<Read> prev;
        int updates_in = 0;
        for (const Read& r : an.anchorsAround(std::min(from, a0->first), a1->first)) {
            if (r.first > a0->first && r.first <= a1->first)
                ++updates_in;
            if (r.first >= from && r.first <= b.t0_ns && prev && prev->first >= from) {
                per_update.push_back(double(r.second - prev->second) / 1e9);
                per_second.push_back(double(r.second - prev->second) / double(r.first - prev->first));
                spans.emplace_back(double(r.second - prev->second) / 1e9, double(r.first - prev->first) / 1e9);
            }
            prev = r;
        }
        double idle_rate_w = idle_w;
        if (per_second.size() >= 2) {
            const double typical = medianOr0(per_second);
            double j = 0, s = 0;
            for (const auto& [dj, ds] : spans)
                if (dj / ds <= 3 * typical) {
                    j += dj;
                    s += ds;
                }
            if (s > 0)
                idle_rate_w = j / s;
        }
        double idle_j = 0;
        if (by_update && per_update.size() >= 2)  // whole periods: two published late as one still count two
            idle_j = medianOr0(per_update) * std::max<double>(updates_in > 0 ? 1 : 0,
                                                           std::round(double(a1->first - a0->first) / 1e6 / period_ms));
        else
            idle_j = idle_rate_w * double(a1->first - a0->first) / 1e9;
        const double counted = double(a1->second - a0->second) / 1e9 - idle_j;
        return counted / (extra_w * b.seconds());
    };
    std::vector<std::optional<double>> measured;  // per burst, once its window is whole
    std::size_t next_measure = 0;
    // Measures each burst whose window the reads now cover (those before the last one).
    auto measureReady = [&](bool last_too) {
        const auto more = poller.readsFrom(an.reads.size());
        an.reads.insert(an.reads.end(), more.begin(), more.end());
        while (next_measure < bursts.size() && !an.reads.empty()) {
            const bool last = next_measure + 1 == bursts.size();
            if (last && !last_too)
                break;
            const std::int64_t end = last ? an.reads.back().first : bursts[next_measure + 1].t0_ns - 1;
            if (!last && an.reads.back().first <= end)
                break;  // a read before the window's end may be still to come
            measured.push_back(coverageOf(next_measure, end));
            if (measured.back())
                feeder.next().coverage.emplace_back(int(next_measure), *measured.back());
            ++next_measure;
        }
    };
    feeder.next().burst_ms = burst_ms;
    feeder.next().bursts_planned = n;
    feeder.phase(CharacterizePhase::Bursts);
    before_feed = [&] { measureReady(false); };
    for (int i = 0; i < n; ++i) {
        sleepMs(gap_ms + uniform(0, std::max(period_ms, 1.0)));
        if (auto e = failed())
            return *e;
        auto p = load.pulse(burst_ms);
        if (!p)
            return Error{p.error()};
        bursts.push_back(*p);
        if (auto e = failed())
            return *e;
        feeder.next().bursts.push_back(*p);
    }
    sleepMs(gap_ms);
    poller.stop();
    if (auto e = failed())
        return *e;
    measureReady(true);
    feeder.phase(CharacterizePhase::Done);  // the last reads and coverages

    std::vector<double> coverage;
    for (const auto& c : measured)
        if (c)
            coverage.push_back(*c);
    if (coverage.size() < 3)
        return Error{counter.spec() + ": too few bursts could be measured (" + std::to_string(coverage.size()) + ")"};

    CounterProfile p = defaultProfile(kind);
    p.spec = counter.spec();
    p.measured = true;
    p.host = opt.host.empty() ? "unknown" : opt.host;
    p.measured_at = isoNow();
    p.note = "measured by joulebench characterize with " + load.describe();
    addCharacterizeCaveat(p, kind);  // the sim counter's figures are its load's: said in every profile
    p.update_period_ms = period_ms;
    p.update_jitter_ms = grid_jitter_ms ? *grid_jitter_ms : sampleSd(intervals);
    p.step_up = {medianOf(ups, &EdgeResponse::delay_ms), medianOf(ups, &EdgeResponse::settle_ms)};
    p.step_down = {medianOf(downs, &EdgeResponse::delay_ms), settle_down};
    p.averaging_window_ms = window_ms;
    p.coverage.mean = std::accumulate(coverage.begin(), coverage.end(), 0.0) / double(coverage.size());
    p.coverage.sd = sampleSd(coverage);
    p.coverage.bursts = int(coverage.size());
    p.coverage.burst_ms = burst_ms;
    p.coverage.sensed_fraction.reset();
    // The high end of the bursts (the 90th percentile: a burst that took a neighbour's energy
    // on a stalled machine is beyond it).
    std::vector<double> sorted = coverage;
    std::sort(sorted.begin(), sorted.end());
    const double mx = sorted[std::min(sorted.size() - 1, sorted.size() * 9 / 10)];
    if (mx > 1.3) {
        // A burst wholly inside the sensed part of a period counts period / sensed times over.
        std::vector<double> top;
        for (double c : coverage)
            if (c >= 0.85 * mx && c <= 1.15 * mx)
                top.push_back(c);
        // Several bursts alike, not one burst that took a neighbour's energy.
        if (top.size() >= std::max<std::size_t>(2, coverage.size() / 20))
            p.coverage.sensed_fraction = std::min(1.0, 1.0 / medianOr0(top));
    }
    if (auto it = info.find("unit"); it != info.end() && it->is_string()) {
        p.unit = it->get<std::string>();
        p.resolution = 1;
    }
    p.seconds_taken = elapsed_s();
    if (trace) {
        trace->reads = an.reads;
        trace->steps = steps;
        trace->bursts = bursts;
        trace->coverage = coverage;
        trace->idle_w = idle_w;
        trace->busy_w = busy_w;
    }
    return p;
}

std::string characterizeCaveat(CounterKind kind)
{
    if (kind != CounterKind::Sim)
        return {};
    return "the simulated counter follows the CPU time the kernel accounts to the load (busy cores x its watts "
           "per core, read by read, plus noise), not a sensor: its coverage of short bursts shows how the load's "
           "bursts use this machine's CPUs (threads that start late or run on past a burst count more or less "
           "than its length) and says nothing about a real counter, which it is not";
}

void addCharacterizeCaveat(CounterProfile& profile, CounterKind kind)
{
    const std::string c = characterizeCaveat(kind);
    if (!c.empty())
        profile.note += (profile.note.empty() ? "" : "; ") + std::string("note: ") + c;
}

}  // namespace jb
