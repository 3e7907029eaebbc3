#include <jb/session/LiveComparison.h>

#include <jb/stats/Paired.h>

#include <algorithm>

namespace jb {

LiveComparison::LiveComparison(const Plan& plan, int baseline, std::string counter, int resamples)
    : order_(balancedOrder(plan.childCount(), plan.rounds + plan.warmup, plan.order_seed)),
      warmup_(plan.warmup),
      order_seed_(plan.order_seed),
      baseline_(std::clamp(baseline, 0, std::max(plan.childCount() - 1, 0))),
      counter_(std::move(counter)),
      resamples_(resamples)
{
    if (plan.children.empty()) {
        names_.push_back(plan.label.value_or("child"));
        argv_.push_back(plan.child);
    }
    for (const PlanChild& c : plan.children) {
        names_.push_back(c.name);
        argv_.push_back(c.argv);
    }
    rounds_.resize(names_.size());
}

int LiveComparison::childOfRound(int index) const
{
    const int n = int(names_.size());
    if (index < 0 || n == 0 || index / n >= int(order_.size()))
        return -1;
    return order_[std::size_t(index / n)][std::size_t(index % n)];
}

void LiveComparison::addRound(int index, const Round& round)
{
    const int child = childOfRound(index);
    if (child < 0 || isWarmup(index))
        return;
    rounds_[std::size_t(child)].push_back(round);
}

int LiveComparison::blocksDone() const
{
    std::size_t fewest = rounds_.empty() ? 0 : rounds_.front().size();
    for (const auto& r : rounds_)
        fewest = std::min(fewest, r.size());
    return int(fewest);
}

InterleavedInput LiveComparison::input(std::vector<Record> records, int resamples) const
{
    InterleavedInput in;
    in.records = std::move(records);
    in.names = names_;
    in.order = order_;
    in.warmup_blocks = warmup_;
    in.order_seed = order_seed_;
    in.baseline = baseline_;
    in.counter = counter_;
    in.resamples = resamples;
    return in;
}

ojson LiveComparison::comparison() const
{
    std::vector<Record> records;
    for (std::size_t i = 0; i < names_.size(); ++i) {
        Record r;
        r.child = argv_[i];
        r.rounds = rounds_[i];
        r.status = "running";
        records.push_back(std::move(r));
    }
    InterleavedInput in = input(std::move(records), resamples_);
    if (in.counter.empty())  // the first counter a round measured
        for (const auto& rs : rounds_)
            if (!rs.empty() && !rs.front().counters.empty()) {
                in.counter = rs.front().counters.front().first;
                break;
            }
    return interleavedComparison(in);
}

}  // namespace jb
