// The Noise lab's live `sim` generator, without widgets: intervals contiguous and evenly
// spaced, busy power = idle + signal, the session's phase order, the same numbers however
// the clock is ticked, the very intervals and rounds of jb::simulateRun for the same seed,
// and power changes that continue the run.
#include <jb/noise/LiveSim.h>
#include <jb/noise/SimRun.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using jb::Interval;
using jb::LiveSim;
using jb::LiveSimSettings;
using jb::PhaseEvent;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

LiveSimSettings settings(double idle_s = 2.0, int k = 3)
{
    LiveSimSettings s;
    s.idle_w = 20.0;
    s.noise_sd_w = 0.15;
    s.signal_w = 15.0;
    s.period_s = 0.1;
    s.idle_s = idle_s;
    s.k = k;
    s.busy_s_per_k = 1.0;
    s.jobs = 4;
    return s;
}

// Runs until `rounds` rounds are done, in ticks of tick_ns.
LiveSim runRounds(const LiveSimSettings& s, int rounds, std::int64_t tick_ns, std::uint64_t seed = 7)
{
    LiveSim sim(s, seed);
    while (int(sim.rounds().size()) < rounds)
        sim.advance(tick_ns);
    return sim;
}

}  // namespace

class TestLiveSim : public QObject {
    Q_OBJECT
private slots:
    void intervalsAreContiguous_data();
    void intervalsAreContiguous();
    void busyPowerIsIdlePlusSignal();
    void phasesInSessionOrder();
    void sameNumbersHoweverTicked();
    void matchesSimulateRun();
    void powerChangeContinuesTheRun();
    void noNoiseGivesNoRatio();
    void layoutComparison();
};

void TestLiveSim::intervalsAreContiguous_data()
{
    QTest::addColumn<double>("period_s");
    QTest::addColumn<qint64>("tick_ns");
    QTest::newRow("100 ms, 50 ms ticks") << 0.1 << qint64(50'000'000);
    QTest::newRow("10 ms, 333 ms ticks") << 0.01 << qint64(333'000'000);
    QTest::newRow("1 s, 7 ms ticks") << 1.0 << qint64(7'000'000);
}

void TestLiveSim::intervalsAreContiguous()
{
    QFETCH(double, period_s);
    QFETCH(qint64, tick_ns);
    LiveSimSettings s = settings();
    s.period_s = period_s;
    s.idle_s = 3.0;
    LiveSim sim(s, 3);
    std::size_t seen = 0;
    while (sim.nowNs() < sim.originNs() + 40 * kSecond) {
        const LiveSim::Step step = sim.advance(tick_ns);
        // What a step hands out is exactly what was added, in order.
        QCOMPARE(step.intervals.size(), sim.intervals().size() - seen);
        for (std::size_t i = 0; i < step.intervals.size(); ++i)
            QCOMPARE(step.intervals[i], sim.intervals()[seen + i]);
        seen = sim.intervals().size();
        // Nothing ends after the simulated clock.
        if (!sim.intervals().empty())
            QVERIFY(sim.intervals().back().t1_ns <= sim.nowNs());
    }
    const auto& iv = sim.intervals();
    const std::int64_t period_ns = std::llround(period_s * 1e9);
    QVERIFY(iv.size() >= std::size_t(40.0 / period_s) - 1);
    for (std::size_t i = 0; i < iv.size(); ++i) {
        QCOMPARE(iv[i].span_ns(), period_ns);
        if (i > 0)
            QCOMPARE(iv[i].t0_ns, iv[i - 1].t1_ns);
    }
    // The first read comes within one period before the run starts (the sampler's phase).
    QVERIFY(iv.front().t0_ns < sim.originNs());
    QVERIFY(iv.front().t0_ns >= sim.originNs() - period_ns);
}

void TestLiveSim::busyPowerIsIdlePlusSignal()
{
    // 12 rounds with 3 s windows: about 29 whole intervals inside each window, 348 in all, so
    // the pooled busy mean's standard error is 0.15 / sqrt(348) = 0.008 W. Tolerance: 0.05 W
    // (six standard errors). Idle: 19 intervals in each of 13 brackets, the same tolerance.
    const LiveSimSettings s = settings(2.0, 3);
    const LiveSim sim = runRounds(s, 12, 100'000'000);
    QCOMPARE(int(sim.rounds().size()), 12);
    double busySum = 0, idleSum = 0;
    int busyN = 0, idleN = 0;
    for (const jb::Round& r : sim.rounds()) {
        const jb::CounterRound* c = r.counter("sim");
        QVERIFY(c);
        QVERIFY(c->busy && c->idle_before && c->idle_after);
        QVERIFY2(c->busy->intervals >= 28, qPrintable(QString::number(c->busy->intervals)));
        busySum += c->busy->mean_w * c->busy->intervals;
        busyN += c->busy->intervals;
        idleSum += c->idle_before->mean_w * c->idle_before->intervals;
        idleN += c->idle_before->intervals;
        QCOMPARE(r.decodes, std::int64_t(3 * 4));
        QCOMPARE(r.window_ns, 3 * kSecond);
        QVERIFY(r.counters.front().second.verdict == jb::Verdict::Clean);
    }
    const double busyMean = busySum / busyN, idleMean = idleSum / idleN;
    QVERIFY2(std::abs(busyMean - (s.idle_w + s.signal_w)) < 0.05, qPrintable(QString::number(busyMean)));
    QVERIFY2(std::abs(idleMean - s.idle_w) < 0.05, qPrintable(QString::number(idleMean)));
}

