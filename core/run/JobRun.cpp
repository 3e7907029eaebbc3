#include <jb/run/JobRun.h>

#include <jb/library/Library.h>

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
}

JobRun::~JobRun() = default;

}  // namespace jb
