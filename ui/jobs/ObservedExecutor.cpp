#include "jobs/ObservedExecutor.h"

#include <QMetaObject>

#include <chrono>
#include <condition_variable>
#include <thread>

namespace jb {

namespace {

// Passes everything on to the queue's observer and copies each progress sample to the page.
class Relay final : public JobObserver {
public:
    Relay(JobObserver& next, QObject* context, const ObservedExecutor::Callbacks& callbacks, QString name)
        : next_(next), context_(context), callbacks_(callbacks), name_(std::move(name))
    {}
    void started(std::int64_t pid) override { next_.started(pid); }
    void progress(const JobProgress& p) override
    {
        next_.progress(p);
        if (callbacks_.progress)
            QMetaObject::invokeMethod(
                context_, [f = callbacks_.progress, n = name_, p] { f(n, p); }, Qt::QueuedConnection);
    }
    void logLine(const std::string& stream, const std::string& line) override { next_.logLine(stream, line); }
    void remoteState(const RemoteState& st) override { next_.remoteState(st); }

private:
    JobObserver& next_;
    QObject* context_;
    const ObservedExecutor::Callbacks& callbacks_;
    QString name_;
};

}  // namespace

ObservedExecutor::ObservedExecutor(std::shared_ptr<JobExecutor> inner, QObject* context, Callbacks callbacks)
    : inner_(std::move(inner)), context_(context), callbacks_(std::move(callbacks))
{}

Result<GpuInfo> ObservedExecutor::probeGpu(int index)
{
    return inner_->probeGpu(index);
}

bool ObservedExecutor::cancelJob(const std::string& name)
{
    std::lock_guard lock(mutex_);
    const auto it = cancels_.find(name);
    if (it == cancels_.end())
        return false;
    it->second->store(true);
    return true;
}

JobOutcome ObservedExecutor::run(const JobLaunch& launch, JobObserver& observer,
                                 const std::atomic<bool>& cancel)
{
    const QString name = QString::fromStdString(launch.name);
    auto own = std::make_shared<std::atomic<bool>>(false);
    {
        std::lock_guard lock(mutex_);
        cancels_[launch.name] = own;
    }
    if (callbacks_.launched)
        QMetaObject::invokeMethod(
            context_,
            [f = callbacks_.launched, name, gpu = launch.gpu.physical_index,
             dir = QString::fromStdString(launch.run_dir)] { f(name, gpu, dir); },
            Qt::QueuedConnection);

    // The inner executor watches one flag: raised when the queue cancels or this job is
    // cancelled on its own. A small watcher merges the two (the executor polls its flag at
    // its own tick, so 20 ms here adds nothing a person would notice).
    std::atomic<bool> merged{false};
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread watcher([&] {
        std::unique_lock l(m);
        while (!done) {
            if (cancel.load() || own->load())
                merged.store(true);
            cv.wait_for(l, std::chrono::milliseconds(20));
        }
    });
    Relay relay(observer, context_, callbacks_, name);
    JobOutcome out = inner_->run(launch, relay, merged);
    {
        std::lock_guard l(m);
        done = true;
    }
    cv.notify_all();
    watcher.join();
    {
        std::lock_guard lock(mutex_);
        cancels_.erase(launch.name);
    }
    if (own->load() && !cancel.load())
        out.notes.push_back("cancelled on its own from the Jobs page; the queue went on with the other jobs");
    return out;
}

}  // namespace jb
