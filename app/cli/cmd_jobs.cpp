// `joulebench-cli jobs run FILE` runs a GPU job queue (a line per job start and end) and
// `joulebench-cli jobs status FILE` prints every job's state as it is on disk.
#include "CliCommon.h"
#include "Commands.h"
#include "base/StopSignals.h"

#include "jobs/JobFile.h"
#include "jobs/JobQueue.h"
#include "jobs/LocalExecutor.h"
#include "jobs/RunFolders.h"

#include <QCoreApplication>


#include <cmath>
#include <cstdio>

namespace jbcli {

namespace {

const char* kActions = "run FILE [--dry-run] | status FILE [--json]";

QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

// The GPU counter's figures of a manifest's energy report ("-" where absent).
QString energyField(const jb::JobManifest& m, const char* key)
{
    if (!m.energy.is_object() || !m.energy.contains("gpu_counter") || !m.energy["gpu_counter"].is_string())
        return QStringLiteral("-");
    const auto& counters = m.energy.value("counters", nlohmann::json::object());
    const auto it = counters.find(m.energy["gpu_counter"].get<std::string>());
    if (it == counters.end() || !it->contains(key) || !(*it)[key].is_number())
        return QStringLiteral("-");
    return fixed((*it)[key].get<double>(), 1);
}

int runJobs(const QString& command, const QCommandLineParser& p, const jb::JobFile& file_in)
{
    jb::JobFile file = file_in;
    auto counter_opts = counterOptionsFrom(p);
    if (!counter_opts)
        return usageError(command, toQ(counter_opts.error()));
    jb::LocalExecutorOptions exec;
    exec.counters = *counter_opts;
    exec.nvml_library = p.isSet(QStringLiteral("nvml-library")) ? counter_opts->nvml_library
                                                                : file.nvml_library;
    exec.nvidia_smi = p.isSet(QStringLiteral("nvidia-smi")) ? toStd(p.value(QStringLiteral("nvidia-smi")))
                                                            : file.nvidia_smi;
    const bool dry = p.isSet(QStringLiteral("dry-run"));
    const bool follow = p.isSet(QStringLiteral("follow"));

    jb::JobQueue queue(file, std::make_shared<jb::LocalExecutor>(exec), jb::QueueOptions{dry});
    int exit_code = kOk;
    QObject::connect(&queue, &jb::JobQueue::jobPreserved,
                     [](const QString& n, const QString& path, const QString& st) {
                         out() << "PRESERVE " << n << " status=" << st << " -> " << path << Qt::endl;
                     });
    QObject::connect(&queue, &jb::JobQueue::jobSkipped,
                     [](const QString& n, const QString& state, const QString& why) {
                         out() << state.toUpper() << ' ' << n << ": " << why << " (not touched)" << Qt::endl;
                     });
    QObject::connect(&queue, &jb::JobQueue::jobWouldRun,
                     [](const QString& n, const QString& gpu, const QStringList& argv) {
                         out() << "WOULD RUN " << n << " gpu=" << gpu << ": " << argv.join(QLatin1Char(' '))
                               << Qt::endl;
                     });
    QObject::connect(
        &queue, &jb::JobQueue::jobStarted, [](const QString& n, int gpu, const QString& dir, qint64 pid) {
            out() << "START " << n << " gpu=" << gpu << " pid=" << pid << " -> " << dir << Qt::endl;
        });
    QObject::connect(&queue, &jb::JobQueue::jobFinished,
                     [](const QString& n, const jb::JobManifest& m, const QString& path) {
                         out() << "DONE " << n << " status=" << toQ(jb::statusName(m.status)) << " rc="
                               << (m.return_code ? QString::number(*m.return_code) : QStringLiteral("-"))
                               << " wall=" << fixed(m.driver_wall_seconds, 2) << "s"
                               << " peak=" << m.hardware.peak_process_gpu_memory_mib << "MiB"
                               << " gpu_j=" << energyField(m, "total_j")
                               << " marginal_j=" << energyField(m, "marginal_j") << " -> " << path
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
        out() << "jobs: " << s.completed << " completed, " << s.failed << " failed, " << s.preserved
              << " preserved, " << s.orphaned << " orphaned, " << s.running_elsewhere
              << " running elsewhere, " << s.conflicts << " conflicting, " << s.not_started << " not started"
              << (s.dry_run ? " (dry run)" : "") << (s.cancelled ? " (cancelled)" : "") << Qt::endl;
        exit_code = s.refused ? kUsage : s.allOk() ? kOk : kAborted;
        QCoreApplication::exit(exit_code);
    });

    // SIGINT, SIGTERM and SIGHUP cancel the queue (running jobs are ended and recorded)
    // instead of killing the driver and leaving orphans.
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, [&](int signo) {
        err() << command << ": " << jb::StopSignals::name(signo)
              << ": stopping: ending the running jobs (their manifests say cancelled)" << Qt::endl;
        queue.cancel();
    });
    queue.start();
    QCoreApplication::exec();
    return exit_code;
}

int statusJobs(const QCommandLineParser& p, const jb::JobFile& file)
{
    int exit_code = kOk;
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
                               .arg(QStringLiteral("FOLDER"));
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
                     .arg(m ? energyField(*m, "total_j") : QStringLiteral("-"), 10)
                     .arg(folder)
              << Qt::endl;
        if (!d.detail.empty() && d.state != jb::DiskState::Preserved)
            out() << "    " << toQ(d.detail) << Qt::endl;
    }
    if (p.isSet(QStringLiteral("json")))
        out() << toQ(rows.dump(2)) << Qt::endl;
    return exit_code;
}

}  // namespace

int cmdJobs(const QStringList& args)
{
    const QString command = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs a queue of GPU jobs from a job file (docs/JOBS.md), or shows their state on disk.\n"
        "Exit status: 0 every job completed or was preserved, 1 a job failed (or an orphaned run\n"
        "folder needs an audit), 2 a bad job file or usage, or a run refused before any job started."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("action"), QStringLiteral("run or status"));
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
    addCounterOptions(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2)
        return usageError(command, QStringLiteral("expected %1").arg(QLatin1String(kActions)));
    auto file = jb::readJobFile(toStd(pos.at(1)));
    if (!file)
        return usageError(command, toQ(file.error()));
    if (pos.at(0) == QLatin1String("run"))
        return runJobs(command, p, *file);
    if (pos.at(0) == QLatin1String("status"))
        return statusJobs(p, *file);
    return usageError(
        command, QStringLiteral("unknown action '%1'; expected %2").arg(pos.at(0), QLatin1String(kActions)));
}

}  // namespace jbcli
