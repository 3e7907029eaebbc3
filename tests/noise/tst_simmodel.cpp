// The sim model's two drivers agree: jb::simulateRun (batch) and LiveSim / SimModel advanced in
// uneven steps (incremental) give the same intervals and the same round figures for the same
// settings and seed; a bounded run stops where the batch run stops; a live power change takes
// effect from the next interval and keeps the run's random stream.
#include <jb/noise/LiveSim.h>
#include <jb/noise/SimModel.h>
#include <jb/noise/SimRun.h>

#include <QtTest>

#include <cmath>
#include <random>

using jb::Interval;
using jb::LiveSim;
using jb::LiveSimSettings;
using jb::SimModel;

namespace {

// Uneven clock steps: 0 to 700 ms, now and then a jump of several seconds, now and then none.
class UnevenTicks {
public:
    explicit UnevenTicks(unsigned seed) : engine_(seed) {}
    std::int64_t next()
    {
        const auto u = engine_() % 1000;
        if (u < 50)
            return 0;
        if (u < 80)
            return std::int64_t(3'000'000'000 + engine_() % 4'000'000'000ULL);
        return std::int64_t(engine_() % 700'000'000ULL);
    }

private:
    std::mt19937 engine_;
};

void compareRounds(const std::vector<jb::Round>& a, const std::vector<jb::Round>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t r = 0; r < a.size(); ++r) {
        QCOMPARE(a[r].window, b[r].window);
        QCOMPARE(a[r].brackets, b[r].brackets);
        QCOMPARE(a[r].decodes, b[r].decodes);
        QCOMPARE(a[r].window_ns, b[r].window_ns);
        QCOMPARE(a[r].counters.size(), std::size_t(1));
        QCOMPARE(a[r].counters.front().first, b[r].counters.front().first);
        const jb::CounterRound& ca = a[r].counters.front().second;
        const jb::CounterRound& cb = b[r].counters.front().second;
        QVERIFY(ca.busy && ca.idle_before && ca.idle_after);
        QCOMPARE(ca.busy, cb.busy);
        QCOMPARE(ca.idle_before, cb.idle_before);
        QCOMPARE(ca.idle_after, cb.idle_after);
        QCOMPARE(ca.window_nj, cb.window_nj);
        QCOMPARE(ca.marginal_nj, cb.marginal_nj);
        QCOMPARE(ca.ratio, cb.ratio);
        QVERIFY(ca.verdict == cb.verdict);
    }
}

}  // namespace

class TestSimModel : public QObject {
    Q_OBJECT
private slots:
    void liveMatchesBatch_data();
    void liveMatchesBatch();
    void unevenModelMatchesBatch_data();
    void unevenModelMatchesBatch();
    void boundedRunStopsWhereBatchStops();
    void powerChangeFromNextInterval();
};

void TestSimModel::liveMatchesBatch_data()
{
    QTest::addColumn<double>("period_s");
    QTest::addColumn<double>("idle_s");
    QTest::addColumn<int>("k");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("100 ms, k 2") << 0.1 << 2.5 << 2 << quint64(42);
    QTest::newRow("10 ms, k 1") << 0.01 << 1.0 << 1 << quint64(3);
    QTest::newRow("370 ms, k 3") << 0.37 << 4.1 << 3 << quint64(1234);
}

void TestSimModel::liveMatchesBatch()
{
    // LiveSim (the page's driver) and simulateRun (the planner's) with the same settings and
    // seed: the live run, ticked unevenly, gives the batch run's intervals and round figures.
    QFETCH(double, period_s);
    QFETCH(double, idle_s);
    QFETCH(int, k);
    QFETCH(quint64, seed);
    constexpr int kRounds = 5;
    LiveSimSettings s;
    s.idle_w = 31.0;
    s.noise_sd_w = 0.4;
    s.signal_w = 6.0;
    s.period_s = period_s;
    s.idle_s = idle_s;
    s.k = k;
    s.busy_s_per_k = 0.8;
    s.jobs = 5;
    jb::SimRunSpec spec;
    spec.idle_w = s.idle_w;
    spec.noise_sd_w = s.noise_sd_w;
    spec.marginal_w = s.signal_w;
    spec.period_s = s.period_s;
    spec.idle_s = s.idle_s;
    spec.busy_s = s.busyS();
    spec.k = s.k;
    spec.jobs = s.jobs;
    spec.rounds = kRounds;
    spec.seed = seed;
    const jb::Record batch = jb::simulateRun(spec);
    const std::vector<Interval>& ref = batch.samples.front().second;

    LiveSim live(s, seed);
    UnevenTicks ticks{unsigned(seed)};
    std::vector<Interval> streamed;
    while (live.rounds().size() < std::size_t(kRounds)) {
        const LiveSim::Step step = live.advance(ticks.next());
        streamed.insert(streamed.end(), step.intervals.begin(), step.intervals.end());
    }
    QCOMPARE(streamed.size(), live.intervals().size());
    // The same run up to where the live one starts a window the batch run does not have (the
    // batch run ends with its sampler three periods after its last bracket).
    const std::int64_t nextWindow = live.busyWindow(kRounds)[0];
    QCOMPARE(nextWindow, live.roundDueNs(kRounds - 1));
    std::size_t same = 0;
    while (same < ref.size() && ref[same].t1_ns <= nextWindow)
        ++same;
    QVERIFY(same > std::size_t(20));
    QVERIFY(same + 3 >= ref.size());
    QVERIFY(streamed.size() >= same);
    for (std::size_t i = 0; i < same; ++i)
        QCOMPARE(streamed[i], ref[i]);
    std::vector<jb::Round> liveRounds(live.rounds().begin(), live.rounds().begin() + kRounds);
    compareRounds(liveRounds, batch.rounds);
}

