// The Jobs page offscreen, running fake jobs (jobs_worker) on the jobs room's fake GPU machine
// (fake nvidia-smi on PATH, the fake NVML library named in the job file): a job that
// completes, one that times out, one that exits 3; cancelling one job while the queue goes on;
// stopping the queue; preserved and orphaned jobs shown on load and left alone; a dry run; a
// refused queue; a bad job file's JSON path; a page closed mid-run still records its job.
#include "jobs/JobLiveChart.h"
#include "jobs/JobLogView.h"
#include "jobs/JobTableModel.h"
#include "jobs/JobsPage.h"
#include "jobs/ManifestDialog.h"

#include "JobsTestSupport.h"

#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <filesystem>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A fake GPU machine and a job file in its folder.
struct Bench {
    jbtest::FakeGpuMachine gpus;
    std::string out = gpus.root + "/runs";
    QString path = QString::fromStdString(gpus.root + "/jobs.json");
    json file;
    Bench()
    {
        file = jbtest::baseJobFile(out);
        file["nvml_library"] = JB_FAKE_NVML_LIB;
    }
    void add(json job) { file["jobs"].push_back(std::move(job)); }
    void write() const { jbtest::writeText(path.toStdString(), file.dump(2)); }
};

QString key(const jb::JobsPage& p, const char* job)
{
    const int row = p.model()->rowOf(QLatin1String(job));
    if (row < 0)
        return QStringLiteral("(no row %1)").arg(QLatin1String(job));
    return p.model()
        ->data(p.model()->index(row, jb::JobTableModel::Status), jb::JobTableModel::StatusKeyRole)
        .toString();
}

QString cell(const jb::JobsPage& p, const char* job, int column, int role = Qt::DisplayRole)
{
    const int row = p.model()->rowOf(QLatin1String(job));
    return p.model()->data(p.model()->index(row, column), role).toString();
}

QPushButton* button(jb::JobsPage& p, const char* name)
{
    auto* b = p.findChild<QPushButton*>(QLatin1String(name));
    if (!b)
        qFatal("no button %s", name);
    return b;
}

}  // namespace

class TestJobsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_jobspage"));
        QSettings().clear();
        qRegisterMetaType<jb::QueueSummary>();
    }

    void runAllShowsStatusesAndExitCodes()
    {
        Bench b;
        json ok = jbtest::workerJob("ok",
                                    {"--print-env", "CUDA_VISIBLE_DEVICES", "--stderr", "warming up",
                                     "--gpu-mem", "268435456", "--write", "{run_dir}/histogram_1.json",
                                     "--sleep", "0.6"});
        ok["gpu"] = 1;
        ok["result_glob"] = "histogram_*.json";
        b.add(ok);
        json slow = jbtest::workerJob("slow", {"--sleep", "60"});
        slow["gpu"] = 0;
        slow["timeout_seconds"] = 1;
        b.add(slow);
        b.add(jbtest::workerJob("exits3", {"--exit", "3"}));
        b.write();

        jb::JobsPage page;
        page.resize(1200, 800);
        page.show();
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.loadJobFile(b.path));
        QCOMPARE(page.model()->rowCount(), 3);
        QCOMPARE(key(page, "ok"), QStringLiteral("not_run"));
        QVERIFY(page.errorText().isEmpty());
        QVERIFY(button(page, "runAll")->isEnabled());
        QVERIFY(!button(page, "stopQueue")->isEnabled());

        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QSignalSpy runningChanged(&page, &jb::JobsPage::runningChanged);
        QVERIFY(page.runAll());
        QVERIFY(page.running());
        QVERIFY(!button(page, "runAll")->isEnabled());
        QVERIFY(button(page, "stopQueue")->isEnabled());
        // While it runs, the page follows the newest running job: its chart and log.
        QTRY_VERIFY_WITH_TIMEOUT(key(page, "ok") == QLatin1String("running") ||
                                     key(page, "slow") == QLatin1String("running"),
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(page.chart()->showingTrace(), 5000);
        QVERIFY(!page.shownJob().isEmpty());

        QVERIFY(finished.wait(30000));
        QVERIFY(!page.running());
        QCOMPARE(runningChanged.count(), 2);
        const auto summary = finished.front().front().value<jb::QueueSummary>();
        QCOMPARE(summary.completed, 1);
        QCOMPARE(summary.failed, 2);

        QCOMPARE(key(page, "ok"), QStringLiteral("completed"));
        QCOMPARE(cell(page, "ok", jb::JobTableModel::ExitCode), QStringLiteral("0"));
        QCOMPARE(cell(page, "ok", jb::JobTableModel::Gpu), QStringLiteral("1"));
        QCOMPARE(cell(page, "ok", jb::JobTableModel::PeakMemory), QStringLiteral("256"));
        QVERIFY(cell(page, "ok", jb::JobTableModel::Energy) !=
                QStringLiteral("–"));  // the fake NVML's energy
        QCOMPARE(key(page, "slow"), QStringLiteral("timeout"));
        QCOMPARE(cell(page, "slow", jb::JobTableModel::ExitCode), QStringLiteral("-15 (SIGTERM)"));
        QCOMPARE(cell(page, "slow", jb::JobTableModel::Gpu), QStringLiteral("0"));
        const int slowRow = page.model()->rowOf(QStringLiteral("slow"));
        QVERIFY(page.model()
                    ->data(page.model()->index(slowRow, jb::JobTableModel::Elapsed),
                           jb::JobTableModel::ProgressRole)
                    .toDouble() >= 1.0);
        QCOMPARE(key(page, "exits3"), QStringLiteral("nonzero_exit"));
        QCOMPARE(cell(page, "exits3", jb::JobTableModel::ExitCode), QStringLiteral("3"));
        QVERIFY2(page.bannerText().contains(QStringLiteral("did not complete")),
                 qPrintable(page.bannerText()));
        QVERIFY(page.statusText().contains(QStringLiteral("1 completed, 2 failed")));

        // The completed job's chart (its GPU memory, the fake NVML's power) and log.
        page.showJob(QStringLiteral("ok"));
        QCOMPARE(page.shownJob(), QStringLiteral("ok"));
        QVERIFY(page.chart()->showingTrace());
        page.chart()->redraw();
        QVERIFY(page.chart()->memoryPoints() > 0);
        QVERIFY(page.chart()->powerPoints() > 0);
        QVERIFY2(page.chart()->title().contains(QStringLiteral("ok on GPU 1")),
                 qPrintable(page.chart()->title()));
        QVERIFY2(page.logView()->text().contains(QStringLiteral("CUDA_VISIBLE_DEVICES=1")),
                 qPrintable(page.logView()->text()));
        QVERIFY(page.logView()->text().contains(QStringLiteral("warming up")));

        // Its manifest in the viewer.
        QVERIFY(button(page, "openManifest")->isEnabled());
        QVERIFY(page.openManifest(QStringLiteral("ok")));
        QVERIFY(page.manifestDialog());
        QVERIFY(page.manifestDialog()->isVisible());
        QVERIFY(page.manifestDialog()->viewer()->isReadOnly());
        QVERIFY(page.manifestDialog()->text().contains(QStringLiteral("\"status\": \"completed\"")));
        QCOMPARE(page.manifestDialog()->path(),
                 page.model()->job(page.model()->rowOf(QStringLiteral("ok"))).manifest_path);
        page.manifestDialog()->close();

        // From disk now: every job is preserved, and Run all runs none of them again.
        QVERIFY(page.refresh());
        QCOMPARE(cell(page, "ok", jb::JobTableModel::Status), QStringLiteral("completed (preserved)"));
        QCOMPARE(key(page, "slow"), QStringLiteral("timeout"));
        QCOMPARE(cell(page, "exits3", jb::JobTableModel::ExitCode), QStringLiteral("3"));
        finished.clear();
        QVERIFY(page.runAll());
        QVERIFY(finished.wait(10000));
        const auto again = finished.front().front().value<jb::QueueSummary>();
        QCOMPARE(again.preserved, 3);
        QCOMPARE(again.completed + again.failed, 0);
        QCOMPARE(cell(page, "ok", jb::JobTableModel::Status), QStringLiteral("completed (preserved)"));
    }

    void cancelOneJobTheQueueGoesOn()
    {
        Bench b;
        json longJob = jbtest::workerJob("long", {"--sleep", "60"});
        longJob["gpu"] = 0;
        b.add(longJob);
        json after = jbtest::workerJob("after", {"--sleep", "0.1"});
        after["gpu"] = 0;
        b.add(after);
        b.write();

        jb::JobsPage page;
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QString asked;
        bool answer = false;
        page.confirm = [&](const QString&, const QString& question) {
            asked = question;
            return answer;
        };
        QVERIFY(page.loadJobFile(b.path));
        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.runAll());
        QCOMPARE(key(page, "after"), QStringLiteral("queued"));
        QTRY_COMPARE_WITH_TIMEOUT(key(page, "long"), QStringLiteral("running"), 10000);
        page.showJob(QStringLiteral("long"));
        QPushButton* cancel = button(page, "cancelJob");
        QVERIFY(cancel->isEnabled());

        // Asked, and answered no: nothing happens.
        cancel->click();
        QVERIFY(asked.contains(QStringLiteral("long")));
        QVERIFY(!page.model()->job(page.model()->rowOf(QStringLiteral("long"))).cancelling);
        QCOMPARE(key(page, "long"), QStringLiteral("running"));

        answer = true;
        cancel->click();
        QVERIFY(cell(page, "long", jb::JobTableModel::Status).contains(QStringLiteral("cancelling")));
        QVERIFY(!cancel->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(key(page, "long"), QStringLiteral("cancelled"), 10000);
        QCOMPARE(cell(page, "long", jb::JobTableModel::ExitCode), QStringLiteral("-15 (SIGTERM)"));
        // The queue went on with the next job on that GPU.
        QVERIFY(finished.wait(15000));
        QCOMPARE(key(page, "after"), QStringLiteral("completed"));
        const auto s = finished.front().front().value<jb::QueueSummary>();
        QVERIFY(!s.cancelled);
        QCOMPARE(s.completed, 1);
        const auto disk = jb::inspectJob(b.out, "long");
        QCOMPARE(disk.state, jb::DiskState::Preserved);
        QCOMPARE(disk.manifest->status, jb::JobStatus::Cancelled);
        bool noted = false;
        for (const std::string& n : disk.manifest->notes)
            noted = noted || n.find("cancelled on its own") != std::string::npos;
        QVERIFY(noted);
        // Cancelling what does not run is refused.
        QVERIFY(!page.cancelJob(QStringLiteral("after")));
    }

    void stopQueueCancelsTheRunningJobAndLeavesTheRestNotRun()
    {
        Bench b;
        json longJob = jbtest::workerJob("long", {"--sleep", "60"});
        longJob["gpu"] = 0;
        b.add(longJob);
        json later = jbtest::workerJob("later", {});
        later["gpu"] = 0;
        b.add(later);
        b.write();

        jb::JobsPage page;
        page.confirm = [](const QString&, const QString&) { return true; };
        QVERIFY(page.loadJobFile(b.path));
        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.runAll());
        QTRY_COMPARE_WITH_TIMEOUT(key(page, "long"), QStringLiteral("running"), 10000);
        button(page, "stopQueue")->click();
        QVERIFY(finished.wait(15000));
        QCOMPARE(key(page, "long"), QStringLiteral("cancelled"));
        QCOMPARE(key(page, "later"), QStringLiteral("not_run"));
        QVERIFY(cell(page, "later", jb::JobTableModel::Status, Qt::ToolTipRole)
                    .contains(QStringLiteral("stopped")));
        QVERIFY(!fs::exists(b.out + "/later"));
        const auto s = finished.front().front().value<jb::QueueSummary>();
        QVERIFY(s.cancelled);
        QCOMPARE(s.not_started, 1);
        QVERIFY(page.statusText().contains(QStringLiteral("(stopped)")));
    }

    void loadShowsPreservedAndOrphanedJobsAndLeavesThemAlone()
    {
        Bench b;
        b.add(jbtest::workerJob("done", {}));
        b.add(jbtest::workerJob("orphan", {}));
        b.add(jbtest::workerJob("fresh", {"--print-env", "JOULEBENCH_JOB_NAME"}));
        b.write();
        // done: an earlier run's manifest; orphan: a folder whose driver is gone.
        const std::string doneDir = b.out + "/done/driver_2024_01_01_00_00_00";
        fs::create_directories(doneDir);
        jb::JobManifest m;
        m.job = {{"name", "done"}, {"timeout_seconds", 10}};
        m.status = jb::JobStatus::Completed;
        m.return_code = 0;
        m.run_directory = doneDir;
        m.hardware.physical_index = 1;
        QVERIFY(jb::writeJsonAtomic(doneDir + "/manifest.json", m.toJson()).ok());
        const std::string orphanDir = b.out + "/orphan/driver_2020_01_01_00_00_00";
        fs::create_directories(orphanDir);
        jbtest::writeText(orphanDir + "/stdout.log", "epoch 1\nepoch 2\nhalf a run\n");

        jb::JobsPage page;
        QVERIFY(page.loadJobFile(b.path));
        QCOMPARE(cell(page, "done", jb::JobTableModel::Status), QStringLiteral("completed (preserved)"));
        QCOMPARE(key(page, "orphan"), QStringLiteral("orphaned"));
        QCOMPARE(key(page, "fresh"), QStringLiteral("not_run"));
        QVERIFY2(page.bannerText().contains(QStringLiteral("orphaned")), qPrintable(page.bannerText()));
        QVERIFY(page.statusText().startsWith(QStringLiteral("3 jobs")));

        // The orphan's log tail comes from its folder.
        page.showJob(QStringLiteral("orphan"));
        QVERIFY2(page.logView()->text().contains(QStringLiteral("half a run")),
                 qPrintable(page.logView()->text()));
        QVERIFY(!page.chart()->showingTrace());
        QVERIFY(!button(page, "openManifest")->isEnabled());
        page.showJob(QStringLiteral("done"));
        QVERIFY(button(page, "openManifest")->isEnabled());

        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.runAll());
        QVERIFY(finished.wait(15000));
        const auto s = finished.front().front().value<jb::QueueSummary>();
        QCOMPARE(s.preserved, 1);
        QCOMPARE(s.orphaned, 1);
        QCOMPARE(s.completed, 1);
        QCOMPARE(key(page, "fresh"), QStringLiteral("completed"));
        QCOMPARE(key(page, "orphan"), QStringLiteral("orphaned"));
        QCOMPARE(jbtest::readText(orphanDir + "/stdout.log"), std::string("epoch 1\nepoch 2\nhalf a run\n"));
        QVERIFY(!fs::exists(orphanDir + "/manifest.json"));
    }

    void dryRunStartsAndCreatesNothing()
    {
        Bench b;
        b.add(jbtest::workerJob("a", {}));
        json pinned = jbtest::workerJob("b", {"--exit", "1"});
        pinned["gpu"] = 1;
        b.add(pinned);
        b.write();
        jb::JobsPage page;
        QVERIFY(page.loadJobFile(b.path));
        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.dryRun());
        QVERIFY(finished.wait(10000));
        QCOMPARE(key(page, "a"), QStringLiteral("would_run"));
        QCOMPARE(key(page, "b"), QStringLiteral("would_run"));
        QCOMPARE(cell(page, "b", jb::JobTableModel::Gpu), QStringLiteral("1"));
        QVERIFY(!fs::exists(b.out));
        QVERIFY(finished.front().front().value<jb::QueueSummary>().dry_run);
        QVERIFY(page.bannerText().contains(QStringLiteral("nothing was started")));
        QVERIFY2(page.statusText().contains(QStringLiteral("2 job(s) would run")),
                 qPrintable(page.statusText()));
    }

    // The dry run checks what it can: a program that is not there is named (in the banner and
    // the row), the command shows with {run_dir} filled, and Run All stays off.
    void dryRunNamesAMissingProgram()
    {
        Bench b;
        b.add(jbtest::workerJob("a", {}));
        json missing = jbtest::workerJob("m", {});
        missing["argv"] = {"/nonexistent/train", "--out", "{run_dir}"};
        b.add(missing);
        b.write();
        jb::JobsPage page;
        QVERIFY(page.loadJobFile(b.path));
        QVERIFY(button(page, "runAll")->isEnabled());
        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.dryRun());
        QVERIFY(finished.wait(10000));
        QVERIFY(page.dryRunBlocked());
        QVERIFY2(page.bannerText().contains(QStringLiteral("m: the program /nonexistent/train does not exist")),
                 qPrintable(page.bannerText()));
        QCOMPARE(cell(page, "m", jb::JobTableModel::Status),
                 QStringLiteral("would fail: the program /nonexistent/train does not exist"));
        QCOMPARE(cell(page, "a", jb::JobTableModel::Status), QStringLiteral("would run"));
        const QString runDir = QString::fromStdString(b.out + "/m/driver_<start time>");
        QCOMPARE(cell(page, "m", jb::JobTableModel::Command), QStringLiteral("/nonexistent/train --out '%1'").arg(runDir));
        QVERIFY(!cell(page, "a", jb::JobTableModel::Command).contains(QStringLiteral("{run_dir}")));
        QVERIFY(!button(page, "runAll")->isEnabled());
        QVERIFY(!fs::exists(b.out));
        // Loading the file again (fixed, say) lets Run All on again.
        QVERIFY(page.loadJobFile(b.path));
        QVERIFY(button(page, "runAll")->isEnabled());
    }

    void refusedQueueSaysWhy()
    {
        Bench b;
        b.file["allowed_gpus"] = {0, 4};
        json j = jbtest::workerJob("a", {});
        j["gpu"] = 4;
        b.add(j);
        b.write();
        jb::JobsPage page;
        QVERIFY(page.loadJobFile(b.path));
        QSignalSpy finished(&page, &jb::JobsPage::queueFinished);
        QVERIFY(page.runAll());
        QVERIFY(finished.wait(15000));
        QVERIFY2(page.errorText().contains(QStringLiteral("refused")) &&
                     page.errorText().contains(QStringLiteral("GPU 4")),
                 qPrintable(page.errorText()));
        QCOMPARE(key(page, "a"), QStringLiteral("not_run"));
        QVERIFY(!fs::exists(b.out + "/a"));
    }

    void badJobFileNamesItsJsonPath()
    {
        Bench b;
        b.add(jbtest::workerJob("a", {}));
        json bad = jbtest::workerJob("b", {});
        bad["gpu"] = 3;  // not in allowed_gpus
        b.add(bad);
        b.write();
        jb::JobsPage page;
        QVERIFY(!page.loadJobFile(b.path));
        QVERIFY2(page.errorText().contains(QStringLiteral("jobs[1].gpu")), qPrintable(page.errorText()));
        QVERIFY(page.errorText().contains(QStringLiteral("jobs.json")));
        QVERIFY(page.errorText().contains(QStringLiteral("allowed_gpus")));
        QCOMPARE(page.model()->rowCount(), 0);
        QVERIFY(!page.runAll());
        QVERIFY(!button(page, "runAll")->isEnabled());
        QVERIFY(button(page, "refresh")->isEnabled());

        jbtest::writeText(b.path.toStdString(), "{\"output_root\": \"runs\",\n \"jobs\": [\n");
        QVERIFY(!page.refresh());
        QVERIFY2(page.errorText().contains(QStringLiteral("not valid JSON")), qPrintable(page.errorText()));

        // Fixed: Refresh reads it again.
        b.file["jobs"][1]["gpu"] = 1;
        b.write();
        QVERIFY(page.refresh());
        QVERIFY(page.errorText().isEmpty());
        QCOMPARE(page.model()->rowCount(), 2);
        QVERIFY(button(page, "runAll")->isEnabled());

        QVERIFY(!page.loadJobFile(QString::fromStdString(b.gpus.root + "/missing.json")));
        QVERIFY(page.errorText().contains(QStringLiteral("missing.json")));
    }

    void pageClosedMidRunStillRecordsTheJob()
    {
        Bench b;
        b.add(jbtest::workerJob("long", {"--sleep", "60"}));
        b.write();
        qint64 pid = 0;
        {
            jb::JobsPage page;
            QVERIFY(page.loadJobFile(b.path));
            QVERIFY(page.runAll());
            QTRY_COMPARE_WITH_TIMEOUT(key(page, "long"), QStringLiteral("running"), 10000);
            pid = page.model()->job(0).pid;
        }
        QVERIFY(pid > 0);
        const auto d = jb::inspectJob(b.out, "long");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QCOMPARE(d.manifest->status, jb::JobStatus::Cancelled);
    }
};

QTEST_MAIN(TestJobsPage)
#include "tst_jobspage.moc"
