// SimulatedTime: timers fire in order of deadline (ties in the order armed), the clock set to
// each deadline; a stopped, re-armed or destroyed timer does not fire where it was; runUntil stops
// at its condition or its limit. And the real source's timer fires on the real clock.
#include <jb/base/Clock.h>
#include <jb/base/TimeSource.h>

#include <QCoreApplication>
#include <QtTest>

#include <string>
#include <vector>

using namespace jb;

class TestTimeSource : public QObject {
    Q_OBJECT
private slots:
    void timersFireInOrderOfDeadline()
    {
        SimulatedTime t(1000);
        std::vector<std::string> log;
        auto a = t.timer(nullptr, [&] { log.push_back("a@" + std::to_string(t.nowNs())); });
        auto b = t.timer(nullptr, [&] { log.push_back("b@" + std::to_string(t.nowNs())); });
        auto c = t.timer(nullptr, [&] { log.push_back("c@" + std::to_string(t.nowNs())); });
        a->start(300);
        b->start(100);
        c->start(300);  // a tie with a: after it, armed later
        t.post(200, [&] { log.push_back("post@" + std::to_string(t.nowNs())); });
        QVERIFY(a->isActive());
        t.advance(250);
        QCOMPARE(log, (std::vector<std::string>{"b@1100", "post@1200"}));
        QCOMPARE(t.nowNs(), std::int64_t(1250));
        QVERIFY(!b->isActive());
        t.advance(1000);
        QCOMPARE(log, (std::vector<std::string>{"b@1100", "post@1200", "a@1300", "c@1300"}));
        QCOMPARE(t.nowNs(), std::int64_t(2250));
        QCOMPARE(t.pending(), std::size_t(0));
    }

    void stoppedReArmedAndDestroyedTimersDoNotFireWhereTheyWere()
    {
        SimulatedTime t(0);
        int a = 0, b = 0, c = 0;
        auto ta = t.timer(nullptr, [&] { ++a; });
        auto tb = t.timer(nullptr, [&] { b = int(t.nowNs()); });
        auto tc = t.timer(nullptr, [&] { ++c; });
        ta->start(10);
        ta->stop();
        tb->start(10);
        tb->start(50);  // re-armed: fires once, at 50
        tc->start(10);
        tc.reset();
        t.advance(100);
        QCOMPARE(a, 0);
        QCOMPARE(b, 50);
        QCOMPARE(c, 0);
    }

    void aTimerMayReArmItselfAndRunUntilStops()
    {
        SimulatedTime t(0);
        int ticks = 0;
        std::unique_ptr<OneShot> tick;
        tick = t.timer(nullptr, [&] {
            ++ticks;
            tick->start(10);
        });
        tick->start(10);
        QVERIFY(t.runUntil([&] { return ticks == 5; }, 1000));
        QCOMPARE(t.nowNs(), std::int64_t(50));
        // The limit: not reached in 25 ns more, the clock stops at the last timer fired in it.
        QVERIFY(!t.runUntil([&] { return ticks == 100; }, 25));
        QCOMPARE(ticks, 7);
        QCOMPARE(t.nowNs(), std::int64_t(70));
    }

    void theRealSourceFiresOnTheRealClock()
    {
        TimeSource& real = realTime();
        QVERIFY(!real.simulated());
        const std::int64_t t0 = real.nowNs();
        QVERIFY(std::abs(t0 - monotonicNs()) < 1'000'000'000);
        std::int64_t fired = 0;
        auto once = real.timer(this, [&] { fired = real.nowNs(); });
        once->start(20'000'000);
        QVERIFY(once->isActive());
        QTRY_VERIFY_WITH_TIMEOUT(fired != 0, 5000);
        QVERIFY2(fired - t0 >= 19'000'000, qPrintable(QString::number(fired - t0)));
        QVERIFY(!once->isActive());
    }
};

QTEST_GUILESS_MAIN(TestTimeSource)
#include "tst_timesource.moc"
