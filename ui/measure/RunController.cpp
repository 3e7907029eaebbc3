#include "measure/RunController.h"

#include <QThread>

namespace jb {

RunController::RunController(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<jb::PhaseEvent>();
    qRegisterMetaType<jb::Round>();
    qRegisterMetaType<jb::Record>();
}

RunController::~RunController()
{
    if (running_ && session_)
        QMetaObject::invokeMethod(
            session_,
            [s = session_] {
                if (s)
                    s->abort(QStringLiteral("the dashboard was closed"));
            },
            Qt::QueuedConnection);
    shutDownThread(true);
}

Status RunController::start(const Plan& plan)
{
    if (running_)
        return Error{"a run is already going: stop it first"};
    if (Status v = validatePlan(plan); !v)
        return v;
    shutDownThread(true);  // the previous run's thread, if it is still winding down
    plan_ = plan;
    stores_.clear();

    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("joulebench-session"));
    thread_->start();
    // The session is built on its own thread rather than moved there: its timers are plain
    // members, not children, and moveToThread() moves only an object and its children.
    Session* session = nullptr;
    auto* anchor = new QObject;
    anchor->moveToThread(thread_);
    QMetaObject::invokeMethod(
        anchor,
        [&session, plan, anchor] {
            session = new Session(plan);
            session->setForwardChildStderr(false);  // the GUI shows the tail in its messages
            anchor->deleteLater();                  // on its own thread
        },
        Qt::BlockingQueuedConnection);
    session_ = session;
    connect(thread_, &QThread::finished, session, &QObject::deleteLater);

    // Different threads: every connection is queued, the values are copied.
    connect(session, &Session::started, this, [this](qint64 origin_ns, const QStringList& counters) {
        if (session_)
            stores_ = session_->stores();  // thread-safe from started() on
        emit started(origin_ns, counters);
    });
    connect(session, &Session::childReady, this, &RunController::childReady);
    connect(session, &Session::phase, this, &RunController::phase);
    connect(session, &Session::roundFinished, this, &RunController::roundFinished);
    connect(session, &Session::warning, this, &RunController::warning);
    connect(session, &Session::finished, this, &RunController::onFinished);

    running_ = true;
    QMetaObject::invokeMethod(session, &Session::start, Qt::QueuedConnection);
    return Ok{};
}

void RunController::stop()
{
    if (running_ && session_)
        QMetaObject::invokeMethod(session_, &Session::stop, Qt::QueuedConnection);
}

void RunController::abort(const QString& reason)
{
    if (running_ && session_)
        QMetaObject::invokeMethod(
            session_,
            [s = session_, reason] {
                if (s)
                    s->abort(reason);
            },
            Qt::QueuedConnection);
}

void RunController::onFinished(const Record& r)
{
    running_ = false;
    // The session has stopped its samplers and its child; let the thread end (which deletes
    // the session there) without blocking the GUI.
    shutDownThread(false);
    emit finished(r);
}

void RunController::shutDownThread(bool wait)
{
    if (!thread_)
        return;
    if (wait) {
        thread_->quit();
        thread_->wait();
        delete thread_;
    } else {
        connect(thread_, &QThread::finished, thread_, &QObject::deleteLater);
        thread_->quit();
    }
    thread_ = nullptr;
    session_ = nullptr;
}

}  // namespace jb
