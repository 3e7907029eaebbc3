// `joulebench-cli jobs run FILE` runs a GPU job queue (a line per job start and end) on this
// machine or on a Slurm cluster, `joulebench-cli jobs exec FILE --job NAME` runs one job of it
// here (what a Slurm node runs), and `joulebench-cli jobs status FILE` prints every job's state
// as it is on disk (and in Slurm).
#include "CliCommon.h"
#include "Commands.h"
#include "RunOptions.h"
#include <jb/base/Mailbox.h>
#include <jb/base/StopSignals.h>

#include <jb/jobs/DryRun.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/JobQueue.h>
#include <jb/jobs/JobRun.h>
#include <jb/jobs/LocalExecutor.h>
#include <jb/jobs/Provenance.h>
#include <jb/jobs/RunFolders.h>
#include <jb/jobs/SlurmExecutor.h>
#include <jb/jobs/Subprocess.h>
#include <jb/library/Library.h>
#include <jb/run/JobRun.h>
#include "ServeCli.h"
#include <jb/remote/RunServer.h>

#include <QCoreApplication>
#include <QFileInfo>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

namespace jbcli {

namespace {

const char* kActions =
    "run FILE [--dry-run] [--executor local|slurm] | exec FILE --job NAME [--run-dir DIR] | status FILE [--json]";

QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

// The GPU counter's figures of a manifest's energy report ("-" where absent).
QString energyField(const jb::JobManifest& m, std::optional<double> jb::CounterEnergy::*field)
{
    const jb::CounterEnergy* c = m.energy ? m.energy->gpuCounter() : nullptr;
    if (!c || !c->available || !(c->*field))
        return QStringLiteral("-");
    return fixed(*(c->*field), 1);
}

// The GPU counter's total energy ("-" where absent).
QString gpuTotalField(const jb::JobManifest& m)
{
    const jb::CounterEnergy* c = m.energy ? m.energy->gpuCounter() : nullptr;
    return c && c->available ? fixed(c->total_j, 1) : QStringLiteral("-");
}

int runJobs(const QString& command, const QCommandLineParser& p, const jb::JobFile& file_in)
{
    const jb::JobFile& file = file_in;
    auto options = jobRunOptionsFrom(p);
    if (!options)
        return usageError(command, toQ(options.error()));
    const bool dry = options->dry_run;
    const bool follow = p.isSet(QStringLiteral("follow"));
    jb::JobRun run(file, *options);
    if (!run.serveError().empty())
        return usageError(command, toQ(run.serveError()));
    announceServer(command, run.server());
    jb::JobQueue& queue = run.queue();
    int exit_code = kOk;
    // --dry-run: the checks the Jobs page's Dry Run makes (core/jobs/DryRun), and each command
    // with its placeholders filled.
    std::optional<jb::DryRunReport> checked;
    if (dry)
        checked = jb::dryRunCheck(file);
    QObject::connect(&queue, &jb::JobQueue::jobPreserved,
                     [](const QString& n, const QString& path, jb::JobStatus st) {
                         out() << "PRESERVE " << n << " status=" << toQ(jb::statusName(st)) << " -> " << path
                               << Qt::endl;
                     });
    QObject::connect(&queue, &jb::JobQueue::jobSkipped,
                     [](const QString& n, jb::DiskState state, const QString& why) {
                         out() << toQ(jb::diskStateName(state)).toUpper() << ' ' << n << ": " << why << " (not touched)" << Qt::endl;
                     });
    QObject::connect(&queue, &jb::JobQueue::jobWouldRun,
                     [&checked](const QString& n, const QString& gpu, const QStringList& argv) {
                         QString command = argv.join(QLatin1Char(' '));
                         if (checked)
                             for (const jb::DryRunJob& j : checked->jobs)
                                 if (toQ(j.name) == n)
                                     command = toQ(j.commandLine());
                         out() << "WOULD RUN " << n << " gpu=" << gpu << ": " << command << Qt::endl;
                     });
    QObject::connect(
        &queue, &jb::JobQueue::jobStarted, [](const QString& n, int gpu, const QString& dir, qint64 pid) {
            out() << "START " << n << " gpu=" << gpu << " pid=" << pid << " -> " << dir << Qt::endl;
        });
    QObject::connect(&queue, &jb::JobQueue::jobRemoteState,
                     [](const QString& n, const QString& state, const QString& reason, const QString& id,
                        const QString& node) {
                         if (state == QLatin1String("RUNNING"))
                             out() << "START " << n << " slurm_job=" << id << " node=" << node << Qt::endl;
                         else
                             out() << state << ' ' << n << " slurm_job=" << id
                                   << (reason.isEmpty() ? QString() : QStringLiteral(" reason=") + reason)
                                   << Qt::endl;
                     });
    QObject::connect(&run, &jb::JobRun::libraryNotAdded, [](const QString& path, const QString& why) {
        err() << "warning: " << path << " was not added to the library: " << why << Qt::endl;
    });
    QObject::connect(&queue, &jb::JobQueue::jobFinished,
                     [](const QString& n, const jb::JobManifest& m, const QString& path) {
                         out() << "DONE " << n << " status=" << toQ(jb::statusName(m.status)) << " rc="
                               << (m.return_code ? QString::number(*m.return_code) : QStringLiteral("-"))
                               << " wall=" << fixed(m.driver_wall_seconds, 2) << "s"
                               << " peak=" << m.hardware.peak_process_gpu_memory_mib << "MiB"
                               << " gpu_j=" << gpuTotalField(m)
                               << " marginal_j=" << energyField(m, &jb::CounterEnergy::marginal_j) << " -> " << path
                               << Qt::endl;
                         for (const std::string& note : m.notes)
                             err() << "  " << n << ": " << toQ(note) << Qt::endl;
                     });
    QObject::connect(&queue, &jb::JobQueue::jobFailed, [](const QString& n, const QString& why) {
        out() << "FAILED " << n << ": " << why << Qt::endl;
    });
    QObject::connect(
        &queue, &jb::JobQueue::logLine,
        [follow](const QString& n, const QString& stream, const QString& line) {
            // The driver's own lines always; the jobs' output with --follow.
            if (stream == QLatin1String("driver")) {
                if (!line.startsWith(QLatin1String("RUN ")) && !line.startsWith(QLatin1String("DONE ")))
                    err() << (n.isEmpty() ? QString() : QStringLiteral("[%1] ").arg(n)) << line << Qt::endl;
            } else if (follow) {
                err() << '[' << n << ' ' << stream << "] " << line << Qt::endl;
            }
        });
    QObject::connect(&queue, &jb::JobQueue::queueFailed,
                     [&](const QString& message) { err() << command << ": " << message << Qt::endl; });
    QObject::connect(&queue, &jb::JobQueue::queueFinished, [&](const jb::QueueSummary& s) {
        out() << "jobs: " << toQ(jb::queueSummaryText(s)) << Qt::endl;
        exit_code = s.refused ? kUsage : s.allOk() ? kOk : kAborted;
        if (checked) {
            for (const std::string& note : checked->notes)
                err() << command << ": note: " << toQ(note) << Qt::endl;
            if (checked->blocking()) {
                for (const QString& line : toQ(checked->text()).split(QLatin1Char('\n')))
                    err() << command << ": would fail: " << line << Qt::endl;
                if (exit_code == kOk)
                    exit_code = kAborted;
            }
        }
        if (run.server())
            run.server()->flush(kServeFlushMs);
        QCoreApplication::exit(exit_code);
    });

    // SIGINT, SIGTERM and SIGHUP cancel the queue (running jobs are ended and recorded)
    // instead of killing the driver and leaving orphans.
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, [&](int signo) {
        err() << command << ": " << jb::StopSignals::name(signo)
              << (file.executor.kind == jb::ExecutorKind::Slurm
                      ? ": stopping: cancelling the submitted Slurm jobs (scancel; their manifests say cancelled)"
                      : ": stopping: ending the running jobs (their manifests say cancelled)")
              << Qt::endl;
        queue.cancel();
    });
    queue.start();
    QCoreApplication::exec();
    return exit_code;
}

// A job's state in Slurm for the status table ("PENDING(Resources) #1234", "RUNNING@node7 #1234").
struct SlurmCell {
    QString text = QStringLiteral("-");
    nlohmann::json json;
};

SlurmCell slurmCell(const jb::SlurmExecutor* slurm, const jb::JobDiskInfo& d)
{
    SlurmCell c;
    auto fill = [&](const std::string& id, const std::string& state, const std::string& reason,
                    const std::string& node) {
        c.text = toQ(state) + (reason.empty() ? QString() : QStringLiteral("(%1)").arg(toQ(reason))) +
            (node.empty() ? QString() : QStringLiteral("@%1").arg(toQ(node))) + QStringLiteral(" #") + toQ(id);
        c.json = {{"job_id", id}, {"state", state}, {"reason", reason}, {"node", node}};
    };
    if (d.manifest && d.manifest->slurm) {
        const jb::SlurmRecord& r = *d.manifest->slurm;
        const std::string state = r.end && r.end->state && !r.end->state->empty() ? *r.end->state : "?";
        fill(r.job_id.value_or(""), state, "", r.node.value_or(""));
    } else if (slurm && !d.remote_job_id.empty()) {
        if (auto info = slurm->query(d.remote_job_id))
            fill(d.remote_job_id, info->state, info->reason, info->node);
        else
            fill(d.remote_job_id, "?", info.error(), "");
    }
    return c;
}

int statusJobs(const QCommandLineParser& p, const jb::JobFile& file)
{
    int exit_code = kOk;
    const bool is_slurm = file.executor.kind == jb::ExecutorKind::Slurm;
    std::unique_ptr<jb::SlurmExecutor> slurm;
    if (is_slurm)
        slurm = std::make_unique<jb::SlurmExecutor>(jb::slurmExecutorOptions(file, cliJobRunOptions()));
    auto withSlurm = [&](const QString& cell, const QString& folder) {
        return is_slurm ? cell.leftJustified(32) + QLatin1Char(' ') + folder : folder;
    };
    nlohmann::json rows = nlohmann::json::array();
    const QString header = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                               .arg(QStringLiteral("JOB"), -24)
                               .arg(QStringLiteral("GPU"), -4)
                               .arg(QStringLiteral("STATE"), -10)
                               .arg(QStringLiteral("STATUS"), -16)
                               .arg(QStringLiteral("RC"), 4)
                               .arg(QStringLiteral("WALL_S"), 9)
                               .arg(QStringLiteral("PEAK_MIB"), 9)
                               .arg(QStringLiteral("GPU_J"), 10)
                               .arg(withSlurm(QStringLiteral("SLURM"), QStringLiteral("FOLDER")));
    if (!p.isSet(QStringLiteral("json")))
        out() << header << Qt::endl;
    for (const jb::JobSpec& job : file.jobs) {
        const jb::JobDiskInfo d = jb::inspectJob(file.output_root, job.name);
        const jb::JobManifest* m = d.manifest ? &*d.manifest : nullptr;
        const bool bad = d.state == jb::DiskState::Orphaned || d.state == jb::DiskState::Conflict ||
            (m && m->status != jb::JobStatus::Completed);
        if (bad)
            exit_code = kAborted;
        nlohmann::json r;
        r["name"] = job.name;
        r["gpu"] = m ? nlohmann::json(m->hardware.physical_index) : nlohmann::json(jb::gpuText(job.gpu));
        r["state"] = jb::diskStateName(d.state);
        r["status"] = m ? nlohmann::json(jb::statusName(m->status)) : nlohmann::json();
        r["return_code"] = m && m->return_code ? nlohmann::json(*m->return_code) : nlohmann::json();
        r["manifest"] = d.manifest_path.empty() ? nlohmann::json() : nlohmann::json(d.manifest_path);
        r["folder"] = d.run_dir.empty() ? d.job_folder : d.run_dir;
        r["detail"] = d.detail;
        const SlurmCell cell = slurmCell(slurm.get(), d);
        if (is_slurm)
            r["slurm"] = cell.json;
        rows.push_back(r);
        if (p.isSet(QStringLiteral("json")))
            continue;
        const QString folder = toQ(d.state == jb::DiskState::NotRun ? std::string("-")
                                                                    : r["folder"].get<std::string>());
        out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                     .arg(toQ(job.name), -24)
                     .arg(m ? QString::number(m->hardware.physical_index) : toQ(jb::gpuText(job.gpu)), -4)
                     .arg(toQ(jb::diskStateName(d.state)), -10)
                     .arg(m ? toQ(jb::statusName(m->status)) : QStringLiteral("-"), -16)
                     .arg(m && m->return_code ? QString::number(*m->return_code) : QStringLiteral("-"), 4)
                     .arg(m ? fixed(m->driver_wall_seconds, 1) : QStringLiteral("-"), 9)
                     .arg(m ? QString::number(m->hardware.peak_process_gpu_memory_mib) : QStringLiteral("-"),
                          9)
                     .arg(m ? gpuTotalField(*m) : QStringLiteral("-"), 10)
                     .arg(withSlurm(cell.text, folder))
              << Qt::endl;
        if (!d.detail.empty() && d.state != jb::DiskState::Preserved)
            out() << "    " << toQ(d.detail) << Qt::endl;
    }
    if (p.isSet(QStringLiteral("json")))
        out() << toQ(rows.dump(2)) << Qt::endl;
    return exit_code;
}

// The executor's lines on stderr (the job's own output is in its logs), printed on the main
// thread: the executor calls from its worker thread and hands each line over the mailbox.
class ExecPrinter final : public jb::JobObserver {
public:
    ExecPrinter(jb::Mailbox* mail, QString name) : mail_(mail), name_(std::move(name)) {}
    void started(std::int64_t pid) override { print(QStringLiteral("started pid=%1").arg(pid)); }
    void progress(const jb::JobProgress&) override {}
    void logLine(const std::string& stream, const std::string& line) override
    {
        if (stream == "driver")
            print(toQ(line));
    }

private:
    void print(const QString& text)
    {
        mail_->post([n = name_, text] { err() << "[" << n << "] " << text << Qt::endl; });
    }
    jb::Mailbox* mail_;
    QString name_;
};

// One job of the file, here: what a Slurm node runs (the batch script execs this). The same
// launch, executor and manifest as a queue's job; the GPU is the one the allocation gives.
int execJob(const QString& command, const QCommandLineParser& p, const jb::JobFile& file)
{
    const std::string name = toStd(p.value(QStringLiteral("job")));
    if (name.empty())
        return usageError(command, QStringLiteral("exec: --job NAME is required"));
    std::size_t index = file.jobs.size();
    for (std::size_t i = 0; i < file.jobs.size(); ++i)
        if (file.jobs[i].name == name)
            index = i;
    if (index == file.jobs.size())
        return usageError(command, QStringLiteral("exec: %1 has no job named '%2'").arg(toQ(file.path), toQ(name)));
    const jb::JobSpec& job = file.jobs[index];
    auto options = jobRunOptionsFrom(p);
    if (!options)
        return usageError(command, toQ(options.error()));
    const jb::LocalExecutorOptions opts = jb::localExecutorOptions(file, *options);
    std::string run_dir;
    if (p.isSet(QStringLiteral("run-dir"))) {
        run_dir = toStd(QFileInfo(p.value(QStringLiteral("run-dir"))).absoluteFilePath());
        if (!QFileInfo(toQ(run_dir)).isDir())
            return usageError(command, QStringLiteral("exec: --run-dir '%1' is not a folder").arg(toQ(run_dir)));
    } else {
        auto d = jb::createRunDirectory(file.output_root, name);
        if (!d)
            return usageError(command, toQ(d.error()));
        run_dir = *d;
    }
    const std::vector<std::string> env = jb::mergedEnvironment({});
    const bool in_slurm = jb::environmentValue(env, "SLURM_JOB_ID").has_value();
    std::vector<int> gpus = jb::allocatedGpus(jb::environmentValue(env, "SLURM_JOB_GPUS"),
                                              jb::environmentValue(env, "CUDA_VISIBLE_DEVICES"));
    if (gpus.empty() && job.gpu)
        gpus.push_back(*job.gpu);
    if (gpus.empty() && !in_slurm && !file.allowed_gpus.empty())
        gpus.push_back(file.allowed_gpus.front());
    if (gpus.empty())
        return usageError(command, QStringLiteral("exec: job '%1' has no GPU: neither SLURM_JOB_GPUS nor "
                                                  "CUDA_VISIBLE_DEVICES names one (ask Slurm for one with "
                                                  "executor.gpus_per_job)")
                                       .arg(toQ(name)));
    jb::LocalExecutor local(opts);
    std::vector<jb::SlurmGpu> gpu_list;
    jb::GpuInfo first;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        auto info = local.probeGpu(gpus[i]);
        if (!info)
            return usageError(command, QStringLiteral("exec: %1").arg(toQ(info.error())));
        if (i == 0)
            first = *info;
        gpu_list.push_back({info->physical_index, info->uuid, info->name});
    }
    // The driver's source report where it left one; else this node's.
    nlohmann::json source;
    if (std::ifstream in(run_dir + "/source.json"); in) {
        try {
            source = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception&) {
            source = nullptr;  // recomputed below
        }
    }
    if (source.is_null() && !file.provenance.source.empty()) {
        auto rep = jb::sourceReport(file.provenance, true);
        if (!rep)
            return usageError(command, QStringLiteral("exec: %1").arg(toQ(rep.error())));
        source = *rep;
    }
    // Under Slurm the job keeps the allocation's CUDA_VISIBLE_DEVICES.
    const jb::JobLaunch launch = jb::makeJobLaunch(
        file, index, run_dir, first,
        in_slurm ? std::nullopt : std::optional<std::string>(std::to_string(first.physical_index)));

