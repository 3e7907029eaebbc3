// The queue end to end with the local executor, on a fake GPU machine: a completed job with its
// memory, energy and result; every failure status; jobs that ignore SIGTERM and double-fork;
// preserved and orphaned folders; a dirty source refused; GPUs in parallel; cancel; one job
// cancelled while the others go on; dry run.
#include <jb/jobs/JobQueue.h>
#include <jb/jobs/LocalExecutor.h>
#include <jb/jobs/ProcessTree.h>
#include <jb/jobs/Provenance.h>
#include <jb/jobs/Subprocess.h>

#include "../NeedTool.h"
#include "JobsTestSupport.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Everything a queue said, collected from its signals.
struct Story {
    std::map<std::string, jb::JobManifest> manifests;
    std::map<std::string, std::string> manifest_paths;
    std::map<std::string, std::string> skipped;  // name -> state
    std::map<std::string, std::string> preserved;
    std::vector<std::string> would_run;
    std::vector<std::string> started;
    std::map<std::string, std::int64_t> started_pid;
    std::map<std::string, int> started_gpu;
    std::vector<std::string> launched;                  // in order
    std::map<std::string, std::string> launched_dir;    // name -> run dir
    std::map<std::string, int> launched_gpu;
    std::map<std::string, int> samples;                 // jobSample count
    std::map<std::string, std::int64_t> progress_peak;
    std::vector<std::string> lines;  // "name stream: line"
    std::string failed;
    jb::QueueSummary summary;
    bool finished = false;
};

struct Machine {
    jbtest::FakeGpuMachine gpus;
    std::string output_root;
    jb::LocalExecutorOptions options;
    explicit Machine(bool with_nvml = true, const std::string& nvml_extra = {}) : gpus(nvml_extra)
    {
        output_root = gpus.root + "/runs";
        options.nvml_library = with_nvml ? JB_FAKE_NVML_LIB : "/nonexistent/libnvidia-ml.so.1";
        options.counters.powercap_root = gpus.root + "/no-powercap";
    }
};

void connectStory(jb::JobQueue& q, Story& s)
{
    QObject::connect(&q, &jb::JobQueue::jobFinished,
                     [&s](const QString& n, const jb::JobManifest& m, const QString& p) {
                         s.manifests[n.toStdString()] = m;
                         s.manifest_paths[n.toStdString()] = p.toStdString();
                     });
    QObject::connect(&q, &jb::JobQueue::jobSkipped,
                     [&s](const QString& n, jb::DiskState state, const QString&) {
                         s.skipped[n.toStdString()] = jb::diskStateName(state);
                     });
    QObject::connect(&q, &jb::JobQueue::jobPreserved,
                     [&s](const QString& n, const QString& p, jb::JobStatus) {
                         s.preserved[n.toStdString()] = p.toStdString();
                     });
    QObject::connect(&q, &jb::JobQueue::jobWouldRun,
                     [&s](const QString& n, const QString&, const QStringList&) {
                         s.would_run.push_back(n.toStdString());
                     });
    QObject::connect(&q, &jb::JobQueue::jobStarted,
                     [&s](const QString& n, int gpu, const QString&, qint64 pid) {
                         s.started.push_back(n.toStdString());
                         s.started_pid[n.toStdString()] = pid;
                         s.started_gpu[n.toStdString()] = gpu;
                     });
    QObject::connect(&q, &jb::JobQueue::jobLaunched, [&s](const QString& n, int gpu, const QString& dir) {
        s.launched.push_back(n.toStdString());
        s.launched_dir[n.toStdString()] = dir.toStdString();
        s.launched_gpu[n.toStdString()] = gpu;
    });
    QObject::connect(&q, &jb::JobQueue::jobSample, [&s](const QString& n, const jb::JobProgress& p) {
        if (p.memory_mib >= 0 && p.peak_memory_mib >= p.memory_mib)
            ++s.samples[n.toStdString()];
    });
    QObject::connect(&q, &jb::JobQueue::jobProgress, [&s](const QString& n, double, qint64 peak, double) {
        s.progress_peak[n.toStdString()] = std::max<std::int64_t>(s.progress_peak[n.toStdString()], peak);
    });
    QObject::connect(
        &q, &jb::JobQueue::logLine, [&s](const QString& n, const QString& stream, const QString& line) {
            s.lines.push_back(
                QString(n + QLatin1Char(' ') + stream + QStringLiteral(": ") + line).toStdString());
        });
    QObject::connect(&q, &jb::JobQueue::queueFailed, [&s](const QString& m) { s.failed = m.toStdString(); });
    QObject::connect(&q, &jb::JobQueue::queueFinished, [&s](const jb::QueueSummary& sum) {
        s.summary = sum;
        s.finished = true;
    });
}

