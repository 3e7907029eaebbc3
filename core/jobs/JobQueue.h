#pragma once
// The GPU job queue: reads what is on disk (preserved, orphaned, running elsewhere), records
// the source's provenance and the GPUs once, then runs the remaining jobs through an executor,
// one job per allowed GPU at a time and jobs on different GPUs at once, and writes each job's
// manifest. Event-driven on the thread it lives in (provenance and jobs run on worker threads),
// so a GUI page and the CLI drive it alike and tell its story from its signals.
#include <jb/base/Mailbox.h>
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/Manifest.h>
#include <jb/jobs/RunFolders.h>

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace jb {

struct QueueSummary {
    int total = 0;
    int completed = 0;          // ran now and completed
    int failed = 0;             // ran now with another status (or could not be set up)
    int preserved = 0;          // a manifest was already there
    int preserved_not_completed = 0;  // of those, manifests whose status is not completed
    int orphaned = 0;           // a run folder without a manifest: left for an audit
    int running_elsewhere = 0;  // another live driver runs it
    int conflicts = 0;          // several manifests, or an unreadable one
    int not_started = 0;        // left pending by a cancel or a refusal
    bool dry_run = false;
    bool cancelled = false;
    bool refused = false;  // nothing ran: dirty source, GPU not found ...
    std::string refusal;
    bool allOk() const
    {
        return !refused && !cancelled && failed == 0 && preserved_not_completed == 0 && orphaned == 0 &&
            running_elsewhere == 0 && conflicts == 0 && not_started == 0;
    }
};

// The queue's end in one sentence, as the Jobs page and `joulebench-cli jobs run` both print it
// (each puts its own lead before it): "1 completed, 2 failed, 0 preserved, 0 orphaned, 0 running
// elsewhere, 0 conflicting, 0 not started" ("2 preserved (1 not completed)" where a preserved
// manifest says the job failed or was cancelled: the queue is not all right then either), for a dry run "2 job(s) would run; 0 preserved, 0
// orphaned, 0 running elsewhere, 0 conflicting"; " (stopped)" after a queue that was cancelled.
std::string queueSummaryText(const QueueSummary& s);

struct QueueOptions {
    bool dry_run = false;
    std::string proc_root = "/proc";  // where run folders' drivers are looked up (tests: a fake)
};

class JobQueue : public QObject {
    Q_OBJECT
public:
    JobQueue(JobFile file, std::shared_ptr<JobExecutor> executor, QueueOptions options = {},
             QObject* parent = nullptr);
    ~JobQueue() override;  // cancels running jobs and waits for them to end

    // Starts the queue (once); everything after comes as signals, ending with queueFinished.
    void start();
    // Ends running jobs (status cancelled, manifest written) and starts no more.
    void cancel();
    // Ends one running job (by name or by its index in the job file) as cancel() ends them:
    // SIGTERM, SIGKILL after its grace period (scancel for a Slurm job), manifest `cancelled`
    // with a note; the queue goes on with the other jobs. False where that job is not running
    // (not started yet, over, unknown) or the queue is over.
    bool cancelJob(const QString& name);
    bool cancelJob(std::size_t index);

    bool finished() const { return finished_; }
    const QueueSummary& summary() const { return summary_; }
    const JobFile& jobFile() const { return file_; }

Q_SIGNALS:
    void jobPreserved(const QString& name, const QString& manifestPath, jb::JobStatus status);
    // state: Orphaned, Running (another driver) or Conflict; the job is left untouched.
    void jobSkipped(const QString& name, jb::DiskState state, const QString& detail);
    void jobWouldRun(const QString& name, const QString& gpu, const QStringList& argv);  // dry run
    // The job was handed to the executor on gpu (-1: the executor places it), logs in runDir:
    // before its idle bracket and its process (jobStarted follows with the pid).
    void jobLaunched(const QString& name, int gpu, const QString& runDir);
    void jobStarted(const QString& name, int gpu, const QString& runDir, qint64 pid);
    void jobProgress(const QString& name, double elapsedSeconds, qint64 peakMemoryMib, double powerW);
    // The same sample whole (this sample's GPU memory as well as the peak), for a live chart.
    void jobSample(const QString& name, const jb::JobProgress& sample);
    void jobFinished(const QString& name, const jb::JobManifest& manifest, const QString& manifestPath);
    // A job that could not even get a run folder (no manifest can be written for it).
    void jobFailed(const QString& name, const QString& message);
    // stream: "stdout"/"stderr" (the job's output), "driver" (the queue's own lines; name may be empty).
    void logLine(const QString& name, const QString& stream, const QString& line);
    // A job handed to a cluster: its state there (PENDING with Slurm's reason, RUNNING on node).
    void jobRemoteState(const QString& name, const QString& state, const QString& reason, const QString& jobId,
                        const QString& node);
    void queueFailed(const QString& message);  // refused before any job ran
    void queueFinished(const jb::QueueSummary& summary);

private:
    struct Running;
    void begin();
    void prepared(bool ok, const std::string& message, const nlohmann::json& source,
                  const std::map<int, GpuInfo>& gpus);
    void schedule();
    // gpu -1: the executor places the job. adopt_*: a run folder an earlier driver submitted.
    // False when the job could not start (counted failed, jobFailed emitted).
    bool startJob(std::size_t index, int gpu, const std::string& adopt_run_dir = {},
                  const std::string& adopt_job_id = {});
    void jobDone(std::size_t index);
    JobManifest manifestFor(std::size_t index, const Running& r) const;
    static Status writeManifest(const JobManifest& m, const std::string& run_dir);
    void finishIfDone();
    void driverLine(const QString& name, const QString& line);

    Mailbox mail_{this};  // worker threads hand their news to this thread here
    JobFile file_;
    std::shared_ptr<JobExecutor> executor_;
    QueueOptions options_;
    QueueSummary summary_;
    bool started_ = false;
    bool finished_ = false;
    bool cancelled_ = false;
    bool ready_ = false;  // provenance and GPUs known
    std::thread prep_;
    nlohmann::json source_;
    std::map<int, GpuInfo> gpus_;
    std::vector<std::size_t> pending_;  // job indices, file order
    std::map<std::size_t, std::unique_ptr<Running>> running_;
    std::set<int> busy_gpus_;
    std::size_t handed_over_ = 0;  // jobs given to the executor so far
    std::map<std::size_t, std::pair<std::string, std::string>> adopt_;  // index -> run dir, remote job id
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::QueueSummary)
Q_DECLARE_METATYPE(jb::JobProgress)
Q_DECLARE_METATYPE(jb::JobStatus)
Q_DECLARE_METATYPE(jb::DiskState)
