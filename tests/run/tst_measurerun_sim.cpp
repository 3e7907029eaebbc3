// core/run's MeasureRun in simulated time (tests/session/SimBench.h): the whole run around the
// session (the record written, the journal kept and removed, the library row, an interleaved
// run's records and comparison.json, an aborted run's record) with no process and no sleep.
// tst_runparity runs the same steps through the CLI's and the pages' mappings for real.
#include "../session/SimBench.h"

#include <jb/library/Library.h>
#include <jb/library/LibraryQuery.h>
#include <jb/record/JsonText.h>
#include <jb/record/RecordJson.h>
#include <jb/run/MeasureRun.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace jb;
using namespace simbench;

namespace {

Plan benchPlan()
{
    return plan("sim-run");
}

// Runs the MeasureRun to its finished(), in simulated time; its outcome.
std::optional<MeasureOutcome> runToEnd(SimBench& bench, MeasureRun& run, MeasureRunOptions o)
{
    o.env = bench.env();
    QSignalSpy done(&run, &MeasureRun::finished);
    if (Status st = run.start(std::move(o)); !st) {
        qWarning("start: %s", st.error().c_str());
        return std::nullopt;
    }
    if (!bench.advanceUntil([&] { return !done.isEmpty(); }))
        return std::nullopt;
    return done.takeFirst().at(0).value<MeasureOutcome>();
}

std::vector<LibraryEntry> rows(const QString& library)
{
    auto lib = Library::open(library.toStdString(), false);
    if (!lib)
        qFatal("library %s: %s", qPrintable(library), lib.error().c_str());
    auto l = (*lib)->list(LibraryQuery{});
    if (!l)
        qFatal("list: %s", l.error().c_str());
    return *l;
}

Record readRecord(const QString& path)
{
    auto text = readWholeFile(path.toStdString());
    if (!text)
        qFatal("%s: %s", qPrintable(path), text.error().c_str());
    auto r = parseRecord(*text);
    if (!r)
        qFatal("%s: %s", qPrintable(path), r.error().c_str());
    return *r;
}

}  // namespace

