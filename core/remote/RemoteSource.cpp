#include <jb/remote/RemoteSource.h>

#include <jb/record/RecordJson.h>
#include <jb/remote/RemoteProtocol.h>

#include <QHostAddress>

namespace jb {

using oj = nlohmann::ordered_json;

namespace {

std::optional<PhaseEvent::Kind> phaseKind(const std::string& s)
{
    if (s == "idle-started")
        return PhaseEvent::IdleStarted;
    if (s == "idle-ended")
        return PhaseEvent::IdleEnded;
    if (s == "busy-started")
        return PhaseEvent::BusyStarted;
    if (s == "busy-ended")
        return PhaseEvent::BusyEnded;
    return std::nullopt;
}

}  // namespace

RemoteSource::RemoteSource(QObject* parent) : RunSource(parent)
{
    connect(&socket_, &QTcpSocket::readyRead, this, &RemoteSource::onReadable);
    connect(&socket_, &QTcpSocket::disconnected, this, [this] {
        onReadable();  // what came with the close
        running_ = false;
        if (!ended_)
            emit lost(hello_ ? QStringLiteral("the server %1 closed the connection before the run's end").arg(where_)
                             : QStringLiteral("the server %1 refused the connection (wrong token?)").arg(where_));
    });
    connect(&socket_, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError)
            return;  // disconnected() tells it
        if (socket_.state() != QAbstractSocket::ConnectedState && !hello_)
            emit lost(QStringLiteral("cannot reach %1: %2").arg(where_, socket_.errorString()));
    });
}

RemoteSource::~RemoteSource()
{
    socket_.disconnect(this);
}

void RemoteSource::connectTo(const QString& host, quint16 port, const std::string& token)
{
    where_ = QStringLiteral("%1:%2").arg(host).arg(port);
    connect(&socket_, &QTcpSocket::connected, this, [this, token] {
        oj h = oj::object();
        h["format"] = remote::kFormat;
        h["version"] = remote::kVersion;
        h["minor"] = remote::kMinor;
        h["token"] = token;
        socket_.write(remote::line(h));
    }, Qt::SingleShotConnection);
    socket_.connectToHost(host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host, port);
}

StoreList RemoteSource::stores() const
{
    StoreList l;
    for (const auto& [spec, s] : stores_)
        l.emplace_back(spec, s);
    return l;
}

std::int64_t RemoteSource::nowNs() const
{
    if (!clock_ns_)
        return origin_ns_;
    // Between the server's ticks (200 ms) the clock goes on here, at most a second.
    const qint64 local = since_clock_.isValid() ? std::min<qint64>(since_clock_.nsecsElapsed(), 1'000'000'000) : 0;
    return running_ ? clock_ns_ + local : clock_ns_;
}

void RemoteSource::stop()
{
    running_ = false;
    ended_ = true;  // the watcher's own choice: not a loss
    socket_.disconnectFromHost();
}

void RemoteSource::bad(const std::string& why)
{
    emit warning(QStringLiteral("remote run %1, message %2: %3").arg(where_).arg(line_).arg(QString::fromStdString(why)));
}

void RemoteSource::onReadable()
{
    in_ += socket_.readAll();
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = in_.indexOf('\n', start);
        if (nl < 0)
            break;
        ++line_;
        const oj m = oj::parse(in_.constData() + start, in_.constData() + nl, nullptr, false);
        start = nl + 1;
        if (m.is_discarded() || !m.is_object() || !m.contains("type") || !m["type"].is_string()) {
            bad("not a JSON object with a \"type\"");
            continue;
        }
        ++messages_;
        try {
            onMessage(m);
        } catch (const std::exception& e) {  // a key of the wrong type
            bad(e.what());
        }
    }
    in_.remove(0, start);
}

