#include <jb/sampling/SampleStore.h>

#include <algorithm>

namespace jb {

void SampleStore::append(const Interval& iv)
{
    std::lock_guard lock(mutex_);
    data_.push_back(iv);
}

void SampleStore::appendBatch(const std::vector<Interval>& ivs)
{
    std::lock_guard lock(mutex_);
    data_.insert(data_.end(), ivs.begin(), ivs.end());
}

std::size_t SampleStore::size() const
{
    std::lock_guard lock(mutex_);
    return data_.size();
}

std::vector<Interval> SampleStore::slice(std::size_t from, std::size_t to) const
{
    std::lock_guard lock(mutex_);
    to = std::min(to, data_.size());
    if (from >= to)
        return {};
    return {data_.begin() + std::ptrdiff_t(from), data_.begin() + std::ptrdiff_t(to)};
}

std::vector<Interval> SampleStore::between(std::int64_t t0, std::int64_t t1) const
{
    std::lock_guard lock(mutex_);
    const IndexRange r = jb::between(data_, t0, t1);
    return {data_.begin() + std::ptrdiff_t(r.begin), data_.begin() + std::ptrdiff_t(r.end)};
}

std::vector<Interval> SampleStore::covering(std::int64_t t0, std::int64_t t1) const
{
    std::lock_guard lock(mutex_);
    const IndexRange r = jb::covering(data_, t0, t1);
    return {data_.begin() + std::ptrdiff_t(r.begin), data_.begin() + std::ptrdiff_t(r.end)};
}

IndexRange SampleStore::indexRangeOverlapping(std::int64_t t0, std::int64_t t1) const
{
    std::lock_guard lock(mutex_);
    return jb::covering(data_, t0, t1);
}

}  // namespace jb