jb::JobFile parse(const json& j)
{
    auto f = jb::parseJobFileText(j.dump(), "/", "test jobs");
    if (!f)
        qFatal("%s", f.error().c_str());
    return *f;
}

// Runs the queue to its end (the test fails where it does not end in time).
Story runQueue(const json& file, const jb::LocalExecutorOptions& options, bool dry_run = false,
               int timeout_ms = 30000)
{
    Story s;
    jb::JobQueue q(parse(file), std::make_shared<jb::LocalExecutor>(options), jb::QueueOptions{dry_run});
    connectStory(q, s);
    q.start();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(s.finished, timeout_ms); }();
    return s;
}

bool alive(std::int64_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return false;
    auto e = jb::parseProcStat(line);
    return e.ok() && !e->dead();
}

// No live process is left in the session the job led.
bool sessionGone(std::int64_t sid)
{
    for (const jb::ProcEntry& p : jb::scanProcesses("/proc"))
        if (!p.dead() && p.session == sid)
            return false;
    return true;
}

std::int64_t readPid(const std::string& file)
{
    std::ifstream in(file);
    std::int64_t pid = 0;
    in >> pid;
    return pid;
}

bool contains(const std::vector<std::string>& lines, const std::string& needle)
{
    for (const std::string& l : lines)
        if (l.find(needle) != std::string::npos)
            return true;
    return false;
}

}  // namespace