    std::atomic<bool> cancel{false};
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, [&](int signo) {
        err() << command << ": " << jb::StopSignals::name(signo) << ": ending the job (its manifest says cancelled)"
              << Qt::endl;
        cancel.store(true);
    });
    jb::JobOutcome outcome;
    jb::Mailbox mail;  // the worker's news, run on this thread
    ExecPrinter printer(&mail, toQ(name));
    std::thread worker([&] {
        outcome = local.run(launch, printer, cancel);
        mail.post([] { QCoreApplication::exit(0); });
    });
    QCoreApplication::exec();
    worker.join();
    jb::JobManifest m = jb::makeJobManifest(file, index, launch, outcome, source, {});
    if (in_slurm)
        m.slurm = jb::slurmNodeRecord(env, gpu_list);
    const std::string path = run_dir + "/" + jb::kManifestName;
    if (auto st = jb::writeJsonAtomic(path, m.toJson()); !st) {
        err() << command << ": " << toQ(st.error()) << Qt::endl;
        return kAborted;
    }
    out() << "DONE " << toQ(name) << " status=" << toQ(jb::statusName(m.status)) << " rc="
          << (m.return_code ? QString::number(*m.return_code) : QStringLiteral("-")) << " -> " << toQ(path)
          << Qt::endl;
    return m.status == jb::JobStatus::Completed ? kOk : kAborted;
}

}  // namespace

