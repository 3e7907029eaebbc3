#include <jb/run/JobRun.h>

#include <jb/jobs/Manifest.h>
#include <jb/jobs/RunFolders.h>
#include <jb/library/Library.h>
#include <jb/remote/RunServer.h>

namespace jb {

LocalExecutorOptions localExecutorOptions(const JobFile& file, const JobRunOptions& options)
{
    LocalExecutorOptions exec;
    exec.counters = options.counters;
    exec.nvml_library = options.nvml_library ? *options.nvml_library : file.nvml_library;
    exec.nvidia_smi = options.nvidia_smi ? *options.nvidia_smi : file.nvidia_smi;
    return exec;
}

SlurmExecutorOptions slurmExecutorOptions(const JobFile& file, const JobRunOptions& options)
{
    SlurmExecutorOptions o;
    o.settings = file.executor;
    o.programs = SlurmPrograms::from(file.executor);
    o.joulebench_cli = !file.executor.joulebench_cli.empty() ? file.executor.joulebench_cli : options.joulebench_cli;
    return o;
}

std::shared_ptr<JobExecutor> makeJobExecutor(const JobFile& file, const JobRunOptions& options)
{
    if (file.executor.kind == ExecutorKind::Slurm)
        return std::make_shared<SlurmExecutor>(slurmExecutorOptions(file, options));
    return std::make_shared<LocalExecutor>(localExecutorOptions(file, options));
}

JobRun::JobRun(JobFile file, JobRunOptions options, std::shared_ptr<JobExecutor> executor, QObject* parent)
    : QObject(parent), options_(std::move(options))
{
    if (!executor)
        executor = makeJobExecutor(file, options_);
    queue_ = std::make_unique<JobQueue>(std::move(file), std::move(executor), QueueOptions{options_.dry_run});
    // A library that cannot take a manifest costs a warning, never the manifest.
    connect(queue_.get(), &JobQueue::jobFinished, this, [this](const QString&, const JobManifest&, const QString& path) {
        if (!options_.library)
            return;
        if (auto a = addToLibrary(path.toStdString(), *options_.library); a)
            emit libraryAdded(path);
        else
            emit libraryNotAdded(path, QString::fromStdString(a.error()));
    });
    if (!options_.serve)
        return;
    auto where = remote::parseServeAddress(*options_.serve);
    if (!where) {
        serve_error_ = where.error();
        return;
    }
    auto* sv = new RunServer("jobs", this);
    if (Status st = sv->listen(*where); !st) {
        serve_error_ = st.error();
        delete sv;
        return;
    }
    server_ = sv;
    using oj = nlohmann::ordered_json;
    JobQueue* q = queue_.get();
    connect(q, &JobQueue::jobLaunched, sv, [sv](const QString& n, int gpu, const QString& dir) {
        sv->jobState(n, "launched", oj{{"gpu", gpu}, {"run_dir", dir.toStdString()}});
    });
    connect(q, &JobQueue::jobStarted, sv, [sv](const QString& n, int gpu, const QString& dir, qint64 pid) {
        sv->jobState(n, "running", oj{{"gpu", gpu}, {"run_dir", dir.toStdString()}, {"pid", pid}});
    });
    connect(q, &JobQueue::jobSample, sv, &RunServer::jobSample);
    connect(q, &JobQueue::logLine, sv, [sv](const QString& n, const QString& stream, const QString& line) {
        if (!n.isEmpty())  // a job's line; the queue's own lines ("cancelled: ...") stay local
            sv->jobLog(n, stream, line);
    });
    connect(q, &JobQueue::jobFinished, sv, [sv](const QString& n, const JobManifest& m, const QString& path) {
        sv->jobState(n, statusName(m.status), oj{{"manifest", path.toStdString()}});
    });
    connect(q, &JobQueue::jobFailed, sv,
            [sv](const QString& n, const QString& why) { sv->jobState(n, "failed", oj{{"error", why.toStdString()}}); });
    connect(q, &JobQueue::jobPreserved, sv, [sv](const QString& n, const QString& path, JobStatus st) {
        sv->jobState(n, "preserved", oj{{"manifest", path.toStdString()}, {"status", statusName(st)}});
    });
    connect(q, &JobQueue::jobSkipped, sv, [sv](const QString& n, DiskState st, const QString& detail) {
        sv->jobState(n, "skipped", oj{{"disk_state", diskStateName(st)}, {"detail", detail.toStdString()}});
    });
    connect(q, &JobQueue::jobWouldRun, sv, [sv](const QString& n, const QString& gpu, const QStringList&) {
        sv->jobState(n, "would-run", oj{{"gpu", gpu.toStdString()}});
    });
    connect(q, &JobQueue::queueFailed, sv, [sv](const QString& why) { sv->queueEnded({}, why.toStdString()); });
    connect(q, &JobQueue::queueFinished, sv, [sv](const QueueSummary& s) { sv->queueEnded(s); });
}

JobRun::~JobRun() = default;

}  // namespace jb
