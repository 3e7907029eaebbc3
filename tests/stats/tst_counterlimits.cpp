// A counter's limits in the rounds' verdicts (stats/CounterResolution: roundLimitText,
// roundLimits, coarseCounter with a record's counter_profiles) and an averaged counter's
// brackets (stats/Statistics: roundTimes), on counters modelled here: a sampled one (25 ms
// sensed every 100 ms) and a 1 s boxcar average published every 100 ms, as NVML's on an H200.
#include <jb/counters/CounterProfile.h>
#include <jb/record/Verify.h>
#include <jb/stats/CounterResolution.h>
#include <jb/stats/RoundTimes.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>
#include <functional>

using namespace jb;

namespace {

CounterProfile sampledProfile(bool measured)
{
    CounterProfile p;
    p.spec = "nvml:0";
    p.kind = CounterKind::NvmlEnergy;
    p.measured = measured;
    if (measured)
        p.host = "testhost";
    p.update_period_ms = 100.0;
    p.coverage.mean = 1.0;
    p.coverage.sd = 0.47;
    p.coverage.sensed_fraction = 0.25;
    p.unit = "mJ";
    p.resolution = 1;
    return p;
}

CounterProfile averagedProfile()
{
    CounterProfile p;
    p.spec = "nvml-power:0";
    p.kind = CounterKind::NvmlPowerAverage;
    p.measured = true;
    p.host = "testhost";
    p.update_period_ms = 100.0;
    p.averaging_window_ms = 1000.0;
    p.unit = "mW";
    p.resolution = 1;
    return p;
}

// Intervals of a power-integrating reader every period_ns from 0 to end_ns: each interval books
// the reading at its start times its length; the reading is held between publications.
std::vector<Interval> integrate(const std::function<double(std::int64_t)>& reading_w, std::int64_t period_ns,
                                std::int64_t end_ns)
{
    std::vector<Interval> out;
    for (std::int64_t t = 0; t + period_ns <= end_ns; t += period_ns)
        out.push_back({t, t + period_ns, std::int64_t(std::llround(reading_w(t) * double(period_ns)))});
    return out;
}

CounterRound roundOf(std::span<const Interval> s, const RoundTimes& t)
{
    auto slice = [&](IndexRange r) { return s.subspan(r.begin, r.size()); };
    RoundSlices sl;
    sl.busy = slice(between(s, t.busy_t0, t.busy_t1));
    sl.covering = slice(covering(s, t.busy_t0, t.busy_t1));
    sl.idle_before = slice(between(s, t.before_t0, t.before_t1));
    sl.idle_after = slice(between(s, t.after_t0, t.after_t1));
    return counterRound(sl);
}

constexpr std::int64_t kMs = 1'000'000;

}  // namespace

class TestCounterLimits : public QObject {
    Q_OBJECT
private slots:
    void aRoundTooShortForASampledCounterNamesItsLimit()
    {
        // 30 ms rounds on a counter that takes a new value every 100 ms and senses a quarter of it.
        CounterCadence cad;
        cad.update_cadence_ms = 100.0;
        cad.cadence_source = "profile";
        cad.profile_measured = true;
        cad.period_s = 0.1;
        const std::string t = roundLimitText("nvml:0", 30 * kMs, cad, std::nullopt, sampledProfile(true),
                                             0.0);
        QVERIFY2(t.rfind("too short for nvml:0: 0.3 updates, needs 10", 0) == 0, t.c_str());
        QVERIFY2(t.find("senses about 25% of each 100 ms period") != std::string::npos, t.c_str());
        QVERIFY2(t.find("measured profile") != std::string::npos, t.c_str());
        // Two seconds: 20 updates, within the limits.
        QCOMPARE(roundLimitText("nvml:0", 2000 * kMs, cad, std::nullopt, sampledProfile(true), 0.0),
                 std::string());
    }

    void aRecordsProfileNamesTheLimitInEveryRoundAndTheSummary()
    {
        Record r;
        r.sample_s = 0.1;
        r.counters = {"nvml:0"};
        r.extra["counter_profiles"]["nvml:0"] = sampledProfile(false).toJson();
        // The sampler saw a change at every read (its bound): the default profile's period counts.
        SamplerFigures f;
        f.period_s = 0.1;
        f.update_cadence_ms = 100.0;
        r.sampler.emplace_back("nvml:0", f);
        const double marginals[] = {0.0, 2.4e9, 0.0, 0.6e9, 4.0e9};  // all or nothing, by phase
        for (double m : marginals) {
            Round rd;
            rd.window_ns = 30 * kMs;
            rd.decodes = 1;
            CounterRound c;
            c.has_marginal = true;
            c.marginal_nj = m;
            c.ratio = 50.0;
            c.verdict = jb::Verdict::Clean;
            rd.counters.emplace_back("nvml:0", c);
            r.rounds.push_back(rd);
        }
        const auto profile = profileOf(r, "nvml:0");
        QVERIFY(profile);
        QVERIFY(!profile->measured);
        QCOMPARE(cadenceOf(r, "nvml:0").cadence_source, std::string("profile"));
        for (std::size_t i = 0; i < r.rounds.size(); ++i) {
            const auto lims = roundLimits(r, i);
            QCOMPARE(lims.size(), std::size_t(1));
            QVERIFY2(lims[0].second.find("too short for nvml:0: 0.3 updates, needs 10") != std::string::npos,
                     lims[0].second.c_str());
            QVERIFY(lims[0].second.find("default profile") != std::string::npos);
        }
        // Clean by the ratio, but never without naming the sampling; the rounds' spread reported.
        const CoarseCounter c = coarseCounter(r, "nvml:0");
        QCOMPARE(c.coarse_rounds, 5);
        QVERIFY2(c.text().find("nvml:0 samples (it senses about 25% of each 100 ms period)") !=
                     std::string::npos,
                 c.text().c_str());
        QVERIFY(c.spread);
        QVERIFY2(c.text().find("spread by sd 125% of their mean") != std::string::npos, c.text().c_str());
        // A record without profiles reads as before: no profile, the sampler's bound.
        Record old = r;
        old.extra.erase("counter_profiles");
        QVERIFY(!profileOf(old, "nvml:0"));
        QCOMPARE(cadenceOf(old, "nvml:0").cadence_source, std::string("sampler"));
        QVERIFY(!coarseCounter(old, "nvml:0").coarse());
    }

