// `joulebench-cli jobs`: lines per job start and end, the status table, exit codes, and a
// SIGINT that cancels the queue instead of leaving orphans.
#include <jb/jobs/RunFolders.h>
#include <jb/remote/RemoteSource.h>
#include <jb/remote/RemoteTarget.h>

#include "JobsTestSupport.h"

#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <signal.h>

#include <filesystem>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct CliRun {
    int code = -1;
    QString out, err;
};

CliRun cli(const QStringList& args, int timeout_ms = 30000)
{
    QProcess p;
    p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"), QStringList{QStringLiteral("jobs")} + args);
    CliRun r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace

class TestCliJobs : public QObject {
    Q_OBJECT

private:
    // A job file on a fake GPU machine (nvidia-smi only); returns its path.
    static QString writeJobFile(const jbtest::FakeGpuMachine& m, const std::vector<json>& jobs)
    {
        json f = jbtest::baseJobFile(m.root + "/runs");
        f["nvml_library"] = "/nonexistent/libnvidia-ml.so.1";
        f["jobs"] = jobs;  // an array even for one job
        const std::string path = m.root + "/jobs.json";
        jbtest::writeText(path, f.dump(2));
        return QString::fromStdString(path);
    }

private Q_SLOTS:
    // `jobs run --serve` (issue 35): a watcher (the dashboard's RemoteSource) receives each job's
    // states as the queue runs them and the queue's end, with the counts the CLI prints.
    void runServedSendsJobStatesAndTheEnd()
    {
        jbtest::FakeGpuMachine m;
        const QString file = writeJobFile(m, {jbtest::workerJob("good", {"--print-env", "CUDA_VISIBLE_DEVICES", "--stderr",
                                                                          "warming up", "--sleep", "0.8", "--write",
                                                                          "{run_dir}/r.json"}),
                                              jbtest::workerJob("bad", {"--exit", "4"})});
        QProcess p;
        QByteArray err;
        QObject::connect(&p, &QProcess::readyReadStandardError, [&] { err += p.readAllStandardError(); });
        p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"),
                {QStringLiteral("jobs"), QStringLiteral("run"), file, QStringLiteral("--no-library"),
                 QStringLiteral("--serve"), QStringLiteral("127.0.0.1:0")});
        static const QRegularExpression re(QStringLiteral("serving on 127\\.0\\.0\\.1:(\\d+) token ([0-9a-f]{32})\n"));
        QTRY_VERIFY2_WITH_TIMEOUT(re.match(QString::fromUtf8(err)).hasMatch(), err.constData(), 15000);
        const auto match = re.match(QString::fromUtf8(err));
        auto target = jb::parseRemoteTarget("127.0.0.1:" + match.captured(1).toStdString(), match.captured(2).toStdString());
        QVERIFY(target);

        std::unique_ptr<jb::RemoteSource> remote(jb::connectRemote(*target, nullptr));
        std::map<QString, QStringList> states;
        std::map<QString, QString> run_dirs;
        QObject::connect(remote.get(), &jb::RemoteSource::jobState,
                         [&](const QString& name, const QString& state, const nlohmann::ordered_json& detail) {
                             states[name] << state;
                             if (detail.contains("run_dir"))
                                 run_dirs[name] = QString::fromStdString(detail["run_dir"].get<std::string>());
                         });
        std::map<QString, QStringList> logs;  // "stream: line"
        QObject::connect(remote.get(), &jb::RemoteSource::jobLog,
                         [&](const QString& name, const QString& stream, const QString& line) {
                             logs[name] << stream + QStringLiteral(": ") + line;
                         });
        QSignalSpy connected(remote.get(), &jb::RemoteSource::connected);
        nlohmann::ordered_json summary;
        QObject::connect(remote.get(), &jb::RemoteSource::queueEnded,
                         [&](const nlohmann::ordered_json& s) { summary = s; });
        QSignalSpy ended(remote.get(), &jb::RemoteSource::queueEnded);
        QSignalSpy lost(remote.get(), &jb::RemoteSource::lost);
        QVERIFY2(connected.wait(10000), lost.isEmpty() ? "" : qPrintable(lost.first().first().toString()));
        QCOMPARE(connected.first().first().toString(), QStringLiteral("jobs"));
        QVERIFY2(ended.wait(30000), err.constData());
        QVERIFY(lost.isEmpty());
        QVERIFY2(p.state() == QProcess::NotRunning || p.waitForFinished(15000), err.constData());
        QCOMPARE(p.exitCode(), 1);  // one job failed

        // Each job launched, ran and ended with its manifest's status.
        QCOMPARE(states[QStringLiteral("good")].value(0), QStringLiteral("launched"));
        QVERIFY2(states[QStringLiteral("good")].contains(QStringLiteral("running")),
                 qPrintable(states[QStringLiteral("good")].join(QLatin1Char(','))));
        QCOMPARE(states[QStringLiteral("good")].last(), QStringLiteral("completed"));
        QCOMPARE(states[QStringLiteral("bad")].last(), QStringLiteral("nonzero_exit"));
        QCOMPARE(summary.at("total").get<int>(), 2);
        QCOMPARE(summary.at("completed").get<int>(), 1);
        QCOMPARE(summary.at("failed").get<int>(), 1);

        // Its log lines as served (1.2 job-log): the job's stdout and stderr are its run folder's
        // stdout.log and stderr.log line for line, and the driver's lines come too.
        const QStringList& good = logs[QStringLiteral("good")];
        QVERIFY2(!run_dirs[QStringLiteral("good")].isEmpty(), "no run_dir in good's states");
        for (const char* stream : {"stdout", "stderr"}) {
            QFile f(QDir(run_dirs[QStringLiteral("good")]).filePath(QLatin1String(stream) + QStringLiteral(".log")));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            QStringList fromFile = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QStringList served;
            for (const QString& l : good)
                if (l.startsWith(QLatin1String(stream) + QStringLiteral(": ")))
                    served << l.mid(int(std::strlen(stream)) + 2);
            QVERIFY(!fromFile.isEmpty());
            QCOMPARE(served, fromFile);
        }
        QVERIFY2(good.filter(QStringLiteral("stdout: CUDA_VISIBLE_DEVICES=")).size() == 1, qPrintable(good.join(QLatin1Char('|'))));
        QVERIFY2(good.filter(QStringLiteral("stderr: warming up")).size() == 1, qPrintable(good.join(QLatin1Char('|'))));
        QVERIFY2(good.filter(QRegularExpression(QStringLiteral("^driver: RUN on GPU [01]: "))).size() == 1,
                 qPrintable(good.join(QLatin1Char('|'))));
        QVERIFY2(good.last().startsWith(QStringLiteral("driver: DONE status=completed")), qPrintable(good.last()));
    }

    void runPrintsStartAndEndAndExitsByOutcome()
    {
        jbtest::FakeGpuMachine m;
        const QString file = writeJobFile(m,
                                          {jbtest::workerJob("good", {"--write", "{run_dir}/r.json"}),
                                           jbtest::workerJob("bad", {"--exit", "4"})});
        auto dry = cli({QStringLiteral("run"), file, QStringLiteral("--dry-run")});
        QCOMPARE(dry.code, 0);
        QVERIFY2(dry.out.contains(QStringLiteral("WOULD RUN good gpu=any: ")), qPrintable(dry.out));
        QVERIFY(!fs::exists(m.root + "/runs"));

        auto run = cli({QStringLiteral("run"), file});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));  // one job failed
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("START good gpu=[01] pid=\\d+ -> "))),
                 qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("START bad ")));
        QVERIFY(run.out.contains(QStringLiteral("DONE good status=completed rc=0 ")));
        QVERIFY(run.out.contains(QStringLiteral("DONE bad status=nonzero_exit rc=4 ")));
        QVERIFY(run.out.contains(QStringLiteral("jobs: 1 completed, 1 failed, 0 preserved")));

        auto status = cli({QStringLiteral("status"), file});
        QCOMPARE(status.code, 1);  // a recorded job did not complete
        QVERIFY(status.out.startsWith(QStringLiteral("JOB ")));
        QVERIFY2(status.out.contains(
                     QRegularExpression(QStringLiteral("\\ngood +[01] +preserved +completed +0 "))),
                 qPrintable(status.out));
        QVERIFY(status.out.contains(
            QRegularExpression(QStringLiteral("\\nbad +[01] +preserved +nonzero_exit +4 "))));

        // Everything preserved: nothing runs. Item 8 of issue 30: the preserved failure still
        // makes the exit status 1, as `jobs status` says for the same state.
        auto again = cli({QStringLiteral("run"), file});
        QVERIFY2(again.code == 1, qPrintable(again.out + again.err));
        QVERIFY(again.out.contains(QStringLiteral("PRESERVE good status=completed -> ")));
        QVERIFY(again.out.contains(QStringLiteral("PRESERVE bad status=nonzero_exit -> ")));
        QVERIFY2(again.out.contains(QStringLiteral("jobs: 0 completed, 0 failed, 2 preserved (1 not completed), ")),
                 qPrintable(again.out));
        QVERIFY(!again.out.contains(QStringLiteral("START")));

        auto json_status = cli({QStringLiteral("status"), file, QStringLiteral("--json")});
        const json rows = json::parse(json_status.out.toStdString());
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].at("state").get<std::string>(), std::string("preserved"));
    }

    // Each finished job's manifest joins the library (--library, else $JOULEBENCH_LIBRARY);
    // --no-library keeps them out.
    void runAddsTheManifestsToTheLibrary()
    {
        jbtest::FakeGpuMachine m;
        const QString file = writeJobFile(m, {jbtest::workerJob("good", {"--write", "{run_dir}/r.json"})});
        const QString lib = QString::fromStdString(m.root + "/lib.sqlite");
        auto both = cli({QStringLiteral("run"), file, QStringLiteral("--library"), lib, QStringLiteral("--no-library")});
        QCOMPARE(both.code, 2);
        auto run = cli({QStringLiteral("run"), file, QStringLiteral("--library"), lib});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(!run.err.contains(QStringLiteral("not added")), qPrintable(run.err));
        QProcess list;
        list.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"),
                   {QStringLiteral("library"), QStringLiteral("list"), QStringLiteral("--library"), lib,
                    QStringLiteral("--json")});
        QVERIFY(list.waitForFinished(30000));
        QCOMPARE(list.exitCode(), 0);
        const json rows = json::parse(list.readAllStandardOutput().toStdString());
        QCOMPARE(rows.size(), std::size_t(1));
        QVERIFY2(rows.dump().find("\"good\"") != std::string::npos, rows.dump().c_str());
    }

    void statusShowsOrphansAndJobsNotRun()
    {
        jbtest::FakeGpuMachine m;
        const QString file = writeJobFile(m,
                                          {jbtest::workerJob("orphan", {}), jbtest::workerJob("fresh", {})});
        fs::create_directories(m.root + "/runs/orphan/driver_2020_01_01_00_00_00");
        auto status = cli({QStringLiteral("status"), file});
        QCOMPARE(status.code, 1);
        QVERIFY2(status.out.contains(QRegularExpression(QStringLiteral("\\norphan +any +orphaned "))),
                 qPrintable(status.out));
        QVERIFY(status.out.contains(QRegularExpression(QStringLiteral("\\nfresh +any +not_run +- "))));
        auto run = cli({QStringLiteral("run"), file});
        QCOMPARE(run.code, 1);  // the orphan needs an audit
        QVERIFY2(run.out.contains(QStringLiteral("ORPHANED orphan: ")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("DONE fresh status=completed")));
    }

    // Item 2 of issue 30: an output root that cannot be made (a parent is a regular file) with
    // more jobs than GPUs: every job fails to start and the queue ends (it waited forever).
    void queueEndsWhenNoJobCanStart()
    {
        jbtest::FakeGpuMachine m;
        jbtest::writeText(m.root + "/plain", "a file, not a folder\n");
        json f = jbtest::baseJobFile(m.root + "/plain/runs");
        f["nvml_library"] = "/nonexistent/libnvidia-ml.so.1";
        f["jobs"] = {jbtest::workerJob("a", {}), jbtest::workerJob("b", {}), jbtest::workerJob("c", {})};
        const std::string path = m.root + "/jobs.json";
        jbtest::writeText(path, f.dump(2));
        auto run = cli({QStringLiteral("run"), QString::fromStdString(path), QStringLiteral("--no-library")});
        QVERIFY2(run.code == 1, qPrintable(QStringLiteral("code %1: ").arg(run.code) + run.out + run.err));
        for (const char* name : {"a", "b", "c"})
            QVERIFY2(run.out.contains(QStringLiteral("FAILED %1: ").arg(QLatin1String(name))), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("jobs: 0 completed, 3 failed, ")), qPrintable(run.out));
    }

    void badInputIsExitTwo()
    {
        jbtest::FakeGpuMachine m;
        jbtest::writeText(
            m.root + "/bad.json",
            R"({"output_root": "runs", "allowed_gpus": [0], "jobs": [{"name": "a", "argv": "x"}]})");
        auto r = cli({QStringLiteral("run"), QString::fromStdString(m.root + "/bad.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("$.jobs[0].argv: expected an array of strings, found \"x\"")),
                 qPrintable(r.err));
        QCOMPARE(cli({QStringLiteral("run")}).code, 2);
        QCOMPARE(cli({QStringLiteral("launch"), QString::fromStdString(m.root + "/bad.json")}).code, 2);

        // A GPU nvidia-smi does not list: refused before anything runs.
        json job = jbtest::workerJob("a", {});
        json f = jbtest::baseJobFile(m.root + "/runs");
        f["allowed_gpus"] = {3};
        f["nvml_library"] = "/nonexistent/libnvidia-ml.so.1";
        f["jobs"] = json::array({job});
        jbtest::writeText(m.root + "/gpu3.json", f.dump());
        auto refused = cli({QStringLiteral("run"), QString::fromStdString(m.root + "/gpu3.json")});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("cannot resolve physical GPU 3")),
                 qPrintable(refused.err));
        QVERIFY(!fs::exists(m.root + "/runs/a"));
    }

    void sigintCancelsAndRecords()
    {
        jbtest::FakeGpuMachine m;
        const std::string pidfile = m.root + "/daemon.pid";
        const QString file = writeJobFile(
            m, {jbtest::workerJob("long", {"--ignore-term", "--daemon", pidfile, "--sleep", "60"})});
        QProcess p;
        p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"),
                {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY2_WITH_TIMEOUT(fs::exists(pidfile),
                                  qPrintable(QString::fromUtf8(p.readAllStandardError())), 10000);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitCode(), 1);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("DONE long status=cancelled")), qPrintable(out));
        const auto d = jb::inspectJob(m.root + "/runs", "long");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QCOMPARE(d.manifest->status, jb::JobStatus::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestCliJobs)
#include "tst_cli_jobs.moc"
