#pragma once
// RemoteSource: a run served by another process (RunServer, `--serve`) as a RunSource. It
// connects, says its token, and rebuilds the run from the messages (docs/REMOTE.md): the
// plan's layout, one sample store per whole-device counter, the phases, the rounds, the
// warnings and the end (the records as the server wrote them, and their paths there), so that
// RunState and the pages work unchanged. It is marked remote (where()). A watcher cannot stop
// the run: stop() only disconnects.
//
// A job queue's messages come out as jobState/jobSample/jobLog/queueEnded.
#include <jb/jobs/JobQueue.h>  // JobProgress and its meta type
#include <jb/live/RunSource.h>
#include <jb/record/Record.h>
#include <jb/sampling/SampleStore.h>

#include <QElapsedTimer>
#include <QPointer>
#include <QTcpSocket>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace jb {

class RemoteSource : public RunSource {
    Q_OBJECT
public:
    explicit RemoteSource(QObject* parent = nullptr);
    ~RemoteSource() override;

    // Connects and says the token; connected() or lost() follows.
    void connectTo(const QString& host, quint16 port, const std::string& token);
    QString where() const { return where_; }  // "host:port"
    bool isConnected() const { return hello_; }
    QString kind() const { return kind_; }  // the hello's: "measure" or "jobs"

    StoreList stores() const override;
    std::int64_t originNs() const override { return origin_ns_; }
    std::int64_t nowNs() const override;  // the server's clock, carried on locally between its ticks
    RunLayout layout() const override { return layout_; }
    bool running() const override { return running_; }
    void stop() override;  // disconnects (the run goes on over there)

    // What has arrived.
    const std::vector<std::pair<int, Round>>& rounds() const { return rounds_; }
    const std::vector<Record>& records() const { return records_; }  // at the end
    const std::vector<std::string>& recordPaths() const { return paths_; }  // on the server's machine
    std::optional<std::string> label() const { return label_; }
    qint64 messages() const { return messages_; }

signals:
    void connected(const QString& kind);
    // The connection ended before the run's end, or was refused (why).
    void lost(const QString& why);
    // The end message: the records' files on the server's machine ("" where none).
    void ended(const QStringList& paths, bool aborted);
    void jobState(const QString& name, const QString& state, const nlohmann::ordered_json& detail);
    void jobSample(const QString& name, const jb::JobProgress& sample);
    void jobLog(const QString& name, const QString& stream, const QString& line);  // 1.2
    void queueEnded(const nlohmann::ordered_json& summary);

private:
    void onReadable();
    void onMessage(const nlohmann::ordered_json& m);
    void bad(const std::string& why);

    QTcpSocket socket_;
    QString where_;
    QByteArray in_;
    bool hello_ = false, ended_ = false, running_ = false;
    QString kind_;
    RunLayout layout_;
    std::optional<std::string> label_;
    std::vector<std::string> counters_;  // the record's counters (task included)
    std::vector<std::pair<std::string, std::shared_ptr<SampleStore>>> stores_;
    std::int64_t origin_ns_ = 0, clock_ns_ = 0;
    QElapsedTimer since_clock_;
    std::vector<std::pair<int, Round>> rounds_;
    std::vector<Record> records_;
    std::vector<std::string> paths_;
    qint64 line_ = 0, messages_ = 0;
};

}  // namespace jb
