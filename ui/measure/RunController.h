#pragma once
// Runs one jb::Session on a backend thread and hands its signals to the GUI thread, queued,
// as values. The chart reads the session's sample stores (thread-safe) on its own timer.
#include "common/RecordView.h"
#include "session/Plan.h"
#include "session/Session.h"

#include <QObject>
#include <QPointer>

class QThread;

namespace jb {

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;  // ends a run still going and waits for the backend thread

    // Checks the plan (the message names the field) and starts the session.
    Status start(const Plan& plan);
    void stop();                        // the session's stop(): an aborted record follows
    void abort(const QString& reason);  // the same with the caller's reason
    bool running() const { return running_; }
    const Plan& plan() const { return plan_; }
    // The session's whole-device stores, from started() on.
    const StoreList& stores() const { return stores_; }

signals:
    void started(qint64 origin_ns, const QStringList& counters);
    void childReady(qint64 jobs);
    void phase(const jb::PhaseEvent& event);
    void roundFinished(int index, const jb::Round& round);
    void warning(const QString& message);
    void finished(const jb::Record& record);

private:
    void onFinished(const Record& r);
    void shutDownThread(bool wait);

    Plan plan_;
    QThread* thread_ = nullptr;
    QPointer<Session> session_;
    StoreList stores_;
    bool running_ = false;
};

}  // namespace jb
