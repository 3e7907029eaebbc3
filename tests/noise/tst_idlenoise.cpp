// The Noise lab's own arithmetic, without widgets: which intervals make the live idle
// brackets, where the Allan curve says averaging stops helping, a round's marginal power,
// and which real counter the page offers (or why none).
#include <jb/noise/Allan.h>
#include <jb/noise/IdleNoise.h>
#include <jb/noise/NoiseMath.h>
#include <jb/noise/RealCounter.h>

#include <QtTest>

#include <cmath>

using jb::IdleSpan;
using jb::Interval;

namespace {

constexpr std::int64_t kPeriod = 100'000'000;

// Contiguous 100 ms intervals from t = 0 with the given powers.
std::vector<Interval> intervals(const std::vector<double>& power_w)
{
    std::vector<Interval> v;
    std::int64_t t = 0;
    for (double p : power_w) {
        v.push_back({t, t + kPeriod, std::llround(p * double(kPeriod))});
        t += kPeriod;
    }
    return v;
}

jb::CounterStatus status(const std::string& spec, bool whole, bool available, const std::string& reason = {})
{
    jb::CounterStatus s;
    s.spec = spec;
    s.whole_device = whole;
    s.available = available;
    s.reason = reason;
    return s;
}

}  // namespace

class TestIdleNoise : public QObject {
    Q_OBJECT
private slots:
    void liveBracketsInsideSpans();
    void liveBracketsSinceAChange();
    void liveBracketsNewestOnly();
    void averagingStillFallingForWhiteNoise();
    void averagingStopsForDrift();
    void averagingNeedsTrustedPoints();
    void marginalOfARound();
    void realCounterChoice_data();
    void realCounterChoice();
    void realCounterPlanFollowsTheLab();
    void longerPeriodOnlyForRealCounters();
};

