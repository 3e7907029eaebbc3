#include <jb/base/TimeSource.h>

#include <jb/base/Clock.h>

#include <QObject>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

class QtOneShot final : public OneShot {
public:
    QtOneShot(QObject* owner, std::function<void()> fn) : timer_(new QTimer(owner))
    {
        timer_->setSingleShot(true);
        timer_->setTimerType(Qt::PreciseTimer);
        QObject::connect(timer_, &QTimer::timeout, timer_, std::move(fn));
    }
    ~QtOneShot() override { delete timer_; }  // before its owner's children go (a member of it)
    void start(std::int64_t delay_ns) override
    {
        timer_->start(int(std::clamp<std::int64_t>((delay_ns + 500'000) / 1'000'000, 0, INT32_MAX)));
    }
    void stop() override { timer_->stop(); }
    bool isActive() const override { return timer_->isActive(); }

private:
    QTimer* timer_;
};

class RealTime final : public TimeSource {
public:
    std::int64_t nowNs() const override { return monotonicNs(); }
    std::unique_ptr<OneShot> timer(QObject* owner, std::function<void()> fn) override
    {
        return std::make_unique<QtOneShot>(owner, std::move(fn));
    }
};

}  // namespace

TimeSource& realTime()
{
    static RealTime source;
    return source;
}

struct SimulatedTime::Slot {
    std::function<void()> fn;
    std::uint64_t armed = 0;  // the arm order of its live queue entry; 0: not armed
};

class SimOneShot final : public OneShot {
public:
    SimOneShot(SimulatedTime& owner, std::function<void()> fn)
        : owner_(owner)
        , slot_(std::make_shared<SimulatedTime::Slot>())
    {
        slot_->fn = std::move(fn);
    }
    ~SimOneShot() override
    {
        slot_->armed = 0;
        slot_->fn = nullptr;
    }
    void start(std::int64_t delay_ns) override { owner_.arm(slot_, owner_.nowNs() + std::max<std::int64_t>(delay_ns, 0)); }
    void stop() override { slot_->armed = 0; }
    bool isActive() const override { return slot_->armed != 0; }

private:
    SimulatedTime& owner_;
    std::shared_ptr<SimulatedTime::Slot> slot_;
};

std::unique_ptr<OneShot> SimulatedTime::timer(QObject*, std::function<void()> fn)
{
    return std::make_unique<SimOneShot>(*this, std::move(fn));
}

void SimulatedTime::arm(const std::shared_ptr<Slot>& slot, std::int64_t due)
{
    slot->armed = ++seq_;
    queue_.emplace(std::make_pair(due, slot->armed), slot);
}

void SimulatedTime::post(std::int64_t delay_ns, std::function<void()> fn)
{
    auto slot = std::make_shared<Slot>();
    slot->fn = std::move(fn);
    arm(slot, now_ + std::max<std::int64_t>(delay_ns, 0));
}

bool SimulatedTime::fireNext(std::int64_t until)
{
    while (!queue_.empty()) {
        auto it = queue_.begin();
        if (it->first.first > until)
            return false;
        const auto [due, seq] = it->first;
        std::shared_ptr<Slot> slot = std::move(it->second);
        queue_.erase(it);
        if (slot->armed != seq || !slot->fn)
            continue;  // stopped, re-armed or destroyed since
        slot->armed = 0;
        now_ = std::max(now_, due);
        auto fn = slot->fn;  // the timer may be destroyed or re-armed by its own callback
        fn();
        return true;
    }
    return false;
}

void SimulatedTime::advance(std::int64_t ns)
{
    const std::int64_t until = now_ + std::max<std::int64_t>(ns, 0);
    while (fireNext(until)) {
    }
    now_ = std::max(now_, until);
}

bool SimulatedTime::runUntil(const std::function<bool()>& done, std::int64_t limit_ns)
{
    const std::int64_t until = now_ + std::max<std::int64_t>(limit_ns, 0);
    if (done())
        return true;
    while (fireNext(until))
        if (done())
            return true;
    return done();
}

}  // namespace jb
