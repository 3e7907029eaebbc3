#include <jb/jobs/JobQueue.h>

#include <jb/base/QtText.h>
#include <jb/base/Version.h>
#include <jb/jobs/JobRun.h>
#include <jb/jobs/Provenance.h>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

QStringList qlist(const std::vector<std::string>& v)
{
    QStringList l;
    for (const std::string& s : v)
        l << qtext(s);
    return l;
}

}  // namespace

std::string queueSummaryText(const QueueSummary& s)
{
    const std::string rest = std::to_string(s.preserved) + " preserved" +
        (s.preserved_not_completed > 0 ? " (" + std::to_string(s.preserved_not_completed) + " not completed)" : "") +
        ", " + std::to_string(s.orphaned) +
        " orphaned, " + std::to_string(s.running_elsewhere) + " running elsewhere, " +
        std::to_string(s.conflicts) + " conflicting";
    std::string text;
    if (s.dry_run) {
        const int would_run = s.total - s.preserved - s.orphaned - s.running_elsewhere - s.conflicts - s.not_started;
        text = std::to_string(would_run) + " job(s) would run; " + rest;
    } else {
        text = std::to_string(s.completed) + " completed, " + std::to_string(s.failed) + " failed, " + rest + ", " +
            std::to_string(s.not_started) + " not started";
    }
    if (s.cancelled)
        text += " (stopped)";
    return text;
}

// One job on a worker thread.
struct JobQueue::Running {
    JobLaunch launch;
    int gpu = -1;
    std::atomic<bool> cancel{false};
    bool cancelled_alone = false;  // cancelJob(), not cancel()
    std::thread thread;
    std::set<std::string> overlapped;   // jobs that ran at the same time
    std::optional<JobOutcome> outcome;  // set by the worker before it ends
};

namespace {

// Forwards the executor's calls (worker thread) to the queue's thread.
class Forwarder final : public JobObserver {
public:
    Forwarder(Mailbox* mail, QString name, std::function<void(const QString&, qint64)> started,
              std::function<void(const QString&, const JobProgress&)> progress,
              std::function<void(const QString&, const QString&, const QString&)> line,
              std::function<void(const QString&, const RemoteState&)> remote)
        : mail_(mail),
          name_(std::move(name)),
          started_(std::move(started)),
          progress_(std::move(progress)),
          line_(std::move(line)),
          remote_(std::move(remote))
    {}
    void remoteState(const RemoteState& st) override
    {
        mail_->post([f = remote_, n = name_, st] { f(n, st); });
    }
    void started(std::int64_t pid) override
    {
        mail_->post([f = started_, n = name_, pid] { f(n, qint64(pid)); });
    }
    void progress(const JobProgress& p) override
    {
        mail_->post([f = progress_, n = name_, p] { f(n, p); });
    }
    void logLine(const std::string& stream, const std::string& line) override
    {
        mail_->post([f = line_, n = name_, s = qtext(stream), l = QString::fromUtf8(line)] { f(n, s, l); });
    }

private:
    Mailbox* mail_;
    QString name_;
    std::function<void(const QString&, qint64)> started_;
    std::function<void(const QString&, const JobProgress&)> progress_;
    std::function<void(const QString&, const QString&, const QString&)> line_;
    std::function<void(const QString&, const RemoteState&)> remote_;
};

}  // namespace

JobQueue::JobQueue(JobFile file, std::shared_ptr<JobExecutor> executor, QueueOptions options, QObject* parent)
    : QObject(parent), file_(std::move(file)), executor_(std::move(executor)), options_(options)
{
    qRegisterMetaType<jb::JobManifest>();
    qRegisterMetaType<jb::QueueSummary>();
    qRegisterMetaType<jb::JobProgress>();
    qRegisterMetaType<jb::JobStatus>();
    qRegisterMetaType<jb::DiskState>();
}

JobQueue::~JobQueue()
{
    cancelled_ = true;
    for (auto& [i, r] : running_)
        r->cancel.store(true);
    if (prep_.joinable())
        prep_.join();
    // Jobs ended by the destruction (a window closed mid-run) still get their manifests, so
    // their folders are not left as orphans; no signal goes out from a destructor.
    for (auto& [i, r] : running_) {
        if (r->thread.joinable())
            r->thread.join();
        if (r->outcome)
            writeManifest(manifestFor(i, *r), r->launch.run_dir);
    }
}

