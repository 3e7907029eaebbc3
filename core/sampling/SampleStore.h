#pragma once
// The append-only store of one counter's intervals (columns t0_ns, t1_ns, nj). The sampler
// thread appends under a lock; readers copy index ranges out and hold the lock only for that.
#include <jb/base/Interval.h>
#include <jb/stats/Statistics.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace jb {

class SampleStore {
public:
    SampleStore() = default;
    SampleStore(const SampleStore&) = delete;
    SampleStore& operator=(const SampleStore&) = delete;
    // Takes the lock once more: the thread that releases the last reference (a page starting
    // the next run) then sees the sampler thread's last append through the store's own mutex,
    // not only through Qt's event queue, which ThreadSanitizer cannot see into.
    ~SampleStore() { std::lock_guard lock(mutex_); }

    void append(const Interval& iv);
    void appendBatch(const std::vector<Interval>& ivs);  // tests, loaded records
    std::size_t size() const;

    // A copy of intervals [from, to) (clamped to the size).
    std::vector<Interval> slice(std::size_t from, std::size_t to) const;
    std::vector<Interval> all() const { return slice(0, size()); }

    // As the reference: intervals inside [t0, t1], and those overlapping it.
    std::vector<Interval> between(std::int64_t t0, std::int64_t t1) const;
    std::vector<Interval> covering(std::int64_t t0, std::int64_t t1) const;
    // Index range of the intervals that overlap [t0, t1] (for slicing a visible range).
    IndexRange indexRangeOverlapping(std::int64_t t0, std::int64_t t1) const;

    // Runs f(const std::vector<Interval>&) under the lock, for readers that must not copy
    // (decimation of a million samples). f must be quick and must not call back in.
    template <class F>
    void read(F&& f) const
    {
        std::lock_guard lock(mutex_);
        f(data_);
    }

private:
    mutable std::mutex mutex_;
    std::vector<Interval> data_;
};

}  // namespace jb
