// core/remote end to end: a CLI run serving on loopback and the clients it meets.
#include <jb/record/RecordJson.h>
#include <jb/remote/RemoteProtocol.h>
#include <jb/remote/RemoteSource.h>
#include <jb/remote/RemoteTarget.h>
#include <jb/remote/RunServer.h>
#include <jb/sampling/SampleStore.h>

#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <map>

namespace {

using oj = nlohmann::ordered_json;

QString bin(const char* name)
{
    return QStringLiteral(JB_BIN_DIR "/") + QString::fromLatin1(name);
}
QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

// A measure run of the fake child on the sim counter: 4 rounds of ~0.2 s busy, 0.3 s idle.
QStringList measureArgs(const QString& out, const QStringList& extra)
{
    QStringList a{QStringLiteral("measure"), QStringLiteral("--label"), QStringLiteral("remote"),
                  QStringLiteral("--rounds"), QStringLiteral("4"), QStringLiteral("--k"), QStringLiteral("1"),
                  QStringLiteral("--idle-s"), QStringLiteral("0.3"), QStringLiteral("--sample-ms"),
                  QStringLiteral("20"), QStringLiteral("--counter"), QStringLiteral("sim"), QStringLiteral("--samples"),
                  QStringLiteral("--out"), out, QStringLiteral("--journal"), QString(), QStringLiteral("--no-library")};
    a << extra;
    a << QStringLiteral("--") << testBin("fakechild") << QStringLiteral("serve") << QStringLiteral("--jobs")
      << QStringLiteral("2") << QStringLiteral("--job-ms") << QStringLiteral("100");
    return a;
}

// The CLI running, its stderr gathered as it comes.
struct Cli {
    QProcess p;
    QByteArray err;
    explicit Cli(const QStringList& args)
    {
        QObject::connect(&p, &QProcess::readyReadStandardError, [this] { err += p.readAllStandardError(); });
        p.start(bin("joulebench-cli"), args);
    }
    ~Cli()
    {
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished();
        }
    }
    int roundsPrinted() const { return int(err.count(" round ")); }
};

// A small Prometheus text-format (0.0.4) parser: # HELP and # TYPE lines, samples
// name{label="value",...} value. Anything else is an error naming the line.
struct PromSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};
struct PromParse {
    std::map<std::string, std::string> types;  // family -> gauge/counter/...
    std::vector<PromSample> samples;
    QString error;
    double value(const std::string& name, const std::map<std::string, std::string>& labels = {}) const
    {
        for (const PromSample& s : samples)
            if (s.name == name && s.labels == labels)
                return s.value;
        return -1;
    }
};
PromParse parseProm(const QByteArray& text)
{
    PromParse r;
    static const QRegularExpression nameRe(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    int n = 0;
    for (const QByteArray& raw : text.split('\n')) {
        ++n;
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        const auto fail = [&](const QString& why) {
            if (r.error.isEmpty())
                r.error = QStringLiteral("line %1 (%2): %3").arg(n).arg(line, why);
        };
        if (line.startsWith(QLatin1Char('#'))) {
            const QStringList parts = line.split(QLatin1Char(' '));
            if (parts.value(1) == QLatin1String("TYPE")) {
                static const QStringList kinds{QStringLiteral("counter"), QStringLiteral("gauge"),
                                               QStringLiteral("histogram"), QStringLiteral("summary"),
                                               QStringLiteral("untyped")};
                if (parts.size() != 4 || !nameRe.match(parts[2]).hasMatch() || !kinds.contains(parts[3]))
                    fail(QStringLiteral("a bad TYPE line"));
                else if (r.types.count(parts[2].toStdString()))
                    fail(QStringLiteral("a second TYPE for the family"));
                else
                    r.types[parts[2].toStdString()] = parts[3].toStdString();
            } else if (parts.value(1) == QLatin1String("HELP") && !nameRe.match(parts.value(2)).hasMatch()) {
                fail(QStringLiteral("a bad HELP line"));
            }
            continue;
        }
        PromSample s;
        qsizetype i = 0;
        while (i < line.size() && line[i] != QLatin1Char('{') && line[i] != QLatin1Char(' '))
            ++i;
        s.name = line.left(i).toStdString();
        if (!nameRe.match(line.left(i)).hasMatch()) {
            fail(QStringLiteral("a bad metric name"));
            continue;
        }
        if (i < line.size() && line[i] == QLatin1Char('{')) {
            ++i;
            while (i < line.size() && line[i] != QLatin1Char('}')) {
                const qsizetype eq = line.indexOf(QLatin1Char('='), i);
                if (eq < 0 || eq + 1 >= line.size() || line[eq + 1] != QLatin1Char('"')) {
                    fail(QStringLiteral("a label without =\"value\""));
                    break;
                }
                const QString key = line.mid(i, eq - i);
                QString value;
                qsizetype j = eq + 2;
                for (; j < line.size() && line[j] != QLatin1Char('"'); ++j) {
                    if (line[j] == QLatin1Char('\\') && j + 1 < line.size()) {
                        ++j;
                        value += line[j] == QLatin1Char('n') ? QLatin1Char('\n') : line[j];
                    } else {
                        value += line[j];
                    }
                }
                if (j >= line.size()) {
                    fail(QStringLiteral("an unterminated label value"));
                    break;
                }
                s.labels[key.toStdString()] = value.toStdString();
                i = j + 1;
                if (i < line.size() && line[i] == QLatin1Char(','))
                    ++i;
            }
            ++i;  // '}'
        }
        bool ok = false;
        const QString v = line.mid(i).trimmed().section(QLatin1Char(' '), 0, 0);
        s.value = v == QLatin1String("NaN") ? std::nan("") : v.toDouble(&ok);
        if (!ok && v != QLatin1String("NaN"))
            fail(QStringLiteral("a bad value"));
        // Every sample belongs to a family that says its type.
        if (!r.types.count(s.name))
            fail(QStringLiteral("a sample of no TYPE'd family"));
        r.samples.push_back(std::move(s));
    }
    return r;
}

// One HTTP request on a fresh connection; the whole reply.
QByteArray httpGet(quint16 port, const QByteArray& target, const QByteArray& headers = {})
{
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!s.waitForConnected(5000))
        return {};
    s.write("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
    QByteArray reply;
    while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(5000))
        reply += s.readAll();
    reply += s.readAll();
    return reply;
}