void JobQueue::driverLine(const QString& name, const QString& line)
{
    Q_EMIT logLine(name, QStringLiteral("driver"), line);
}

void JobQueue::start()
{
    if (started_)
        return;
    started_ = true;
    // Every signal comes from the event loop, never from inside start() (a plain invokeMethod
    // on this thread would call begin() now: the CLI's queueFinished would come before exec()).
    mail_.post([this] { begin(); });
}

void JobQueue::begin()
{
    if (cancelled_) {
        summary_.total = int(file_.jobs.size());
        summary_.not_started = summary_.total;
        finished_ = true;
        Q_EMIT queueFinished(summary_);
        return;
    }
    summary_.total = int(file_.jobs.size());
    summary_.dry_run = options_.dry_run;
    // What is on disk decides what runs: manifests are preserved, orphans left for an audit.
    for (std::size_t i = 0; i < file_.jobs.size(); ++i) {
        const JobSpec& job = file_.jobs[i];
        const JobDiskInfo d = inspectJob(file_.output_root, job.name, options_.proc_root);
        const QString name = qtext(job.name);
        switch (d.state) {
        case DiskState::NotRun:
            pending_.push_back(i);
            break;
        case DiskState::Preserved:
            ++summary_.preserved;
            if (d.manifest->status != JobStatus::Completed)
                ++summary_.preserved_not_completed;
            Q_EMIT jobPreserved(name, qtext(d.manifest_path), d.manifest->status);
            break;
        case DiskState::Orphaned:
            ++summary_.orphaned;
            Q_EMIT jobSkipped(name, DiskState::Orphaned, qtext(d.detail));
            break;
        case DiskState::Running:
            ++summary_.running_elsewhere;
            Q_EMIT jobSkipped(name, DiskState::Running, qtext(d.detail));
            break;
        case DiskState::Conflict:
            ++summary_.conflicts;
            Q_EMIT jobSkipped(name, DiskState::Conflict, qtext(d.detail));
            break;
        case DiskState::Submitted:
            // Submitted by an earlier driver that is gone: watched again, not submitted again.
            if (executor_->placesJobs() && !options_.dry_run) {
                adopt_[i] = {d.run_dir, d.remote_job_id};
            } else {
                ++summary_.orphaned;
                Q_EMIT jobSkipped(name, DiskState::Orphaned,
                                  qtext(d.detail + (options_.dry_run ? "" : "; run it with the slurm executor to watch it")));
            }
            break;
        }
    }
    if (pending_.empty() && adopt_.empty()) {
        ready_ = true;  // nothing to run: no provenance, no GPU needed
        finishIfDone();
        return;
    }
    // GPUs the pending jobs may use; a dry run does not need them.
    std::set<int> needed;
    if (!options_.dry_run && !executor_->placesJobs())
        for (std::size_t i : pending_) {
            if (file_.jobs[i].gpu)
                needed.insert(*file_.jobs[i].gpu);
            else
                needed.insert(file_.allowed_gpus.begin(), file_.allowed_gpus.end());
        }
    // Hashing data trees and probing GPUs may take a while: off this thread.
    const ProvenanceSettings prov = file_.provenance;
    const bool hash = !options_.dry_run;
    std::shared_ptr<JobExecutor> executor = executor_;
    const bool dry = options_.dry_run;
    prep_ = std::thread([this, prov, hash, needed, executor, dry] {
        auto source = sourceReport(prov, hash);
        std::map<int, GpuInfo> gpus;
        std::string problem = source ? std::string() : source.error();
        if (problem.empty() && !dry)
            if (auto st = executor->prepare(); !st)
                problem = st.error();
        for (int g : needed) {
            if (!problem.empty())
                break;
            auto info = executor->probeGpu(g);
            if (info)
                gpus[g] = *info;
            else
                problem = info.error();
        }
        nlohmann::json src = source ? *source : nlohmann::json();
        mail_.post([this, problem, src, gpus] { prepared(problem.empty(), problem, src, gpus); });
    });
}

