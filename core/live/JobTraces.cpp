#include <jb/live/JobTraces.h>

#include <jb/jobs/JobExecutor.h>

#include <algorithm>
#include <cmath>

namespace jb {

void JobTrace::add(double t_s, double memory_mib, double power_w)
{
    ++samples_;
    last_t_ = std::max(last_t_, t_s);
    if (std::isfinite(memory_mib) && memory_mib >= 0) {
        memory_.push_back({t_s, memory_mib});
        max_memory_ = std::max(max_memory_, memory_mib);
    }
    if (std::isfinite(power_w)) {
        power_.push_back({t_s, power_w});
        max_power_ = std::max(max_power_, power_w);
    }
}

std::optional<double> JobTrace::maxMemory() const
{
    return memory_.empty() ? std::nullopt : std::optional<double>(max_memory_);
}

std::optional<double> JobTrace::maxPower() const
{
    return power_.empty() ? std::nullopt : std::optional<double>(max_power_);
}

void JobTraces::launched(const QString& name)
{
    traces_[name] = std::make_shared<JobTrace>();
}

bool JobTraces::sampled(const QString& name, const JobProgress& sample)
{
    const auto it = traces_.find(name);
    if (it == traces_.end())
        return false;
    it->second->add(sample.elapsed_seconds, double(sample.memory_mib), sample.power_w.value_or(std::nan("")));
    return true;
}

std::shared_ptr<const JobTrace> JobTraces::trace(const QString& name) const
{
    const auto it = traces_.find(name);
    return it == traces_.end() ? nullptr : it->second;
}

}  // namespace jb
