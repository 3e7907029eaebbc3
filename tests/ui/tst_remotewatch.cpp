// The Measure page watching a served run (issue 35): `joulebench-cli measure --serve
// 127.0.0.1:0` runs the fake decoder child on the sim counter; the page connects mid-run
// through core/remote's RemoteSource, shows the rounds, marks the run remote and ends with the
// record and the path the server wrote. A wrong token and a closed port give an error naming
// the address; the Connect dialog refuses what parseRemoteTarget refuses.
#include "chart/PowerChart.h"
#include "common/Banner.h"
#include "common/RecordView.h"
#include "common/RoundsModel.h"
#include "measure/ConnectDialog.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"
#include <jb/record/RecordJson.h>
#include <jb/remote/RemoteSource.h>
#include <jb/remote/RemoteTarget.h>

#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kFakeChild = QStringLiteral(JB_TEST_BIN_DIR "/fakechild");
const QString kCli = QStringLiteral(JB_BIN_DIR "/joulebench-cli");

// The CLI serving a 4-round run (~0.2 s busy, 0.3 s idle), its stderr gathered as it comes.
struct ServedRun {
    QProcess p;
    QByteArray err;
    quint16 port = 0;
    std::string token;
    // child_args: the fake child's arguments after `serve` (default: 2 jobs of 100 ms).
    explicit ServedRun(const QString& out, QStringList child_args = {})
    {
        if (child_args.isEmpty())
            child_args = {QStringLiteral("--jobs"), QStringLiteral("2"), QStringLiteral("--job-ms"), QStringLiteral("100")};
        QObject::connect(&p, &QProcess::readyReadStandardError, [this] { err += p.readAllStandardError(); });
        p.start(kCli, QStringList{QStringLiteral("measure"), QStringLiteral("--label"), QStringLiteral("watched"),
                       QStringLiteral("--rounds"), QStringLiteral("4"), QStringLiteral("--k"), QStringLiteral("1"),
                       QStringLiteral("--idle-s"), QStringLiteral("0.3"), QStringLiteral("--sample-ms"),
                       QStringLiteral("20"), QStringLiteral("--counter"), QStringLiteral("sim"),
                       QStringLiteral("--samples"), QStringLiteral("--out"), out, QStringLiteral("--journal"),
                       QString(), QStringLiteral("--no-library"), QStringLiteral("--serve"),
                       QStringLiteral("127.0.0.1:0"), QStringLiteral("--"), kFakeChild, QStringLiteral("serve")} +
                          child_args);
    }
    ~ServedRun()
    {
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished();
        }
    }
    // Waits for "serving on 127.0.0.1:PORT token TOKEN".
    bool announced()
    {
        static const QRegularExpression re(
            QStringLiteral("measure: serving on 127\\.0\\.0\\.1:(\\d+) token ([0-9a-f]{32})\n"));
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 15000) {
            const auto m = re.match(QString::fromUtf8(err));
            if (m.hasMatch()) {
                port = quint16(m.captured(1).toUInt());
                token = m.captured(2).toStdString();
                return true;
            }
            QTest::qWait(20);
        }
        return false;
    }
    QString where() const { return QStringLiteral("127.0.0.1:%1").arg(port); }
};

jb::RemoteTarget target(const QString& address, const std::string& token)
{
    auto t = jb::parseRemoteTarget(address.toStdString(), token);
    if (!t)
        qFatal("%s", t.error().c_str());
    return t.value();
}

}  // namespace