void JobQueue::prepared(bool ok, const std::string& message, const nlohmann::json& source,
                        const std::map<int, GpuInfo>& gpus)
{
    if (prep_.joinable())
        prep_.join();
    if (!ok) {
        summary_.refused = true;
        summary_.refusal = message;
        summary_.not_started = int(pending_.size() + adopt_.size());
        pending_.clear();
        adopt_.clear();
        Q_EMIT queueFailed(qtext(message));
        finishIfDone();
        return;
    }
    source_ = source;
    gpus_ = gpus;
    ready_ = true;
    if (options_.dry_run) {
        for (std::size_t i : pending_) {
            const JobSpec& job = file_.jobs[i];
            Q_EMIT jobWouldRun(qtext(job.name), qtext(gpuText(job.gpu)), qlist(job.argv));
        }
        pending_.clear();
        finishIfDone();
        return;
    }
    schedule();
}

void JobQueue::schedule()
{
    if (!ready_ || cancelled_)
        return finishIfDone();
    if (executor_->placesJobs()) {
        // The cluster's scheduler queues them and picks their GPUs: every job is handed over now.
        for (const auto& [index, adopt] : adopt_)
            startJob(index, -1, adopt.first, adopt.second);
        adopt_.clear();
        while (!pending_.empty()) {
            const std::size_t index = pending_.front();
            pending_.erase(pending_.begin());
            startJob(index, -1);
        }
        return finishIfDone();
    }
    // A job that could not start (no run folder) leaves its GPU free: the next job takes it at
    // once, so a queue whose jobs all fail to start ends instead of waiting for a job that will
    // never finish.
    for (int gpu : file_.allowed_gpus) {
        while (!busy_gpus_.count(gpu)) {
            auto it = std::find_if(pending_.begin(), pending_.end(), [&](std::size_t i) {
                return !file_.jobs[i].gpu || *file_.jobs[i].gpu == gpu;
            });
            if (it == pending_.end())
                break;
            const std::size_t index = *it;
            pending_.erase(it);
            startJob(index, gpu);
        }
    }
    finishIfDone();
}

bool JobQueue::startJob(std::size_t index, int gpu, const std::string& adopt_run_dir,
                        const std::string& adopt_job_id)
{
    const JobSpec& job = file_.jobs[index];
    const QString name = qtext(job.name);
    auto run_dir = adopt_run_dir.empty() ? createRunDirectory(file_.output_root, job.name, options_.proc_root)
                                         : claimRunDirectory(adopt_run_dir, options_.proc_root);
    if (!run_dir) {
        ++summary_.failed;
        driverLine(name, qtext(run_dir.error()));
        Q_EMIT jobFailed(name, qtext(run_dir.error()));
        return false;
    }
    auto r = std::make_unique<Running>();
    r->gpu = gpu;
    const GpuInfo info = gpu >= 0 ? gpus_.at(gpu) : GpuInfo{};
    r->launch = makeJobLaunch(file_, index, *run_dir, info,
                              gpu >= 0 ? std::optional<std::string>(std::to_string(gpu)) : std::nullopt);
    r->launch.source = source_;
    r->launch.adopt_job_id = adopt_job_id;
    r->launch.sequence = handed_over_++;
    JobLaunch& l = r->launch;
    for (auto& [i, other] : running_) {
        other->overlapped.insert(job.name);
        r->overlapped.insert(file_.jobs[i].name);
    }
    if (gpu >= 0) {
        busy_gpus_.insert(gpu);
        driverLine(name, QStringLiteral("RUN on GPU %1: %2").arg(gpu).arg(qlist(l.argv).join(QLatin1Char(' '))));
    } else if (adopt_job_id.empty()) {
        driverLine(name, QStringLiteral("RUN: %1").arg(qlist(l.argv).join(QLatin1Char(' '))));
    }

    Running* raw = r.get();
    std::shared_ptr<JobExecutor> executor = executor_;
    auto started = [this, gpu, dir = qtext(*run_dir)](const QString& n, qint64 pid) {
        Q_EMIT jobStarted(n, gpu, dir, pid);
    };
    auto progress = [this](const QString& n, const JobProgress& p) {
        Q_EMIT jobProgress(n, p.elapsed_seconds, qint64(p.peak_memory_mib),
                           p.power_w ? *p.power_w : std::nan(""));
        Q_EMIT jobSample(n, p);
    };
    auto line = [this](const QString& n, const QString& s, const QString& l) { Q_EMIT logLine(n, s, l); };
    auto remote = [this](const QString& n, const RemoteState& st) {
        Q_EMIT jobRemoteState(n, qtext(st.state), qtext(st.reason), qtext(st.job_id), qtext(st.node));
    };
    running_[index] = std::move(r);
    raw->thread = std::thread([this, raw, index, executor, name, started, progress, line, remote] {
        Forwarder fwd(&mail_, name, started, progress, line, remote);
        raw->outcome = executor->run(raw->launch, fwd, raw->cancel);
        mail_.post([this, index] { jobDone(index); });
    });
    Q_EMIT jobLaunched(name, gpu, qtext(*run_dir));
    return true;
}

