// The Slurm executor against a real one-node Slurm cluster on loopback (slurm_cluster.sh starts
// it in a temporary folder with two fake GPUs and stops exactly what it started). The driver is
// `joulebench-cli jobs run`; the node runs `joulebench-cli jobs exec` with the fake NVML and
// nvidia-smi of the other job tests. Skipped, saying so, where the Slurm programs are missing.
#include <jb/jobs/RunFolders.h>

#include "JobsTestSupport.h"

#include "../NeedTool.h"
#include "../RunProgram.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <signal.h>

#include <filesystem>

using nlohmann::json;
namespace fs = std::filesystem;

using jbtest::Ran;
using jbtest::runProgram;

namespace {

const QString kScript = QStringLiteral(JB_SOURCE_DIR "/tests/jobs/slurm_cluster.sh");
const QString kCli = QStringLiteral(JB_BIN_DIR "/joulebench-cli");

bool alive(pid_t pid)
{
    if (::kill(pid, 0) != 0)
        return false;
    // A zombie is gone for our purpose.
    const std::string stat = jbtest::readText("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

// How a job ended, in the test log (the closing note of the issue quotes these lines).
void logEnd(const std::string& runs, const char* name)
{
    const auto d = jb::inspectJob(runs, name);
    if (!d.manifest)
        return;
    const json sl = d.manifest->slurm ? d.manifest->slurm->toJson() : json::object();
    qInfo("job %s: status=%s rc=%s slurm_state=%s slurm_exit=%s written_by=%s", name,
          jb::statusName(d.manifest->status).c_str(),
          d.manifest->return_code ? std::to_string(*d.manifest->return_code).c_str() : "-",
          sl.value("state", json("-")).dump().c_str(), sl.value("exit_code", json("-")).dump().c_str(),
          sl.value("written_by", json("node")).dump().c_str());
}

}  // namespace

class TestSlurmCluster : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<jbtest::FakeGpuMachine> machine_;
    std::unique_ptr<QTemporaryDir> cluster_;
    bool started_ = false;
    int files_ = 0;

    std::string clusterDir() const { return jbtest::str(cluster_->path()) + "/slurm"; }

    // A Slurm job file whose jobs are the test worker; returns its path.
    QString writeJobFile(const std::vector<json>& jobs, const json& executor_extra = json::object())
    {
        const std::string base = machine_->root + "/f" + std::to_string(++files_);
        fs::create_directories(base);
        json f = jbtest::baseJobFile(base + "/runs");
        f.erase("allowed_gpus");
        f["defaults"].erase("gpu");
        f["nvml_library"] = JB_FAKE_NVML_LIB;
        json e = {{"kind", "slurm"}, {"gpus_per_job", 1}, {"poll_seconds", 0.1}};
        e.merge_patch(executor_extra);
        f["executor"] = e;
        f["jobs"] = jobs;
        const std::string path = base + "/jobs.json";
        jbtest::writeText(path, f.dump(2));
        return QString::fromStdString(path);
    }

    static std::string runsOf(const QString& file)
    {
        return fs::path(file.toStdString()).parent_path().string() + "/runs";
    }

    static Ran squeue(const QStringList& args)
    {
        return runProgram(QStringLiteral("squeue"), args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // ./dev installs these on Debian: there a missing one fails the test instead of skipping.
        JB_NEED_TOOL("slurmctld", "slurmctld");
        JB_NEED_TOOL("slurmd", "slurmd");
        JB_NEED_TOOL("sbatch", "slurm-client");
        JB_NEED_TOOL("munged", "munge");
        const Ran avail = runProgram(kScript, {QStringLiteral("available")});
        if (avail.code != 0)
            QSKIP(qPrintable(QStringLiteral("no Slurm here to test against (%1); install slurmctld, slurmd, "
                                            "slurm-client and munge (./dev does)")
                                 .arg(avail.out.trimmed())));
        machine_ = std::make_unique<jbtest::FakeGpuMachine>();
        cluster_ = std::make_unique<QTemporaryDir>();
        QVERIFY(cluster_->isValid());
        const Ran start = runProgram(kScript, {QStringLiteral("start"), QString::fromStdString(clusterDir()),
                                               QStringLiteral("2")});
        started_ = true;
        QVERIFY2(start.code == 0, qPrintable(start.out + start.err));
        const QString conf = start.out.trimmed().section(QLatin1Char('='), 1);
        QVERIFY2(conf.endsWith(QStringLiteral("/etc/slurm.conf")), qPrintable(start.out));
        qputenv("SLURM_CONF", conf.toUtf8());  // the driver, the client programs and the jobs
    }

    void cleanupTestCase()
    {
        if (started_) {
            const Ran stop = runProgram(kScript, {QStringLiteral("stop"), QString::fromStdString(clusterDir())});
            QCOMPARE(stop.code, 0);
        }
        qunsetenv("SLURM_CONF");
    }

    // Two one-GPU jobs on the node's two GPUs run at once, each with its own
    // CUDA_VISIBLE_DEVICES; a third pends for a GPU, then runs and passes JouleBench's own
    // timeout; one completes, one exits non-zero.
    void threeJobsOnTwoGpus()
    {
        const QString file = writeJobFile(
            {[] {
                 json j = jbtest::workerJob("good", {"--print-env", "CUDA_VISIBLE_DEVICES", "--gpu-mem", "104857600",
                                                     "--sleep", "1.5", "--write", "{run_dir}/r.json"});
                 j["result_glob"] = "r.json";
                 return j;
             }(),
             jbtest::workerJob("bad", {"--print-env", "CUDA_VISIBLE_DEVICES", "--sleep", "1.5", "--exit", "4"}),
             [] {
                 json j = jbtest::workerJob("slow", {"--sleep", "60"});
                 j["timeout_seconds"] = 1;
                 return j;
             }()});
        const Ran run =
            runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file, QStringLiteral("--follow")});
        QVERIFY2(run.code == 1, qPrintable(run.out + run.err));  // two jobs failed
        // The job's output, written on the node into the shared run folder, followed by the driver.
        QVERIFY2(run.err.contains(QRegularExpression(QStringLiteral("\\[good stdout\\] CUDA_VISIBLE_DEVICES=[01]"))),
                 qPrintable(run.err));
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("PENDING slow slurm_job=\\d+ reason=(Resources|Priority)"))),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("START good slurm_job=\\d+ node=\\S+"))),
                 qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("DONE good status=completed rc=0 ")));
        QVERIFY(run.out.contains(QStringLiteral("DONE bad status=nonzero_exit rc=4 ")));
        QVERIFY(run.out.contains(QStringLiteral("DONE slow status=timeout ")));
        QVERIFY(run.out.contains(QStringLiteral("jobs: 1 completed, 2 failed, 0 preserved")));

        const std::string runs = runsOf(file);
        std::map<std::string, jb::JobManifest> m;
        std::map<std::string, json> slurm;  // each manifest's `slurm` as written
        for (const char* n : {"good", "bad", "slow"}) {
            const auto d = jb::inspectJob(runs, n);
            QCOMPARE(d.state, jb::DiskState::Preserved);
            m[n] = *d.manifest;
            QVERIFY2(m[n].slurm.has_value(), n);
            slurm[n] = m[n].slurm->toJson();
            QVERIFY(!slurm[n]["job_id"].get<std::string>().empty());
            QVERIFY(slurm[n]["node"].is_string());
            QCOMPARE(slurm[n]["partition"].get<std::string>(), std::string("debug"));
            QCOMPARE(slurm[n]["state_source"].get<std::string>(), std::string("scontrol"));
            QVERIFY(slurm[n]["start_time"].is_string());
            QVERIFY(slurm[n]["end_time"].is_string());
        }
        for (const char* n : {"good", "bad", "slow"})
            logEnd(runs, n);
        QCOMPARE(m["good"].status, jb::JobStatus::Completed);
        QCOMPARE(slurm["good"]["state"].get<std::string>(), std::string("COMPLETED"));
        QCOMPARE(slurm["good"]["exit_code"].get<int>(), 0);
        QCOMPARE(m["bad"].status, jb::JobStatus::NonzeroExit);
        QCOMPARE(m["bad"].return_code, std::optional<int>(4));
        QCOMPARE(slurm["bad"]["state"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(m["slow"].status, jb::JobStatus::Timeout);  // JouleBench's timeout, not Slurm's minutes
        QCOMPARE(slurm["slow"]["state"].get<std::string>(), std::string("FAILED"));
        QVERIFY(m["slow"].driver_wall_seconds < 10);

        // Each of the first two had its own GPU, resolved to the physical one, at the same time.
        const int g = m["good"].hardware.physical_index, b = m["bad"].hardware.physical_index;
        QVERIFY2((g == 0 && b == 1) || (g == 1 && b == 0),
                 (slurm["good"].dump() + "\n" + slurm["bad"].dump()).c_str());
        QCOMPARE(m["good"].cuda_visible_devices, std::to_string(g));
        QCOMPARE(m["bad"].cuda_visible_devices, std::to_string(b));
        QCOMPARE(slurm["good"]["gpus"][0]["uuid"].get<std::string>(), m["good"].hardware.uuid);
        QVERIFY(m["good"].hardware.uuid.rfind("GPU-", 0) == 0);
        const std::string good_out = jbtest::readText(m["good"].logs.at("stdout"));
        QVERIFY2(good_out.find("CUDA_VISIBLE_DEVICES=" + std::to_string(g)) != std::string::npos, good_out.c_str());
        QVERIFY(m["good"].started_unix_time < m["bad"].completed_unix_time);
        QVERIFY(m["bad"].started_unix_time < m["good"].completed_unix_time);
        QVERIFY(m["slow"].started_unix_time >= std::min(m["good"].completed_unix_time, m["bad"].completed_unix_time) - 0.5);
        QCOMPARE(m["good"].hardware.peak_process_gpu_memory_mib, std::int64_t(100));
        QVERIFY(m["good"].result_sha256.has_value());

        // The status table shows Slurm's state of each.
        const Ran status = runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("status"), file});
        QVERIFY2(status.out.contains(QRegularExpression(QStringLiteral("\\ngood .* COMPLETED@\\S+ #\\d+"))),
                 qPrintable(status.out));
        QVERIFY2(status.out.contains(QRegularExpression(QStringLiteral("\\nbad .* FAILED@\\S+ #\\d+"))),
                 qPrintable(status.out));
    }

    // A job that double-forks a SIGTERM-deaf daemon into its own session: nothing of it survives.
    void daemonIsEnded()
    {
        const std::string pidfile = machine_->root + "/slurm-daemon.pid";
        const QString file = writeJobFile({jbtest::workerJob(
            "escapee", {"--ignore-term", "--daemon", pidfile, "--daemon-setsid", "--sleep", "0.5"})});
        const Ran run = runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains(QStringLiteral("DONE escapee status=completed")));
        const pid_t daemon = pid_t(std::stol(jbtest::readText(pidfile)));
        QVERIFY(daemon > 0);
        QVERIFY2(!alive(daemon), qPrintable(QStringLiteral("daemon %1 survived").arg(daemon)));
        logEnd(runsOf(file), "escapee");
        const auto d = jb::inspectJob(runsOf(file), "escapee");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        const auto& t = d.manifest->termination;
        QVERIFY(t);
        QVERIFY2(t->sigkill_sent, t->toJson().dump().c_str());
        QVERIFY(t->survivors.empty());
    }

    // A driver killed while its jobs are queued and running; run again, it watches the same
    // Slurm jobs instead of submitting them again.
    void driverKilledAndRerun()
    {
        const QString file = writeJobFile(
            {jbtest::workerJob("k1", {"--sleep", "3"}), jbtest::workerJob("k2", {"--sleep", "3"}),
             jbtest::workerJob("k3", {"--sleep", "0.5"})});
        QProcess driver;
        driver.start(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY(driver.waitForStarted());
        QString out;
        QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(driver.readAllStandardOutput()),
                                  out.contains(QStringLiteral("PENDING k3"))),
                                 20000);
        ::kill(pid_t(driver.processId()), SIGKILL);
        QVERIFY(driver.waitForFinished(5000));
        const std::string runs = runsOf(file);
        for (const char* n : {"k1", "k2", "k3"}) {
            const auto d = jb::inspectJob(runs, n);
            QCOMPARE(d.state, jb::DiskState::Submitted);
            QVERIFY(!d.remote_job_id.empty());
        }
        const Ran status = runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("status"), file});
        QVERIFY2(status.out.contains(QRegularExpression(QStringLiteral("\\nk3 +any +submitted .*PENDING"))),
                 qPrintable(status.out));

        const Ran again = runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY2(again.code == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.err.contains(QStringLiteral("(submitted by an earlier driver)")), qPrintable(again.err));
        QVERIFY(!again.err.contains(QStringLiteral("submitted as Slurm job")));
        QVERIFY(again.out.contains(QStringLiteral("jobs: 3 completed, 0 failed")));
        for (const char* n : {"k1", "k2", "k3"})
            logEnd(runs, n);
        for (const char* n : {"k1", "k2", "k3"}) {
            const Ran q = squeue({QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                                  QStringLiteral("-n"), QStringLiteral("jb-%1").arg(QLatin1String(n)),
                                  QStringLiteral("-o"), QStringLiteral("%i")});
            QCOMPARE(q.out.trimmed().split(QLatin1Char('\n')).size(), 1);  // submitted once
        }
    }

    // A person's scancel: the job is recorded as cancelled, with Slurm's state.
    void scancelByHand()
    {
        json j = jbtest::workerJob("victim", {"--sleep", "60"});
        j["timeout_seconds"] = 50;
        const QString file = writeJobFile({j});
        QProcess driver;
        driver.start(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY(driver.waitForStarted());
        QString out;
        QRegularExpressionMatch started;
        QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(driver.readAllStandardOutput()),
                                  started = QRegularExpression(QStringLiteral("START victim slurm_job=(\\d+)")).match(out),
                                  started.hasMatch()),
                                 20000);
        const Ran sc = runProgram(QStringLiteral("scancel"), {started.captured(1)});
        QCOMPARE(sc.code, 0);
        QVERIFY(driver.waitForFinished(30000));
        out += QString::fromUtf8(driver.readAllStandardOutput());
        QCOMPARE(driver.exitCode(), 1);
        QVERIFY2(out.contains(QStringLiteral("DONE victim status=cancelled")), qPrintable(out));
        logEnd(runsOf(file), "victim");
        const auto d = jb::inspectJob(runsOf(file), "victim");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QVERIFY(d.manifest->slurm.has_value());
        const json sl = d.manifest->slurm->toJson();
        QCOMPARE(sl["state"].get<std::string>(), std::string("CANCELLED"));
        QCOMPARE(sl["job_id"].get<std::string>(), started.captured(1).toStdString());
    }

    // A job Slurm ends before the node ran it (held, then scancelled): the driver writes its
    // manifest from Slurm's record.
    void endedBeforeItRan()
    {
        const QString file = writeJobFile({jbtest::workerJob("held", {})}, {{"sbatch_args", {"--hold"}}});
        QProcess driver;
        driver.start(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY(driver.waitForStarted());
        QString out;
        QRegularExpressionMatch pending;
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += QString::fromUtf8(driver.readAllStandardOutput()),
             pending = QRegularExpression(QStringLiteral("PENDING held slurm_job=(\\d+) reason=JobHeldUser")).match(out),
             pending.hasMatch()),
            20000);
        QCOMPARE(runProgram(QStringLiteral("scancel"), {pending.captured(1)}).code, 0);
        QVERIFY(driver.waitForFinished(30000));
        out += QString::fromUtf8(driver.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("DONE held status=cancelled")), qPrintable(out));
        logEnd(runsOf(file), "held");
        const auto d = jb::inspectJob(runsOf(file), "held");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QVERIFY(d.manifest->slurm.has_value());
        const json sl = d.manifest->slurm->toJson();
        QCOMPARE(sl["written_by"].get<std::string>(), std::string("driver"));
        QCOMPARE(sl["state"].get<std::string>(), std::string("CANCELLED"));
        QCOMPARE(sl["job_id"].get<std::string>(), pending.captured(1).toStdString());
        QVERIFY(d.manifest->logs.contains("slurm"));
        QVERIFY(!d.manifest->notes.empty());
    }

    // SIGTERM to the driver scancels what it submitted.
    void driverSigtermCancels()
    {
        json j = jbtest::workerJob("stopped", {"--sleep", "60"});
        j["timeout_seconds"] = 50;
        const QString file = writeJobFile({j});
        QProcess driver;
        driver.start(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QVERIFY(driver.waitForStarted());
        QString out;
        QRegularExpressionMatch started;
        QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(driver.readAllStandardOutput()),
                                  started = QRegularExpression(QStringLiteral("START stopped slurm_job=(\\d+)")).match(out),
                                  started.hasMatch()),
                                 20000);
        ::kill(pid_t(driver.processId()), SIGTERM);
        QVERIFY(driver.waitForFinished(30000));
        out += QString::fromUtf8(driver.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("DONE stopped status=cancelled")), qPrintable(out));
        const Ran q = squeue({QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-j"),
                              started.captured(1), QStringLiteral("-o"), QStringLiteral("%T")});
        QCOMPARE(q.out.trimmed(), QStringLiteral("CANCELLED"));
        logEnd(runsOf(file), "stopped");
    }

    // A partition Slurm does not have: a clear error before anything is submitted.
    void badPartitionRefused()
    {
        const QString file = writeJobFile({jbtest::workerJob("never", {})}, {{"partition", "nope"}});
        const Ran run = runProgram(kCli, {QStringLiteral("jobs"), QStringLiteral("run"), file});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("executor.partition: Slurm has no partition 'nope'")),
                 qPrintable(run.err));
        QVERIFY(!fs::exists(runsOf(file) + "/never"));
        const Ran q = squeue({QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-n"),
                              QStringLiteral("jb-never"), QStringLiteral("-o"), QStringLiteral("%i")});
        QCOMPARE(q.out.trimmed(), QString());
    }
};

QTEST_GUILESS_MAIN(TestSlurmCluster)
#include "tst_slurm_cluster.moc"