class TestRemoteWatch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_remotewatch"));
        QSettings().clear();
        QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli + QStringLiteral(" is not built")));
        QVERIFY2(QFileInfo(kFakeChild).isExecutable(), qPrintable(kFakeChild + QStringLiteral(" is not built")));
    }

    // A closed port: the banner names the address and says it cannot be reached.
    void aClosedPortIsAnError()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        jb::MeasurePage page;
        QSignalSpy watching(&page, &jb::MeasurePage::watchingChanged);
        QVERIFY(page.watchRemote(target(QStringLiteral("127.0.0.1:%1").arg(port), "abc")));
        QVERIFY(page.watching());
        QVERIFY(!page.form()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!page.watching(), 10000);
        QCOMPARE(page.banner()->tone(), jb::Tone::Error);
        QVERIFY2(page.banner()->message().contains(QStringLiteral("cannot reach 127.0.0.1:%1").arg(port)),
                 qPrintable(page.banner()->message()));
        QVERIFY(page.form()->isEnabled());
        QCOMPARE(watching.count(), 2);
    }

    // A wrong token: refused, the banner names the address; then the right one, mid-run: the
    // rounds, the remote marking, the controls off, and at the end the server's record.
    void watchesAServedRunMidRun()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("watched.json"));
        ServedRun run(out);
        QVERIFY2(run.announced(), run.err.constData());

        jb::MeasurePage page;
        page.resize(1200, 800);
        page.show();
        QVERIFY(page.watchRemote(target(run.where(), "0123456789abcdef0123456789abcdef")));
        QTRY_VERIFY_WITH_TIMEOUT(!page.watching(), 10000);
        QCOMPARE(page.banner()->tone(), jb::Tone::Error);
        QVERIFY2(page.banner()->message().contains(run.where()) && page.banner()->message().contains(QStringLiteral("refused")),
                 qPrintable(page.banner()->message()));
        QCOMPARE(page.view()->roundsModel()->rowCount(), 0);

        // Mid-run: after the first round.
        QTRY_VERIFY_WITH_TIMEOUT(run.err.contains(" round "), 20000);
        QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
        QVERIFY(page.watchRemote(target(run.where(), run.token)));
        QTRY_COMPARE_WITH_TIMEOUT(page.banner()->message(),
                                  QStringLiteral("Watching a run on %1 (remote)").arg(run.where()), 10000);
        QVERIFY(page.watching());
        QVERIFY(!page.form()->isEnabled());
        QVERIFY(page.disconnectButton()->isVisible());
        // The run so far arrives at once: the rounds already done are in the table.
        QTRY_VERIFY_WITH_TIMEOUT(page.view()->roundsModel()->rowCount() >= 1, 10000);
        QVERIFY(!page.openRecord(out));  // no record opened over a watched run

        QVERIFY2(finished.wait(30000), qPrintable(page.banner()->message()));
        QVERIFY(!page.watching());
        QVERIFY(page.form()->isEnabled());
        QVERIFY(!page.disconnectButton()->isVisible());
        QVERIFY2(run.p.state() == QProcess::NotRunning || run.p.waitForFinished(15000), run.err.constData());
        QCOMPARE(run.p.exitCode(), 0);

        // The record shown is the one the server wrote, and its path is named.
        auto saved = jb::loadRecord(out.toStdString());
        QVERIFY2(saved, saved ? "" : saved.error().c_str());
        QCOMPARE(page.view()->roundsModel()->rowCount(), int(saved->rounds.size()));
        QCOMPARE(int(saved->rounds.size()), 4);
        QCOMPARE(page.record().rounds.size(), saved->rounds.size());
        for (std::size_t i = 0; i < saved->rounds.size(); ++i)
            QCOMPARE(jb::roundToJson(page.record().rounds[i]).dump(), jb::roundToJson(saved->rounds[i]).dump());
        QCOMPARE(page.remoteRecordPath(), out);
        QVERIFY2(page.banner()->message().contains(out), qPrintable(page.banner()->message()));
        QVERIFY(page.banner()->message().contains(QStringLiteral("complete")));
        QVERIFY(page.hasRecord());
    }

    // A served run whose child marks phases: each mark reaches the watching page as it is sent
    // (remote format 1.1 phase-mark) and grows the chart's strips before its round ends (a
    // round's own message brings its marks too, so a strip of an unfinished round is the live
    // one); at the end the strips are the server's record's marks.
    void phaseMarksGrowStripsWhileWatching()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("phases.json"));
        ServedRun run(out, {QStringLiteral("--jobs"), QStringLiteral("1"), QStringLiteral("--phases"),
                            QStringLiteral("parse:60:5,infer:90:10")});
        QVERIFY2(run.announced(), run.err.constData());
        jb::MeasurePage page;
        page.resize(1200, 800);
        page.show();
        QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
        std::size_t most_live = 0;   // the most strips seen before the run ended
        bool ahead = false;          // a strip of a round not yet finished was seen (a live mark)
        QVERIFY(page.watchRemote(target(run.where(), run.token)));
        QElapsedTimer t;
        t.start();
        while (finished.isEmpty() && t.elapsed() < 30000) {
            const std::vector<jb::ChartPhase>& now = page.view()->chart()->phases();
            most_live = std::max(most_live, now.size());
            if (!now.empty() && now.back().round >= page.view()->roundsModel()->rowCount())
                ahead = true;
            QTest::qWait(10);
        }
        QVERIFY2(!finished.isEmpty(), qPrintable(page.banner()->message()));
        QVERIFY2(most_live >= 2, qPrintable(QString::number(most_live)));
        QVERIFY(ahead);
        auto saved = jb::loadRecord(out.toStdString());
        QVERIFY2(saved, saved ? "" : saved.error().c_str());
        std::size_t marks = 0;
        for (const jb::Round& r : saved->rounds)
            marks += r.marks.size();
        QCOMPARE(marks, std::size_t(8));  // 4 rounds x parse, infer
        const std::vector<jb::ChartPhase>& ph = page.view()->chart()->phases();
        QCOMPARE(ph.size(), marks);
        for (std::size_t i = 0; i < ph.size(); ++i) {
            QCOMPARE(ph[i].name.toStdString(), saved->rounds[std::size_t(ph[i].round)].marks[i % 2].name);
            QVERIFY(ph[i].t1_s && *ph[i].t1_s > ph[i].t0_s);
        }
    }

    void connectDialogChecksWhatIsTyped()
    {
        jb::ConnectDialog d;
        d.addressEdit()->setText(QStringLiteral("gpu-node:99999"));
        d.tokenEdit()->setText(QStringLiteral("abc"));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Rejected));
        QVERIFY(!d.errorLabel()->isHidden());
        QVERIFY2(d.errorLabel()->text().contains(QStringLiteral("99999")), qPrintable(d.errorLabel()->text()));
        d.addressEdit()->setText(QStringLiteral("gpu-node:8765"));
        d.tokenEdit()->clear();
        d.accept();
        QVERIFY2(d.errorLabel()->text().contains(QStringLiteral("token")), qPrintable(d.errorLabel()->text()));
        d.tokenEdit()->setText(QStringLiteral("  3f0c  "));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.target()->host, QStringLiteral("gpu-node"));
        QCOMPARE(d.target()->port, quint16(8765));
        QCOMPARE(d.target()->token, std::string("3f0c"));
    }
};

QTEST_MAIN(TestRemoteWatch)
#include "tst_remotewatch.moc"
