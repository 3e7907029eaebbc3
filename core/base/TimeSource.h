#pragma once
// Where a run's time comes from: the clock it stamps with and the one-shot timers it waits on.
// The real source is CLOCK_MONOTONIC (monotonicNs) and Qt's precise timers; SimulatedTime is a
// clock that moves only when a test advances it, firing the timers that fall due in order, so
// a whole session runs in milliseconds of work and any number of such tests run side by side.
// A Session, its Sampler and a simulated child all take one TimeSource (session/Session.h).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>

class QObject;

namespace jb {

// A one-shot timer: start() (re)arms it, fn runs once the delay has passed, on the thread that
// made the timer (the real source) or inside SimulatedTime::advance (the simulated one).
class OneShot {
public:
    virtual ~OneShot() = default;
    virtual void start(std::int64_t delay_ns) = 0;
    virtual void stop() = 0;
    virtual bool isActive() const = 0;
};

class TimeSource {
public:
    virtual ~TimeSource() = default;
    // Safe to call from any thread (the sampler threads stamp with it).
    virtual std::int64_t nowNs() const = 0;
    // True for a clock that moves only when advanced: the sampler then reads on this source's
    // timers instead of a thread of its own.
    virtual bool simulated() const { return false; }
    // owner: on the real source the QTimer's parent, so a moveToThread() of the owner takes it
    // along (tst_session_thread); null: none. The simulated source ignores it.
    virtual std::unique_ptr<OneShot> timer(QObject* owner, std::function<void()> fn) = 0;
};

// CLOCK_MONOTONIC and QTimer (Qt::PreciseTimer, whole milliseconds as before).
TimeSource& realTime();

// It must outlive the timers it made (a session's, a sampler's).
class SimulatedTime final : public TimeSource {
public:
    explicit SimulatedTime(std::int64_t start_ns = 1'000'000'000) : now_(start_ns) {}
    std::int64_t nowNs() const override { return now_; }
    bool simulated() const override { return true; }
    std::unique_ptr<OneShot> timer(QObject* owner, std::function<void()> fn) override;

    // Fires every timer due within the next ns, in order of deadline (ties: in the order they
    // were armed), the clock set to each one's deadline as it fires; then the clock is now + ns.
    void advance(std::int64_t ns);
    // Fires timers in order until done() holds (checked after each) or the clock would pass
    // now + limit_ns; true when done() held. With nothing left to fire the clock stops there.
    bool runUntil(const std::function<bool()>& done, std::int64_t limit_ns);
    // fn once, delay_ns from now (a fake child's reply, say); it cannot be cancelled.
    void post(std::int64_t delay_ns, std::function<void()> fn);
    std::size_t pending() const { return queue_.size(); }

    struct Slot;

private:
    // Fires the earliest entry due at or before `until`; false when none is.
    bool fireNext(std::int64_t until);
    friend class SimOneShot;
    void arm(const std::shared_ptr<Slot>& slot, std::int64_t due);

    std::int64_t now_;
    std::uint64_t seq_ = 0;
    // (due, arm order) -> the slot armed then; a slot re-armed or stopped since is skipped.
    std::map<std::pair<std::int64_t, std::uint64_t>, std::shared_ptr<Slot>> queue_;
};

}  // namespace jb