void TestIdleNoise::liveBracketsInsideSpans()
{
    std::vector<double> p(40, 20.0);
    for (int i = 10; i < 20; ++i)
        p[std::size_t(i)] = 35.0;  // busy in [1.0 s, 2.0 s]
    const auto all = intervals(p);
    // Closed bracket [0, 1.0 s] and an open one from 2.0 s: the open one runs to the newest.
    const std::vector<IdleSpan> spans = {{0, 1'000'000'000}, {2'000'000'000, std::nullopt}};
    const auto b = jb::liveIdleBrackets(all, spans, 0, 10);
    QCOMPARE(int(b.size()), 2);
    QCOMPARE(int(b[0].size()), 10);
    QCOMPARE(int(b[1].size()), 20);
    QCOMPARE(b[0].front().t0_ns, std::int64_t(0));
    QCOMPARE(b[0].back().t1_ns, std::int64_t(1'000'000'000));
    QCOMPARE(b[1].front().t0_ns, std::int64_t(2'000'000'000));
    for (const auto& br : b)
        for (const Interval& iv : br)
            QCOMPARE(iv.power_w(), 20.0);
}

void TestIdleNoise::liveBracketsSinceAChange()
{
    const auto all = intervals(std::vector<double>(40, 20.0));
    const std::vector<IdleSpan> spans = {{0, 1'000'000'000}, {2'000'000'000, 3'000'000'000}};
    // A change at 2.45 s: the first bracket is gone; the second keeps whole intervals from 2.5 s.
    const auto b = jb::liveIdleBrackets(all, spans, 2'450'000'000, 10);
    QCOMPARE(int(b.size()), 1);
    QCOMPARE(b[0].front().t0_ns, std::int64_t(2'500'000'000));
    QCOMPARE(int(b[0].size()), 5);
    // A change after everything: nothing.
    QVERIFY(jb::liveIdleBrackets(all, spans, 5'000'000'000, 10).empty());
}

void TestIdleNoise::liveBracketsNewestOnly()
{
    const auto all = intervals(std::vector<double>(100, 20.0));
    std::vector<IdleSpan> spans;
    for (int i = 0; i < 10; ++i)
        spans.push_back({std::int64_t(i) * 1'000'000'000, std::int64_t(i) * 1'000'000'000 + 500'000'000});
    const auto b = jb::liveIdleBrackets(all, spans, 0, 3);
    QCOMPARE(int(b.size()), 3);
    QCOMPARE(b[0].front().t0_ns, std::int64_t(7'000'000'000));  // oldest first among the kept
    QCOMPARE(b[2].front().t0_ns, std::int64_t(9'000'000'000));
    QVERIFY(jb::liveIdleBrackets(all, spans, 0, 0).empty());
}

void TestIdleNoise::averagingStillFallingForWhiteNoise()
{
    jb::noise::Gaussian g(3);
    std::vector<double> p;
    for (int i = 0; i < 4000; ++i)
        p.push_back(20.0 + 0.2 * g.next());
    const auto curve = jb::allanDeviation(p, 0.1);
    const auto lim = jb::averagingLimit(curve);
    QVERIFY(lim);
    QVERIFY(lim->still_falling);
    QVERIFY(lim->tau_s >= 6.4);  // m >= 64 is still trusted with 4000 values
    QVERIFY(lim->adev_w < 0.2 / 5);
}

void TestIdleNoise::averagingStopsForDrift()
{
    // White noise of 0.2 W plus a random walk with 0.02 W steps: the Allan curve falls, bottoms
    // out around m = sigma^2 / q^2-ish, and rises. Averaging longer than that stops helping.
    jb::noise::Gaussian g(9);
    std::vector<double> p;
    double walk = 0;
    for (int i = 0; i < 4000; ++i) {
        walk += 0.02 * g.next();
        p.push_back(20.0 + walk + 0.2 * g.next());
    }
    const auto curve = jb::allanDeviation(p, 0.1);
    const auto lim = jb::averagingLimit(curve);
    QVERIFY(lim);
    QVERIFY(!lim->still_falling);
    QVERIFY2(lim->tau_s >= 0.4 && lim->tau_s <= 6.4, qPrintable(QString::number(lim->tau_s)));
    QVERIFY(lim->tau_s < curve.back().tau_s);
}

void TestIdleNoise::averagingNeedsTrustedPoints()
{
    QVERIFY(!jb::averagingLimit({}));
    // Ten values: m = 1 has 9 terms, under 20 independent averages.
    const auto curve = jb::allanDeviation(std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, 0.1);
    QVERIFY(!curve.empty());
    QVERIFY(!jb::averagingLimit(curve));
    QVERIFY(jb::averagingLimit(curve, 1.0));
    // One trusted point (m = 1 of 36 values in 4 brackets): no limit, rather than "stops at
    // the first point".
    std::vector<std::vector<double>> brackets;
    jb::noise::Gaussian g(4);
    for (int b = 0; b < 4; ++b) {
        brackets.emplace_back();
        for (int i = 0; i < 9; ++i)
            brackets.back().push_back(20.0 + 0.1 * g.next());
    }
    const auto pooled = jb::allanDeviationPooled(brackets, 0.1);
    QVERIFY(pooled.size() >= 2);
    QVERIFY(!jb::averagingLimit(pooled));
}

void TestIdleNoise::marginalOfARound()
{
    jb::CounterRound c;
    QVERIFY(!jb::roundMarginalW(c));
    jb::Bracket b;
    b.mean_w = 20.0;
    c.idle_before = b;
    b.mean_w = 21.0;
    c.idle_after = b;
    QVERIFY(!jb::roundMarginalW(c));
    b.mean_w = 35.5;
    c.busy = b;
    QCOMPARE(*jb::roundMarginalW(c), 15.0);
}

void TestIdleNoise::realCounterChoice_data()
{
    QTest::addColumn<std::vector<jb::CounterStatus>>("list");
    QTest::addColumn<bool>("decoder");
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("reasonHas");

    const auto sim = status("sim", true, true);
    const auto task = status("task", false, true);
    const auto raplNo = status("rapl", true, false,
                               "cannot read /sys/class/powercap/intel-rapl:0/energy_uj: Permission denied");
    QTest::newRow("rapl readable") << std::vector<jb::CounterStatus>{status("rapl", true, true), task, sim}
                                   << true << QStringLiteral("rapl") << QString();
    QTest::newRow("only sim") << std::vector<jb::CounterStatus>{raplNo, task, sim} << true << QString()
                              << QStringLiteral("rapl: cannot read /sys/class/powercap");
    QTest::newRow("nvml after unreadable rapl")
        << std::vector<jb::CounterStatus>{raplNo, task, sim, status("nvml:0", true, true)} << true
        << QStringLiteral("nvml:0") << QString();
    QTest::newRow("task is not whole-device") << std::vector<jb::CounterStatus>{task, sim} << true
                                              << QString() << QStringLiteral("No real whole-device counter");
    QTest::newRow("no decoder") << std::vector<jb::CounterStatus>{status("rapl", true, true), sim} << false
                                << QString() << QStringLiteral("/opt/jb/joulebench-demo-decoder");
}

void TestIdleNoise::realCounterChoice()
{
    QFETCH(std::vector<jb::CounterStatus>, list);
    QFETCH(bool, decoder);
    QFETCH(QString, spec);
    QFETCH(QString, reasonHas);
    const auto c = jb::chooseRealCounter(list, decoder, "/opt/jb/joulebench-demo-decoder");
    QCOMPARE(QString::fromStdString(c.spec), spec);
    QCOMPARE(c.ok(), !spec.isEmpty());
    if (reasonHas.isEmpty())
        QVERIFY(c.reason.empty());
    else
        QVERIFY2(QString::fromStdString(c.reason).contains(reasonHas), c.reason.c_str());
}

QTEST_GUILESS_MAIN(TestIdleNoise)
void TestIdleNoise::realCounterPlanFollowsTheLab()
{
    jb::RealCounterChoice c;
    c.spec = "rapl";
    jb::LiveSimSettings s;
    s.k = 3;
    s.idle_s = 2.5;
    s.period_s = 0.05;
    jb::CounterOptions o;
    o.powercap_root = "/fake/powercap";
    const jb::Plan p = jb::realCounterPlan(c, s, {"/opt/jb/joulebench-demo-decoder", "serve"}, o);
    QCOMPARE(p.counters, (std::vector<std::string>{"rapl"}));
    QCOMPARE(p.child, (std::vector<std::string>{"/opt/jb/joulebench-demo-decoder", "serve"}));
    QCOMPARE(p.k, 3);
    QCOMPARE(p.idle_s, 2.5);
    QCOMPARE(p.sample_ms, 50.0);
    QCOMPARE(p.counter_options.powercap_root, std::string("/fake/powercap"));
    QVERIFY(p.rounds >= 1000);  // until the page stops it
    QVERIFY(!jb::realLayoutChanged(p, s));
    s.signal_w = 99;  // power settings do not touch a real run
    QVERIFY(!jb::realLayoutChanged(p, s));
    for (int which = 0; which < 3; ++which) {
        jb::LiveSimSettings t = s;
        if (which == 0)
            t.k = 4;
        else if (which == 1)
            t.idle_s = 3;
        else
            t.period_s = 0.1;
        QVERIFY2(jb::realLayoutChanged(p, t), std::to_string(which).c_str());
    }
}

void TestIdleNoise::longerPeriodOnlyForRealCounters()
{
    QVERIFY(!jb::longerPeriodLowersNoise("sim"));
    for (const char* spec : {"rapl", "rapl:package-0", "hwmon:amdgpu:PPT", "nvml:0", "nvml-power:0", "ioreport-gpu"})
        QVERIFY2(jb::longerPeriodLowersNoise(spec), spec);
}

#include "tst_idlenoise.moc"
