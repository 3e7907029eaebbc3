// The Jobs page's table model under QAbstractItemModelTester: rows from a job file, states on
// disk (preserved, orphaned), the queue's story (queued, starting, running with its progress,
// finished with a manifest's figures, cancelled, not started), and how cells read.
#include "jobs/JobTableModel.h"

#include "JobsTestSupport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <filesystem>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

jb::JobFile jobFile(const std::string& outputRoot)
{
    json f;
    f["output_root"] = outputRoot;
    f["allowed_gpus"] = {0, 1};
    f["defaults"] = {{"timeout_seconds", 100}, {"gpu", "any"}};
    f["jobs"] = {{{"name", "a"}, {"argv", {"/bin/true"}}},
                 {{"name", "b"}, {"argv", {"/bin/true", "--x"}}, {"gpu", 1}},
                 {{"name", "c"}, {"argv", {"/bin/true"}}, {"timeout_seconds", 10}}};
    auto r = jb::parseJobFileText(f.dump(), "/", "test jobs");
    if (!r)
        qFatal("%s", r.error().c_str());
    return *r;
}

jb::JobManifest manifest(jb::JobStatus status, std::optional<int> rc)
{
    jb::JobManifest m;
    m.job = {{"name", "a"}, {"timeout_seconds", 100}};
    m.status = status;
    m.return_code = rc;
    m.driver_wall_seconds = 42.5;
    m.hardware.physical_index = 1;
    m.hardware.peak_process_gpu_memory_mib = 2048;
    m.run_directory = "/runs/a/driver_2024_01_01_00_00_00";
    m.energy = *jb::JobEnergy::fromJson({{"gpu_counter", "nvml:1"},
                {"counters",
                 {{"nvml:1",
                   {{"available", true},
                    {"total_j", 1234.56},
                    {"marginal_j", 1000.04},
                    {"verdict", "clean"},
                    {"busy", {{"mean_w", 250.26}}}}}}}});
    m.notes = {"a note"};
    return m;
}

QString cell(const jb::JobTableModel& m, int row, int col, int role = Qt::DisplayRole)
{
    return m.data(m.index(row, col), role).toString();
}

}  // namespace

class TestJobTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsFromTheJobFile()
    {
        jb::JobTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        m.setJobs(jobFile("/nonexistent/runs").jobs);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), int(jb::JobTableModel::ColumnCount));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Name), QStringLiteral("a"));
        QCOMPARE(cell(m, 1, jb::JobTableModel::Gpu), QStringLiteral("1"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Gpu), QStringLiteral("any"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("not_run"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("not run"));
        QCOMPARE(cell(m, 2, jb::JobTableModel::Elapsed), QStringLiteral("– / 0:10"));
        QVERIFY(!m.data(m.index(2, jb::JobTableModel::Elapsed), jb::JobTableModel::ProgressRole).isValid());
        QCOMPARE(cell(m, 1, jb::JobTableModel::Name, Qt::ToolTipRole), QStringLiteral("/bin/true --x"));
        QCOMPARE(m.rowOf(QStringLiteral("c")), 2);
        QCOMPARE(m.rowOf(QStringLiteral("zz")), -1);
        QCOMPARE(m.summaryText(), QStringLiteral("3 jobs: 3 not run"));
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void theQueuesStory()
    {
        jb::JobTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setJobs(jobFile("/nonexistent/runs").jobs);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.markQueued();
        QCOMPARE(changed.count(), 3);
        QCOMPARE(m.job(0).state, jb::RowState::Queued);

        m.markStarting(QStringLiteral("a"), 1, QStringLiteral("/runs/a/driver_x"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("starting"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Gpu), QStringLiteral("1"));
        m.markStarted(QStringLiteral("a"), 1, QStringLiteral("/runs/a/driver_x"), 4242);
        m.setProgress(QStringLiteral("a"), 25.0, 512, 180.5);
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("running"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Elapsed), QStringLiteral("0:25 / 1:40"));
        QCOMPARE(m.data(m.index(0, jb::JobTableModel::Elapsed), jb::JobTableModel::ProgressRole).toDouble(),
                 0.25);
        QVERIFY(m.data(m.index(0, jb::JobTableModel::Elapsed), jb::JobTableModel::BarColorRole)
                    .value<QColor>()
                    .isValid());
        QCOMPARE(cell(m, 0, jb::JobTableModel::PeakMemory), QStringLiteral("512"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Power), QStringLiteral("180.5"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::ExitCode), QStringLiteral("–"));
        QVERIFY(cell(m, 0, jb::JobTableModel::Status, Qt::ToolTipRole).contains(QStringLiteral("4242")));
        // Near the timeout the bar turns amber.
        const QColor blue =
            m.data(m.index(0, jb::JobTableModel::Elapsed), jb::JobTableModel::BarColorRole).value<QColor>();
        m.setProgress(QStringLiteral("a"), 95.0, 512, std::nan(""));
        QVERIFY(
            m.data(m.index(0, jb::JobTableModel::Elapsed), jb::JobTableModel::BarColorRole).value<QColor>() !=
            blue);
        QCOMPARE(cell(m, 0, jb::JobTableModel::Power), QStringLiteral("–"));  // unknown power

        m.markCancelling(QStringLiteral("a"));
        QVERIFY(cell(m, 0, jb::JobTableModel::Status).contains(QStringLiteral("cancelling")));
        m.markFinished(QStringLiteral("a"), manifest(jb::JobStatus::Cancelled, -15),
                       QStringLiteral("/runs/a/driver_x/manifest.json"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("cancelled"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("cancelled"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::ExitCode), QStringLiteral("-15 (SIGTERM)"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Elapsed), QStringLiteral("0:43 / 1:40"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::PeakMemory), QStringLiteral("2048"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Energy), QStringLiteral("1234.6"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Marginal), QStringLiteral("1000.0"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Power), QStringLiteral("250.3"));  // the busy mean now
        QVERIFY(cell(m, 0, jb::JobTableModel::Energy, Qt::ToolTipRole).contains(QStringLiteral("clean")));
        QVERIFY(cell(m, 0, jb::JobTableModel::Status, Qt::ToolTipRole).contains(QStringLiteral("a note")));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Folder), QStringLiteral("/runs/a/driver_2024_01_01_00_00_00"));
        QCOMPARE(m.job(0).manifest_path, QStringLiteral("/runs/a/driver_x/manifest.json"));
        // A late progress sample does not undo the manifest.
        m.setProgress(QStringLiteral("a"), 99.0, 9999, 1.0);
        QCOMPARE(cell(m, 0, jb::JobTableModel::PeakMemory), QStringLiteral("2048"));

        m.markSkipped(QStringLiteral("b"), jb::DiskState::Orphaned, QStringLiteral("driver 1 is gone"));
        QCOMPARE(cell(m, 1, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("orphaned"));
        QVERIFY(cell(m, 1, jb::JobTableModel::Status, Qt::ToolTipRole)
                    .contains(QStringLiteral("driver 1 is gone")));
        m.markNotStarted(QStringLiteral("Not started: the queue was stopped."));
        QCOMPARE(cell(m, 2, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("not_run"));
        QVERIFY(cell(m, 2, jb::JobTableModel::Status, Qt::ToolTipRole).contains(QStringLiteral("stopped")));
        QCOMPARE(m.summaryText(), QStringLiteral("3 jobs: 1 cancelled, 1 orphaned, 1 not run"));

        m.markWouldRun(QStringLiteral("c"), QStringLiteral("any"), {QStringLiteral("/bin/true")});
        QCOMPARE(cell(m, 2, jb::JobTableModel::Status), QStringLiteral("would run"));
        m.markFailed(QStringLiteral("c"), QStringLiteral("cannot create the run folder"));
        QCOMPARE(cell(m, 2, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("failed"));
        // Unknown names change nothing.
        m.markStarted(QStringLiteral("zz"), 0, {}, 1);
        m.setProgress(QStringLiteral("zz"), 1, 1, 1);
    }

    void slurmStates()
    {
        jb::JobTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setJobs(jobFile("/nonexistent/runs").jobs);
        m.markQueued();
        m.markRemote(QStringLiteral("a"), QStringLiteral("PENDING"), QStringLiteral("Resources"),
                     QStringLiteral("1234"), {});
        QCOMPARE(m.job(0).state, jb::RowState::Queued);
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("pending (Resources) · Slurm 1234"));
        m.markRemote(QStringLiteral("a"), QStringLiteral("RUNNING"), {}, QStringLiteral("1234"),
                     QStringLiteral("node7"));
        QCOMPARE(m.job(0).state, jb::RowState::Running);
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("running on node7 · Slurm 1234"));
        QVERIFY(cell(m, 0, jb::JobTableModel::Status, Qt::ToolTipRole).contains(QStringLiteral("Slurm job 1234")));
        m.markFinished(QStringLiteral("a"), manifest(jb::JobStatus::Completed, 0),
                       QStringLiteral("/runs/a/driver_x/manifest.json"));
        QCOMPARE(cell(m, 0, jb::JobTableModel::Status), QStringLiteral("completed"));
        // A late state after the manifest changes nothing.
        m.markRemote(QStringLiteral("a"), QStringLiteral("RUNNING"), {}, QStringLiteral("1234"),
                     QStringLiteral("node7"));
        QCOMPARE(m.job(0).state, jb::RowState::Finished);
    }

    void statesOnDisk()
    {
        QTemporaryDir dir;
        const std::string root = jbtest::str(dir.path()) + "/runs";
        // a: a manifest (preserved); b: a folder without one (orphaned); c: nothing.
        const std::string a = root + "/a/driver_2024_01_01_00_00_00";
        fs::create_directories(a);
        jb::JobManifest m = manifest(jb::JobStatus::NonzeroExit, 3);
        m.run_directory = a;
        QVERIFY(jb::writeJsonAtomic(a + "/manifest.json", m.toJson()).ok());
        fs::create_directories(root + "/b/driver_2020_01_01_00_00_00");

        jb::JobTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(jobFile(root).jobs);
        model.refreshFromDisk(root);
        QCOMPARE(cell(model, 0, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("nonzero_exit"));
        QCOMPARE(cell(model, 0, jb::JobTableModel::Status), QStringLiteral("nonzero exit (preserved)"));
        QCOMPARE(cell(model, 0, jb::JobTableModel::ExitCode), QStringLiteral("3"));
        QCOMPARE(cell(model, 0, jb::JobTableModel::Gpu), QStringLiteral("1"));
        QCOMPARE(model.job(0).manifest_path, QString::fromStdString(a + "/manifest.json"));
        QCOMPARE(model.job(0).state, jb::RowState::Preserved);
        QCOMPARE(cell(model, 1, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("orphaned"));
        QCOMPARE(model.job(1).run_dir, QString::fromStdString(root + "/b/driver_2020_01_01_00_00_00"));
        // Shown relative to the output root (named above the table); the tooltip has it whole.
        QCOMPARE(cell(model, 1, jb::JobTableModel::Folder), QStringLiteral("b/driver_2020_01_01_00_00_00"));
        QCOMPARE(cell(model, 1, jb::JobTableModel::Folder, Qt::ToolTipRole), model.job(1).run_dir);
        QCOMPARE(cell(model, 2, jb::JobTableModel::Status, jb::JobTableModel::StatusKeyRole),
                 QStringLiteral("not_run"));

        // The queue's preserved signal reads the manifest the same way.
        model.markQueued();
        model.markPreserved(QStringLiteral("a"), QString::fromStdString(a + "/manifest.json"));
        QCOMPARE(cell(model, 0, jb::JobTableModel::Status), QStringLiteral("nonzero exit (preserved)"));
        // A manifest that cannot be read says why.
        model.markPreserved(QStringLiteral("c"), QStringLiteral("/nonexistent/manifest.json"));
        QVERIFY(!cell(model, 2, jb::JobTableModel::Status, Qt::ToolTipRole).isEmpty());
    }

    void exitCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("text");
        QTest::newRow("ok") << 0 << QStringLiteral("0");
        QTest::newRow("error") << 3 << QStringLiteral("3");
        QTest::newRow("sigkill") << -9 << QStringLiteral("-9 (SIGKILL)");
        QTest::newRow("sigterm") << -15 << QStringLiteral("-15 (SIGTERM)");
        QTest::newRow("sigsegv") << -11 << QStringLiteral("-11 (SIGSEGV)");
        QTest::newRow("other") << -40 << QStringLiteral("-40 (signal 40)");
    }
    void exitCodes()
    {
        QFETCH(int, code);
        QFETCH(QString, text);
        QCOMPARE(jb::exitCodeText(code), text);
    }

    void energyWithoutTheGpuCounter()
    {
        const json unavailable = {
            {"gpu_counter", "nvml:0"},
            {"counters", {{"nvml:0", {{"available", false}, {"reason", "NVML not loaded"}}}}}};
        const jb::EnergyFigures e = jb::energyFigures(*jb::JobEnergy::fromJson(unavailable));
        QVERIFY(!e.total_j);
        QVERIFY(e.note.contains(QStringLiteral("NVML not loaded")));
        const jb::EnergyFigures none = jb::energyFigures(
            *jb::JobEnergy::fromJson({{"gpu_counter", nullptr}, {"counters", json::object()}}));
        QVERIFY(!none.total_j);
        QVERIFY(!none.note.isEmpty());
        QVERIFY(!jb::energyFigures(std::nullopt).total_j);
    }
};

QTEST_MAIN(TestJobTableModel)
#include "tst_jobtablemodel.moc"
