// The plan's arithmetic: how long it takes, and how far a run is (the dashboard's progress bar
// and ETA).
#include <jb/session/Plan.h>

#include <QtTest>

using jb::Plan;

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    void expectedDuration()
    {
        Plan p;
        p.rounds = 5;
        p.idle_s = 3.0;
        p.sample_ms = 100;
        p.counters = {"task"};  // no whole-device counter: no settling after a round
        // 6 idle brackets and 5 busy windows.
        QCOMPARE(p.expectedDurationS(0.5), 6 * 3.0 + 5 * 0.5);
        p.counters = {"sim"};  // each round waits two periods for the counter to settle
        p.random_phase = false;
        QCOMPARE(p.expectedDurationS(0.5), 6 * 3.0 + 5 * (0.5 + 0.2));
        // Random phases: each bracket before a round waits half a phase period on average.
        p.random_phase = true;
        QCOMPARE(p.phasePeriodMs(), 100.0);
        QCOMPARE(p.expectedDurationS(0.5), 6 * 3.0 + 5 * (0.5 + 0.2 + 0.05));
        p.phase_period_ms = 400;  // a counter that updates every 400 ms
        QCOMPARE(p.phasePeriodMs(), 400.0);
    }

    void progressStartsWithTheFirstIdleBracket()
    {
        Plan p;
        p.rounds = 5;
        p.idle_s = 3.0;
        p.counters = {"task"};
        const double total = 6 * 3.0 + 5 * 0.5;
        // The child is still loading: nothing of the plan is done, all of it is left, however
        // long the start-up takes.
        auto before = jb::planProgress(p, std::nullopt, 0.5);
        QCOMPARE(before.fraction, 0.0);
        QCOMPARE(before.remaining_s, total);
        auto mid = jb::planProgress(p, 10.0, 0.5);
        QCOMPARE(mid.fraction, 10.0 / total);
        QCOMPARE(mid.remaining_s, total - 10.0);
        // Slower than the estimate: 0 left, and not done until the record is in.
        auto late = jb::planProgress(p, total + 7.0, 0.5);
        QCOMPARE(late.remaining_s, 0.0);
        QCOMPARE(late.fraction, 0.99);
        // A busy estimate that grows (the round going on is longer) moves the end out.
        QVERIFY(jb::planProgress(p, 10.0, 2.0).remaining_s > mid.remaining_s);
    }
};

QTEST_GUILESS_MAIN(TestPlan)
#include "tst_plan.moc"
