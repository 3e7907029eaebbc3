#include <jb/remote/RunServer.h>

#include <jb/base/Clock.h>
#include <jb/jobs/Manifest.h>
#include <jb/record/RecordJson.h>
#include <jb/remote/PromText.h>
#include <jb/sampling/SampleStore.h>
#include <jb/stats/Verdict.h>

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace jb {

using oj = nlohmann::ordered_json;

struct RunServer::Client {
    enum class State { Hello, Stream, Http };
    QTcpSocket* socket = nullptr;
    State state = State::Hello;
    QByteArray in;
    std::size_t next = 0;  // the next history message to send
    QTimer hello_timer;
    QString peer;
};

namespace {

// Equal without telling how far they agree (the token is compared in constant time).
bool sameToken(const std::string& a, const std::string& b)
{
    if (a.size() != b.size() || a.empty())
        return false;
    unsigned char d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d |= static_cast<unsigned char>(a[i] ^ b[i]);
    return d == 0;
}

const char* phaseName(PhaseEvent::Kind k)
{
    switch (k) {
    case PhaseEvent::IdleStarted:
        return "idle-started";
    case PhaseEvent::IdleEnded:
        return "idle-ended";
    case PhaseEvent::BusyStarted:
        return "busy-started";
    case PhaseEvent::BusyEnded:
        return "busy-ended";
    }
    return "idle-started";
}

oj progressJson(const JobProgress& p)
{
    oj o = oj::object();
    o["elapsed_s"] = p.elapsed_seconds;
    o["memory_mib"] = p.memory_mib;
    o["peak_memory_mib"] = p.peak_memory_mib;
    o["power_w"] = p.power_w ? oj(*p.power_w) : oj(nullptr);
    o["processes"] = p.processes;
    return o;
}

}  // namespace

RunServer::RunServer(std::string kind, QObject* parent)
    : QObject(parent), kind_(std::move(kind)), token_(remote::newToken())
{
    timer_.setInterval(kPumpMs);
    connect(&timer_, &QTimer::timeout, this, &RunServer::onTimer);
}

RunServer::~RunServer()
{
    for (auto& c : clients_)
        c->socket->disconnect(this);
}

Status RunServer::listen(const remote::ServeAddress& where)
{
    where_ = where;
    if (!server_) {
        server_ = new QTcpServer(this);
        connect(server_, &QTcpServer::newConnection, this, &RunServer::onConnection);
    }
    if (!server_->listen(where.address, where.port))
        return Error{"--serve: cannot listen on " + where.address.toString().toStdString() + ":" +
                     std::to_string(where.port) + ": " + server_->errorString().toStdString()};
    timer_.start();
    return Ok{};
}

QString RunServer::host() const
{
    return server_ ? server_->serverAddress().toString() : QString();
}

quint16 RunServer::port() const
{
    return server_ ? server_->serverPort() : 0;
}

QString RunServer::announcement() const
{
    const QString h = host().contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host()) : host();
    return QStringLiteral("serving on %1:%2 token %3").arg(h).arg(port()).arg(QString::fromStdString(token_));
}

int RunServer::clientCount() const
{
    return int(std::count_if(clients_.begin(), clients_.end(),
                             [](const auto& c) { return c->state == Client::State::Stream; }));
}

void RunServer::publish(oj message)
{
    history_.push_back(remote::line(message));
    pumpAll();
}

void RunServer::plan(const Plan& p)
{
    oj m = oj::object();
    m["type"] = "plan";
    m["label"] = p.label ? oj(*p.label) : oj(nullptr);
    m["period_s"] = p.periodS();
    m["idle_s"] = p.idle_s;
    m["k"] = p.k;
    m["rounds"] = p.rounds;
    m["warmup"] = p.warmup;
    oj children = oj::array();
    for (const PlanChild& c : p.children)
        children.push_back(c.name);
    m["children"] = std::move(children);
    publish(std::move(m));
}

void RunServer::started(qint64 origin_ns, const QStringList& counters, StoreList stores)
{
    running_ = true;
    origin_ns_ = origin_ns;
    stores_ = std::move(stores);
    sent_.assign(stores_.size(), 0);
    oj m = oj::object();
    m["type"] = "started";
    m["origin_ns"] = origin_ns;
    oj cs = oj::array();
    for (const QString& c : counters)
        cs.push_back(c.toStdString());
    m["counters"] = std::move(cs);
    oj sampled = oj::array();
    for (const auto& [spec, store] : stores_) {
        sampled.push_back(spec);
        counters_[spec];
    }
    m["sampled"] = std::move(sampled);
    publish(std::move(m));
}

