#pragma once
// SessionSource: one jb::Session on a backend thread, its signals handed to the thread this
// object lives on (queued connections, copied values). The sample stores are read from any
// thread (each locks itself), so the chart reads them on its own timer.
//
// Calls into the session go through a Mailbox living on the session's thread (a closure queue
// guarded by a mutex that ThreadSanitizer sees), never through queued lambdas.
#include <jb/base/Result.h>
#include <jb/live/RunSource.h>
#include <jb/session/Plan.h>
#include <jb/session/Session.h>

#include <QPointer>

class QThread;

namespace jb {

class Mailbox;

class SessionSource : public RunSource {
    Q_OBJECT
public:
    explicit SessionSource(QObject* parent = nullptr);
    ~SessionSource() override;  // ends a run still going and waits for the backend thread

    // Checks the plan (the message names the field) and starts the session.
    Status start(const Plan& plan);
    void stop() override;               // the session's stop(): an aborted record follows
    void abort(const QString& reason);  // the same with the caller's reason
    bool running() const override { return running_; }
    const Plan& plan() const { return plan_; }
    // The session's whole-device stores, from started() on.
    StoreList stores() const override { return stores_; }
    std::int64_t originNs() const override { return origin_ns_; }
    std::int64_t nowNs() const override;  // the monotonic clock the samples are stamped with
    RunLayout layout() const override;

private:
    void onStarted(qint64 origin_ns, const QStringList& counters);
    void onFinished(const Record& r);
    void onFinishedSet(const std::vector<Record>& records);
    void shutDownThread(bool wait);

    Plan plan_;
    QThread* thread_ = nullptr;
    QPointer<Session> session_;
    Mailbox* mail_ = nullptr;  // on thread_: runs calls into the session there
    StoreList stores_;
    std::int64_t origin_ns_ = 0;
    bool running_ = false;
};

}  // namespace jb
