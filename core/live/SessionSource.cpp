#include <jb/live/SessionSource.h>

#include <jb/base/Clock.h>
#include <jb/base/Mailbox.h>

#include <QThread>

#include <condition_variable>
#include <mutex>

namespace jb {

SessionSource::SessionSource(QObject* parent) : RunSource(parent) {}

SessionSource::~SessionSource()
{
    if (running_ && session_ && mail_) {
        // The abort runs on the session's thread before its event loop ends.
        Session* s = session_.data();
        mail_->post([s] {
            s->abort(QStringLiteral("the dashboard was closed"));
            QThread::currentThread()->quit();
        });
    }
    shutDownThread(true);
}

Status SessionSource::start(const Plan& plan)
{
    if (running_)
        return Error{"a run is already going: stop it first"};
    if (Status v = validatePlan(plan); !v)
        return v;
    shutDownThread(true);  // the previous run's thread, if it is still winding down
    plan_ = plan;
    stores_.clear();
    origin_ns_ = 0;

    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("joulebench-session"));
    mail_ = new Mailbox;
    mail_->moveToThread(thread_);
    connect(thread_, &QThread::finished, mail_, &QObject::deleteLater);
    thread_->start();
    // The session is built on its own thread rather than moved there: it and its timers (members
    // it parents, Session.cpp) belong to that thread from construction, and nothing is moved
    // once built. The hand-back is a mutex and a condition variable, which every tool sees.
    std::mutex m;
    std::condition_variable built;
    Session* session = nullptr;
    mail_->post([&m, &built, &session, plan] {
        auto* s = new Session(plan);
        s->setForwardChildStderr(false);  // the GUI shows the tail in its messages
        {
            std::lock_guard lock(m);
            session = s;
        }
        built.notify_one();
    });
    {
        std::unique_lock lock(m);
        built.wait(lock, [&session] { return session != nullptr; });
    }
    session_ = session;
    connect(thread_, &QThread::finished, session, &QObject::deleteLater);

    // Different threads: every connection is queued, the values are copied.
    connect(session, &Session::started, this, &SessionSource::onStarted);
    connect(session, &Session::childReady, this, &SessionSource::childReady);
    connect(session, &Session::phase, this, &SessionSource::phase);
    connect(session, &Session::roundFinished, this, &SessionSource::roundFinished);
    connect(session, &Session::phaseMarked, this, &SessionSource::phaseMarked);
    connect(session, &Session::warning, this, &SessionSource::warning);
    connect(session, &Session::finished, this, &SessionSource::onFinished);
    connect(session, &Session::setRan, this, &SessionSource::setRan);
    connect(session, &Session::finishedSet, this, &SessionSource::onFinishedSet);

    running_ = true;
    mail_->post([session] { session->start(); });
    return Ok{};
}

void SessionSource::stop()
{
    if (running_ && session_ && mail_) {
        Session* s = session_.data();
        mail_->post([s] { s->stop(); });
    }
}

void SessionSource::abort(const QString& reason)
{
    if (running_ && session_ && mail_) {
        Session* s = session_.data();
        mail_->post([s, reason] { s->abort(reason); });
    }
}

std::int64_t SessionSource::nowNs() const
{
    return monotonicNs();
}

RunLayout SessionSource::layout() const
{
    RunLayout l;
    l.period_s = plan_.periodS();
    l.idle_s = plan_.idle_s;
    l.k = plan_.k;
    l.rounds = plan_.rounds;
    return l;
}

void SessionSource::onStarted(qint64 origin_ns, const QStringList& counters)
{
    origin_ns_ = origin_ns;
    if (session_)
        stores_ = session_->stores();  // thread-safe from started() on
    emit started(origin_ns, counters);
}

void SessionSource::onFinished(const Record& r)
{
    running_ = false;
    // The session has stopped its samplers and its child. It stays alive (its journal open)
    // while the receivers handle the record, so that they can save it and then remove the
    // journal (removeOwnJournal: only a live Journal's file); then the thread ends, deleting the
    // session there, without blocking the GUI. A receiver that started a new run has already
    // ended this thread (start() waits for it), and is running the next one.
    emit finished(r);
    if (!running_)
        shutDownThread(false);
}

void SessionSource::onFinishedSet(const std::vector<Record>& records)
{
    running_ = false;
    emit finishedSet(records);
    if (!running_)
        shutDownThread(false);
}

void SessionSource::shutDownThread(bool wait)
{
    session_ = nullptr;
    mail_ = nullptr;
    if (!thread_)
        return;
    thread_->quit();
    if (!wait)
        return;  // it ends on its own; the next start() or the destructor waits for it
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
}

}  // namespace jb
