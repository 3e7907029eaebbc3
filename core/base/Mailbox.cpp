#include "Mailbox.h"

#include <QPointer>

namespace jb {

Mailbox::Mailbox(QObject* parent) : QObject(parent) {}

void Mailbox::post(std::function<void()> fn)
{
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(fn));
        wake = !wake_pending_;
        wake_pending_ = true;
    }
    if (wake)
        QMetaObject::invokeMethod(this, "drain", Qt::QueuedConnection);
}

void Mailbox::drain()
{
    std::deque<std::function<void()>> batch;
    {
        std::lock_guard lock(mutex_);
        batch.swap(queue_);
        wake_pending_ = false;
    }
    // A closure may destroy the mailbox's owner (and so the mailbox): the rest are dropped,
    // as Qt drops the queued calls of a destroyed object.
    const QPointer<Mailbox> alive(this);
    for (auto& fn : batch) {
        fn();
        if (!alive)
            return;
    }
}

}  // namespace jb
