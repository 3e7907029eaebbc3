// The simulated source, driven by tick(): it is a RunSource like a real session (started with
// the `sim` counter and its store, phases in run order, rounds when a session would give them),
// its clock moves by wall time x speed, power settings continue the run and layout settings
// start a new one.
#include <jb/live/SimSource.h>
#include <jb/sampling/SampleStore.h>

#include <QSignalSpy>
#include <QtTest>

using jb::PhaseEvent;
using jb::SimSource;

namespace {

jb::LiveSimSettings shortRounds()
{
    jb::LiveSimSettings s;
    s.idle_s = 1.0;
    s.k = 2;
    s.busy_s_per_k = 0.5;
    return s;
}

}  // namespace

class TestSimSource : public QObject {
    Q_OBJECT
private slots:
    void isARunSource();
    void phasesAndRoundsInRunOrder();
    void clockFollowsTheSpeed();
    void powerContinuesLayoutRestarts();
};

void TestSimSource::isARunSource()
{
    SimSource src;
    jb::RunSource* run = &src;
    QVERIFY(run->stores().empty());  // before a run
    QSignalSpy started(run, &jb::RunSource::started);
    src.setSettings(shortRounds());
    src.start();
    QVERIFY(run->running());
    QCOMPARE(started.count(), 1);
    QCOMPARE(started[0][0].toLongLong(), run->originNs());
    QCOMPARE(started[0][1].toStringList(), QStringList{QStringLiteral("sim")});
    QCOMPARE(run->stores().size(), std::size_t(1));
    QCOMPARE(run->stores().front().first, std::string("sim"));
    QVERIFY(run->storeOf("sim") == src.store());
    QVERIFY(!run->storeOf("rapl"));
    const jb::RunLayout l = run->layout();
    QCOMPARE(l.period_s, 0.1);
    QCOMPARE(l.idle_s, 1.0);
    QCOMPARE(l.k, 2);
    QCOMPARE(l.busy_s, std::optional<double>(1.0));
    run->stop();
    QVERIFY(!run->running());
}

void TestSimSource::phasesAndRoundsInRunOrder()
{
    SimSource src;
    src.setSettings(shortRounds());
    QSignalSpy phases(&src, &jb::RunSource::phase);
    QSignalSpy rounds(&src, &jb::RunSource::roundFinished);
    QSignalSpy advanced(&src, &jb::RunSource::advanced);
    src.start();
    src.stop();  // the test drives the clock
    for (int i = 0; i < 400 && rounds.count() < 2; ++i)
        src.tick(0.05);
    QCOMPARE(rounds.count(), 2);
    QCOMPARE(rounds[0][0].toInt(), 0);
    QCOMPARE(rounds[1][0].toInt(), 1);
    QVERIFY(advanced.count() > 10);
    // idle, busy, idle, busy, idle ...: starts and ends alternate, times never go back.
    const PhaseEvent::Kind order[] = {PhaseEvent::IdleStarted, PhaseEvent::IdleEnded, PhaseEvent::BusyStarted,
                                      PhaseEvent::BusyEnded};
    std::int64_t last = 0;
    for (int i = 0; i < phases.count(); ++i) {
        const auto e = phases[i][0].value<PhaseEvent>();
        QCOMPARE(int(e.kind), int(order[i % 4]));
        QVERIFY(e.t_ns >= last);
        last = e.t_ns;
    }
    // Round 1 ends with its idle bracket after: 1 s idle, 1 s busy, 1 s idle, 1 s busy, 1 s idle.
    const auto r1 = rounds[1][1].value<jb::Round>();
    QVERIFY(r1.counter("sim"));
    QVERIFY(src.nowNs() - src.originNs() >= 5'000'000'000);
    QVERIFY(src.store()->size() >= 50);
}

void TestSimSource::clockFollowsTheSpeed()
{
    SimSource src;
    src.setSettings(shortRounds());
    src.setSpeed(4.0);
    src.start();
    src.stop();
    const std::int64_t t0 = src.nowNs();
    src.tick(0.5);
    QCOMPARE(src.nowNs() - t0, std::int64_t(2'000'000'000));
    src.setSpeed(-1.0);  // refused
    QCOMPARE(src.speed(), 4.0);
    src.tick(0.0);  // nothing moves
    QCOMPARE(src.nowNs() - t0, std::int64_t(2'000'000'000));
}

void TestSimSource::powerContinuesLayoutRestarts()
{
    SimSource src;
    src.setSettings(shortRounds());
    QSignalSpy started(&src, &jb::RunSource::started);
    QSignalSpy idle(&src, &SimSource::idleChanged);
    src.start();
    src.tick(0.2);
    jb::LiveSimSettings s = shortRounds();
    s.noise_sd_w = 1.0;  // power: the run goes on
    QVERIFY(!src.setSettings(s));
    QCOMPARE(started.count(), 1);
    QCOMPARE(idle.count(), 1);
    QCOMPARE(src.idleChangedNs(), src.nowNs());
    s.k = 3;  // layout: a new run while running
    QVERIFY(src.setSettings(s));
    QCOMPARE(started.count(), 2);
    QCOMPARE(src.restarts(), 2);
    QCOMPARE(src.layout().k, 3);
}

QTEST_GUILESS_MAIN(TestSimSource)
#include "tst_simsource.moc"