void RunServer::phase(const PhaseEvent& e)
{
    sampleBatches();  // the samples up to the moment first, as the session saw them
    oj m = oj::object();
    m["type"] = "phase";
    m["kind"] = phaseName(e.kind);
    m["round"] = e.round;
    m["t_ns"] = e.t_ns;
    publish(std::move(m));
}

void RunServer::phaseMark(int round, const QString& name, qint64 t_ns)
{
    sampleBatches();
    oj m = oj::object();
    m["type"] = "phase-mark";
    m["round"] = round;
    m["name"] = name.toStdString();  // "": `mark -`
    m["t_ns"] = std::int64_t(t_ns);
    publish(std::move(m));
}

void RunServer::round(int index, const Round& r)
{
    sampleBatches();
    ++rounds_;
    for (const auto& [spec, c] : r.counters)
        counters_[spec].verdicts[c.verdict ? verdictName(*c.verdict) : "none"]++;
    oj m = oj::object();
    m["type"] = "round";
    m["index"] = index;
    m["round"] = roundToJson(r);
    publish(std::move(m));
}

void RunServer::warning(const QString& message)
{
    publish({{"type", "warning"}, {"message", message.toStdString()}});
}

void RunServer::childReady(qint64 jobs)
{
    publish({{"type", "child-ready"}, {"jobs", jobs}});
}

void RunServer::ended(const std::vector<Record>& records, const std::vector<std::string>& paths,
                      const std::vector<std::string>& errors, bool aborted)
{
    sampleBatches();
    running_ = false;
    oj m = oj::object();
    m["type"] = "end";
    m["aborted"] = aborted;
    m["paths"] = paths;
    m["errors"] = errors;
    oj recs = oj::array();
    for (const Record& r : records)
        recs.push_back(toJson(r));
    m["records"] = std::move(recs);
    publish(std::move(m));
}

void RunServer::jobState(const QString& name, const std::string& state, const oj& detail)
{
    running_ = true;
    jobs_[name.toStdString()].state = state;
    oj m = oj::object();
    m["type"] = "job-state";
    m["name"] = name.toStdString();
    m["state"] = state;
    if (!detail.is_null())
        m["detail"] = detail;
    publish(std::move(m));
}

void RunServer::jobSample(const QString& name, const JobProgress& p)
{
    jobs_[name.toStdString()].last = p;
    oj m = oj::object();
    m["type"] = "job-sample";
    m["name"] = name.toStdString();
    m["sample"] = progressJson(p);
    publish(std::move(m));
}

void RunServer::jobLog(const QString& name, const QString& stream, const QString& line)
{
    JobFigures& j = jobs_[name.toStdString()];
    if (j.log_capped)
        return;
    oj m = oj::object();
    m["type"] = "job-log";
    m["name"] = name.toStdString();
    const std::string text = line.toStdString();
    if (j.log_bytes + text.size() > kJobLogBytes) {
        j.log_capped = true;
        m["stream"] = "driver";
        m["line"] = "joulebench: this job's log past " + std::to_string(kJobLogBytes / 1024) +
                    " KiB is not served; the whole log is in its run folder on the serving machine";
    } else {
        j.log_bytes += text.size();
        m["stream"] = stream.toStdString();
        m["line"] = text;
    }
    publish(std::move(m));
}

void RunServer::queueEnded(const QueueSummary& s, const std::string& error)
{
    running_ = false;
    oj m = oj::object();
    m["type"] = "queue-end";
    m["total"] = s.total;
    m["completed"] = s.completed;
    m["failed"] = s.failed;
    m["preserved"] = s.preserved;
    m["not_started"] = s.not_started;
    m["error"] = error.empty() ? oj(nullptr) : oj(error);
    publish(std::move(m));
}

void RunServer::sampleBatches()
{
    bool any = false;
    for (std::size_t i = 0; i < stores_.size(); ++i) {
        const auto& [spec, store] = stores_[i];
        const std::size_t n = store->size();
        if (n <= sent_[i])
            continue;
        const std::vector<Interval> iv = store->slice(sent_[i], n);
        CounterFigures& f = counters_[spec];
        std::int64_t nj = 0, span = 0;
        const std::int64_t last = iv.back().t1_ns;
        for (const Interval& x : iv) {
            f.energy_j += double(x.nj) * 1e-9;
            if (x.t1_ns >= last - 1'000'000'000) {  // the last second: the live power
                nj += x.nj;
                span += x.span_ns();
            }
        }
        if (span > 0)
            f.power_w = double(nj) / double(span);
        oj m = oj::object();
        m["type"] = "samples";
        m["counter"] = spec;
        m["from"] = sent_[i];
        m["intervals"] = intervalsToJson(iv);
        history_.push_back(remote::line(m));
        sent_[i] = n;
        any = true;
    }
    if (any)
        pumpAll();
}

