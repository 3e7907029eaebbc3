#pragma once
// The Jobs page's live figures as values, folded from a JobQueue's events the way RunState folds
// a RunSource's: for each job launched since the queue started, its GPU memory (MiB) and its
// GPU's board power (W) against seconds since its process started, one sample per memory
// sampling period. The page feeds it the queue's jobLaunched and jobSample and draws a trace;
// it keeps none itself. The drawing's decimation is core/sampling's decimateColumns().
#include <jb/sampling/Decimation.h>

#include <QString>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace jb {

struct JobProgress;

// One job's trace.
class JobTrace {
public:
    // power_w NaN (unknown) adds no power point; memory_mib < 0 (unread) adds no memory point.
    void add(double t_s, double memory_mib, double power_w);
    const std::vector<TracePoint>& memory() const { return memory_; }
    const std::vector<TracePoint>& power() const { return power_; }
    double lastT() const { return last_t_; }
    std::size_t samples() const { return samples_; }
    std::optional<double> maxMemory() const;
    std::optional<double> maxPower() const;

private:
    std::vector<TracePoint> memory_, power_;
    double last_t_ = 0;
    std::size_t samples_ = 0;
    double max_memory_ = -1, max_power_ = -1;
};

// Every launched job's trace, by job name.
class JobTraces {
public:
    void clear() { traces_.clear(); }
    // JobQueue::jobLaunched (handed its GPU, before its idle bracket): a fresh trace.
    void launched(const QString& name);
    // JobQueue::jobSample: a point on the job's trace; false for a job not launched here.
    bool sampled(const QString& name, const JobProgress& sample);
    // The job's trace (shared: a chart keeps drawing it as it grows); null if not launched here.
    std::shared_ptr<const JobTrace> trace(const QString& name) const;
    std::size_t size() const { return traces_.size(); }

private:
    std::map<QString, std::shared_ptr<JobTrace>> traces_;
};

}  // namespace jb