void TestLiveSim::phasesInSessionOrder()
{
    const LiveSimSettings s = settings(2.0, 1);
    LiveSim sim(s, 1);
    std::vector<PhaseEvent> events;
    std::vector<int> roundsAt;  // index into events when each round arrived
    while (sim.rounds().size() < 3) {
        const auto step = sim.advance(37'000'000);
        events.insert(events.end(), step.phases.begin(), step.phases.end());
        for (const auto& r : step.rounds) {
            QCOMPARE(r.first, int(roundsAt.size()));
            roundsAt.push_back(int(events.size()));
        }
    }
    using K = PhaseEvent::Kind;
    // As jb::Session emits them: the first bracket is round -1, a bracket after round r is r.
    const std::vector<std::pair<K, int>> expected = {
        {K::IdleStarted, -1}, {K::IdleEnded, -1}, {K::BusyStarted, 0}, {K::BusyEnded, 0},
        {K::IdleStarted, 0},  {K::IdleEnded, 0},  {K::BusyStarted, 1}, {K::BusyEnded, 1},
        {K::IdleStarted, 1},  {K::IdleEnded, 1},  {K::BusyStarted, 2}, {K::BusyEnded, 2},
        {K::IdleStarted, 2},  {K::IdleEnded, 2}};
    QVERIFY(events.size() >= expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(int(events[i].kind), int(expected[i].first));
        QCOMPARE(events[i].round, expected[i].second);
        if (i > 0)
            QVERIFY(events[i].t_ns >= events[i - 1].t_ns);
    }
    // Durations: brackets idle_s, windows k x busy_s_per_k, two periods of settling before the
    // next window.
    QCOMPARE(events[1].t_ns - events[0].t_ns, 2 * kSecond);
    QCOMPARE(events[3].t_ns - events[2].t_ns, 1 * kSecond);
    QCOMPARE(events[5].t_ns - events[4].t_ns, 2 * kSecond);
    QCOMPARE(events[6].t_ns - events[5].t_ns, 200'000'000);
    // A round's figures come after its bracket after has ended (and its window's brackets are
    // the ones the events announced).
    QVERIFY(roundsAt[0] >= 6);
    const jb::Round& r0 = sim.rounds()[0];
    QVERIFY(r0.window && r0.brackets);
    QCOMPARE((*r0.window)[0], events[2].t_ns);
    QCOMPARE((*r0.window)[1], events[3].t_ns);
    QCOMPARE((*r0.brackets)[0][0], events[0].t_ns);
    QCOMPARE((*r0.brackets)[1][1], events[5].t_ns);
}

void TestLiveSim::sameNumbersHoweverTicked()
{
    const LiveSimSettings s = settings(1.5, 2);
    const LiveSim a = runRounds(s, 5, 13'000'000, 11);
    LiveSim b(s, 11);
    b.advanceTo(a.nowNs());  // one jump
    QCOMPARE(b.rounds().size(), a.rounds().size());
    QCOMPARE(b.intervals().size(), a.intervals().size());
    QVERIFY(b.intervals() == a.intervals());
    for (std::size_t i = 0; i < a.rounds().size(); ++i)
        QCOMPARE(b.rounds()[i].counters.front().second.ratio, a.rounds()[i].counters.front().second.ratio);
}

