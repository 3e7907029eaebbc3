// SIGINT, SIGTERM and SIGHUP reach the event loop as StopSignals::caught (the CLI's measure and
// jobs commands and the dashboard end their runs on it); the old handlers come back after.
#include <jb/base/StopSignals.h>

#include <QSignalSpy>
#include <QtTest>

#include <csignal>

namespace {
volatile std::sig_atomic_t g_old_handler_ran = 0;
void oldHandler(int)
{
    g_old_handler_ran = 1;
}
}  // namespace

class TestStopSignals : public QObject {
    Q_OBJECT
private slots:
    void eachSignalArrivesByName()
    {
        jb::StopSignals stops;
        QVERIFY(stops.installed());
        QSignalSpy spy(&stops, &jb::StopSignals::caught);
        for (int signo : {SIGTERM, SIGINT, SIGHUP}) {
            spy.clear();
            QCOMPARE(::raise(signo), 0);  // the default action would end this test
            QVERIFY(spy.wait(2000));
            QCOMPARE(spy.count(), 1);
            QCOMPARE(spy.first().at(0).toInt(), signo);
        }
        QCOMPARE(jb::StopSignals::name(SIGTERM), QStringLiteral("SIGTERM"));
        QCOMPARE(jb::StopSignals::name(SIGHUP), QStringLiteral("SIGHUP"));
    }

    void oneAtATimeAndTheOldHandlerComesBack()
    {
        struct sigaction sa {}, before {};
        sa.sa_handler = oldHandler;
        sigemptyset(&sa.sa_mask);
        QCOMPARE(sigaction(SIGTERM, &sa, &before), 0);
        {
            jb::StopSignals first;
            QVERIFY(first.installed());
            jb::StopSignals second;  // the handlers are taken: it says so, and the first keeps them
            QVERIFY(!second.installed());
            QSignalSpy spy(&first, &jb::StopSignals::caught);
            QCOMPARE(::raise(SIGTERM), 0);
            QVERIFY(spy.wait(2000));
            QCOMPARE(g_old_handler_ran, 0);
        }
        QCOMPARE(::raise(SIGTERM), 0);
        QCOMPARE(g_old_handler_ran, 1);
        QCOMPARE(sigaction(SIGTERM, &before, nullptr), 0);
        // And a fresh one installs again after.
        jb::StopSignals again;
        QVERIFY(again.installed());
    }
};

QTEST_GUILESS_MAIN(TestStopSignals)
#include "tst_stopsignals.moc"
