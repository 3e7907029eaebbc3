// Whole sessions through the macOS glue on any platform: the fake libIOReport's rails rise by
// known powers while the fake child (the RAPL session test's) is busy, the fake libproc gives
// the child's rusage energy, and a fake ioreg the GPU-time share. The marginal energies must
// match the injected truth; a refused overlap and a failing rusage call end the run with the
// error; no CF object outlives the session.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "FakeApple.h"
#include <jb/session/RoundLine.h>
#include <jb/session/Session.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>

using namespace jb;
using namespace jbtest;

namespace {

QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

Record run(Session& s, int timeout_ms = 90000)
{
    QSignalSpy done(&s, &Session::finished);
    s.start();
    if (done.isEmpty() && !done.wait(timeout_ms))
        return {};
    return done.takeFirst().at(0).value<Record>();
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

class TestAppleSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    FakeCF cf_;
    FakeLibproc proc_;

    QString flag() const { return dir_.filePath(QStringLiteral("busy.flag")); }

    Plan plan(std::vector<std::string> counters) const
    {
        Plan p;
        p.label = "apple";
        p.rounds = 3;
        p.k = 2;
        p.idle_s = 0.6;
        p.sample_ms = 20;
        p.counters = std::move(counters);
        p.counter_options.apple = fakeAppleLibraries();
        p.counter_options.ioreg_program = dir_.filePath(QStringLiteral("ioreg")).toStdString();
        p.child = {testBin("fakechild").toStdString(), "serve", "--jobs", "2", "--job-ms", "100",
                   "--flag", flag().toStdString(), "--busy-w", "15"};
        p.ready_timeout_s = 10;
        return p;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFileInfo(testBin("fakechild")).isExecutable(), "build the fakechild client");
        QVERIFY(cf_.loaded() && proc_.loaded());
        // GPU 15 W, CPU 6 W and DRAM 1.5 W more while the child is busy, each in its own unit.
        const QByteArray conf = "channel mJ 2 6 CPU Energy\n"
                                "channel mJ 1 4 PACC0_CPU\n"
                                "channel nJ 3 15 GPU Energy\n"
                                "channel uJ 1 1.5 DRAM\n"
                                "flag " + QFile::encodeName(flag()) + "\n";
        QVERIFY(configureFakeIOReport(dir_.filePath(QStringLiteral("ioreport.conf")), conf));
        // ioreg: one other GPU client whose time moves by 1 ms a call.
        const QString ioreg = dir_.filePath(QStringLiteral("ioreg"));
        QFile f(ioreg);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nn=$(cat \"$0.n\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$0.n\"\n"
                "echo '+-o AGXDeviceUserClient  <class AGXDeviceUserClient>'\n"
                "echo '    \"AppUsage\" = ({\"API\"=\"Metal\",\"accumulatedGPUTime\"='$((n*1000000))'})'\n"
                "echo '    \"IOUserClientCreator\" = \"pid 1, WindowServer\"'\n");
        f.close();
        QFile::setPermissions(ioreg, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        proc_.setWatts(10.0);
    }

    void init() { cf_.reset(); }

    void marginalEnergiesMatchTheInjectedTruth()
    {
        {
            Session s(plan({"ioreport:CPU Energy", "ioreport-gpu", "ioreport:DRAM", "task"}));
            const Record r = run(s);
            QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
            QCOMPARE(int(r.rounds.size()), 3);
            for (const Round& round : r.rounds) {
                QVERIFY(round.child_note.has_value());
                // The child's note: 15 W x its busy time; the other rails scale with their power.
                const double truth = std::stod(round.child_note->substr(round.child_note->find('=') + 1));
                for (const auto& [spec, watts] : std::vector<std::pair<std::string, double>>{
                         {"ioreport-gpu", 15.0}, {"ioreport:CPU Energy", 6.0}, {"ioreport:DRAM", 1.5}}) {
                    const CounterRound* c = round.counter(spec);
                    QVERIFY2(c && c->has_marginal, spec.c_str());
                    const double want = truth * watts / 15.0;
                    QVERIFY2(std::abs(c->marginal_nj - want) < 0.10 * want,
                             qPrintable(QStringLiteral("%1: marginal %2 nJ vs injected %3 nJ")
                                            .arg(QString::fromStdString(spec))
                                            .arg(c->marginal_nj)
                                            .arg(want)));
                }
                // task: the fake libproc's 10 W of the child's CPU time.
                QVERIFY(round.task.has_value());
                const auto& t = *round.task;
                QVERIFY2(t.contains("energy_nj") && t.contains("billed_nj") && t.contains("serviced_nj"),
                         t.dump().c_str());
                const double cpu = t["cpu_ns"].get<double>();
                const double energy = double(t["energy_nj"].get<std::int64_t>());
                QVERIFY2(cpu > 0 && std::abs(energy - 10.0 * cpu) < 0.001 * energy + 1000,
                         t.dump().c_str());
                // ioreg: the other client's 1 ms per call, none of it the child's.
                QVERIFY(round.gpu_time.has_value());
                QCOMPARE(round.gpu_time->child_ns, std::int64_t(0));
                QVERIFY(round.gpu_time->all_clients_ns > 0);
            }
        }
        const std::string p = cf_.problems();
        QVERIFY2(p.empty(), p.c_str());
    }

    void aDeadChannelIsNamedInEachRound()
    {
        // GPU Energy reads 0 throughout (as CPU Energy does on macOS 27 betas): each round's limit
        // line names it and why, where its verdict is empty; the live CPU rail gets none. (GPU
        // Energy moves at every read on real chips, so a round without an advance is a dead rail;
        // an mJ channel known to publish every ~1 s would be called too short for rounds this
        // short instead.)
        const QString conf = dir_.filePath(QStringLiteral("ioreport.conf"));
        QFile f(conf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray was = f.readAll();
        f.close();
        QVERIFY(configureFakeIOReport(conf, was + "zero GPU Energy\n"));
        Plan p = plan({"ioreport-gpu", "ioreport:CPU Energy"});
        p.rounds = 2;
        Session s(p);
        const Record r = run(s);
        QVERIFY(configureFakeIOReport(conf, was));
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
        QCOMPARE(int(r.rounds.size()), 2);
        const std::string want = "ioreport-gpu never advanced in this round: its energy is missing";
        for (std::size_t i = 0; i < r.rounds.size(); ++i) {
            const Round& round = r.rounds[i];
            const CounterRound* gpu = round.counter("ioreport-gpu");
            QVERIFY(gpu && gpu->busy && gpu->busy->advanced == 0);
            const auto limits = round.extra.find("limits");
            QVERIFY2(limits != round.extra.end() && limits->contains("ioreport-gpu"), round.extra.dump().c_str());
            QCOMPARE(QString::fromStdString((*limits)["ioreport-gpu"].get<std::string>()),
                     QString::fromStdString(want));
            QVERIFY2(!limits->contains("ioreport:CPU Energy") ||
                         !has((*limits)["ioreport:CPU Energy"].get<std::string>(), "never advanced"),
                     limits->dump().c_str());
            const std::string line = roundLine(p, int(i), round);
            QVERIFY2(has(line, "\n    " + want), line.c_str());
        }
    }

    void totalAndPartAreRefused()
    {
        Session s(plan({"ioreport:CPU Energy", "ioreport:PACC0_CPU"}));
        const Record r = run(s);
        QVERIFY(r.error.has_value());
        QVERIFY2(has(*r.error, "--counter ioreport:CPU Energy and --counter ioreport:PACC0_CPU overlap"),
                 r.error->c_str());
        QVERIFY(r.rounds.empty());
    }

    void failingRusageEndsTheRunWithTheError()
    {
        proc_.fail(ESRCH);
        Record r;
        {
            Session s(plan({"ioreport-gpu", "task"}));
            r = run(s);
        }  // the session and its counters are gone: so must be their CF objects
        proc_.fail(0);
        QVERIFY(r.error.has_value());
        QVERIFY2(has(*r.error, "task counter before the round: task counter: proc_pid_rusage(") &&
                     has(*r.error, "RUSAGE_INFO_V6) failed: " + std::string(std::strerror(ESRCH))),
                 r.error->c_str());
        QVERIFY(r.isAborted());
        const std::string p = cf_.problems();
        QVERIFY2(p.empty(), p.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAppleSession)
#include "tst_apple_session.moc"