    void anAveragedCountersBracketsWaitItsWindowOut()
    {
        // A 1 s boxcar published every 100 ms, read every 100 ms: 125 W idle, 690 W for 2.63 s,
        // 3 s brackets. The truth: 565 W x 2.63 s.
        const double idle = 125.0, busy = 690.0;
        const std::int64_t b0 = 3000 * kMs + 37 * kMs, b1 = b0 + 2630 * kMs,
                           end = b1 + 3000 * kMs + 1200 * kMs;
        const std::int64_t window = 1000 * kMs, pub = 100 * kMs;
        auto truth_w = [&](double t_ns) { return t_ns >= double(b0) && t_ns < double(b1) ? busy : idle; };
        auto averaged_w = [&](std::int64_t t) {
            const std::int64_t published = t / pub * pub;  // the last publication
            double sum = 0;
            const int steps = 1000;
            for (int i = 0; i < steps; ++i)
                sum += truth_w(double(published) - double(window) * (double(i) + 0.5) / steps);
            return sum / steps;
        };
        const std::vector<Interval> iv = integrate(averaged_w, 100 * kMs, end);
        const double truth_nj = (busy - idle) * double(b1 - b0);

        // The reference's cuts: the after bracket holds the decay, the marginal misses it.
        const RoundTimes plain = roundTimes(b0, b1, 0, b0 - 5 * kMs, b1 + 5 * kMs, b1 + 3000 * kMs);
        const CounterRound p = roundOf(iv, plain);
        QVERIFY(p.has_marginal);
        QVERIFY2(p.marginal_nj < 0.85 * truth_nj, qPrintable(QString::number(p.marginal_nj / truth_nj)));
        QVERIFY(p.idle_after->mean_w > idle + 50.0);

        // Waiting the window (and one publication) out: within 3% of the truth, idle read as idle.
        const std::int64_t tail = window + pub;
        const RoundTimes t = roundTimes(b0, b1, 0, b0 - 5 * kMs, b1 + 5 * kMs,
                                        b1 + 5 * kMs + 3000 * kMs + tail, tail);
        QCOMPARE(t.busy_t1, b1 + tail);
        QCOMPARE(t.after_t0, b1 + 5 * kMs + tail);
        const CounterRound c = roundOf(iv, t);
        QVERIFY(c.has_marginal);
        QVERIFY2(std::abs(c.marginal_nj - truth_nj) < 0.03 * truth_nj,
                 qPrintable(QStringLiteral("%1 of the truth").arg(c.marginal_nj / truth_nj)));
        QVERIFY(std::abs(c.idle_after->mean_w - idle) < 1.0);

        // The record names the tail; verify recomputes with it and agrees.
        Record r;
        r.counters = {"nvml-power:0"};
        r.extra["averaged_brackets"]["nvml-power:0"] = {{"tail_ms", 1100.0}, {"averaging_window_ms", 1000.0}};
        QCOMPARE(bracketTailNs(r, "nvml-power:0"), tail);
        Round rd;
        rd.window = std::array<std::int64_t, 2>{b0, b1};
        rd.window_ns = b1 - b0;
        rd.brackets = std::array<std::array<std::int64_t, 2>, 2>{
            {{0, b0 - 5 * kMs}, {b1 + 5 * kMs, b1 + 5 * kMs + 3000 * kMs + tail}}};
        rd.counters.emplace_back("nvml-power:0", c);
        r.rounds.push_back(rd);
        r.samples.emplace_back("nvml-power:0", iv);
        const VerifyReport rep = verifyRecord(r);
        QVERIFY2(rep.agrees(),
                 rep.disagreements.empty() ? rep.why_not.c_str() : rep.disagreements[0].path.c_str());

        // The limit: a short window against the average names it, unless the brackets waited it out.
        r.extra["counter_profiles"]["nvml-power:0"] = averagedProfile().toJson();
        r.rounds[0].window_ns = 2630 * kMs;
        QCOMPARE(roundLimits(r, 0).size(), std::size_t(0));
        r.extra.erase("averaged_brackets");
        const auto lims = roundLimits(r, 0);
        QCOMPARE(lims.size(), std::size_t(1));
        QVERIFY2(
            lims[0].second.find("too short for nvml-power:0: a 2.63 s busy window against its 1 s averaging "
                                "window, needs 10 s") != std::string::npos,
            lims[0].second.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCounterLimits)
#include "tst_counterlimits.moc"