void TestSimModel::unevenModelMatchesBatch_data()
{
    QTest::addColumn<double>("jitter_s");
    QTest::addColumn<double>("drift_w_per_s");
    QTest::addColumn<double>("busy_sd_w");
    QTest::addColumn<double>("settle_s");
    QTest::newRow("plain") << 0.0 << 0.0 << -1.0 << -1.0;
    QTest::newRow("jitter") << 0.04 << 0.0 << -1.0 << -1.0;
    QTest::newRow("drift, busy sd") << 0.0 << 0.05 << 1.5 << -1.0;
    QTest::newRow("all, long settle") << 0.07 << -0.03 << 0.9 << 0.75;
}

void TestSimModel::unevenModelMatchesBatch()
{
    // The whole parameter set (jitter, drift, busy sd, settle), a bounded run advanced
    // unevenly against simulateRun: the same intervals, the same rounds, in the same order.
    QFETCH(double, jitter_s);
    QFETCH(double, drift_w_per_s);
    QFETCH(double, busy_sd_w);
    QFETCH(double, settle_s);
    jb::SimRunSpec spec;
    spec.idle_w = 12.0;
    spec.noise_sd_w = 0.3;
    spec.busy_noise_sd_w = busy_sd_w;
    spec.marginal_w = 4.0;
    spec.period_s = 0.1;
    spec.idle_s = 1.3;
    spec.busy_s = 0.9;
    spec.rounds = 6;
    spec.k = 2;
    spec.jobs = 3;
    spec.settle_s = settle_s;
    spec.jitter_s = jitter_s;
    spec.drift_w_per_s = drift_w_per_s;
    spec.seed = 77;
    const jb::Record batch = jb::simulateRun(spec);

    jb::SimLayout l;
    l.period_ns = 100'000'000;
    l.idle_ns = 1'300'000'000;
    l.busy_ns = 900'000'000;
    l.settle_ns = settle_s >= 0 ? std::llround(settle_s * 1e9) : 200'000'000;
    l.jitter_ns = std::llround(jitter_s * 1e9);
    l.rounds = spec.rounds;
    l.k = spec.k;
    l.jobs = spec.jobs;
    jb::SimPower p;
    p.idle_w = spec.idle_w;
    p.noise_sd_w = spec.noise_sd_w;
    p.busy_noise_sd_w = busy_sd_w;
    p.marginal_w = spec.marginal_w;
    p.drift_w_per_s = drift_w_per_s;
    SimModel model(l, p, spec.seed);
    UnevenTicks ticks(9);
    std::vector<Interval> streamed;
    std::vector<jb::Round> rounds;
    int phases = 0;
    while (model.nowNs() < model.endNs()) {
        const SimModel::Step step = model.advanceTo(std::min(model.endNs(), model.nowNs() + ticks.next()));
        streamed.insert(streamed.end(), step.intervals.begin(), step.intervals.end());
        for (const auto& [index, round] : step.rounds) {
            QCOMPARE(index, int(rounds.size()));
            rounds.push_back(round);
        }
        phases += int(step.phases.size());
    }
    QVERIFY(streamed == batch.samples.front().second);
    compareRounds(rounds, batch.rounds);
    QCOMPARE(phases, 2 + 4 * spec.rounds);  // the first bracket, then window + bracket per round
    if (jitter_s > 0) {
        // Late reads: spans differ, the intervals stay contiguous.
        bool uneven = false;
        for (std::size_t i = 1; i < streamed.size(); ++i) {
            QCOMPARE(streamed[i].t0_ns, streamed[i - 1].t1_ns);
            uneven = uneven || streamed[i].span_ns() != l.period_ns;
        }
        QVERIFY(uneven);
    }
}