void RemoteSource::onMessage(const oj& m)
{
    const std::string type = m["type"].get<std::string>();
    if (!hello_) {
        if (type == "error")
            return emit lost(QStringLiteral("the server %1 refused: %2")
                                 .arg(where_, QString::fromStdString(m.value("message", std::string()))));
        if (type != "hello" || m.value("format", std::string()) != remote::kFormat)
            return bad("expected the server's hello first");
        if (m.value("version", 0) != remote::kVersion) {
            bad("the server speaks version " + std::to_string(m.value("version", 0)) + ", this watcher " +
                std::to_string(remote::kVersion));
            socket_.disconnectFromHost();
            return;
        }
        hello_ = true;
        kind_ = QString::fromStdString(m.value("kind", std::string("measure")));
        emit connected(kind_);
        return;
    }
    if (type == "plan") {
        layout_.period_s = m.at("period_s").get<double>();
        layout_.idle_s = m.at("idle_s").get<double>();
        layout_.k = m.at("k").get<int>();
        layout_.rounds = m.at("rounds").get<int>();
        if (m.contains("label") && m["label"].is_string())
            label_ = m["label"].get<std::string>();
    } else if (type == "started") {
        origin_ns_ = m.at("origin_ns").get<std::int64_t>();
        counters_ = m.at("counters").get<std::vector<std::string>>();
        stores_.clear();
        for (const auto& s : m.at("sampled"))
            stores_.emplace_back(s.get<std::string>(), std::make_shared<SampleStore>());
        running_ = true;
        QStringList cs;
        for (const std::string& c : counters_)
            cs << QString::fromStdString(c);
        emit started(origin_ns_, cs);
    } else if (type == "samples") {
        const std::string spec = m.at("counter").get<std::string>();
        auto it = std::find_if(stores_.begin(), stores_.end(), [&](const auto& p) { return p.first == spec; });
        if (it == stores_.end())
            return bad("samples of a counter the run did not start: " + spec);
        auto iv = intervalsFromJson(m.at("intervals"), "$.intervals");
        if (!iv)
            return bad(iv.error());
        if (m.at("from").get<std::size_t>() != it->second->size())
            return bad("samples of " + spec + " from " + std::to_string(m.at("from").get<std::size_t>()) +
                       " where " + std::to_string(it->second->size()) + " have come");
        it->second->appendBatch(*iv);
    } else if (type == "phase") {
        const auto kind = phaseKind(m.at("kind").get<std::string>());
        if (!kind)
            return bad("an unknown phase: " + m["kind"].get<std::string>());
        emit phase(PhaseEvent{*kind, m.at("round").get<int>(), m.at("t_ns").get<std::int64_t>()});
    } else if (type == "phase-mark") {  // 1.1
        emit phaseMarked(m.at("round").get<int>(), QString::fromStdString(m.at("name").get<std::string>()),
                         m.at("t_ns").get<std::int64_t>());
    } else if (type == "round") {
        auto r = roundFromJson(m.at("round"), counters_, "$.round");
        if (!r)
            return bad(r.error());
        const int index = m.at("index").get<int>();
        rounds_.emplace_back(index, *r);
        emit roundFinished(index, *r);
    } else if (type == "warning") {
        emit warning(QString::fromStdString(m.at("message").get<std::string>()));
    } else if (type == "child-ready") {
        emit childReady(m.at("jobs").get<qint64>());
    } else if (type == "clock") {
        clock_ns_ = m.at("now_ns").get<std::int64_t>();
        since_clock_.start();
        emit advanced(nowNs());
    } else if (type == "end") {
        records_.clear();
        for (const auto& rj : m.at("records")) {
            auto r = recordFromJson(rj);
            if (!r)
                return bad("the end's record: " + r.error());
            records_.push_back(*r);
        }
        paths_ = m.at("paths").get<std::vector<std::string>>();
        running_ = false;
        ended_ = true;
        QStringList ps;
        for (const std::string& p : paths_)
            ps << QString::fromStdString(p);
        emit ended(ps, m.value("aborted", false));
        if (records_.size() == 1)
            emit finished(records_.front());
        else if (records_.size() > 1)
            emit finishedSet(records_);
    } else if (type == "job-state") {
        running_ = true;
        emit jobState(QString::fromStdString(m.at("name").get<std::string>()),
                      QString::fromStdString(m.at("state").get<std::string>()), m.value("detail", oj()));
    } else if (type == "job-sample") {
        const oj& s = m.at("sample");
        JobProgress p;
        p.elapsed_seconds = s.at("elapsed_s").get<double>();
        p.memory_mib = s.at("memory_mib").get<std::int64_t>();
        p.peak_memory_mib = s.at("peak_memory_mib").get<std::int64_t>();
        if (s.contains("power_w") && s["power_w"].is_number())
            p.power_w = s["power_w"].get<double>();
        p.processes = s.value("processes", 0);
        emit jobSample(QString::fromStdString(m.at("name").get<std::string>()), p);
    } else if (type == "job-log") {
        emit jobLog(QString::fromStdString(m.at("name").get<std::string>()),
                    QString::fromStdString(m.at("stream").get<std::string>()),
                    QString::fromStdString(m.at("line").get<std::string>()));
    } else if (type == "queue-end") {
        running_ = false;
        ended_ = true;
        emit queueEnded(m);
    }
    // Any other type: a later minor version's, skipped.
}

}  // namespace jb
