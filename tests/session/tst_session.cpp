// The session end to end: a fake powercap zone (a fixture process) whose power rises by a known
// amount while the fixture child decodes, and the abort paths, each leaving a valid record.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include <jb/session/Session.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace jb;

namespace {

QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

Plan simPlan(std::vector<std::string> childArgs)
{
    Plan p;
    p.label = "t";
    p.rounds = 2;
    p.k = 1;
    p.idle_s = 0.3;
    p.sample_ms = 20;
    p.counters = {"sim"};
    p.child = {testBin("fakechild").toStdString(), "serve", "--jobs", "2", "--job-ms", "20"};
    for (auto& a : childArgs)
        p.child.push_back(a);
    p.ready_timeout_s = 5;
    return p;
}

// Runs the session to its end and returns the record it finished with.
Record run(Session& s, int timeout_ms = 60000)
{
    QSignalSpy done(&s, &Session::finished);
    s.start();
    if (done.isEmpty() && !done.wait(timeout_ms))
        return {};
    return done.takeFirst().at(0).value<Record>();
}

bool childGone(qint64 pid)
{
    return pid <= 0 || (::kill(pid_t(pid), 0) != 0 && errno == ESRCH);
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(testBin("fakechild")).isExecutable(), "build the fakechild client");
        QVERIFY2(QFileInfo(testBin("fakezone")).isExecutable(), "build the fakezone client");
    }

    void marginalEnergyMatchesTheInjectedEnergy()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString zone = dir.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(QDir().mkpath(zone));
        const QString flag = dir.filePath(QStringLiteral("busy.flag"));
        const double busy_w = 15.0;
        QProcess zoneProc;
        zoneProc.start(testBin("fakezone"), {zone, QStringLiteral("--idle-w"), QStringLiteral("20"),
                                             QStringLiteral("--busy-w"), QString::number(busy_w),
                                             QStringLiteral("--flag"), flag, QStringLiteral("--tick-ms"),
                                             QStringLiteral("1"), QStringLiteral("--seconds"), QStringLiteral("120")});
        QVERIFY(zoneProc.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(zone + QStringLiteral("/energy_uj")), 5000);

        Plan p;
        p.label = "fakezone";
        p.rounds = 3;
        p.k = 2;
        p.idle_s = 0.6;
        p.sample_ms = 20;
        p.counters = {"rapl"};
        p.counter_options.rapl_zone = zone.toStdString();
        p.child = {testBin("fakechild").toStdString(), "serve", "--jobs", "2", "--job-ms", "100",
                   "--flag", flag.toStdString(), "--busy-w", std::to_string(busy_w)};
        p.with_samples = true;
        Session s(p);
        QSignalSpy rounds(&s, &Session::roundFinished);
        const Record r = run(s);
        zoneProc.kill();
        zoneProc.waitForFinished();
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
        QCOMPARE(int(r.rounds.size()), 3);
        QCOMPARE(rounds.count(), 3);
        QCOMPARE(r.jobs, 2);
        QCOMPARE(r.samples.size(), std::size_t(1));
        // The injected energy is busy W x the child's busy time (its truth_nj note). The
        // measured marginal energy must match it within 10%: the zone ticks every 1 ms and the
        // busy flag's file-system round trip blurs the edges by a few ms of 400 ms.
        for (const Round& round : r.rounds) {
            QCOMPARE(round.decodes, 4);
            QVERIFY(round.child_note.has_value());
            const double truth = std::stod(round.child_note->substr(round.child_note->find('=') + 1));
            const CounterRound* c = round.counter("rapl");
            QVERIFY(c);
            QVERIFY(c->has_marginal);
            QVERIFY2(std::abs(c->marginal_nj - truth) < 0.10 * truth,
                     qPrintable(QStringLiteral("marginal %1 nJ vs injected %2 nJ").arg(c->marginal_nj).arg(truth)));
            QVERIFY(c->busy && c->idle_before && c->idle_after);
            QVERIFY(std::abs(c->idle_before->mean_w - 20.0) < 1.0);
            QVERIFY(round.window && round.brackets);
            QCOMPARE((*round.window)[1] - (*round.window)[0], round.window_ns);
            QVERIFY((*round.brackets)[0][1] <= (*round.window)[0]);
            QVERIFY((*round.brackets)[1][0] >= (*round.window)[1]);
        }
        // Consecutive rounds share the bracket between them, as the reference.
        QCOMPARE((*r.rounds[1].brackets)[0], (*r.rounds[0].brackets)[1]);
        // Random phases (the default): each bracket before a round waited idle_s plus an offset
        // in [0, 20 ms), drawn by the seeded generator in bracket order, and recorded per round.
        QVERIFY(r.extra.contains("phases"));
        QCOMPARE(r.extra["phases"]["seed"].get<std::uint64_t>(), std::uint64_t(1));
        QCOMPARE(r.extra["phases"]["period_ms"].get<double>(), 20.0);
        PhaseOffsets g(1);
        for (const Round& round : r.rounds) {
            QVERIFY(round.extra.contains("phase_offset_ns"));
            const auto off = round.extra["phase_offset_ns"].get<std::int64_t>();
            QCOMPARE(off, g.nextNs(20.0));
            QVERIFY(off >= 0 && off < 20'000'000);
            const auto& pre = (*round.brackets)[0];
            QVERIFY2(pre[1] - pre[0] >= std::int64_t(0.6e9) + off - 2'000'000,
                     qPrintable(QStringLiteral("bracket %1 ns, offset %2 ns").arg(pre[1] - pre[0]).arg(off)));
        }
        QCOMPARE(r.rounds[1].counter("rapl")->idle_before->mean_w, r.rounds[0].counter("rapl")->idle_after->mean_w);
    }

    // The averaged and the sampled counter's rounds run in simulated time (tst_session_sim,
    // the same fake-counter modes), where their figures are exact to the nanosecond.

    void noReadyTimesOut()
    {
        Plan p = simPlan({"--mode", "noready"});
        p.ready_timeout_s = 0.5;
        Session s(p);
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QVERIFY2(QString::fromStdString(*r.error).contains(QStringLiteral("ready")), r.error->c_str());
        QVERIFY(r.rounds.empty());
    }

    void badReadyLineIsQuoted()
    {
        Session s(simPlan({"--mode", "badready"}));
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QVERIFY2(QString::fromStdString(*r.error).contains(QStringLiteral("'loading model...'")), r.error->c_str());
    }

    void exitMidRoundKeepsTheRoundsDone()
    {
        Plan p = simPlan({"--mode", "exit", "--fail-round", "2"});
        p.rounds = 3;
        Session s(p);
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QCOMPARE(int(r.rounds.size()), 1);
        const QString e = QString::fromStdString(*r.error);
        QVERIFY2(e.startsWith(QStringLiteral("round 2:")) && e.contains(QStringLiteral("exited with code 7")), qPrintable(e));
    }

    void garbageLineNamesRoundAndLine()
    {
        Session s(simPlan({"--mode", "garbage", "--fail-round", "1"}));
        const Record r = run(s);
        QVERIFY(r.isAborted());
        const QString e = QString::fromStdString(*r.error);
        QVERIFY2(e.startsWith(QStringLiteral("round 1:")) && e.contains(QStringLiteral("'oops 1'")), qPrintable(e));
    }

    void hangPastRoundTimeout()
    {
        Plan p = simPlan({"--mode", "hang", "--fail-round", "2"});
        p.round_timeout_s = 0.5;
        Session s(p);
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QCOMPARE(int(r.rounds.size()), 1);
        const QString e = QString::fromStdString(*r.error);
        QVERIFY2(e.contains(QStringLiteral("round 2:")) && e.contains(QStringLiteral("--round-timeout")), qPrintable(e));
    }

    void floodWithoutNewlineIsStopped()
    {
        Session s(simPlan({"--mode", "flood", "--fail-round", "1"}));
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QVERIFY2(QString::fromStdString(*r.error).contains(QStringLiteral("without a newline")), r.error->c_str());
    }

    void stopMidRoundEndsTheChildAndKeepsRounds()
    {
        Plan p = simPlan({});
        p.rounds = 50;
        Session s(p);
        QSignalSpy rounds(&s, &Session::roundFinished);
        QSignalSpy done(&s, &Session::finished);
        QSignalSpy phases(&s, &Session::phase);
        s.start();
        QVERIFY(rounds.wait(20000));
        // Wait for the next busy window, then stop inside it.
        QTRY_VERIFY_WITH_TIMEOUT(!phases.isEmpty() && phases.last().at(0).value<PhaseEvent>().kind == PhaseEvent::BusyStarted, 20000);
        const qint64 pid = s.childPid();
        QVERIFY(pid > 0);
        s.stop();
        QVERIFY(done.count() == 1 || done.wait(5000));
        const Record r = done.takeFirst().at(0).value<Record>();
        QVERIFY(r.isAborted());
        QCOMPARE(QString::fromStdString(*r.error).contains(QStringLiteral("stopped by the user")), true);
        QVERIFY(r.rounds.size() >= 1);
        QVERIFY(r.rounds.size() < 50);
        QTRY_VERIFY_WITH_TIMEOUT(childGone(pid), 5000);  // SIGTERM, then SIGKILL after the grace
    }

    void missingChildProgramIsNamed()
    {
        Plan p = simPlan({});
        p.child = {"/nonexistent/decoder", "serve"};
        Session s(p);
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QVERIFY2(QString::fromStdString(*r.error).contains(QStringLiteral("/nonexistent/decoder does not exist")), r.error->c_str());
    }

    void missingZoneIsNamed()
    {
        Plan p = simPlan({});
        p.counters = {"rapl"};
        p.counter_options.rapl_zone = "/nonexistent/intel-rapl:0";
        Session s(p);
        const Record r = run(s);
        QVERIFY(r.isAborted());
        QVERIFY2(QString::fromStdString(*r.error).contains(QStringLiteral("/nonexistent/intel-rapl:0")), r.error->c_str());
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
