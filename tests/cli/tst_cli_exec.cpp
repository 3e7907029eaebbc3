// measure --exec: any command measured as a protocol child is, through the exec shim
// (joulebench-exec): the demo decoder's one-shot mode and a shell command give records of the
// protocol child's shape (plus "exec"); interleaved --exec children are compared; a failing
// command ends the run with a clear error and the rounds measured so far are saved.
#include "CliTestKit.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

using namespace jbclitest;
using json = nlohmann::json;

namespace {

QStringList quick(const QString& rounds)
{
    return {QStringLiteral("measure"), QStringLiteral("--rounds"), rounds, QStringLiteral("--k"), QStringLiteral("2"),
            QStringLiteral("--idle-s"), QStringLiteral("0.2"), QStringLiteral("--sample-ms"), QStringLiteral("20"),
            QStringLiteral("--counter"), QStringLiteral("sim"), QStringLiteral("--no-library")};
}

json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return json();
    return json::parse(f.readAll().toStdString(), nullptr, false);
}

std::set<std::string> keys(const json& o)
{
    std::set<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it)
        k.insert(it.key());
    return k;
}

std::string joined(const std::set<std::string>& s)
{
    std::string t;
    for (const std::string& k : s)
        t += k + " ";
    return t;
}

}  // namespace

