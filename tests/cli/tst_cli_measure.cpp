// joulebench-cli measure as a user runs it: a drop-in for the reference harness.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "CliTestKit.h"

#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <set>

namespace {

using namespace jbclitest;

// Every key path of `ref`, with the JSON type found there ("rounds[]" stands for each round).
void keyPaths(const nlohmann::json& j, const std::string& path, std::map<std::string, std::string>& out)
{
    auto type = [](const nlohmann::json& v) -> std::string {
        if (v.is_number_integer())
            return "integer";
        if (v.is_number_float())
            return "float";
        return v.type_name();
    };
    out[path] = type(j);
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
            keyPaths(it.value(), path + "." + it.key(), out);
    else if (j.is_array() && !j.empty() && j.front().is_object())
        keyPaths(j.front(), path + "[]", out);
}

}  // namespace

class TestCliMeasure : public QObject {
    Q_OBJECT
private slots:
    void recordHasEveryKeyOfTheGoldenRecord()
    {
        QTemporaryDir dir;
        FakeZone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--label"), QStringLiteral("fz"), QStringLiteral("--rounds"),
                           QStringLiteral("2"), QStringLiteral("--k"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.5"), QStringLiteral("--sample-ms"), QStringLiteral("25"), QStringLiteral("--counter"),
                           QStringLiteral("rapl"), QStringLiteral("--rapl-zone"), z.zone, QStringLiteral("--meta"),
                           QStringLiteral("{\"codec\": \"demo\", \"quality\": 3}"), QStringLiteral("--"),
                           testBin("fakechild"), QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("2"),
                           QStringLiteral("--job-ms"), QStringLiteral("100"), QStringLiteral("--flag"), z.flag,
                           QStringLiteral("--busy-w"), QStringLiteral("15")});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto ours = nlohmann::json::parse(r.out.toStdString());
        QFile gf(QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json"));
        QVERIFY(gf.open(QIODevice::ReadOnly));
        const auto golden = nlohmann::json::parse(gf.readAll().toStdString());
        std::map<std::string, std::string> want, have;
        keyPaths(golden, "$", want);
        keyPaths(ours, "$", have);
        for (const auto& [path, type] : want) {
            QVERIFY2(have.count(path), ("missing key " + path).c_str());
            QVERIFY2(have[path] == type, (path + ": " + have[path] + " where the reference has " + type).c_str());
        }
        // The reference's keys come first and in its order.
        std::vector<std::string> ourKeys, goldenKeys;
        for (auto it = ours.begin(); it != ours.end(); ++it)
            ourKeys.push_back(it.key());
        const auto ordered = nlohmann::ordered_json::parse(r.out.toStdString());
        std::vector<std::string> orderedKeys;
        for (auto it = ordered.begin(); it != ordered.end(); ++it)
            orderedKeys.push_back(it.key());
        const std::vector<std::string> refOrder{"label", "meta", "rounds", "jobs", "k", "counters", "idle_s", "sample_s", "host", "child"};
        QVERIFY(orderedKeys.size() > refOrder.size());
        QVERIFY(std::equal(refOrder.begin(), refOrder.end(), orderedKeys.begin()));
        QCOMPARE(QString::fromStdString(ours["status"].get<std::string>()), QStringLiteral("complete"));

        // The reference's progress line, one per round.
        const QStringList lines = QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QRegularExpression line(QStringLiteral(
            R"(^fz round [12]/2: 2 decodes in \d+\.\d\d s, rapl marginal -?\d+\.\d\d J \((clean|relative-only|noisy|unusable|None)\)$)"));
        int matched = 0;
        for (const QString& l : lines)
            matched += line.match(l).hasMatch() ? 1 : 0;
        QVERIFY2(matched == 2, r.err.constData());
    }

