#include "RunSchedule.h"

#include <jb/stats/Paired.h>

#include <algorithm>
#include <utility>

namespace jb {

RunSchedule::RunSchedule(int children, int blocks, int warmup_blocks, std::uint64_t seed)
    : interleaved_(true), warmup_blocks_(warmup_blocks)
{
    order_ = balancedOrder(children, blocks, seed);
    for (std::size_t b = 0; b < order_.size(); ++b)
        for (int c : order_[b])
            rounds_.push_back({int(b), c});
    drops_.assign(std::size_t(std::max(children, 0)), std::nullopt);
}

int RunSchedule::childOf(int round) const
{
    return round >= 0 && round < size() ? rounds_[std::size_t(round)][1] : 0;
}

int RunSchedule::blockOf(int round) const
{
    return round >= 0 && round < size() ? rounds_[std::size_t(round)][0] : 0;
}

bool RunSchedule::isWarmup(int round) const
{
    return round >= 0 && round < size() && rounds_[std::size_t(round)][0] < warmup_blocks_;
}

bool RunSchedule::dropped(int child) const
{
    return child >= 0 && std::size_t(child) < drops_.size() && drops_[std::size_t(child)].has_value();
}

bool RunSchedule::allDropped() const
{
    return std::all_of(drops_.begin(), drops_.end(), [](const auto& d) { return d.has_value(); });
}

int RunSchedule::liveChildren() const
{
    return int(std::count_if(drops_.begin(), drops_.end(), [](const auto& d) { return !d.has_value(); }));
}

const ChildDrop& RunSchedule::drop(int child, std::size_t at, std::size_t keep_until, std::string reason)
{
    const int block = rounds_.empty() ? 0 : rounds_[std::min(at, rounds_.size() - 1)][0];
    auto& slot = drops_.at(std::size_t(child));
    slot = ChildDrop{block + 1, std::move(reason)};
    const std::size_t from = std::min(keep_until, rounds_.size());
    std::vector<std::array<int, 2>> kept(rounds_.begin(), rounds_.begin() + std::ptrdiff_t(from));
    for (std::size_t i = from; i < rounds_.size(); ++i)
        if (rounds_[i][1] != child)
            kept.push_back(rounds_[i]);
    rounds_ = std::move(kept);
    // The order as run: each block holds the children that ran (or will run) in it.
    for (auto& b : order_)
        b.clear();
    for (const auto& [b, c] : rounds_)
        order_[std::size_t(b)].push_back(c);
    while (!order_.empty() && order_.back().empty())
        order_.pop_back();
    return *slot;
}

}  // namespace jb