void RunServer::onTimer()
{
    sampleBatches();
    // The clock, live only (not kept): a client places "now" on the samples' axis with it.
    const QByteArray clock = remote::line({{"type", "clock"}, {"now_ns", monotonicNs()}});
    for (auto& c : clients_)
        if (c->state == Client::State::Stream && c->next == history_.size() &&
            c->socket->bytesToWrite() < kClientBufferBytes)
            c->socket->write(clock);
}

void RunServer::onConnection()
{
    while (QTcpSocket* s = server_->nextPendingConnection()) {
        auto c = std::make_unique<Client>();
        c->socket = s;
        s->setParent(this);
        c->peer = QStringLiteral("%1:%2").arg(s->peerAddress().toString()).arg(s->peerPort());
        Client* cp = c.get();
        connect(s, &QTcpSocket::readyRead, this, [this, cp] { onReadable(cp); });
        connect(s, &QTcpSocket::bytesWritten, this, [this, cp] {
            if (cp->state == Client::State::Stream)
                pump(cp);
        });
        connect(s, &QTcpSocket::disconnected, this, [this, cp] { drop(cp); });
        c->hello_timer.setSingleShot(true);
        connect(&c->hello_timer, &QTimer::timeout, this,
                [this, cp] { refuse(cp, QStringLiteral("said nothing for %1 s").arg(kHelloTimeoutMs / 1000)); });
        c->hello_timer.start(kHelloTimeoutMs);
        clients_.push_back(std::move(c));
    }
}

void RunServer::onReadable(Client* c)
{
    if (c->state == Client::State::Stream) {
        c->socket->readAll();  // a client has nothing more to say
        return;
    }
    c->in += c->socket->readAll();
    if (c->in.startsWith("GET ") || c->in.startsWith("HEAD ")) {
        c->state = Client::State::Http;
        if (c->in.contains("\r\n\r\n") || c->in.contains("\n\n"))
            onHttp(c);
        else if (c->in.size() > remote::kMaxHelloBytes)
            refuse(c, QStringLiteral("an HTTP request over %1 bytes").arg(remote::kMaxHelloBytes));
        return;
    }
    if (c->state == Client::State::Http)
        return;
    const qsizetype nl = c->in.indexOf('\n');
    if (nl < 0) {
        if (c->in.size() > remote::kMaxHelloBytes)
            refuse(c, QStringLiteral("a hello over %1 bytes").arg(remote::kMaxHelloBytes));
        return;
    }
    const QByteArray hello = c->in.left(nl);
    c->in.clear();
    onHello(c, hello);
}

void RunServer::onHello(Client* c, const QByteArray& text)
{
    const oj h = oj::parse(text.toStdString(), nullptr, false);
    if (h.is_discarded() || !h.is_object())
        return refuse(c, QStringLiteral("the hello is not a JSON object"));
    const auto str = [&](const char* key) {
        auto it = h.find(key);
        return it != h.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (str("format") != remote::kFormat)
        return refuse(c, QStringLiteral("the hello's format is not %1").arg(QLatin1String(remote::kFormat)));
    // The token first: nothing, not even the version, is told to a client without it.
    if (!sameToken(str("token"), token_))
        return refuse(c, QStringLiteral("wrong token"));
    auto v = h.find("version");
    if (v == h.end() || !v->is_number_integer() || v->get<int>() != remote::kVersion) {
        c->socket->write(remote::line({{"type", "error"},
                                       {"message", "this server speaks version " + std::to_string(remote::kVersion)}}));
        c->socket->disconnectFromHost();
        emit clientRefused(c->peer, QStringLiteral("version"));
        return;
    }
    c->hello_timer.stop();
    c->state = Client::State::Stream;
    oj m = oj::object();
    m["type"] = "hello";
    m["format"] = remote::kFormat;
    m["version"] = remote::kVersion;
    m["minor"] = remote::kMinor;
    m["kind"] = kind_;
    m["origin_ns"] = origin_ns_;
    c->socket->write(remote::line(m));
    emit clientAccepted(c->peer);
    pump(c);
}

void RunServer::onHttp(Client* c)
{
    c->hello_timer.stop();
    const QList<QByteArray> lines = c->in.split('\n');
    const QList<QByteArray> request = lines.value(0).trimmed().split(' ');
    const QUrl url(QString::fromLatin1(request.value(1)));
    std::string token = QUrlQuery(url).queryItemValue(QStringLiteral("token")).toStdString();
    for (const QByteArray& l : lines) {
        const QByteArray t = l.trimmed();
        if (t.toLower().startsWith("authorization:")) {
            const QByteArray v = t.mid(14).trimmed();
            if (v.toLower().startsWith("bearer "))
                token = v.mid(7).trimmed().toStdString();
        }
    }
    QByteArray status, body, type = "text/plain; charset=utf-8";
    if (!sameToken(token, token_)) {
        status = "401 Unauthorized";
        body = "a token is required (Authorization: Bearer TOKEN or ?token=TOKEN)\n";
        emit clientRefused(c->peer, QStringLiteral("wrong token (HTTP)"));
    } else if (url.path() != QLatin1String("/metrics")) {
        status = "404 Not Found";
        body = "only /metrics is here\n";
    } else {
        status = "200 OK";
        body = metricsText();
        type = "text/plain; version=0.0.4; charset=utf-8";
    }
    QByteArray reply = "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
                       "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
    if (!request.value(0).startsWith("HEAD"))
        reply += body;
    c->socket->write(reply);
    c->socket->disconnectFromHost();
}

void RunServer::refuse(Client* c, const QString& why)
{
    emit clientRefused(c->peer, why);
    c->socket->abort();  // nothing sent; abort() emits disconnected, which drops it
}

void RunServer::drop(Client* c)
{
    auto it = std::find_if(clients_.begin(), clients_.end(), [c](const auto& p) { return p.get() == c; });
    if (it == clients_.end())
        return;
    if (c->state == Client::State::Stream)
        emit clientGone(c->peer);
    c->socket->disconnect(this);
    c->socket->deleteLater();
    clients_.erase(it);
}

void RunServer::pump(Client* c)
{
    // At most kClientBufferBytes waiting in the socket: a client that does not read stays
    // behind, at its cursor, and costs the run nothing more.
    while (c->next < history_.size() && c->socket->bytesToWrite() < kClientBufferBytes)
        c->socket->write(history_[c->next++]);
}

void RunServer::pumpAll()
{
    for (auto& c : clients_)
        if (c->state == Client::State::Stream)
            pump(c.get());
}

void RunServer::flush(int ms)
{
    sampleBatches();
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        bool pending = false;
        for (std::size_t i = 0; i < clients_.size(); ++i) {
            Client* c = clients_[i].get();
            if (c->state != Client::State::Stream)
                continue;
            pump(c);
            if (c->next < history_.size() || c->socket->bytesToWrite() > 0) {
                pending = true;
                c->socket->waitForBytesWritten(20);
            }
        }
        if (!pending)
            return;
    }
}

