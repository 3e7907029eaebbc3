#pragma once
// RunServer: a run published as it happens (docs/REMOTE.md). It listens on one TCP port
// (127.0.0.1 unless asked otherwise), requires the token it made at start, keeps every message
// of the run so far, and gives each client that whole history and then the rest; the same port
// answers an HTTP GET /metrics in Prometheus text format.
//
// It lives on the caller's event loop and never blocks it: each client has a cursor into the
// history and at most kClientBufferBytes written and not yet taken by the network; a client
// that stops reading is held there (skipped) until it reads again, and the run goes on. The
// sampler threads are never touched: the sample stores (which lock themselves) are read on a
// timer here, as the dashboard's chart reads them.
//
// What feeds it: core/run's MeasureRun and JobRun (--serve) connect their run's signals to the
// calls below; the calls are plain, so the dashboard could serve its own run too.
#include <jb/base/Result.h>
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/JobQueue.h>
#include <jb/live/RunSource.h>
#include <jb/record/Record.h>
#include <jb/remote/RemoteProtocol.h>
#include <jb/session/PhaseEvent.h>
#include <jb/session/Plan.h>

#include <QObject>
#include <QTimer>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QTcpServer;
class QTcpSocket;

namespace jb {

class RunServer : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kClientBufferBytes = 1 << 20;
    static constexpr int kPumpMs = 200;           // sample batches and the clock
    static constexpr int kHelloTimeoutMs = 10000;  // a client that says nothing is closed

    // kind: "measure" or "jobs" (the hello says which).
    explicit RunServer(std::string kind, QObject* parent = nullptr);
    ~RunServer() override;

    Status listen(const remote::ServeAddress& where);
    QString host() const;  // as listened on
    quint16 port() const;
    const std::string& token() const { return token_; }
    void setToken(std::string token) { token_ = std::move(token); }  // before listen (tests)
    bool exposed() const { return where_.exposed(); }
    // The line the front ends print at start: "serving on HOST:PORT token TOKEN".
    QString announcement() const;
    int clientCount() const;  // authenticated stream clients

    // A measure run.
    void plan(const Plan& plan);
    void started(qint64 origin_ns, const QStringList& counters, StoreList stores);
    void phase(const PhaseEvent& event);
    void round(int index, const Round& round);
    // The child marked a phase boundary (RunSource::phaseMarked): a `phase-mark` message (1.1).
    void phaseMark(int round, const QString& name, qint64 t_ns);
    void warning(const QString& message);
    void childReady(qint64 jobs);
    // The end: the records as written, their files ("" where none), the errors, aborted.
    void ended(const std::vector<Record>& records, const std::vector<std::string>& paths,
               const std::vector<std::string>& errors, bool aborted);
    // A job queue.
    void jobState(const QString& name, const std::string& state, const nlohmann::ordered_json& detail = {});
    void jobSample(const QString& name, const JobProgress& sample);
    // A line of a job's output (stream "stdout", "stderr" or "driver"): a `job-log` message
    // (1.2). At most kJobLogBytes of a job's lines are kept and served, then one line saying so
    // (the whole log is in the job's run folder on this machine).
    void jobLog(const QString& name, const QString& stream, const QString& line);
    static constexpr std::size_t kJobLogBytes = 256 * 1024;
    void queueEnded(const QueueSummary& summary, const std::string& error = {});
    // Any message (its "type" first): a later minor version's (a phase mark) goes through here.
    void publish(nlohmann::ordered_json message);

    // The end of the run: gives the clients up to ms to take what they have not yet (this
    // waits; call it only when the run is over).
    void flush(int ms);
    // The /metrics text now.
    QByteArray metricsText() const;

signals:
    void clientAccepted(const QString& peer);
    void clientRefused(const QString& peer, const QString& why);
    void clientGone(const QString& peer);

private:
    struct Client;
    void onConnection();
    void onReadable(Client* c);
    void onHello(Client* c, const QByteArray& line);
    void onHttp(Client* c);
    void refuse(Client* c, const QString& why);
    void drop(Client* c);
    void pump(Client* c);
    void pumpAll();
    void onTimer();
    void sampleBatches();

    std::string kind_;
    std::string token_;
    remote::ServeAddress where_;
    QTcpServer* server_ = nullptr;
    std::vector<std::unique_ptr<Client>> clients_;
    std::vector<QByteArray> history_;
    QTimer timer_;
    // The run as /metrics tells it.
    StoreList stores_;
    std::vector<std::size_t> sent_;  // per store: intervals published
    struct CounterFigures {
        double energy_j = 0;
        double power_w = 0;
        std::map<std::string, int> verdicts;
    };
    std::map<std::string, CounterFigures> counters_;
    int rounds_ = 0;
    bool running_ = false;
    qint64 origin_ns_ = 0;
    struct JobFigures {
        std::string state;
        std::optional<JobProgress> last;
        std::size_t log_bytes = 0;  // of job-log lines published
        bool log_capped = false;
    };
    std::map<std::string, JobFigures> jobs_;
};

}  // namespace jb