class TestMeasureRunSim : public QObject {
    Q_OBJECT
private slots:
    // One child: the record on disk is the one measured, the journal it kept is gone, and the
    // library has its row; the journal was there while the rounds ran.
    void oneChildWritesItsRecordAndItsLibraryRow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SimBench bench;
        MeasureRunOptions o;
        o.plan = benchPlan();
        o.plan.journal_path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        o.out_path = dir.filePath(QStringLiteral("run.json")).toStdString();
        o.library = dir.filePath(QStringLiteral("library.sqlite")).toStdString();
        MeasureRun run;
        int journal_seen = 0;
        connect(&run, &MeasureRun::roundFinished, this, [&] {
            journal_seen += QFile::exists(QString::fromStdString(o.plan.journal_path)) ? 1 : 0;
        });
        QSignalSpy written(&run, &MeasureRun::recordWritten);
        QSignalSpy removed(&run, &MeasureRun::journalRemoved);
        const auto out = runToEnd(bench, run, o);
        QVERIFY(out);
        QVERIFY(out->errors.empty());
        QVERIFY(!out->aborted);
        QCOMPARE(journal_seen, 3);
        QVERIFY(out->journal_removed);
        QVERIFY(!QFile::exists(QString::fromStdString(o.plan.journal_path)));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(written.count(), 1);
        QCOMPARE(out->paths, std::vector<std::string>{o.out_path});
        const Record onDisk = readRecord(QString::fromStdString(o.out_path));
        QCOMPARE(QString::fromStdString(onDisk.status.value_or("")), QStringLiteral("complete"));
        QCOMPARE(int(onDisk.rounds.size()), 3);
        QCOMPARE(dumpRecord(onDisk), dumpRecord(out->records[0]));
        for (const Round& rd : onDisk.rounds)
            QVERIFY(std::abs(rd.counter("rapl")->marginal_nj - noteTruth(rd)) < 0.005 * noteTruth(rd));
        const auto lib = rows(QString::fromStdString(*o.library));
        QCOMPARE(int(lib.size()), 1);
        QCOMPARE(QFileInfo(QString::fromStdString(lib[0].path)).canonicalFilePath(),
                 QFileInfo(QString::fromStdString(o.out_path)).canonicalFilePath());
        QCOMPARE(lib[0].label, std::optional<std::string>("sim-run"));
    }

    // Two children interleaved: a record each and comparison.json in the run's folder, the
    // comparison's ratio that of the children's injected energies (30 W against 15 W).
    void interleavedRunWritesTheComparison()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SimBench bench;
        ChildSpec heavy = bench.child;
        heavy.busy_w = 30;
        bench.by_argv0["heavy"] = heavy;
        MeasureRunOptions o;
        o.plan = benchPlan();
        o.plan.child.clear();
        o.plan.children = {{"light", {"light"}, ""}, {"heavy", {"heavy"}, ""}};
        o.plan.rounds = 4;
        o.out_dir = dir.filePath(QStringLiteral("versus")).toStdString();
        MeasureRun run;
        QSignalSpy compared(&run, &MeasureRun::comparisonWritten);
        const auto out = runToEnd(bench, run, o);
        QVERIFY(out);
        QVERIFY(out->interleaved);
        QVERIFY(out->errors.empty());
        QCOMPARE(int(out->records.size()), 2);
        QCOMPARE(compared.count(), 1);
        QVERIFY(QFile::exists(QString::fromStdString(out->comparison_path)));
        QCOMPARE(QFileInfo(QString::fromStdString(out->comparison_path)).dir().absolutePath(),
                 QDir(QString::fromStdString(o.out_dir)).absolutePath());
        for (const std::string& path : out->paths) {
            const Record r = readRecord(QString::fromStdString(path));
            QCOMPARE(int(r.rounds.size()), 4);
        }
        // The comparison's figure: heavy's J per decode over light's (the baseline), 2 to 1%.
        const std::string text = out->comparison.dump();
        QVERIFY2(out->comparison.contains("pairs") || text.find("ratio") != std::string::npos, text.c_str());
        const auto light = out->records[0].rounds[0].counter("rapl")->marginal_nj;
        const auto heavier = out->records[1].rounds[0].counter("rapl")->marginal_nj;
        QVERIFY2(std::abs(heavier / light - 2.0) < 0.02, qPrintable(QString::number(heavier / light)));
    }

    // A child that exits in round 2: the run still writes what it measured (an aborted record
    // with round 1) and the library still gets its row.
    void anAbortedRunStillWritesWhatItMeasured()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SimBench bench;
        bench.child.fault = ChildSpec::Fault::Exit;
        bench.child.fault_round = 2;
        MeasureRunOptions o;
        o.plan = benchPlan();
        o.out_path = dir.filePath(QStringLiteral("aborted.json")).toStdString();
        o.library = dir.filePath(QStringLiteral("library.sqlite")).toStdString();
        MeasureRun run;
        const auto out = runToEnd(bench, run, o);
        QVERIFY(out);
        QVERIFY(out->aborted);
        const Record onDisk = readRecord(QString::fromStdString(o.out_path));
        QCOMPARE(QString::fromStdString(onDisk.status.value_or("")), QStringLiteral("aborted"));
        QCOMPARE(int(onDisk.rounds.size()), 1);
        QVERIFY2(onDisk.error && onDisk.error->find("exited with code 3") != std::string::npos,
                 onDisk.error ? onDisk.error->c_str() : "no error");
        QCOMPARE(int(rows(QString::fromStdString(*o.library)).size()), 1);
    }

    // The dashboard's backend thread takes no simulated bench: said, not ignored.
    void aBackendRunRefusesAnEnvironment()
    {
        SimBench bench;
        MeasureRun run(MeasureRun::Thread::Backend);
        MeasureRunOptions o;
        o.plan = benchPlan();
        o.env = bench.env();
        const Status st = run.start(o);
        QVERIFY(!st);
        QVERIFY2(st.error().find("caller's thread only") != std::string::npos, st.error().c_str());
        QVERIFY(!run.running());
    }
};

QTEST_GUILESS_MAIN(TestMeasureRunSim)
#include "tst_measurerun_sim.moc"