void TestLiveSim::matchesSimulateRun()
{
    // The same model, the same layout and the same Gaussian stream: the live generator gives
    // jb::simulateRun's intervals and rounds exactly, so what the page shows is what the noise
    // room's tested code computes.
    const LiveSimSettings s = settings(2.5, 2);
    jb::SimRunSpec spec;
    spec.idle_w = s.idle_w;
    spec.noise_sd_w = s.noise_sd_w;
    spec.marginal_w = s.signal_w;
    spec.period_s = s.period_s;
    spec.idle_s = s.idle_s;
    spec.busy_s = s.busyS();
    spec.k = s.k;
    spec.jobs = s.jobs;
    spec.rounds = 6;
    spec.seed = 42;
    const jb::Record ref = jb::simulateRun(spec);
    const LiveSim live = runRounds(s, 6, 50'000'000, 42);

    QCOMPARE(live.originNs(), std::int64_t(1'000'000'000));  // simulateRun's origin
    const auto& refIv = ref.samples.front().second;
    QVERIFY(live.intervals().size() >= 100);
    for (std::size_t i = 0; i < live.intervals().size() && i < refIv.size(); ++i)
        QCOMPARE(live.intervals()[i], refIv[i]);
    QCOMPARE(int(live.rounds().size()), 6);
    for (int r = 0; r < 6; ++r) {
        const jb::Round& a = live.rounds()[std::size_t(r)];
        const jb::Round& b = ref.rounds[std::size_t(r)];
        QCOMPARE(a.window, b.window);
        QCOMPARE(a.brackets, b.brackets);
        QCOMPARE(a.decodes, b.decodes);
        const jb::CounterRound& ca = a.counters.front().second;
        const jb::CounterRound& cb = b.counters.front().second;
        QCOMPARE(ca.busy, cb.busy);
        QCOMPARE(ca.idle_before, cb.idle_before);
        QCOMPARE(ca.idle_after, cb.idle_after);
        QCOMPARE(ca.window_nj, cb.window_nj);
        QCOMPARE(ca.marginal_nj, cb.marginal_nj);
        QCOMPARE(ca.ratio, cb.ratio);
        QVERIFY(ca.verdict == cb.verdict);
    }
}

void TestLiveSim::powerChangeContinuesTheRun()
{
    const LiveSimSettings s = settings(3.0, 1);
    LiveSim sim(s, 5);
    while (sim.rounds().size() < 2)
        sim.advance(100'000'000);
    const std::size_t before = sim.intervals().size();
    const std::int64_t changedAt = sim.nowNs();
    sim.setPower(30.0, 0.15, 0.0);  // idle up 10 W, signal gone
    while (sim.rounds().size() < 5)
        sim.advance(100'000'000);
    // The same run: the intervals go on without a gap, the rounds are numbered on.
    QCOMPARE(sim.intervals()[before].t0_ns, sim.intervals()[before - 1].t1_ns);
    QVERIFY(sim.intervals()[before].t1_ns > changedAt);
    // Round 4's brackets and window all lie after the change: idle at the new 30 W (19 whole
    // intervals, standard error 0.035 W; tolerance 0.2 W), no marginal power, a poor verdict.
    const jb::CounterRound& c = sim.rounds()[4].counters.front().second;
    QVERIFY((*sim.rounds()[4].brackets)[0][0] > changedAt);
    QVERIFY(c.idle_before && c.busy && c.ratio);
    QVERIFY2(std::abs(c.idle_before->mean_w - 30.0) < 0.2,
             qPrintable(QString::number(c.idle_before->mean_w)));
    QVERIFY2(std::abs(c.busy->mean_w - 30.0) < 0.2, qPrintable(QString::number(c.busy->mean_w)));
    QVERIFY2(std::abs(*c.ratio) < 8.0, qPrintable(QString::number(*c.ratio)));
    QVERIFY(c.verdict != jb::Verdict::Clean);
    // Before the change the rounds were clean.
    QVERIFY(sim.rounds()[0].counters.front().second.verdict == jb::Verdict::Clean);
}

void TestLiveSim::noNoiseGivesNoRatio()
{
    LiveSimSettings s = settings(1.0, 1);
    s.noise_sd_w = 0.0;
    const LiveSim sim = runRounds(s, 1, 100'000'000);
    const jb::CounterRound& c = sim.rounds()[0].counters.front().second;
    QVERIFY(c.idle_before);
    QCOMPARE(c.idle_before->sd_w, 0.0);
    QVERIFY(!c.ratio);  // the reference writes no ratio where the idle sd is 0
    QVERIFY(!c.verdict);
}

void TestLiveSim::layoutComparison()
{
    const LiveSimSettings a = settings();
    LiveSimSettings b = a;
    b.idle_w = 50;
    b.noise_sd_w = 2;
    b.signal_w = 0;
    QVERIFY(LiveSim::sameLayout(a, b));
    b.k = a.k + 1;
    QVERIFY(!LiveSim::sameLayout(a, b));
    b = a;
    b.period_s = 0.2;
    QVERIFY(!LiveSim::sameLayout(a, b));
    b = a;
    b.idle_s = 7;
    QVERIFY(!LiveSim::sameLayout(a, b));
}

QTEST_GUILESS_MAIN(TestLiveSim)
#include "tst_livesim.moc"
