#include "jobs/JobQueue.h"

#include "base/Version.h"
#include "jobs/Provenance.h"

#include <QMetaObject>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QStringList qlist(const std::vector<std::string>& v)
{
    QStringList l;
    for (const std::string& s : v)
        l << q(s);
    return l;
}

}  // namespace

// One job on a worker thread.
struct JobQueue::Running {
    JobLaunch launch;
    int gpu = -1;
    std::atomic<bool> cancel{false};
    std::thread thread;
    std::set<std::string> overlapped;   // jobs that ran at the same time
    std::optional<JobOutcome> outcome;  // set by the worker before it ends
};

namespace {

// Forwards the executor's calls (worker thread) to the queue's thread.
class Forwarder final : public JobObserver {
public:
    Forwarder(JobQueue* queue, QString name, std::function<void(const QString&, qint64)> started,
              std::function<void(const QString&, const JobProgress&)> progress,
              std::function<void(const QString&, const QString&, const QString&)> line)
        : queue_(queue),
          name_(std::move(name)),
          started_(std::move(started)),
          progress_(std::move(progress)),
          line_(std::move(line))
    {}
    void started(std::int64_t pid) override
    {
        QMetaObject::invokeMethod(
            queue_, [f = started_, n = name_, pid] { f(n, qint64(pid)); }, Qt::QueuedConnection);
    }
    void progress(const JobProgress& p) override
    {
        QMetaObject::invokeMethod(
            queue_, [f = progress_, n = name_, p] { f(n, p); }, Qt::QueuedConnection);
    }
    void logLine(const std::string& stream, const std::string& line) override
    {
        QMetaObject::invokeMethod(
            queue_, [f = line_, n = name_, s = q(stream), l = QString::fromUtf8(line)] { f(n, s, l); },
            Qt::QueuedConnection);
    }

private:
    JobQueue* queue_;
    QString name_;
    std::function<void(const QString&, qint64)> started_;
    std::function<void(const QString&, const JobProgress&)> progress_;
    std::function<void(const QString&, const QString&, const QString&)> line_;
};

}  // namespace