class TestCliExec : public QObject {
    Q_OBJECT

private slots:
    // A crashed --exec run: its journal's header carries "exec", so the recovered record says
    // which command it measured, as the finished one would.
    void recoveredExecRecordKeepsExec()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("x.json"));
        QProcess p;
        p.start(bin("joulebench-cli"), quick(QStringLiteral("100")) << QStringLiteral("--exec") << QStringLiteral("--out")
                                                                     << out << QStringLiteral("--") << QStringLiteral("true"));
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("round 2/100"), 30000);
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(5000));
        const QString journal = out + QStringLiteral(".journal");
        QVERIFY(QFile::exists(journal));
        const Run r = cli({QStringLiteral("recover"), journal});
        QVERIFY2(r.code == 0, r.err.constData());
        const json rec = json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY(rec.is_object());
        QCOMPARE(rec["status"], json("aborted"));
        QVERIFY(rec["rounds"].size() >= 2);
        QVERIFY2(rec.contains("exec"), r.out.left(400).constData());
        QCOMPARE(rec["exec"]["command"], json::array({"true"}));
        QCOMPARE(rec["exec"]["startup_in_decode"], json(true));
        QVERIFY(QString::fromStdString(rec["exec"]["shim"].get<std::string>()).endsWith(QStringLiteral("/joulebench-exec")));
    }

    void oneShotDecoderRecordHasTheProtocolChildsShape()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString protocol = dir.filePath(QStringLiteral("p.json")), exec = dir.filePath(QStringLiteral("e.json"));
        const QString demo = bin("joulebench-demo-decoder");
        const QStringList small{QStringLiteral("--jobs"), QStringLiteral("1"), QStringLiteral("--size"), QStringLiteral("64x64")};
        const Run p = cli(quick(QStringLiteral("2")) + QStringList{QStringLiteral("--out"), protocol, QStringLiteral("--")} +
                          QStringList{demo, QStringLiteral("serve")} + small);
        QVERIFY2(p.code == 0, p.err.constData());
        const Run e = cli(quick(QStringLiteral("2")) + QStringList{QStringLiteral("--exec"), QStringLiteral("--out"), exec,
                                                                   QStringLiteral("--")} +
                          QStringList{demo, QStringLiteral("once")} + small);
        QVERIFY2(e.code == 0, e.err.constData());
        const json pr = readJson(protocol), er = readJson(exec);
        QVERIFY(pr.is_object() && er.is_object());
        // The protocol child's record is as before: no "exec".
        QVERIFY(!pr.contains("exec"));
        std::set<std::string> expected = keys(pr);
        expected.insert("exec");
        QVERIFY2(keys(er) == expected, (joined(keys(er)) + "vs " + joined(expected)).c_str());
        QCOMPARE(er["status"], json("complete"));
        QCOMPARE(er["rounds"].size(), pr["rounds"].size());
        for (std::size_t i = 0; i < er["rounds"].size(); ++i) {
            QVERIFY(keys(er["rounds"][i]) == keys(pr["rounds"][i]));
            QCOMPARE(er["rounds"][i]["decodes"].get<int>(), 2);  // once per decode, k = 2
            QCOMPARE(er["rounds"][i]["child_note"], json("exec=1"));
            QVERIFY(er["rounds"][i]["child_wall_ns"].get<std::int64_t>() > 0);
        }
        QCOMPARE(er["jobs"].get<int>(), 1);
        const json cmd = json::array({demo.toStdString(), "once", "--jobs", "1", "--size", "64x64"});
        QCOMPARE(er["exec"]["command"], cmd);
        QCOMPARE(er["exec"]["startup_in_decode"], json(true));
        const std::string shim = er["exec"]["shim"].get<std::string>();
        QVERIFY2(QString::fromStdString(shim).endsWith(QStringLiteral("/joulebench-exec")), shim.c_str());
        // The child as launched: the shim, then the command.
        json launched = json::array({shim, "--"});
        for (const auto& a : cmd)
            launched.push_back(a);
        QCOMPARE(er["child"], launched);
    }

    void shellCommand()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s.json")), log = dir.filePath(QStringLiteral("runs"));
        const Run r = cli(quick(QStringLiteral("2")) +
                          QStringList{QStringLiteral("--exec"), QStringLiteral("--out"), out, QStringLiteral("--"),
                                      QStringLiteral("sh"), QStringLiteral("-c"),
                                      QStringLiteral("echo run >> '%1'; echo 'noise on stdout'").arg(log)});
        QVERIFY2(r.code == 0, r.err.constData());
        const json rec = readJson(out);
        QCOMPARE(rec["status"], json("complete"));
        QCOMPARE(rec["rounds"].size(), std::size_t(2));
        QCOMPARE(rec["exec"]["command"][0], json("sh"));
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 4);  // 2 rounds of k = 2
        QVERIFY(r.err.contains("noise on stdout"));  // the command's output is passed to stderr
    }

    void interleavedExecChildrenAreCompared()
    {
        QTemporaryDir dir;
        const QString outDir = dir.filePath(QStringLiteral("set"));
        const Run r = cli(quick(QStringLiteral("2")) +
                          QStringList{QStringLiteral("--exec"), QStringLiteral("--out-dir"), outDir, QStringLiteral("--name"),
                                      QStringLiteral("fast"), QStringLiteral("--name"), QStringLiteral("slow"),
                                      QStringLiteral("--"), QStringLiteral("true"), QStringLiteral(":::"), QStringLiteral("sh"),
                                      QStringLiteral("-c"), QStringLiteral("sleep 0.03")});
        QVERIFY2(r.code == 0, r.err.constData());
        const json cmp = readJson(outDir + QStringLiteral("/comparison.json"));
        QVERIFY2(cmp.is_object(), r.err.constData());
        int records = 0;
        for (const QString& f : QDir(outDir).entryList({QStringLiteral("*.json")})) {
            if (f == QStringLiteral("comparison.json"))
                continue;
            const json rec = readJson(outDir + QLatin1Char('/') + f);
            QVERIFY2(rec.contains("exec"), f.toUtf8().constData());
            const std::string first = rec["exec"]["command"][0].get<std::string>();
            QVERIFY(first == "true" || first == "sh");
            QCOMPARE(rec["child"][1], json("--"));
            ++records;
        }
        QCOMPARE(records, 2);
    }

    void aFailingCommandEndsTheRunAndKeepsItsRounds()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("f.json")), count = dir.filePath(QStringLiteral("n"));
        // Succeeds four times (rounds 1 and 2 at k = 2), then exits 3.
        const QString script = QStringLiteral("n=$(cat '%1' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '%1'; "
                                              "[ $n -le 4 ] || exit 3")
                                       .arg(count);
        const Run r = cli(quick(QStringLiteral("5")) + QStringList{QStringLiteral("--exec"), QStringLiteral("--out"), out,
                                                                   QStringLiteral("--"), QStringLiteral("sh"),
                                                                   QStringLiteral("-c"), script});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("exited with status 3"), r.err.constData());
        const json rec = readJson(out);
        QCOMPARE(rec["status"], json("aborted"));
        QCOMPARE(rec["rounds"].size(), std::size_t(2));
        QVERIFY(rec.contains("exec"));
    }

    void aMissingCommandIsNamed()
    {
        const Run r = cli(quick(QStringLiteral("1")) + QStringList{QStringLiteral("--exec"), QStringLiteral("--"),
                                                                   QStringLiteral("joulebench-no-such-command-34b")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("'joulebench-no-such-command-34b' is not on PATH"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliExec)
#include "tst_cli_exec.moc"