int cmdJobs(const QStringList& args)
{
    const QString command = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs a queue of GPU jobs from a job file (docs/JOBS.md) here or on a Slurm cluster, runs one\n"
        "job of it here (exec: what a Slurm node runs), or shows their state on disk.\n"
        "Exit status: 0 every job completed or was preserved, 1 a job failed (or an orphaned run\n"
        "folder needs an audit), 2 a bad job file or usage, or a run refused before any job started."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("action"), QStringLiteral("run, exec or status"));
    p.addPositionalArgument(QStringLiteral("file"), QStringLiteral("the job file (JSON)"));
    p.addOption({QStringLiteral("dry-run"),
                 QStringLiteral("run: print what would run; start nothing, create nothing.")});
    p.addOption(
        {QStringLiteral("follow"), QStringLiteral("run: copy the jobs' output lines to standard error.")});
    p.addOption(
        {QStringLiteral("nvidia-smi"),
         QStringLiteral("run: the nvidia-smi program used where NVML cannot be loaded (default: the job "
                        "file's, else nvidia-smi on PATH)."),
         QStringLiteral("PATH")});
    p.addOption({QStringLiteral("json"), QStringLiteral("status: print the states as JSON.")});
    p.addOption({QStringLiteral("executor"),
                 QStringLiteral("run, exec, status: local or slurm, in place of the job file's executor.kind."),
                 QStringLiteral("KIND")});
    p.addOption({QStringLiteral("job"), QStringLiteral("exec: the job to run."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("library"),
                 QStringLiteral("run: add each job's manifest to this library (default $JOULEBENCH_LIBRARY, else "
                                "the user's library)."),
                 QStringLiteral("FILE|URL")});
    p.addOption({QStringLiteral("no-library"), QStringLiteral("run: do not add the manifests to a library.")});
    p.addOption({QStringLiteral("serve"),
                 QStringLiteral("run: publish the queue as it goes on [ADDR:]PORT (default address 127.0.0.1; "
                                "port 0: any) for watching dashboards and a /metrics scrape (docs/REMOTE.md)."),
                 QStringLiteral("[ADDR:]PORT")});
    p.addOption({QStringLiteral("run-dir"),
                 QStringLiteral("exec: the job's run folder (made by the driver; default: a new one)."),
                 QStringLiteral("DIR")});
    addCounterOptions(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2)
        return usageError(command, QStringLiteral("expected %1").arg(QLatin1String(kActions)));
    std::optional<jb::ExecutorKind> kind;
    if (p.isSet(QStringLiteral("executor"))) {
        kind = jb::executorKindFrom(toStd(p.value(QStringLiteral("executor"))));
        if (!kind)
            return usageError(command, QStringLiteral("--executor: expected local or slurm, found '%1'")
                                           .arg(p.value(QStringLiteral("executor"))));
    }
    if (p.isSet(QStringLiteral("library")) && p.isSet(QStringLiteral("no-library")))
        return usageError(command, QStringLiteral("--library and --no-library exclude each other"));
    auto file = jb::readJobFile(toStd(pos.at(1)), kind);
    if (!file)
        return usageError(command, toQ(file.error()));
    if (pos.at(0) == QLatin1String("run"))
        return runJobs(command, p, *file);
    if (pos.at(0) == QLatin1String("exec"))
        return execJob(command, p, *file);
    if (pos.at(0) == QLatin1String("status"))
        return statusJobs(p, *file);
    return usageError(
        command, QStringLiteral("unknown action '%1'; expected %2").arg(pos.at(0), QLatin1String(kActions)));
}

}  // namespace jbcli