QByteArray hello(const std::string& token)
{
    return jb::remote::line({{"format", "joulebench-remote"}, {"version", 1}, {"token", token}});
}

}  // namespace

class TestRemote : public QObject {
    Q_OBJECT
private slots:
    // What a watcher is given (the dashboard's Connect dialog): host and port, or the error
    // naming the part that is wrong ("" host: refused).
    void remoteTargets_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("error");
        QTest::newRow("host:port") << "gpu-node.lab:8765" << "3f0c" << "gpu-node.lab" << 8765 << "";
        QTest::newRow("address") << " 127.0.0.1:9 " << "t" << "127.0.0.1" << 9 << "";
        QTest::newRow("v6") << "[::1]:8765" << "t" << "::1" << 8765 << "";
        QTest::newRow("bare port") << "8765" << "t" << "127.0.0.1" << 8765 << "";
        QTest::newRow("empty") << "" << "t" << "" << 0 << "the address is empty";
        QTest::newRow("no host") << ":8765" << "t" << "" << 0 << "no host";
        QTest::newRow("port 0") << "h:0" << "t" << "" << 0 << "the port \"0\"";
        QTest::newRow("big port") << "h:70000" << "t" << "" << 0 << "the port \"70000\"";
        QTest::newRow("v6 unbracketed") << "::1:80" << "t" << "" << 0 << "[ADDR]:PORT";
        QTest::newRow("bad host") << "a b:80" << "t" << "" << 0 << "not a host name";
        QTest::newRow("no token") << "h:80" << "  " << "" << 0 << "the token is empty";
        QTest::newRow("spaced token") << "h:80" << "ab cd" << "" << 0 << "the token has spaces";
    }
    void remoteTargets()
    {
        QFETCH(QString, address);
        QFETCH(QString, token);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, error);
        const auto t = jb::parseRemoteTarget(address.toStdString(), token.toStdString());
        if (host.isEmpty()) {
            QVERIFY(!t);
            QVERIFY2(QString::fromStdString(t.error()).contains(error), t.error().c_str());
            return;
        }
        QVERIFY2(t, t ? "" : t.error().c_str());
        QCOMPARE(t->host, host);
        QCOMPARE(int(t->port), port);
        QCOMPARE(t->token, token.trimmed().toStdString());
    }

    void serveAddresses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("address");  // empty: an error
        QTest::addColumn<int>("port");
        QTest::newRow("port") << "8123" << "127.0.0.1" << 8123;
        QTest::newRow("localhost") << "localhost:0" << "127.0.0.1" << 0;
        QTest::newRow("any") << "0.0.0.0:9000" << "0.0.0.0" << 9000;
        QTest::newRow("v6") << "[::1]:9000" << "::1" << 9000;
        QTest::newRow("no port") << "127.0.0.1:" << "" << 0;
        QTest::newRow("big port") << "70000" << "" << 0;
        QTest::newRow("a name") << "example.org:80" << "" << 0;
        QTest::newRow("nothing") << "" << "" << 0;
    }
    void serveAddresses()
    {
        QFETCH(QString, text);
        QFETCH(QString, address);
        QFETCH(int, port);
        auto a = jb::remote::parseServeAddress(text.toStdString());
        if (address.isEmpty()) {
            QVERIFY(!a);
            QVERIFY2(a.error().find("--serve") != std::string::npos, a.error().c_str());
            return;
        }
        QVERIFY2(a, a ? "" : a.error().c_str());
        QCOMPARE(a->address.toString(), address);
        QCOMPARE(int(a->port), port);
        QCOMPARE(a->exposed(), address != QLatin1String("127.0.0.1") && address != QLatin1String("::1"));
    }

    // The run is watched by a RemoteSource that joins after the first round, by a client with
    // a wrong token, one that stops reading, one that is killed mid-run, and scraped on /metrics.
    // Format 1.1: a child's phase marks (fakechild --phases) reach a watcher as phase-mark
    // messages, one per `mark NAME`, with the round, name and time the record keeps.
    // A job's served log is bounded: lines up to RunServer::kJobLogBytes reach a watcher as
    // sent, then one driver line says the rest is not served; another job's lines still are.
    void jobLogIsServedAndBoundedPerJob()
    {
        jb::RunServer server("jobs");
        auto where = jb::remote::parseServeAddress("127.0.0.1:0");
        QVERIFY(where);
        QVERIFY(server.listen(*where));
        const QString line(999, QLatin1Char('x'));  // 999 bytes a line
        const int fit = int(jb::RunServer::kJobLogBytes / 999);
        for (int i = 0; i < fit + 50; ++i)
            server.jobLog(QStringLiteral("big"), QStringLiteral("stdout"), line);
        server.jobLog(QStringLiteral("small"), QStringLiteral("stderr"), QStringLiteral("warming up"));
        jb::QueueSummary s;
        s.total = 2;
        server.queueEnded(s);

        jb::RemoteSource remote;
        std::map<QString, QStringList> lines, streams;
        connect(&remote, &jb::RemoteSource::jobLog, this, [&](const QString& n, const QString& st, const QString& l) {
            lines[n] << l;
            streams[n] << st;
        });
        QSignalSpy ended(&remote, &jb::RemoteSource::queueEnded);
        remote.connectTo(QStringLiteral("127.0.0.1"), server.port(), server.token());
        QVERIFY(ended.wait(10000));
        QCOMPARE(lines[QStringLiteral("big")].size(), fit + 1);
        for (int i = 0; i < fit; ++i)
            QCOMPARE(lines[QStringLiteral("big")][i], line);
        QCOMPARE(streams[QStringLiteral("big")].last(), QStringLiteral("driver"));
        QVERIFY2(lines[QStringLiteral("big")].last().contains(QStringLiteral("256 KiB is not served")),
                 qPrintable(lines[QStringLiteral("big")].last()));
        QCOMPARE(lines[QStringLiteral("small")], QStringList{QStringLiteral("warming up")});
        QCOMPARE(streams[QStringLiteral("small")], QStringList{QStringLiteral("stderr")});
    }

    void phaseMarksReachTheWatcher()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("p.json"));
        QStringList args = measureArgs(out, {QStringLiteral("--serve"), QStringLiteral("127.0.0.1:0")});
        args << QStringLiteral("--phases") << QStringLiteral("parse:40:5,infer:60:5");  // the child's
        Cli cli(args);
        static const QRegularExpression re(QStringLiteral("measure: serving on 127\\.0\\.0\\.1:(\\d+) token ([0-9a-f]{32})\n"));
        QTRY_VERIFY_WITH_TIMEOUT(re.match(QString::fromUtf8(cli.err)).hasMatch(), 15000);
        const auto m = re.match(QString::fromUtf8(cli.err));
        jb::RemoteSource remote;
        QSignalSpy marks(&remote, &jb::RunSource::phaseMarked);
        QSignalSpy finished(&remote, &jb::RunSource::finished);
        remote.connectTo(QStringLiteral("127.0.0.1"), quint16(m.captured(1).toUInt()), m.captured(2).toStdString());
        QVERIFY(finished.wait(30000));
        QVERIFY2(cli.p.state() == QProcess::NotRunning || cli.p.waitForFinished(15000), cli.err.constData());
        QCOMPARE(cli.p.exitCode(), 0);
        auto rec = jb::loadRecord(out.toStdString());
        QVERIFY2(rec, rec ? "" : rec.error().c_str());
        QVERIFY(rec->hasPhases());
        std::vector<std::pair<int, jb::MarkSpan>> all;
        for (std::size_t i = 0; i < rec->rounds.size(); ++i)
            for (const jb::MarkSpan& s : rec->rounds[i].marks)
                all.emplace_back(int(i), s);
        QCOMPARE(all.size(), std::size_t(8));  // 4 rounds, 2 phases each
        QCOMPARE(marks.count(), int(all.size()));
        for (std::size_t i = 0; i < all.size(); ++i) {
            QCOMPARE(marks.at(int(i)).at(0).toInt(), all[i].first);
            QCOMPARE(marks.at(int(i)).at(1).toString().toStdString(), all[i].second.name);
            QCOMPARE(marks.at(int(i)).at(2).toLongLong(), qint64(all[i].second.t0_ns));
        }
    }

    void servedRunWatchedMidRun()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r.json"));
        Cli cli(measureArgs(out, {QStringLiteral("--serve"), QStringLiteral("127.0.0.1:0")}));
        static const QRegularExpression re(QStringLiteral("measure: serving on 127\\.0\\.0\\.1:(\\d+) token ([0-9a-f]{32})\n"));
        QTRY_VERIFY_WITH_TIMEOUT(re.match(QString::fromUtf8(cli.err)).hasMatch(), 15000);
        const auto m = re.match(QString::fromUtf8(cli.err));
        const quint16 port = quint16(m.captured(1).toUInt());
        const std::string token = m.captured(2).toStdString();

        // A wrong token: closed, and not a byte sent.
        QTcpSocket wrong;
        wrong.connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(wrong.waitForConnected(5000));
        wrong.write(hello("0123456789abcdef0123456789abcdef"));
        QSignalSpy wrongGone(&wrong, &QTcpSocket::disconnected);
        QVERIFY(wrongGone.wait(5000));
        QCOMPARE(wrong.readAll(), QByteArray());
        QTRY_VERIFY_WITH_TIMEOUT(cli.err.contains("refused a watcher from 127.0.0.1"), 5000);
        // /metrics without the token: 401, no figure.
        const QByteArray denied = httpGet(port, "/metrics?token=nope");
        QVERIFY2(denied.startsWith("HTTP/1.1 401"), denied.constData());
        QVERIFY(!denied.contains("joulebench_"));

        // A client that stops reading (a tiny read buffer: the kernel's buffers fill, then the
        // server's bound), and one that will be killed.
        QTcpSocket stalled;
        stalled.setReadBufferSize(64);
        stalled.connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(stalled.waitForConnected(5000));
        stalled.write(hello(token));
        auto killed = std::make_unique<QTcpSocket>();
        killed->connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(killed->waitForConnected(5000));
        killed->write(hello(token));
        QVERIFY(killed->waitForReadyRead(5000));
        QVERIFY(killed->readLine().contains("\"type\":\"hello\""));

        // Mid-run: after the first round.
        QTRY_VERIFY_WITH_TIMEOUT(cli.roundsPrinted() >= 1, 20000);
        QVERIFY(cli.p.state() == QProcess::Running);
        killed->abort();
        killed.reset();

        jb::RemoteSource remote;
        QSignalSpy connected(&remote, &jb::RemoteSource::connected);
        QSignalSpy started(&remote, &jb::RunSource::started);
        QSignalSpy phases(&remote, &jb::RunSource::phase);
        QSignalSpy rounds(&remote, &jb::RunSource::roundFinished);
        QSignalSpy finished(&remote, &jb::RunSource::finished);
        QSignalSpy lost(&remote, &jb::RemoteSource::lost);
        remote.connectTo(QStringLiteral("127.0.0.1"), port, token);
        QVERIFY(connected.wait(5000));
        QCOMPARE(connected.at(0).at(0).toString(), QStringLiteral("measure"));
        QTRY_VERIFY_WITH_TIMEOUT(rounds.count() >= 1, 5000);  // the run so far
        QCOMPARE(started.count(), 1);
        // The first idle bracket came before the watcher: it is in the history.
        QVERIFY(phases.count() >= 2);
        QCOMPARE(phases.at(0).at(0).value<jb::PhaseEvent>().kind, jb::PhaseEvent::IdleStarted);
        QCOMPARE(phases.at(0).at(0).value<jb::PhaseEvent>().round, -1);
        QCOMPARE(remote.layout().rounds, 4);
        QCOMPARE(remote.layout().k, 1);
        QVERIFY(remote.running());

        // Scraped mid-run.
        const QByteArray scrape = httpGet(port, "/metrics", "Authorization: Bearer " + QByteArray::fromStdString(token) + "\r\n");
        QVERIFY2(scrape.startsWith("HTTP/1.1 200"), scrape.constData());
        QVERIFY(scrape.contains("Content-Type: text/plain; version=0.0.4"));
        const PromParse prom = parseProm(scrape.mid(scrape.indexOf("\r\n\r\n") + 4));
        QVERIFY2(prom.error.isEmpty(), qPrintable(prom.error));
        QCOMPARE(prom.types.at("joulebench_power_watts"), std::string("gauge"));
        QCOMPARE(prom.types.at("joulebench_energy_joules_total"), std::string("counter"));
        QCOMPARE(prom.types.at("joulebench_round_verdicts_total"), std::string("counter"));
        QCOMPARE(prom.value("joulebench_run_running", {{"kind", "measure"}}), 1.0);
        QVERIFY(prom.value("joulebench_power_watts", {{"counter", "sim"}}) > 0);
        QVERIFY(prom.value("joulebench_energy_joules_total", {{"counter", "sim"}}) > 0);
        const double done = prom.value("joulebench_rounds_total");
        QVERIFY(done >= 1 && done <= 4);
        double verdicts = 0;
        for (const PromSample& s : prom.samples)
            if (s.name == "joulebench_round_verdicts_total" && s.labels.at("counter") == "sim")
                verdicts += s.value;
        QCOMPARE(verdicts, done);
        QVERIFY(prom.value("joulebench_watchers") >= 2);  // the stalled one and this source

        // The rest, to the end: the record as the server wrote it.
        QVERIFY(finished.wait(30000));
        QVERIFY2(cli.p.state() == QProcess::NotRunning || cli.p.waitForFinished(15000), cli.err.constData());
        QCOMPARE(cli.p.exitCode(), 0);
        QVERIFY2(lost.isEmpty(), lost.isEmpty() ? "" : qPrintable(lost.at(0).at(0).toString()));
        auto rec = jb::loadRecord(out.toStdString());
        QVERIFY2(rec, rec ? "" : rec.error().c_str());
        QVERIFY(!rec->isAborted());
        QCOMPARE(int(rec->rounds.size()), 4);  // the killed client changed nothing
        QCOMPARE(remote.recordPaths(), std::vector<std::string>{out.toStdString()});
        QCOMPARE(rounds.count(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(remote.rounds()[std::size_t(i)].first, i);
            QCOMPARE(jb::roundToJson(remote.rounds()[std::size_t(i)].second).dump(),
                     jb::roundToJson(rec->rounds[std::size_t(i)]).dump());
        }
        QCOMPARE(jb::toJson(remote.records().front()).dump(), jb::toJson(*rec).dump());
        // Every sample, the ones before the watcher came too, in its store.
        const auto store = remote.storeOf("sim");
        QVERIFY(store);
        const std::vector<jb::Interval>* recorded = rec->samplesOf("sim");
        QVERIFY(recorded && !recorded->empty());
        QCOMPARE(store->all(), *recorded);
        QVERIFY(!remote.running());

        // The stalled client held the run back in nothing: the sampler's lateness stays that
        // of a run without a server (within noise: a shared machine).
        Cli plain(measureArgs(dir.filePath(QStringLiteral("plain.json")), {}));
        QVERIFY(plain.p.state() == QProcess::NotRunning || plain.p.waitForFinished(60000));
        QCOMPARE(plain.p.exitCode(), 0);
        auto base = jb::loadRecord(dir.filePath(QStringLiteral("plain.json")).toStdString());
        QVERIFY(base);
        QVERIFY(!rec->sampler.empty() && !base->sampler.empty());
        const auto& served = rec->sampler.begin()->second;
        const auto& unserved = base->sampler.begin()->second;
        qInfo("lateness p99: served %lld us, without a server %lld us",
              static_cast<long long>(served.lateness_p99_ns / 1000), static_cast<long long>(unserved.lateness_p99_ns / 1000));
        QVERIFY(served.lateness_p99_ns <= 3 * unserved.lateness_p99_ns + 10'000'000);
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