JobQueue::JobQueue(JobFile file, std::shared_ptr<JobExecutor> executor, QueueOptions options, QObject* parent)
    : QObject(parent), file_(std::move(file)), executor_(std::move(executor)), options_(options)
{
    qRegisterMetaType<jb::JobManifest>();
    qRegisterMetaType<jb::QueueSummary>();
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
    // Every signal comes from the event loop, never from inside start().
    QMetaObject::invokeMethod(
        this, [this] { begin(); }, Qt::QueuedConnection);
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
        const JobDiskInfo d = inspectJob(file_.output_root, job.name);
        const QString name = q(job.name);
        switch (d.state) {
        case DiskState::NotRun:
            pending_.push_back(i);
            break;
        case DiskState::Preserved:
            ++summary_.preserved;
            Q_EMIT jobPreserved(name, q(d.manifest_path), q(statusName(d.manifest->status)));
            break;
        case DiskState::Orphaned:
            ++summary_.orphaned;
            Q_EMIT jobSkipped(name, QStringLiteral("orphaned"), q(d.detail));
            break;
        case DiskState::Running:
            ++summary_.running_elsewhere;
            Q_EMIT jobSkipped(name, QStringLiteral("running"), q(d.detail));
            break;
        case DiskState::Conflict:
            ++summary_.conflicts;
            Q_EMIT jobSkipped(name, QStringLiteral("conflict"), q(d.detail));
            break;
        }
    }
    if (pending_.empty()) {
        ready_ = true;  // nothing to run: no provenance, no GPU needed
        finishIfDone();
        return;
    }
    // GPUs the pending jobs may use; a dry run does not need them.
    std::set<int> needed;
    if (!options_.dry_run)
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
    prep_ = std::thread([this, prov, hash, needed, executor] {
        auto source = sourceReport(prov, hash);
        std::map<int, GpuInfo> gpus;
        std::string problem = source ? std::string() : source.error();
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
        QMetaObject::invokeMethod(
            this, [this, problem, src, gpus] { prepared(problem.empty(), problem, src, gpus); },
            Qt::QueuedConnection);
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
        summary_.not_started = int(pending_.size());
        pending_.clear();
        Q_EMIT queueFailed(q(message));
        finishIfDone();
        return;
    }
    source_ = source;
    gpus_ = gpus;
    ready_ = true;
    if (options_.dry_run) {
        for (std::size_t i : pending_) {
            const JobSpec& job = file_.jobs[i];
            Q_EMIT jobWouldRun(q(job.name), q(gpuText(job.gpu)), qlist(job.argv));
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
    for (int gpu : file_.allowed_gpus) {
        if (busy_gpus_.count(gpu))
            continue;
        auto it = std::find_if(pending_.begin(), pending_.end(), [&](std::size_t i) {
            return !file_.jobs[i].gpu || *file_.jobs[i].gpu == gpu;
        });
        if (it == pending_.end())
            continue;
        const std::size_t index = *it;
        pending_.erase(it);
        startJob(index, gpu);
    }
    finishIfDone();
}

void JobQueue::startJob(std::size_t index, int gpu)
{
    const JobSpec& job = file_.jobs[index];
    const QString name = q(job.name);
    auto run_dir = createRunDirectory(file_.output_root, job.name);
    if (!run_dir) {
        ++summary_.failed;
        driverLine(name, q(run_dir.error()));
        Q_EMIT jobFailed(name, q(run_dir.error()));
        return;
    }
    auto r = std::make_unique<Running>();
    r->gpu = gpu;
    JobLaunch& l = r->launch;
    l.name = job.name;
    auto fill = [&](const std::string& s) { return fillPlaceholders(s, *run_dir, job.name, gpu); };
    for (const std::string& a : job.argv)
        l.argv.push_back(fill(a));
    l.cwd = fill(job.cwd);
    for (const auto& [k, v] : job.env)
        l.env[k] = v ? std::optional<std::string>(fill(*v)) : std::nullopt;
    // The job sees only its GPU; PCI bus order makes CUDA's index 0 the GPU nvidia-smi numbers so.
    l.env["CUDA_VISIBLE_DEVICES"] = std::to_string(gpu);
    l.env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
    l.env["JOULEBENCH_RUN_DIR"] = *run_dir;
    l.env["JOULEBENCH_JOB_NAME"] = job.name;
    l.timeout_seconds = job.timeout_seconds;
    l.grace_seconds = job.grace_seconds;
    l.result_glob = job.result_glob.empty() ? std::string() : fill(job.result_glob);
    l.run_dir = *run_dir;
    l.gpu = gpus_.at(gpu);
    l.memory_sampling_period_seconds = file_.memory_sampling_period_seconds;
    l.energy = file_.energy;
    for (auto& [i, other] : running_) {
        other->overlapped.insert(job.name);
        r->overlapped.insert(file_.jobs[i].name);
    }
    busy_gpus_.insert(gpu);
    driverLine(name, QStringLiteral("RUN on GPU %1: %2").arg(gpu).arg(qlist(l.argv).join(QLatin1Char(' '))));

    Running* raw = r.get();
    std::shared_ptr<JobExecutor> executor = executor_;
    auto started = [this, gpu, dir = q(*run_dir)](const QString& n, qint64 pid) {
        Q_EMIT jobStarted(n, gpu, dir, pid);
    };
    auto progress = [this](const QString& n, const JobProgress& p) {
        Q_EMIT jobProgress(n, p.elapsed_seconds, qint64(p.peak_memory_mib),
                           p.power_w ? *p.power_w : std::nan(""));
    };
    auto line = [this](const QString& n, const QString& s, const QString& l) { Q_EMIT logLine(n, s, l); };
    running_[index] = std::move(r);
    raw->thread = std::thread([this, raw, index, executor, name, started, progress, line] {
        Forwarder fwd(this, name, started, progress, line);
        raw->outcome = executor->run(raw->launch, fwd, raw->cancel);
        QMetaObject::invokeMethod(
            this, [this, index] { jobDone(index); }, Qt::QueuedConnection);
    });
}

JobManifest JobQueue::manifestFor(std::size_t index, const Running& r) const
{
    const JobSpec& job = file_.jobs[index];
    const JobOutcome& o = *r.outcome;
    JobManifest m;
    m.job = job.toJson();
    m.source = source_;
    m.status = o.status;
    m.return_code = o.return_code;
    m.result = o.result;
    m.result_sha256 = o.result_sha256;
    m.driver_wall_seconds = o.wall_seconds;
    m.started_unix_time = o.started_unix_time;
    m.completed_unix_time = o.completed_unix_time;
    m.hardware.physical_index = r.launch.gpu.physical_index;
    m.hardware.uuid = r.launch.gpu.uuid;
    m.hardware.name = r.launch.gpu.name;
    m.hardware.total_memory_mib = r.launch.gpu.total_memory_mib;
    m.hardware.gpu_report_source = r.launch.gpu.source;
    m.hardware.peak_process_gpu_memory_mib = o.peak_memory_mib;
    m.hardware.memory_sampling_period_seconds = file_.memory_sampling_period_seconds;
    m.hardware.memory_source = o.memory_source;
    m.hardware.memory_samples = o.memory_samples;
    m.hardware.memory_read_errors = o.memory_read_errors;
    m.hardware.memory_last_error = o.memory_last_error;
    m.hardware.accounting = o.accounting;
    m.work = job.work;
    m.energy = o.energy;
    m.logs = o.logs;
    m.run_directory = r.launch.run_dir;
    m.cuda_visible_devices = r.launch.env.at("CUDA_VISIBLE_DEVICES").value_or("");
    m.argv_run = r.launch.argv;
    m.concurrent_jobs.assign(r.overlapped.begin(), r.overlapped.end());
    m.termination = o.termination;
    m.notes = o.notes;
    m.joulebench_version = std::string(kToolVersion);
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
    busy_gpus_.erase(r->gpu);
    const JobSpec& job = file_.jobs[index];
    const JobManifest m = manifestFor(index, *r);
    const std::string path = r->launch.run_dir + "/" + kManifestName;
    const QString name = q(job.name);
    if (auto st = writeManifest(m, r->launch.run_dir); !st) {
        // The run happened but cannot be recorded: say so loudly; the folder is an orphan now.
        ++summary_.failed;
        driverLine(name, q(st.error()));
        Q_EMIT jobFailed(name, q(st.error()));
    } else {
        if (m.status == JobStatus::Completed)
            ++summary_.completed;
        else
            ++summary_.failed;
        driverLine(name, QStringLiteral("DONE status=%1 -> %2").arg(q(statusName(m.status)), q(path)));
        Q_EMIT jobFinished(name, m, q(path));
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

void JobQueue::finishIfDone()
{
    if (finished_ || !running_.empty() || prep_.joinable())
        return;
    if (!pending_.empty() && !cancelled_ && ready_)
        return;
    summary_.not_started += int(pending_.size());
    pending_.clear();
    finished_ = true;
    Q_EMIT queueFinished(summary_);
}

}  // namespace jb
