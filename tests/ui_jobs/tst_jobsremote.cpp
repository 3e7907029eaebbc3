// The Jobs page watching a served queue (issue 35): `joulebench-cli jobs run --serve
// 127.0.0.1:0` runs two fake jobs on the fake GPU machine; the page connects through core/remote's
// RemoteSource and its table shows each job's state as the served queue reports it, the queue's
// end in the banner, the local queue's buttons off while watching.
#include "jobs/JobLiveChart.h"
#include "jobs/JobLogView.h"
#include "jobs/JobTableModel.h"
#include "jobs/JobsPage.h"
#include <jb/remote/RemoteTarget.h>

#include "JobsTestSupport.h"

#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QtTest>

class TestJobsRemote : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void watchesAServedQueue()
    {
        jbtest::FakeGpuMachine m;
        nlohmann::json f = jbtest::baseJobFile(m.root + "/runs");
        f["nvml_library"] = JB_FAKE_NVML_LIB;  // the served CLI's power readings: the fake NVML's
        f["jobs"] = {jbtest::workerJob("good", {"--stderr", "warming up", "--gpu-mem", "268435456", "--sleep", "1.5",
                                                "--write", "{run_dir}/r.json"}),
                     jbtest::workerJob("bad", {"--sleep", "0.3", "--exit", "4"})};
        const std::string file = m.root + "/jobs.json";
        jbtest::writeText(file, f.dump(2));

        QProcess p;
        QByteArray err;
        QObject::connect(&p, &QProcess::readyReadStandardError, [&] { err += p.readAllStandardError(); });
        p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"),
                {QStringLiteral("jobs"), QStringLiteral("run"), QString::fromStdString(file),
                 QStringLiteral("--no-library"), QStringLiteral("--serve"), QStringLiteral("127.0.0.1:0")});
        static const QRegularExpression re(QStringLiteral("serving on (127\\.0\\.0\\.1:\\d+) token ([0-9a-f]{32})\n"));
        QTRY_VERIFY2_WITH_TIMEOUT(re.match(QString::fromUtf8(err)).hasMatch(), err.constData(), 15000);
        const auto match = re.match(QString::fromUtf8(err));
        const auto target = jb::parseRemoteTarget(match.captured(1).toStdString(), match.captured(2).toStdString());
        QVERIFY(target);

        jb::JobsPage page;
        page.resize(1200, 800);
        page.show();
        QVERIFY(page.watchRemote(*target));
        QVERIFY(page.watching());
        QVERIFY(!page.runAllButton()->isEnabled());
        QVERIFY(!page.disconnectButton()->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(page.bannerText() == QStringLiteral("Watching a job queue on %1 (remote)")
                                                          .arg(match.captured(1)) ||
                                     !page.watching(),
                                 10000);
        // While it runs the page follows the newest job to start, as for a local queue: its chart.
        QTRY_VERIFY_WITH_TIMEOUT(page.chart()->showingTrace() || !page.watching(), 20000);
        QVERIFY2(page.watching(), "the queue ended before any job's trace was shown");
        QVERIFY(!page.shownJob().isEmpty());
        // JB_SHOT_DIR: the page mid-queue on the long job, for docs/screenshots/remote-jobs.png.
        if (const QString shots = qEnvironmentVariable("JB_SHOT_DIR"); !shots.isEmpty()) {
            page.showJob(QStringLiteral("good"));
            QTest::qWait(900);  // a few samples on the chart
            page.grab().save(QDir(shots).filePath(QStringLiteral("remote-jobs.png")));
        }
        QTRY_VERIFY2_WITH_TIMEOUT(!page.watching(), qPrintable(page.bannerText()), 30000);
        QVERIFY2(p.state() == QProcess::NotRunning || p.waitForFinished(15000), err.constData());

        // Each job's state from the served queue.
        QCOMPARE(page.model()->jobCount(), 2);
        const jb::JobRow& good = page.model()->job(page.model()->rowOf(QStringLiteral("good")));
        const jb::JobRow& bad = page.model()->job(page.model()->rowOf(QStringLiteral("bad")));
        QCOMPARE(good.state, jb::RowState::Finished);
        QCOMPARE(good.status, std::optional<jb::JobStatus>(jb::JobStatus::Completed));
        QCOMPARE(bad.status, std::optional<jb::JobStatus>(jb::JobStatus::NonzeroExit));
        QVERIFY(good.gpu == 0 || good.gpu == 1);
        QVERIFY2(good.manifest_path.endsWith(QStringLiteral("manifest.json")), qPrintable(good.manifest_path));
        QVERIFY2(page.bannerText().contains(QStringLiteral("1 completed, 1 failed")), qPrintable(page.bannerText()));
        QVERIFY(page.errorText().isEmpty());
        QVERIFY(page.disconnectButton()->isHidden());

        // The served job's chart (its samples as served) and its log as served (job-log, 1.2):
        // lines that arrived, not its run folder's files read here.
        page.showJob(QStringLiteral("good"));
        QVERIFY(page.chart()->showingTrace());
        page.chart()->redraw();
        QVERIFY(page.chart()->memoryPoints() > 0);
        QVERIFY(page.chart()->powerPoints() > 0);  // the fake NVML's power, served
        QVERIFY2(page.chart()->title().startsWith(QStringLiteral("good on GPU ")), qPrintable(page.chart()->title()));
        QVERIFY(page.logView()->hasLines(QStringLiteral("good")));
        QVERIFY2(page.logView()->text().contains(QStringLiteral("warming up")), qPrintable(page.logView()->text()));
        QVERIFY2(page.logView()->text().contains(QStringLiteral("RUN on GPU ")), qPrintable(page.logView()->text()));

        // A job that held no GPU memory: its axis still reads in distinct steps (0, 0.2, ...),
        // not whole numbers repeated (0, 0, 0, 1, 1, 1).
        page.showJob(QStringLiteral("bad"));
        QVERIFY(page.chart()->showingTrace());
        page.chart()->redraw();
        for (QStringList ticks : {page.chart()->memoryTicks(), page.chart()->powerTicks()}) {
            const QString all = ticks.join(QLatin1Char(' '));
            QVERIFY2(ticks.size() >= 2 && ticks.removeDuplicates() == 0, qPrintable(all));
        }
    }

    // A measure run's address is not a queue, and a wrong address is an error naming it.
    void aClosedPortIsAnError()
    {
        jb::JobsPage page;
        const auto target = jb::parseRemoteTarget("127.0.0.1:1", "abc");
        QVERIFY(target);
        QVERIFY(page.watchRemote(*target));
        QTRY_VERIFY_WITH_TIMEOUT(!page.watching(), 10000);
        QVERIFY2(page.errorText().contains(QStringLiteral("127.0.0.1:1")), qPrintable(page.errorText()));
        QVERIFY(page.runAllButton()->isEnabled() == false);  // no job file loaded
    }
};

QTEST_MAIN(TestJobsRemote)
#include "tst_jobsremote.moc"