JobManifest JobQueue::manifestFor(std::size_t index, const Running& r) const
{
    JobManifest m = makeJobManifest(file_, index, r.launch, *r.outcome, source_,
                                    std::vector<std::string>(r.overlapped.begin(), r.overlapped.end()));
    if (r.cancelled_alone && m.status == JobStatus::Cancelled)
        m.notes.push_back("cancelled on its own while the queue ran; the queue went on with the other jobs");
    return m;
}

Status JobQueue::writeManifest(const JobManifest& m, const std::string& run_dir)
{
    return writeJsonAtomic(run_dir + "/" + kManifestName, m.toJson());
}

void JobQueue::jobDone(std::size_t index)
{
    auto it = running_.find(index);
    if (it == running_.end())
        return;
    std::unique_ptr<Running> r = std::move(it->second);
    running_.erase(it);
    if (r->thread.joinable())
        r->thread.join();
    if (r->gpu >= 0)
        busy_gpus_.erase(r->gpu);
    const JobSpec& job = file_.jobs[index];
    const JobManifest m = manifestFor(index, *r);
    const std::string path = r->launch.run_dir + "/" + kManifestName;
    const QString name = qtext(job.name);
    if (auto st = writeManifest(m, r->launch.run_dir); !st) {
        // The run happened but cannot be recorded: say so loudly; the folder is an orphan now.
        ++summary_.failed;
        driverLine(name, qtext(st.error()));
        Q_EMIT jobFailed(name, qtext(st.error()));
    } else {
        if (m.status == JobStatus::Completed)
            ++summary_.completed;
        else
            ++summary_.failed;
        driverLine(name, QStringLiteral("DONE status=%1 -> %2").arg(qtext(statusName(m.status)), qtext(path)));
        Q_EMIT jobFinished(name, m, qtext(path));
    }
    schedule();
}

void JobQueue::cancel()
{
    if (finished_ || cancelled_)
        return;
    cancelled_ = true;
    summary_.cancelled = true;
    for (auto& [i, r] : running_)
        r->cancel.store(true);
    driverLine(QString(),
               QStringLiteral("cancelled: ending %1 running job(s), %2 not started")
                   .arg(running_.size())
                   .arg(pending_.size()));
    // The preparation, if still going, reports back and finds the queue cancelled.
    if (ready_)
        finishIfDone();
}

bool JobQueue::cancelJob(const QString& name)
{
    for (std::size_t i = 0; i < file_.jobs.size(); ++i)
        if (qtext(file_.jobs[i].name) == name)
            return cancelJob(i);
    return false;
}

bool JobQueue::cancelJob(std::size_t index)
{
    if (finished_)
        return false;
    const auto it = running_.find(index);
    if (it == running_.end() || it->second->cancel.load())
        return false;
    Running& r = *it->second;
    r.cancelled_alone = true;
    r.cancel.store(true);
    driverLine(qtext(file_.jobs[index].name),
               QStringLiteral("CANCEL: ending this job on its own; the queue goes on with the other jobs"));
    return true;
}

void JobQueue::finishIfDone()
{
    if (finished_ || !running_.empty() || prep_.joinable())
        return;
    // Nothing runs and nothing is being prepared: no job's end will call schedule() again, so
    // jobs still pending cannot run (none fits a free GPU) and the queue ends with them not started.
    summary_.not_started += int(pending_.size() + adopt_.size());
    pending_.clear();
    adopt_.clear();
    finished_ = true;
    Q_EMIT queueFinished(summary_);
}

}  // namespace jb