QByteArray RunServer::metricsText() const
{
    remote::PromText p;
    p.family("joulebench_run_running", "gauge", "1 while the run goes, 0 before its start and after its end");
    p.sample("joulebench_run_running", {{"kind", kind_}}, running_ ? 1 : 0);
    p.family("joulebench_watchers", "gauge", "clients watching the run");
    p.sample("joulebench_watchers", {}, clientCount());
    if (kind_ == "measure") {
        p.family("joulebench_power_watts", "gauge", "whole-device power over the last second of samples");
        for (const auto& [spec, f] : counters_)
            p.sample("joulebench_power_watts", {{"counter", spec}}, f.power_w);
        p.family("joulebench_energy_joules_total", "counter", "energy read by the counter since the run started");
        for (const auto& [spec, f] : counters_)
            p.sample("joulebench_energy_joules_total", {{"counter", spec}}, f.energy_j);
        p.family("joulebench_rounds_total", "counter", "rounds finished");
        p.sample("joulebench_rounds_total", {}, rounds_);
        p.family("joulebench_round_verdicts_total", "counter", "finished rounds by verdict, per counter");
        for (const auto& [spec, f] : counters_) {
            for (const Verdict v : kVerdicts) {
                auto it = f.verdicts.find(verdictName(v));
                p.sample("joulebench_round_verdicts_total", {{"counter", spec}, {"verdict", verdictName(v)}},
                         it == f.verdicts.end() ? 0 : it->second);
            }
            if (auto it = f.verdicts.find("none"); it != f.verdicts.end())
                p.sample("joulebench_round_verdicts_total", {{"counter", spec}, {"verdict", "none"}}, it->second);
        }
    } else {
        std::map<std::string, int> states;
        for (const auto& [name, j] : jobs_)
            states[j.state]++;
        p.family("joulebench_jobs", "gauge", "the queue's jobs by state");
        for (const auto& [state, n] : states)
            p.sample("joulebench_jobs", {{"state", state}}, n);
        p.family("joulebench_job_power_watts", "gauge", "a job's GPU board power, last sample");
        for (const auto& [name, j] : jobs_)
            if (j.last && j.last->power_w)
                p.sample("joulebench_job_power_watts", {{"job", name}}, *j.last->power_w);
        p.family("joulebench_job_memory_mib", "gauge", "a job's GPU memory, last sample");
        for (const auto& [name, j] : jobs_)
            if (j.last)
                p.sample("joulebench_job_memory_mib", {{"job", name}}, double(j.last->memory_mib));
    }
    return p.text();
}

}  // namespace jb