void TestSimModel::boundedRunStopsWhereBatchStops()
{
    jb::SimLayout l;
    l.rounds = 2;
    l.idle_ns = 1'000'000'000;
    l.busy_ns = 500'000'000;
    SimModel model(l, jb::SimPower{}, 5);
    const std::int64_t end = model.endNs();
    QVERIFY(end != SimModel::kNever);
    // The sampler's last read is the first one due more than three periods after the last
    // bracket; the last round is due two periods after it.
    const std::int64_t lastBracketEnd = model.idleBracket(2)[1];
    QCOMPARE(model.roundDueNs(1), lastBracketEnd + l.settle_ns);
    QVERIFY(end > lastBracketEnd + 3 * l.period_ns);
    QVERIFY(end <= lastBracketEnd + 4 * l.period_ns);
    model.advanceTo(end);
    QCOMPARE(model.rounds().size(), std::size_t(2));
    QCOMPARE(model.intervals().back().t1_ns, end);
    // Past the end nothing more happens.
    const SimModel::Step after = model.advanceTo(end + 60'000'000'000);
    QVERIFY(after.empty());
    // An unbounded model of the same layout goes on.
    jb::SimLayout u = l;
    u.rounds = -1;
    SimModel open(u, jb::SimPower{}, 5);
    QCOMPARE(open.endNs(), SimModel::kNever);
    open.advanceTo(end + 60'000'000'000);
    QVERIFY(open.rounds().size() > 20);
    // The same run until the unbounded one's third window starts (the bounded run has none):
    // from there on the same noise draws, plus that window's marginal power.
    const std::int64_t third = open.busyWindow(2)[0];
    std::size_t i = 0;
    for (; model.intervals()[i].t1_ns <= third; ++i)
        QCOMPARE(open.intervals()[i], model.intervals()[i]);
    while (model.intervals()[i].t0_ns < third)
        ++i;
    QVERIFY(i < model.intervals().size());  // the bounded run's last interval lies inside it
    QCOMPARE(open.intervals()[i].t0_ns, model.intervals()[i].t0_ns);
    const double extra = open.intervals()[i].power_w() - model.intervals()[i].power_w();
    QVERIFY2(std::abs(extra - jb::SimPower{}.marginal_w) < 1e-6, qPrintable(QString::number(extra)));
}

void TestSimModel::powerChangeFromNextInterval()
{
    // Two live runs with the same seed; one changes its idle power by +10 W midway through an
    // interval. Every interval ended by then is unchanged; from the next interval on (the one
    // in progress at the change) the power is exactly 10 W higher with the same noise draws.
    LiveSimSettings s;
    s.idle_w = 20.0;
    s.noise_sd_w = 0.5;
    s.signal_w = 15.0;
    s.period_s = 0.1;
    s.idle_s = 3.0;
    LiveSim plain(s, 21), changed(s, 21);
    const std::int64_t changeAt = plain.originNs() + 1'234'567'891;  // inside the first bracket
    plain.advanceTo(changeAt);
    changed.advanceTo(changeAt);
    const std::size_t before = changed.intervals().size();
    QVERIFY(before > 5);
    QVERIFY(changed.intervals().back().t1_ns <= changeAt);
    changed.setPower(30.0, 0.5, 15.0);
    QCOMPARE(changed.settings().idle_w, 30.0);
    const std::int64_t later = changeAt + 20'000'000'000;
    plain.advanceTo(later);
    changed.advanceTo(later);
    QCOMPARE(changed.intervals().size(), plain.intervals().size());
    const auto& a = plain.intervals();
    const auto& b = changed.intervals();
    QVERIFY(b[before].t0_ns < changeAt && b[before].t1_ns > changeAt);  // the one in progress
    for (std::size_t i = 0; i < b.size(); ++i) {
        QCOMPARE(b[i].t0_ns, a[i].t0_ns);
        QCOMPARE(b[i].t1_ns, a[i].t1_ns);
        const std::int64_t diff = b[i].nj - a[i].nj;
        if (i < before) {
            QCOMPARE(diff, std::int64_t(0));
        } else {
            const double expected = 10.0 * double(b[i].span_ns());  // 10 W over the span, in nJ
            QVERIFY2(std::abs(double(diff) - expected) <= 1.0,
                     qPrintable(QStringLiteral("interval %1: %2 nJ").arg(i).arg(diff)));
        }
    }
    // The rounds after the change see it: round 1's brackets lie wholly after it.
    QVERIFY(changed.rounds().size() >= 2);
    const jb::CounterRound& c = changed.rounds()[1].counters.front().second;
    const jb::CounterRound& d = plain.rounds()[1].counters.front().second;
    QVERIFY(c.idle_before && d.idle_before);
    QVERIFY(std::abs(c.idle_before->mean_w - d.idle_before->mean_w - 10.0) < 1e-6);
}

QTEST_GUILESS_MAIN(TestSimModel)
#include "tst_simmodel.moc"