class TestJobQueue : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void completedJobWithMemoryEnergyAndResult()
    {
        Machine m(true, "accounting 1 1\n");
        // A readable (if idle) package zone, so the package counter is reported as well.
        const std::string zone = m.gpus.root + "/zone";
        fs::create_directories(zone);
        jbtest::writeText(zone + "/name", "package-0\n");
        jbtest::writeText(zone + "/max_energy_range_uj", "262143328850\n");
        jbtest::writeText(zone + "/energy_uj", "1000000\n");
        m.options.counters.rapl_zone = zone;
        json f = jbtest::baseJobFile(m.output_root);
        f["energy"]["package_counter"] = "rapl";
        json job = jbtest::workerJob("train",
                                     {"--print-env", "CUDA_VISIBLE_DEVICES", "--stderr", "warming up",
                                      "--gpu-mem", "536870912", "--write", "{run_dir}/histogram_7.json",
                                      "--sleep", "0.6"});
        job["gpu"] = 1;
        job["result_glob"] = "histogram_*.json";
        job["work"] = {{"method", "bp"}, {"expected_epochs", 3}};
        f["jobs"].push_back(job);

        Story s = runQueue(f, m.options);
        QVERIFY2(s.failed.empty(), s.failed.c_str());
        QCOMPARE(s.manifests.count("train"), std::size_t(1));
        const jb::JobManifest& man = s.manifests.at("train");
        QCOMPARE(man.status, jb::JobStatus::Completed);
        QCOMPARE(man.return_code, std::optional<int>(0));
        QVERIFY(man.result.has_value());
        QCOMPARE(fs::path(*man.result).filename().string(), std::string("histogram_7.json"));
        QCOMPARE(man.result_sha256, std::optional<std::string>(*jb::sha256File(*man.result)));
        QVERIFY(man.driver_wall_seconds >= 0.6 && man.driver_wall_seconds < 5);
        QVERIFY(man.completed_unix_time > man.started_unix_time);
        QCOMPARE(man.hardware.physical_index, 1);
        QCOMPARE(man.hardware.uuid, std::string("GPU-11111111-fake-one"));
        QCOMPARE(man.hardware.name, std::string("Fake H200"));
        QCOMPARE(man.hardware.total_memory_mib, std::int64_t(143771));
        QCOMPARE(man.hardware.gpu_report_source, std::string("nvml"));
        QCOMPARE(man.hardware.memory_source, std::string("nvml"));
        QCOMPARE(man.hardware.peak_process_gpu_memory_mib, std::int64_t(512));
        QCOMPARE(man.hardware.memory_sampling_period_seconds, 0.1);
        QVERIFY(man.hardware.memory_samples >= 3);
        QCOMPARE(man.hardware.memory_read_errors, std::int64_t(0));
        QVERIFY(man.work == json({{"method", "bp"}, {"expected_epochs", 3}}));
        // NVML accounting is on for GPU 1: each process's own maximum, kept after it exited.
        QVERIFY(man.hardware.accounting.has_value());
        QCOMPARE(man.hardware.accounting->enabled, std::optional<bool>(true));
        QCOMPARE(man.hardware.accounting->per_process_max_memory_mib.at(s.started_pid.at("train")),
                 std::int64_t(512));
        QCOMPARE(man.cuda_visible_devices, std::string("1"));
        QVERIFY(man.source.is_null());  // no provenance asked for
        QCOMPARE(man.joulebench_version, std::string(JB_VERSION));
        QVERIFY(man.termination && man.termination->signalled.empty());  // nothing left to end

        // GPU energy: 60 W idle, 200 W while the job's process is alive (the fake's script).
        QVERIFY(man.energy.has_value());
        const jb::CounterEnergy& gpu = man.energy->counters.at("nvml:1");
        QCOMPARE(gpu.available, true);
        const double total_j = gpu.total_j;
        QVERIFY(gpu.marginal_j.has_value());
        const double marginal_j = *gpu.marginal_j;
        const double covered_s = gpu.covered_seconds;
        QVERIFY2(total_j > 150 * covered_s && total_j < 230 * covered_s,
                 qPrintable(QString::number(total_j)));
        QVERIFY2(marginal_j > 0.6 * 140 * covered_s && marginal_j < 1.3 * 140 * covered_s,
                 qPrintable(QString::number(marginal_j)));
        QVERIFY(gpu.idle_before.has_value());
        QVERIFY(std::abs(gpu.idle_before->mean_w - 60) < 6);
        QCOMPARE(man.energy->gpu_counter, std::optional<std::string>("nvml:1"));
        const jb::CounterEnergy& pkg = man.energy->counters.at("rapl");
        QCOMPARE(pkg.available, true);
        QCOMPARE(pkg.total_j, 0.0);  // the fixture zone never advances

        // Logs in the run folder; lines and progress as signals.
        const std::string out = jbtest::readText(man.logs.at("stdout"));
        QVERIFY2(out.find("CUDA_VISIBLE_DEVICES=1") != std::string::npos, out.c_str());
        QVERIFY(jbtest::readText(man.logs.at("stderr")).find("warming up") !=
                std::string::npos);
        QVERIFY(contains(s.lines, "train stderr: warming up"));
        QVERIFY(contains(s.lines, "train driver: RUN on GPU 1"));
        QCOMPARE(s.started, std::vector<std::string>{"train"});
        QCOMPARE(s.started_gpu.at("train"), 1);
        QCOMPARE(s.progress_peak.at("train"), std::int64_t(512));

        // What is on disk is what was signalled.
        auto disk = jb::readManifest(s.manifest_paths.at("train"));
        QVERIFY(disk.ok());
        QVERIFY(*disk == man);
        QCOMPARE(s.summary.completed, 1);
        QVERIFY(s.summary.allOk());
    }

    void everyFailureIsRecorded()
    {
        Machine m(false);  // no NVML: nvidia-smi (the fake on PATH) reports GPUs and memory
        const std::string pidfile = m.gpus.root + "/daemon.pid";
        json f = jbtest::baseJobFile(m.output_root);
        f["jobs"].push_back(jbtest::workerJob("exits3", {"--exit", "3"}));
        json missing = jbtest::workerJob("noresult", {"--sleep", "0.1"});
        missing["result_glob"] = "histogram_*.json";
        f["jobs"].push_back(missing);
        f["jobs"].push_back({{"name", "noprogram"}, {"argv", {"/nonexistent/train"}}});
        json stubborn = jbtest::workerJob("stubborn",
                                          {"--ignore-term", "--gpu-mem", "1073741824", "--daemon", pidfile,
                                           "--daemon-gpu-mem", "2147483648", "--sleep", "60"});
        stubborn["timeout_seconds"] = 1;
        stubborn["gpu"] = 0;
        f["jobs"].push_back(stubborn);

        Story s = runQueue(f, m.options);
        QCOMPARE(s.manifests.size(), std::size_t(4));
        QCOMPARE(s.manifests.at("exits3").status, jb::JobStatus::NonzeroExit);
        QCOMPARE(s.manifests.at("exits3").return_code, std::optional<int>(3));
        QCOMPARE(s.manifests.at("noresult").status, jb::JobStatus::MissingResult);
        QVERIFY(!s.manifests.at("noresult").result.has_value());
        const jb::JobManifest& np = s.manifests.at("noprogram");
        QCOMPARE(np.status, jb::JobStatus::FailedToStart);
        QVERIFY(!np.return_code.has_value());
        QVERIFY(contains(np.notes, "'/nonexistent/train' does not exist"));
        QVERIFY(!np.termination);  // no session was started, none was ended
        QVERIFY(np.toJson().at("termination").is_null());

        const jb::JobManifest& t = s.manifests.at("stubborn");
        QCOMPARE(t.status, jb::JobStatus::Timeout);
        QCOMPARE(t.return_code, std::optional<int>(-9));  // SIGTERM ignored: SIGKILL after the grace period
        QVERIFY(t.termination);
        QCOMPARE(t.termination->sigterm_sent, true);
        QCOMPARE(t.termination->sigkill_sent, true);
        QVERIFY(t.termination->survivors.empty());
        QVERIFY(t.driver_wall_seconds >= 1.0 && t.driver_wall_seconds < 5);
        // The daemon's memory counts: it is in the job's session.
        QCOMPARE(t.hardware.peak_process_gpu_memory_mib, std::int64_t(1024 + 2048));
        QCOMPARE(t.hardware.memory_source, std::string("nvidia-smi"));
        QCOMPARE(t.hardware.gpu_report_source, std::string("nvidia-smi"));
        QVERIFY(!t.hardware.accounting.has_value());
        QVERIFY(t.energy.has_value());
        QCOMPARE(t.energy->counters.at("nvml:0").available, false);
        // No process of the job survives: not the leader, not the double-forked daemon.
        const std::int64_t daemon = readPid(pidfile);
        QVERIFY(daemon > 0);
        QVERIFY(!alive(daemon));
        QVERIFY(sessionGone(s.started_pid.at("stubborn")));

        QCOMPARE(s.summary.failed, 4);
        QCOMPARE(s.summary.completed, 0);
        QVERIFY(!s.summary.allOk());
    }

    void leftoverDaemonsOfAFinishedJobAreEnded()
    {
        Machine m;
        const std::string pidfile = m.gpus.root + "/escaped.pid";
        json f = jbtest::baseJobFile(m.output_root);
        // Exits at once, leaving a daemon that ignores SIGTERM and left the session.
        f["jobs"].push_back(jbtest::workerJob("leaver", {"--daemon", pidfile, "--daemon-setsid"}));
        Story s = runQueue(f, m.options);
        const jb::JobManifest& man = s.manifests.at("leaver");
        QCOMPARE(man.status, jb::JobStatus::Completed);
        const std::int64_t daemon = readPid(pidfile);
        QVERIFY(daemon > 0);
        QVERIFY(!alive(daemon));
        QVERIFY(man.termination);
        QCOMPARE(man.termination->sigkill_sent, true);
        QVERIFY(contains(man.notes, "process(es) the job left running were ended"));
    }

    void preservedAndOrphanedFolders()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        f["jobs"].push_back(jbtest::workerJob("a", {}));
        Story first = runQueue(f, m.options);
        QCOMPARE(first.manifests.at("a").status, jb::JobStatus::Completed);
        const std::string a_manifest = first.manifest_paths.at("a");
        const std::string a_text = jbtest::readText(a_manifest);

        // b: a run folder without a manifest, its driver gone.
        const std::string orphan = m.output_root + "/b/driver_2020_01_01_00_00_00";
        fs::create_directories(orphan);
        jbtest::writeText(orphan + "/stdout.log", "half a run\n");
        f["jobs"].push_back(jbtest::workerJob("b", {}));
        f["jobs"].push_back(jbtest::workerJob("c", {}));
        Story s = runQueue(f, m.options);
        QCOMPARE(s.preserved.at("a"), a_manifest);
        QCOMPARE(s.skipped.at("b"), std::string("orphaned"));
        QCOMPARE(s.started, std::vector<std::string>{"c"});
        QCOMPARE(s.manifests.at("c").status, jb::JobStatus::Completed);
        QCOMPARE(jbtest::readText(a_manifest), a_text);  // untouched
        QCOMPARE(jbtest::readText(orphan + "/stdout.log"), std::string("half a run\n"));
        QVERIFY(!fs::exists(orphan + "/manifest.json"));
        QCOMPARE(std::distance(fs::directory_iterator(m.output_root + "/b"), fs::directory_iterator()), 1);
        QCOMPARE(s.summary.preserved, 1);
        QCOMPARE(s.summary.orphaned, 1);
        QCOMPARE(s.summary.completed, 1);
        QVERIFY(!s.summary.allOk());  // an orphan needs an audit
    }

    void dirtySourceIsRefusedAndCleanOneRecorded()
    {
        JB_NEED_TOOL("git", "git");
        Machine m;
        const std::string repo = m.gpus.root + "/src";
        fs::create_directories(repo);
        jbtest::writeText(repo + "/train.py", "print('v1')\n");
        auto git = [&](std::vector<std::string> args) {
            std::vector<std::string> argv{"git",
                                          "-C",
                                          repo,
                                          "-c",
                                          "user.name=T",
                                          "-c",
                                          "user.email=t@example.org",
                                          "-c",
                                          "commit.gpgsign=false"};
            argv.insert(argv.end(), args.begin(), args.end());
            auto r = jb::runCapture(argv, "", 30000);
            QVERIFY(r.ok() && r->exit_code == 0);
        };
        git({"init", "-q"});
        git({"add", "train.py"});
        git({"commit", "-q", "-m", "v1"});
        jbtest::writeText(repo + "/train.py", "print('v2, not committed')\n");

        json f = jbtest::baseJobFile(m.output_root);
        f["provenance"] = {{"source", repo}, {"require_clean", true}, {"files", {"train.py"}}};
        f["jobs"].push_back(jbtest::workerJob("a", {}));
        Story s = runQueue(f, m.options);
        QVERIFY2(s.failed.find("uncommitted changes") != std::string::npos, s.failed.c_str());
        QVERIFY(s.summary.refused);
        QCOMPARE(s.summary.not_started, 1);
        QVERIFY(s.started.empty());
        QVERIFY(!fs::exists(m.output_root + "/a"));  // nothing was created

        git({"commit", "-q", "-a", "-m", "v2"});
        Story ok = runQueue(f, m.options);
        QVERIFY2(ok.failed.empty(), ok.failed.c_str());
        const json& src = ok.manifests.at("a").source;
        QCOMPARE(src.at("git_commit").get<std::string>().size(), std::size_t(40));
        QCOMPARE(src.at("git_dirty").get<bool>(), false);
        QCOMPARE(src.at("files").at("train.py").get<std::string>(), *jb::sha256File(repo + "/train.py"));
    }

    void oneJobPerGpuAndGpusInParallel()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        const std::tuple<const char*, int, const char*> specs[] = {
            {"x0", 0, "0.5"}, {"y0", 0, "0.1"}, {"z1", 1, "0.5"}};
        for (const auto& [name, gpu, sleep] : specs) {
            json j = jbtest::workerJob(name, {"--sleep", sleep});
            j["gpu"] = gpu;
            f["jobs"].push_back(j);
        }
        Story s = runQueue(f, m.options);
        QCOMPARE(s.summary.completed, 3);
        const auto& x0 = s.manifests.at("x0");
        const auto& y0 = s.manifests.at("y0");
        const auto& z1 = s.manifests.at("z1");
        // x0 and z1 ran at once on their GPUs; y0 waited for GPU 0.
        QCOMPARE(x0.concurrent_jobs, std::vector<std::string>{"z1"});
        // z1 may still be in its idle bracket when y0 starts: that overlap is recorded too.
        QVERIFY(std::count(z1.concurrent_jobs.begin(), z1.concurrent_jobs.end(), "x0") == 1);
        QVERIFY(y0.started_unix_time >= x0.completed_unix_time);
        QCOMPARE(std::set<std::string>(s.started.begin(), s.started.begin() + 2),
                 (std::set<std::string>{"x0", "z1"}));
        QCOMPARE(s.started.back(), std::string("y0"));
        QCOMPARE(y0.hardware.physical_index, 0);
    }

    void anyGpuTakesAFreeOne()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        json busy = jbtest::workerJob("pinned", {"--sleep", "0.4"});
        busy["gpu"] = 0;
        f["jobs"].push_back(busy);
        f["jobs"].push_back(jbtest::workerJob("floating", {"--print-env", "CUDA_VISIBLE_DEVICES"}));
        Story s = runQueue(f, m.options);
        QCOMPARE(s.manifests.at("floating").hardware.physical_index, 1);
        QCOMPARE(s.manifests.at("floating").cuda_visible_devices, std::string("1"));
        QVERIFY(s.manifests.at("floating").job.at("gpu") == json("any"));
    }

    void cancelEndsRunningJobs()
    {
        Machine m;
        const std::string pidfile = m.gpus.root + "/daemon.pid";
        json f = jbtest::baseJobFile(m.output_root);
        json j = jbtest::workerJob("long", {"--ignore-term", "--daemon", pidfile, "--sleep", "60"});
        j["gpu"] = 0;
        f["jobs"].push_back(j);
        json later = jbtest::workerJob("later", {});
        later["gpu"] = 0;
        f["jobs"].push_back(later);

        Story s;
        jb::JobQueue q(parse(f), std::make_shared<jb::LocalExecutor>(m.options));
        connectStory(q, s);
        q.start();
        QTRY_VERIFY_WITH_TIMEOUT(!s.started.empty() && readPid(pidfile) > 0, 10000);
        q.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(s.finished, 15000);
        const jb::JobManifest& man = s.manifests.at("long");
        QCOMPARE(man.status, jb::JobStatus::Cancelled);
        QVERIFY(!alive(readPid(pidfile)));
        QVERIFY(sessionGone(s.started_pid.at("long")));
        QVERIFY(!s.manifests.count("later"));
        QVERIFY(!fs::exists(m.output_root + "/later"));
        QVERIFY(s.summary.cancelled);
        QCOMPARE(s.summary.not_started, 1);
        QCOMPARE(s.summary.failed, 1);
    }

    void cancelOneJobTheOthersGoOn()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        json j = jbtest::workerJob("long", {"--sleep", "60"});
        j["gpu"] = 0;
        f["jobs"].push_back(j);
        json other = jbtest::workerJob("other", {"--sleep", "0.5"});
        other["gpu"] = 1;
        f["jobs"].push_back(other);
        json after = jbtest::workerJob("after", {"--sleep", "0.1"});
        after["gpu"] = 0;
        f["jobs"].push_back(after);

        Story s;
        jb::JobQueue q(parse(f), std::make_shared<jb::LocalExecutor>(m.options));
        connectStory(q, s);
        q.start();
        QTRY_VERIFY_WITH_TIMEOUT(s.started_pid.count("long"), 10000);
        // Launched (handed its GPU and run folder) before its process started.
        QCOMPARE(s.launched.front(), std::string("long"));
        QCOMPARE(s.launched_gpu.at("long"), 0);
        QVERIFY(s.launched_dir.at("long").rfind(m.output_root + "/long/driver_", 0) == 0);
        // Only a running job can be cancelled on its own.
        QVERIFY(!q.cancelJob(QStringLiteral("after")));  // waits for GPU 0
        QVERIFY(!q.cancelJob(QStringLiteral("nope")));
        QVERIFY(!q.cancelJob(std::size_t(99)));
        QVERIFY(q.cancelJob(std::size_t(0)));
        QVERIFY(!q.cancelJob(QStringLiteral("long")));  // already ending
        QTRY_VERIFY_WITH_TIMEOUT(s.finished, 20000);

        const jb::JobManifest& man = s.manifests.at("long");
        QCOMPARE(man.status, jb::JobStatus::Cancelled);
        QCOMPARE(man.return_code, std::optional<int>(-15));
        QVERIFY(contains(man.notes, "cancelled on its own"));
        QVERIFY(sessionGone(s.started_pid.at("long")));
        const auto disk = jb::inspectJob(m.output_root, "long");
        QCOMPARE(disk.state, jb::DiskState::Preserved);
        QCOMPARE(disk.manifest->status, jb::JobStatus::Cancelled);
        QCOMPARE(disk.run_dir, s.launched_dir.at("long"));
        // The queue went on: the other GPU's job and the next one on GPU 0 ran to their end.
        QCOMPARE(s.manifests.at("other").status, jb::JobStatus::Completed);
        QCOMPARE(s.manifests.at("after").status, jb::JobStatus::Completed);
        QVERIFY(!contains(s.manifests.at("after").notes, "cancelled on its own"));
        QVERIFY(s.manifests.at("after").started_unix_time >= man.completed_unix_time);
        QCOMPARE(s.launched, (std::vector<std::string>{"long", "other", "after"}));
        QCOMPARE(s.launched_gpu.at("after"), 0);
        QVERIFY(s.samples["other"] > 0);
        QVERIFY(!s.summary.cancelled);
        QCOMPARE(s.summary.completed, 2);
        QCOMPARE(s.summary.failed, 1);
        QCOMPARE(s.summary.not_started, 0);
        QVERIFY(contains(s.lines, "long driver: CANCEL"));
        QVERIFY(!q.cancelJob(QStringLiteral("long")));  // the queue is over
    }

    void summarySentence()
    {
        jb::QueueSummary s;
        s.total = 6;
        s.completed = 1;
        s.failed = 2;
        s.preserved = 1;
        s.orphaned = 1;
        s.conflicts = 1;
        QCOMPARE(jb::queueSummaryText(s), std::string("1 completed, 2 failed, 1 preserved, 1 orphaned, 0 running "
                                                      "elsewhere, 1 conflicting, 0 not started"));
        s.cancelled = true;
        s.not_started = 1;
        s.failed = 1;
        QCOMPARE(jb::queueSummaryText(s), std::string("1 completed, 1 failed, 1 preserved, 1 orphaned, 0 running "
                                                      "elsewhere, 1 conflicting, 1 not started (stopped)"));
        jb::QueueSummary dry;
        dry.dry_run = true;
        dry.total = 5;
        dry.preserved = 1;
        dry.running_elsewhere = 1;
        QCOMPARE(jb::queueSummaryText(dry),
                 std::string("3 job(s) would run; 1 preserved, 0 orphaned, 1 running elsewhere, 0 conflicting"));
    }

    void destroyedMidRunStillRecords()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        f["jobs"].push_back(jbtest::workerJob("long", {"--sleep", "60"}));
        std::int64_t pid = 0;
        {
            Story s;
            jb::JobQueue q(parse(f), std::make_shared<jb::LocalExecutor>(m.options));
            connectStory(q, s);
            q.start();
            QTRY_VERIFY_WITH_TIMEOUT(!s.started.empty(), 10000);
            pid = s.started_pid.at("long");
        }  // a window closed mid-run
        QVERIFY(sessionGone(pid));
        const auto d = jb::inspectJob(m.output_root, "long");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QCOMPARE(d.manifest->status, jb::JobStatus::Cancelled);
    }

    void dryRunTouchesNothing()
    {
        Machine m;
        json f = jbtest::baseJobFile(m.output_root);
        f["jobs"].push_back(jbtest::workerJob("a", {}));
        f["jobs"].push_back(jbtest::workerJob("b", {}));
        Story s = runQueue(f, m.options, true);
        QCOMPARE(s.would_run, (std::vector<std::string>{"a", "b"}));
        QVERIFY(s.started.empty());
        QVERIFY(!fs::exists(m.output_root));
        QVERIFY(s.summary.dry_run);
        QVERIFY(s.summary.allOk());
    }

    void missingGpuRefusesTheRun()
    {
        Machine m(false);
        json f = jbtest::baseJobFile(m.output_root);
        f["allowed_gpus"] = {0, 4};
        json j = jbtest::workerJob("a", {});
        j["gpu"] = 4;
        f["jobs"].push_back(j);
        Story s = runQueue(f, m.options);
        QVERIFY2(s.failed.find("cannot resolve physical GPU 4") != std::string::npos, s.failed.c_str());
        QVERIFY(s.summary.refused);
        QVERIFY(!fs::exists(m.output_root + "/a"));
    }
};

QTEST_GUILESS_MAIN(TestJobQueue)
#include "tst_jobqueue.moc"
