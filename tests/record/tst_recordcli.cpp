// The record subcommands of joulebench-cli, run as a user would: verify, summary, compare,
// recover. Exit codes as documented in docs/RECORD.md; a broken or foreign file always gets
// a message naming it, never a crash.
#include "SyntheticRecord.h"
#include <jb/record/Compare.h>
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <iterator>

using namespace jb;

namespace {

const QString kCli = QStringLiteral(JB_BIN_DIR "/joulebench-cli");
const QString kFixture = QStringLiteral(JB_FIXTURES "/records/joulebench-rapl.json");
const QString kGolden = QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json");
const QString kBroken = QStringLiteral(JB_FIXTURES "/records/broken");

struct Run {
    int code = -1;
    bool crashed = true;
    QString out, err;
};

Run run(const QStringList& args, const QString& stdout_file = {})
{
    QProcess p;
    if (!stdout_file.isEmpty())
        p.setStandardOutputFile(stdout_file);
    p.start(kCli, args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000))
        return r;
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString write(const QTemporaryDir& dir, const QString& name, const std::string& text)
{
    const QString path = dir.filePath(name);
    std::ofstream(path.toStdString(), std::ios::binary) << text;
    return path;
}

}  // namespace

class TestRecordCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(QFile::exists(kCli), qPrintable(kCli + QStringLiteral(" is not built"))); }

    void verifyAgrees()
    {
        const Run r = run({QStringLiteral("verify"), kFixture});
        QVERIFY(!r.crashed);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.endsWith(QStringLiteral(
                     ": 3 counter round(s) in 3 round(s) recomputed, 81 figures compared: all agree\n")),
                 qPrintable(r.out));
    }

    void verifyFlagsATamperedFigure()
    {
        QTemporaryDir dir;
        Result<Record> rec = loadRecord(kFixture.toStdString());
        QVERIFY(rec.ok());
        rec->rounds[1].counters[0].second.busy->mean_w += 0.5;
        const QString path = write(dir, QStringLiteral("tampered.json"), dumpRecord(*rec));
        const Run r = run({QStringLiteral("verify"), path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.startsWith(QStringLiteral("$.rounds[1].rapl.busy.mean_w: stored ")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral(", recomputed ")));
        // The stored summary was written from the true figures; it still matches the rounds
        // (mean_w does not enter it), so one disagreement in all.
        QVERIFY2(r.out.endsWith(QStringLiteral("1 disagree\n")), qPrintable(r.out));
    }

    void verifyCannotVerifyAReferenceRecord()
    {
        const Run r = run({QStringLiteral("verify"), kGolden});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(
            r.err.contains(kGolden + QStringLiteral(" cannot be verified: the record holds no raw samples")),
            qPrintable(r.err));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("verify nothing")
            << QStringList{QStringLiteral("verify")} << QStringLiteral("takes one record file, got 0");
        QTest::newRow("verify missing")
            << QStringList{QStringLiteral("verify"), QStringLiteral("/nonexistent/r.json")}
            << QStringLiteral("cannot read /nonexistent/r.json: No such file or directory");
        QTest::newRow("summary nothing")
            << QStringList{QStringLiteral("summary")} << QStringLiteral("takes one or more record files");
        QTest::newRow("compare one") << QStringList{QStringLiteral("compare"), kFixture}
                                     << QStringLiteral("takes two record files, got 1");
        QTest::newRow("compare counter")
            << QStringList{QStringLiteral("compare"), kFixture, kGolden, QStringLiteral("--counter"),
                           QStringLiteral("nvml:0")}
            << kFixture + QStringLiteral(" has no figures for counter 'nvml:0' (it has: rapl)");
        QTest::newRow("compare resamples") << QStringList{QStringLiteral("compare"), kFixture, kGolden,
                                                          QStringLiteral("--resamples"), QStringLiteral("x")}
                                           << QStringLiteral("--resamples takes an integer");
        QTest::newRow("recover nothing")
            << QStringList{QStringLiteral("recover")} << QStringLiteral("takes one journal file, got 0");
        QTest::newRow("recover a record") << QStringList{QStringLiteral("recover"), kFixture}
                                          << kFixture + QStringLiteral(": not a JouleBench journal but a record: it "
                                                                       "needs no recovering");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = run(args);
        QVERIFY(!r.crashed);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    void everyBrokenFileIsNamedByEveryCommand()
    {
        const QStringList files = QDir(kBroken).entryList(
            {QStringLiteral("*.json"), QStringLiteral("*.txt"), QStringLiteral("*.bin")}, QDir::Files);
        QVERIFY(files.size() >= 30);
        for (const QString& f : files) {
            const QString path = kBroken + QLatin1Char('/') + f;
            const QList<QStringList> commands{{QStringLiteral("verify"), path},
                                              {QStringLiteral("summary"), path},
                                              {QStringLiteral("compare"), path, kFixture},
                                              {QStringLiteral("compare"), kFixture, path},
                                              {QStringLiteral("recover"), path}};
            for (const QStringList& args : commands) {
                const Run r = run(args);
                const QString what = args.join(QLatin1Char(' '));
                QVERIFY2(!r.crashed, qPrintable(what));
                QVERIFY2(r.code == 2, qPrintable(what + QStringLiteral(": exit %1").arg(r.code)));
                QVERIFY2(r.err.contains(path), qPrintable(what + QStringLiteral(": ") + r.err));
            }
        }
    }

    void summaryTable()
    {
        const Run r = run({QStringLiteral("summary"), kFixture, kGolden});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("file")));
        QVERIFY(lines[1].contains(QStringLiteral("synthetic")) && lines[1].contains(QStringLiteral("rapl")));
        QVERIFY(lines[2].contains(QStringLiteral("reference")));
        // With one bad file the others still print, and the exit code says something failed.
        const Run bad = run({QStringLiteral("summary"), kFixture, kBroken + QStringLiteral("/empty.json")});
        QCOMPARE(bad.code, 2);
        QCOMPARE(bad.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2);
        QVERIFY(bad.err.contains(QStringLiteral("empty.json: the file is empty")));
    }

    void compareTextAndJsonAgreeWithTheLibrary()
    {
        const Result<Record> a = loadRecord(kFixture.toStdString());
        const Result<Record> b = loadRecord(kGolden.toStdString());
        const Comparison c = compareRecords(*a, *b, "rapl", 2000, 5);
        const Run r = run({QStringLiteral("compare"), kFixture, kGolden, QStringLiteral("--json"),
                           QStringLiteral("--resamples"), QStringLiteral("2000"), QStringLiteral("--seed"),
                           QStringLiteral("5")});
        QCOMPARE(r.code, 0);
        const ojson j = ojson::parse(r.out.toStdString());
        QCOMPARE(j["counter"].get<std::string>(), std::string("rapl"));
        QCOMPARE(j["ratio"].get<double>(), *c.ratio);
        QCOMPARE(j["ci95"][0].get<double>(), *c.ci_low);
        QCOMPARE(j["ci95"][1].get<double>(), *c.ci_high);
        QCOMPARE(j["a"]["file"].get<std::string>(), kFixture.toStdString());
        QCOMPARE(j["b"]["rounds"].size(), std::size_t(3));
        const Run t = run({QStringLiteral("compare"), kFixture, kFixture});
        QCOMPARE(t.code, 0);
        QVERIFY2(
            t.out.contains(QStringLiteral("A/B ratio of median J per decode: 1, 95% bootstrap interval [")),
            qPrintable(t.out));
    }

    void recoverToStdoutAndToAFile()
    {
        QTemporaryDir dir;
        const std::string journal = dir.filePath(QStringLiteral("run.journal")).toStdString();
        const Record full = jbtest::syntheticRecord(3);
        {
            auto j = Journal::create(journal, full);
            QVERIFY(j.ok());
            QVERIFY((*j)->appendRound(full.rounds[0], {{"rapl", full.samples[0].second}}).ok());
            QVERIFY((*j)->appendRound(full.rounds[1], {}).ok());
        }
        std::ofstream(journal, std::ios::app) << "{\"index\":2,\"round\":{\"load_";  // torn
        const QString jq = QString::fromStdString(journal);

        const Run r = run({QStringLiteral("recover"), jq});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(QStringLiteral("recovered 2 round(s) from ") + jq), qPrintable(r.err));
        const Result<Record> rec = parseRecord(r.out.toStdString());
        QVERIFY2(rec.ok(), rec.ok() ? "" : rec.error().c_str());
        QCOMPARE(rec->rounds.size(), std::size_t(2));
        QCOMPARE(rec->status.value_or(""), std::string("aborted"));

        // Item 4 of issue 30: standard output that cannot take the record fails the command,
        // saying so, and the journal stays as it was.
        const std::string journalBytes = [&] {
            std::ifstream f(journal, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(f), {});
        }();
        const Run toFull = run({QStringLiteral("recover"), jq}, QStringLiteral("/dev/full"));
        QVERIFY(!toFull.crashed);
        QCOMPARE(toFull.code, 1);
        QVERIFY2(toFull.err.contains(QStringLiteral("cannot write the record to standard output: ")), qPrintable(toFull.err));
        QVERIFY2(toFull.err.contains(QStringLiteral("the journal ") + jq + QStringLiteral(" is left as it was")),
                 qPrintable(toFull.err));
        QVERIFY(!toFull.err.contains(QStringLiteral("recovered 2")));
        {
            std::ifstream f(journal, std::ios::binary);
            QCOMPARE(std::string(std::istreambuf_iterator<char>(f), {}), journalBytes);
        }

        const QString out = dir.filePath(QStringLiteral("recovered.json"));
        QCOMPARE(run({QStringLiteral("recover"), jq, QStringLiteral("--out"), out}).code, 0);
        const Result<Record> fromFile = loadRecord(out.toStdString());
        QVERIFY(fromFile.ok());
        QCOMPARE(dumpRecord(*fromFile), r.out.toStdString());
        const Run again = run({QStringLiteral("recover"), jq, QStringLiteral("--out"), out});
        QCOMPARE(again.code, 2);
        QVERIFY(again.err.contains(out + QStringLiteral(" exists; pass --force")));
        QCOMPARE(run({QStringLiteral("recover"), jq, QStringLiteral("--out"), out, QStringLiteral("--force")})
                     .code,
                 0);
        const Run noFolder = run(
            {QStringLiteral("recover"), jq, QStringLiteral("--out"), QStringLiteral("/nonexistent/r.json")});
        QCOMPARE(noFolder.code, 2);
        QVERIFY(noFolder.err.contains(
            QStringLiteral("cannot write /nonexistent/r.json: No such file or directory")));
    }
};

QTEST_GUILESS_MAIN(TestRecordCli)
#include "tst_recordcli.moc"
