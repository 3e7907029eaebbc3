#pragma once
// The executor the Jobs page hands the queue: it wraps another (LocalExecutor) and adds what
// the page needs beyond the queue's signals, without touching core/jobs:
//  - one job can be cancelled on its own (the queue's cancel() ends them all): the job then
//    ends as at a cancel (SIGTERM, SIGKILL after its grace period, manifest `cancelled`) and
//    the queue goes on with the next;
//  - every progress sample reaches the page whole (this sample's GPU memory, not only the
//    peak the queue's jobProgress carries), for the live chart;
//  - the page hears when a job is handed its GPU (before the idle bracket), not only when its
//    process starts.
// Called on the queue's worker threads; the callbacks are posted to `context`'s thread, so
// `context` must outlive the queue (the queue's destructor waits for its jobs).
#include "jobs/JobExecutor.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace jb {

class ObservedExecutor final : public JobExecutor {
public:
    struct Callbacks {
        std::function<void(const QString& name, int gpu, const QString& runDir)> launched;
        std::function<void(const QString& name, const JobProgress& p)> progress;
    };
    ObservedExecutor(std::shared_ptr<JobExecutor> inner, QObject* context, Callbacks callbacks);

    Result<GpuInfo> probeGpu(int index) override;
    JobOutcome run(const JobLaunch& launch, JobObserver& observer, const std::atomic<bool>& cancel) override;
    bool placesJobs() const override { return inner_->placesJobs(); }
    Status prepare() override { return inner_->prepare(); }

    // Ends the job if it is running (any thread); false where no job of that name runs.
    bool cancelJob(const std::string& name);

private:
    std::shared_ptr<JobExecutor> inner_;
    QObject* context_;
    Callbacks callbacks_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<std::atomic<bool>>> cancels_;  // running jobs
};

}  // namespace jb