    void usageErrorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString child = testBin("fakechild");
        QTest::newRow("no --") << QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("sim")}
                               << QStringLiteral("after '--'");
        QTest::newRow("bad meta") << QStringList{QStringLiteral("measure"), QStringLiteral("--meta"), QStringLiteral("{oops"),
                                                 QStringLiteral("--"), child}
                                  << QStringLiteral("--meta is not JSON");
        QTest::newRow("zero rounds") << QStringList{QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("0"),
                                                    QStringLiteral("--"), child}
                                     << QStringLiteral("--rounds must be at least 1");
        QTest::newRow("rounds not a number") << QStringList{QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("seven"),
                                                            QStringLiteral("--"), child}
                                             << QStringLiteral("--rounds takes an integer");
        QTest::newRow("unknown counter") << QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("watts"),
                                                        QStringLiteral("--"), child}
                                         << QStringLiteral("unknown counter");
        QTest::newRow("out folder missing") << QStringList{QStringLiteral("measure"), QStringLiteral("--out"),
                                                           QStringLiteral("/nonexistent-folder/r.json"), QStringLiteral("--"), child}
                                            << QStringLiteral("the folder /nonexistent-folder does not exist");
        QTest::newRow("negative idle-s") << QStringList{QStringLiteral("measure"), QStringLiteral("--idle-s"), QStringLiteral("-1"),
                                                        QStringLiteral("--counter"), QStringLiteral("sim"), QStringLiteral("--"), child}
                                         << QStringLiteral("--idle-s");
        QTest::newRow("negative idle-s, = form") << QStringList{QStringLiteral("measure"), QStringLiteral("--idle-s=-0.5"),
                                                                QStringLiteral("--"), child}
                                                 << QStringLiteral("--idle-s");
        QTest::newRow("negative idle-s, task only") << QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("task"),
                                                                   QStringLiteral("--idle-s"), QStringLiteral("-2"), QStringLiteral("--"), child}
                                                    << QStringLiteral("--idle-s");
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("measure"), QStringLiteral("--frobnicate"), QStringLiteral("--"), child}
                                      << QStringLiteral("frobnicate");
    }
    void usageErrorsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void sigtermWritesThePartialRecord()
    {
        QProcess p;
        p.start(bin("joulebench-cli"),
                {QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("100"), QStringLiteral("--idle-s"),
                 QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                 QStringLiteral("sim"), QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve"),
                 QStringLiteral("--jobs"), QStringLiteral("1"), QStringLiteral("--job-ms"), QStringLiteral("20")});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("round 2/100"), 30000);
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 1);
        const auto rec = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(QString::fromStdString(rec["status"].get<std::string>()), QStringLiteral("aborted"));
        QVERIFY(QString::fromStdString(rec["error"].get<std::string>()).contains(QStringLiteral("signal (SIGTERM)")));
        QVERIFY(rec["rounds"].size() >= 2);
    }

    // A folder that takes no file is refused before the first round (nothing was run, so
    // nothing is lost); a record that cannot be written later still goes to stdout.
    void unwritableOutIsRefusedBeforeTheRun()
    {
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                           QStringLiteral("sim"), QStringLiteral("--out"), QStringLiteral("/proc/joulebench-r.json"),
                           QStringLiteral("--journal"), QString(), QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve")});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("--out /proc/joulebench-r.json: cannot create files in /proc")),
                 r.err.constData());
        QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("nothing was run")));
        QVERIFY(!QString::fromUtf8(r.err).contains(QStringLiteral("round 1/1")));
    }

    void recordThatCannotBeWrittenGoesToStdout()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r.json"));
        // The record (tens of kB) outgrows the limit; the folder's probe file is empty.
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                           QStringLiteral("sim"), QStringLiteral("--samples"), QStringLiteral("--out"), out,
                           QStringLiteral("--journal"), QString(), QStringLiteral("--no-library"), QStringLiteral("--"),
                           testBin("fakechild"), QStringLiteral("serve")},
                          CliSetup{{}, {}, fileSizeLimit(2000)});
        QCOMPARE(r.code, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("could not write the record: cannot write ") + out),
                 r.err.constData());
        const auto rec = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(rec["rounds"].size(), std::size_t(1));
    }

    // Item 1 of issue 30: a journal that is there is not the run's: the run is refused and the
    // file is left as it was (it was deleted at the end of the run).
    void existingJournalIsRefusedAndKept()
    {
        QTemporaryDir dir;
        const QString journal = dir.filePath(QStringLiteral("n.txt"));
        QFile f(journal);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep\n");
        f.close();
        const QString out = dir.filePath(QStringLiteral("x.json"));
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                           QStringLiteral("sim"), QStringLiteral("--out"), out, QStringLiteral("--journal"), journal,
                           QStringLiteral("--no-library"), QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve")});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("the journal %1 exists").arg(journal)), r.err.constData());
        QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("'joulebench-cli recover %1'").arg(journal)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep\n"));
        QVERIFY(!QFile::exists(out));
    }

    // Item 4 of issue 30: standard output that loses the record (/dev/full) fails the run, and
    // the record is kept in a file the message names.
    void recordLostOnStdoutIsKeptInAFile()
    {
        QTemporaryDir dir;
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                           QStringLiteral("sim"), QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve")},
                          CliSetup{QStringLiteral("/dev/full"), dir.path(), {}});
        QCOMPARE(r.code, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(QStringLiteral("cannot write the record to standard output: ")), r.err.constData());
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("it was written to (\\S+\\.json)")).match(err);
        QVERIFY2(m.hasMatch(), r.err.constData());
        QVERIFY(m.captured(1).startsWith(dir.path()));
        QFile kept(m.captured(1));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        const auto rec = nlohmann::json::parse(kept.readAll().toStdString());
        QCOMPARE(rec["rounds"].size(), std::size_t(1));
    }

    // Item 3 of issue 30: several children whose --out-dir takes no file (an ordinary user, a
    // folder of root's) are refused before the first round.
    void unwritableOutDirIsRefusedBeforeTheFirstRound()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                      QFileDevice::ReadOther | QFileDevice::ExeOther |
                                                      QFileDevice::ReadGroup | QFileDevice::ExeGroup));
        const QString outDir = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(outDir));
        QVERIFY(QFile::setPermissions(outDir, QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                                  QFileDevice::ExeOther | QFileDevice::ReadGroup | QFileDevice::ExeGroup));
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                           QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                           QStringLiteral("sim"), QStringLiteral("--out-dir"), outDir, QStringLiteral("--no-library"),
                           QStringLiteral("--name"), QStringLiteral("a"), QStringLiteral("--name"), QStringLiteral("b"),
                           QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve"), QStringLiteral(":::"),
                           testBin("fakechild"), QStringLiteral("serve")},
                          CliSetup{{}, {}, asOrdinaryUser});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("--out-dir: cannot create files in %1: Permission denied").arg(outDir)),
                 r.err.constData());
        QVERIFY(!QString::fromUtf8(r.err).contains(QStringLiteral("round")));
        QVERIFY(QDir(outDir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
    }

    void sigkillThenRecoverKeepsFinishedRounds()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run.json"));
        QProcess p;
        p.start(bin("joulebench-cli"),
                {QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("100"), QStringLiteral("--idle-s"),
                 QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                 QStringLiteral("sim"), QStringLiteral("--out"), out, QStringLiteral("--"), testBin("fakechild"),
                 QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("1"), QStringLiteral("--job-ms"),
                 QStringLiteral("20")});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("round 3/100"), 30000);
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(5000));
        QVERIFY(!QFile::exists(out));
        const QString journal = out + QStringLiteral(".journal");
        QVERIFY(QFile::exists(journal));
        // Item 1 of issue 30: the same measure again is refused and leaves the journal to recover.
        QFile jf(journal);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QByteArray before = jf.readAll();
        jf.close();
        const Run again = cli({QStringLiteral("measure"), QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--idle-s"),
                               QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"), QStringLiteral("--counter"),
                               QStringLiteral("sim"), QStringLiteral("--out"), out, QStringLiteral("--no-library"),
                               QStringLiteral("--"), testBin("fakechild"), QStringLiteral("serve")});
        QCOMPARE(again.code, 2);
        QVERIFY2(QString::fromUtf8(again.err).contains(QStringLiteral("'joulebench-cli recover %1'").arg(journal)),
                 again.err.constData());
        QVERIFY(jf.open(QIODevice::ReadOnly));
        QCOMPARE(jf.readAll(), before);
        jf.close();
        QVERIFY(!QFile::exists(out));
        const Run r = cli({QStringLiteral("recover"), journal});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto rec = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(rec["status"].get<std::string>()), QStringLiteral("aborted"));
        QVERIFY(rec["rounds"].size() >= 3);
        QVERIFY(rec.contains("samples"));
    }
};

QTEST_GUILESS_MAIN(TestCliMeasure)
#include "tst_cli_measure.moc"
