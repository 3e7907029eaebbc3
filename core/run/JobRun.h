#pragma once
// JobRun: a job file's queue run, the same for `joulebench-cli jobs run` and the Jobs page. It
// chooses the executor (LocalExecutor with the counter options where RAPL and hwmon are read, or
// SlurmExecutor), owns the queue, and adds each written manifest to the library. The front ends
// map their flags or settings onto JobRunOptions, one field each, and print or draw the queue's
// signals and these.
#include <jb/counters/CounterRegistry.h>
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/JobQueue.h>
#include <jb/jobs/LocalExecutor.h>
#include <jb/jobs/SlurmExecutor.h>

#include <QObject>

#include <memory>
#include <optional>
#include <string>

namespace jb {

class RunServer;

struct JobRunOptions {
    bool dry_run = false;
    // Where the local executor's energy counters are read (--powercap-root, --rapl-zone, ...).
    CounterOptions counters;
    // In place of the job file's nvml_library and nvidia_smi (--nvml-library, --nvidia-smi).
    std::optional<std::string> nvml_library;
    std::optional<std::string> nvidia_smi;
    // The program a Slurm node runs where the job file names none (the front end's joulebench-cli).
    std::string joulebench_cli;
    // The library each job's manifest joins (a spec for librarySpec); none: none.
    std::optional<std::string> library;
    // Publish the queue as it goes (--serve [ADDR:]PORT, core/remote's RunServer); none: not.
    std::optional<std::string> serve;
};

// The executors' options for a job file run with options.
LocalExecutorOptions localExecutorOptions(const JobFile& file, const JobRunOptions& options);
SlurmExecutorOptions slurmExecutorOptions(const JobFile& file, const JobRunOptions& options);
// The executor the file's executor.kind names.
std::shared_ptr<JobExecutor> makeJobExecutor(const JobFile& file, const JobRunOptions& options);

class JobRun : public QObject {
    Q_OBJECT
public:
    // executor: null for makeJobExecutor's (tests and remote executors give their own).
    JobRun(JobFile file, JobRunOptions options, std::shared_ptr<JobExecutor> executor = {},
           QObject* parent = nullptr);
    ~JobRun() override;  // the queue's: ends running jobs and records them

    JobQueue& queue() { return *queue_; }
    const JobRunOptions& options() const { return options_; }
    void start() { queue_->start(); }
    void cancel() { queue_->cancel(); }
    bool finished() const { return queue_->finished(); }
    // options.serve: the server listening from construction on (null where none), or why it
    // could not listen (then there is no server; the front end refuses to run).
    RunServer* server() const { return server_; }
    const std::string& serveError() const { return serve_error_; }

signals:
    void libraryAdded(const QString& path);
    void libraryNotAdded(const QString& path, const QString& error);

private:
    JobRunOptions options_;
    std::unique_ptr<JobQueue> queue_;
    RunServer* server_ = nullptr;
    std::string serve_error_;
};

}  // namespace jb
