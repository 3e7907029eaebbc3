// A real session behind the RunSource interface: it runs on its own thread (not the test's),
// its signals arrive here as values in run order, its stores and clock are the session's, a
// bad plan is refused with the field named, stop and abort end it with an aborted record,
// and destroying the source during a run ends the run and its child.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include <jb/base/Clock.h>
#include <jb/live/SessionSource.h>
#include <jb/sampling/SampleStore.h>

#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <memory>

using jb::PhaseEvent;
using jb::SessionSource;

namespace {

const QString kFakeChild = QStringLiteral(JB_TEST_BIN_DIR "/fakechild");

jb::Plan smallPlan(int rounds, int job_ms, const QString& marker)
{
    jb::Plan p;
    p.label = "tst-sessionsource";
    p.rounds = rounds;
    p.k = 1;
    p.idle_s = 0.3;
    p.sample_ms = 50;
    p.counters = {"sim"};
    p.child = {kFakeChild.toStdString(), "serve", "--jobs", "2", "--job-ms", std::to_string(job_ms), "--flag",
               marker.toStdString()};
    return p;
}

bool childAlive(const QString& marker)
{
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        QFile f(it.next() + QStringLiteral("/cmdline"));
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(marker.toUtf8()))
            return true;
    }
    return false;
}

}  // namespace

class TestSessionSource : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void badPlanRefused();
    void runGivesEventsInOrder();
    void abortEndsWithTheReason();
    void destroyedDuringARun();

private:
    QTemporaryDir dir_;
};

void TestSessionSource::badPlanRefused()
{
    SessionSource src;
    jb::Plan p = smallPlan(1, 50, dir_.filePath(QStringLiteral("bad.flag")));
    p.rounds = 0;
    const jb::Status st = src.start(p);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("rounds")), st.error().c_str());
    QVERIFY(!src.running());
}

void TestSessionSource::runGivesEventsInOrder()
{
    SessionSource src;
    jb::RunSource* run = &src;
    QSignalSpy started(run, &jb::RunSource::started);
    QSignalSpy phases(run, &jb::RunSource::phase);
    QSignalSpy rounds(run, &jb::RunSource::roundFinished);
    QSignalSpy finished(run, &jb::RunSource::finished);
    // Every event is handled on this thread, never on the session's.
    QThread* here = QThread::currentThread();
    bool elsewhere = false;
    connect(run, &jb::RunSource::phase, this, [&](const PhaseEvent&) {
        elsewhere = elsewhere || QThread::currentThread() != here;
    });
    const std::int64_t before = jb::monotonicNs();
    QVERIFY(src.start(smallPlan(2, 60, dir_.filePath(QStringLiteral("run.flag")))));
    QVERIFY(run->running());
    QCOMPARE(run->layout().rounds, 2);
    QCOMPARE(run->layout().period_s, 0.05);
    QCOMPARE(run->layout().idle_s, 0.3);
    QVERIFY(!run->layout().busy_s);  // a real run measures it
    QVERIFY(finished.wait(60000));
    QVERIFY(!run->running());
    QVERIFY(!elsewhere);

    QCOMPARE(started.count(), 1);
    QCOMPARE(started[0][1].toStringList(), QStringList{QStringLiteral("sim")});
    QCOMPARE(started[0][0].toLongLong(), run->originNs());
    QVERIFY(run->originNs() >= before && run->originNs() <= run->nowNs());
    const auto store = run->storeOf("sim");
    QVERIFY(store);
    QVERIFY(store->size() > 5);

    QCOMPARE(phases.count(), 10);  // 3 idle brackets, 2 busy windows, each started and ended
    const PhaseEvent::Kind order[] = {PhaseEvent::IdleStarted, PhaseEvent::IdleEnded, PhaseEvent::BusyStarted,
                                      PhaseEvent::BusyEnded};
    std::int64_t last = run->originNs();
    for (int i = 0; i < phases.count(); ++i) {
        const auto e = phases[i][0].value<PhaseEvent>();
        QCOMPARE(int(e.kind), int(order[i % 4]));
        QVERIFY(e.t_ns >= last);
        last = e.t_ns;
    }
    QCOMPARE(rounds.count(), 2);
    QCOMPARE(rounds[1][0].toInt(), 1);
    const auto rec = finished[0][0].value<jb::Record>();
    QCOMPARE(rec.status, std::optional<std::string>("complete"));
    QCOMPARE(rec.rounds.size(), std::size_t(2));
    QCOMPARE(rec.rounds[1].window_ns, rounds[1][1].value<jb::Round>().window_ns);
}

void TestSessionSource::abortEndsWithTheReason()
{
    SessionSource src;
    QSignalSpy started(&src, &jb::RunSource::started);
    QSignalSpy finished(&src, &jb::RunSource::finished);
    QVERIFY(src.start(smallPlan(50, 200, dir_.filePath(QStringLiteral("abort.flag")))));
    QVERIFY(started.wait(20000));
    QVERIFY(!src.start(smallPlan(1, 50, dir_.filePath(QStringLiteral("second.flag")))));  // one at a time
    src.abort(QStringLiteral("the test said so"));
    QVERIFY(finished.wait(30000));
    const auto rec = finished[0][0].value<jb::Record>();
    QCOMPARE(rec.status, std::optional<std::string>("aborted"));
    QVERIFY(rec.error && QString::fromStdString(*rec.error).contains(QStringLiteral("the test said so")));
    QVERIFY(!src.running());
    // A second run on the same source after the first ended.
    QSignalSpy finished2(&src, &jb::RunSource::finished);
    QVERIFY(src.start(smallPlan(1, 50, dir_.filePath(QStringLiteral("again.flag")))));
    QVERIFY(finished2.wait(60000));
    QCOMPARE(finished2[0][0].value<jb::Record>().status, std::optional<std::string>("complete"));
}

void TestSessionSource::destroyedDuringARun()
{
    const QString marker = dir_.filePath(QStringLiteral("destroyed.flag"));
    auto src = std::make_unique<SessionSource>();
    QSignalSpy ready(src.get(), &SessionSource::childReady);
    QVERIFY(src->start(smallPlan(50, 200, marker)));
    QVERIFY(ready.wait(20000));
    QVERIFY(childAlive(marker));
    src.reset();  // ends the run and waits for its thread
    QTRY_VERIFY_WITH_TIMEOUT(!childAlive(marker), 10000);
}

QTEST_GUILESS_MAIN(TestSessionSource)
#include "tst_sessionsource.moc"
