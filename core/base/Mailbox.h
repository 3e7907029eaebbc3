#pragma once
// Mailbox: hands closures from any thread to the thread an object lives on.
//
// QMetaObject::invokeMethod(obj, lambda, Qt::QueuedConnection) works, but the hand-over it
// relies on (Qt's event queue, locked with futexes inside libQt6Core) is invisible to
// ThreadSanitizer, which then reports the lambda's captures as raced. A Mailbox guards its
// closures with a std::mutex, which every tool sees, and wakes the owner's thread with a
// capture-free queued call. Closures run in the order they were posted; those still queued
// when the mailbox is destroyed are dropped with it.

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

namespace jb {

class Mailbox final : public QObject {
    Q_OBJECT
public:
    explicit Mailbox(QObject* parent = nullptr);

    // Thread-safe. `fn` runs later on the mailbox's thread, from its event loop.
    void post(std::function<void()> fn);

private:
    Q_INVOKABLE void drain();

    std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
    bool wake_pending_ = false;
};

}  // namespace jb
