// The exec shim's logic (child/ExecServer): any command as a protocol child, fed from a string.
// `go k` runs the command k times; its output never reaches the protocol; a failing or missing
// command fails the batch naming it; markers from JOULEBENCH_MARK_FILE are forwarded only with
// the opt-in, and the FIFO is gone afterwards.
#include <jb/child/ExecServer.h>
#include <jb/child/Protocol.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

struct Served {
    int code = -1;
    std::vector<std::string> out;
    std::string err;
};

Served serve(std::vector<std::string> command, bool marks, const std::string& input)
{
    jb::ExecOptions o;
    o.command = std::move(command);
    o.marks = marks;
    std::istringstream in(input);
    std::ostringstream out, err;
    Served s;
    s.code = jb::serveExec(o, in, out, err);
    s.out = lines(out.str());
    s.err = err.str();
    return s;
}

std::vector<std::string> sh(const std::string& script) { return {"sh", "-c", script}; }

int countLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    return int(f.readAll().count('\n'));
}

}  // namespace

class TestExecServer : public QObject {
    Q_OBJECT

private slots:
    void markLines()
    {
        QVERIFY(jb::validMarkName("decode/png"));
        QVERIFY(jb::validMarkName("-"));
        QVERIFY(jb::validMarkName(std::string(64, 'a')));
        QVERIFY(!jb::validMarkName(std::string(65, 'a')));
        QVERIFY(!jb::validMarkName(""));
        QVERIFY(!jb::validMarkName("a b"));
        QVERIFY(!jb::validMarkName("na\xc3\xafve"));
        QCOMPARE(*jb::parseMarkLine("mark train/forward\r"), std::string("mark train/forward"));
        QCOMPARE(*jb::parseMarkLine("mark -"), std::string("mark -"));
        for (const char* bad : {"mark", "mark ", "marks a", "mark a b", "done 1 2", "hello"}) {
            const auto r = jb::parseMarkLine(bad);
            QVERIFY2(!r.ok(), bad);
            QVERIFY2(r.error().find("expected 'mark NAME'") != std::string::npos, r.error().c_str());
        }
    }

    void runsTheCommandKTimesAndAnswersDone()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString log = dir.filePath(QStringLiteral("runs"));
        // Its stdout and stderr go to the shim's stderr: only protocol lines come out.
        const Served s = serve(sh("echo run >> '" + log.toStdString() + "'; echo noise; echo more >&2"), false,
                               "go 3\ngo 0\ngo 1\nexit\n");
        QCOMPARE(s.code, 0);
        QCOMPARE(countLines(log), 4);
        QCOMPARE(s.out.size(), std::size_t(4));
        QCOMPARE(jb::parseReady(s.out[0])->jobs, std::int64_t(1));
        const std::vector<std::int64_t> decodes{3, 0, 1};
        for (std::size_t i = 0; i < decodes.size(); ++i) {
            const auto d = jb::parseDone(s.out[i + 1]);
            QVERIFY2(d.ok(), s.out[i + 1].c_str());
            QCOMPARE(d->decodes, decodes[i]);
            QVERIFY(d->wall_ns >= 0);
            QCOMPARE(d->note.value_or(""), std::string("exec=1"));
        }
    }

    void withoutTheOptInTheCommandGetsNoMarkFile()
    {
        qputenv("JOULEBENCH_MARK_FILE", "/nonexistent/stale");
        const Served s = serve(sh("test -z \"$JOULEBENCH_MARK_FILE\" && test -z \"$JOULEBENCH_MARKS\""), false,
                               "go 1\n");
        qunsetenv("JOULEBENCH_MARK_FILE");
        QCOMPARE(s.code, 0);
        QCOMPARE(s.out.size(), std::size_t(2));
        QVERIFY(s.out[1].rfind("done 1 ", 0) == 0);
    }

    void aFailingCommandFailsTheBatch()
    {
        const Served s = serve(sh("exit 3"), false, "go 2\ngo 1\n");
        QCOMPARE(s.code, 5);
        QCOMPARE(s.out.size(), std::size_t(1));  // ready, then nothing: the batch failed
        QVERIFY2(s.err.find("'sh -c exit 3' exited with status 3") != std::string::npos, s.err.c_str());

        const Served killed = serve(sh("kill -9 $$"), false, "go 1\n");
        QCOMPARE(killed.code, 5);
        QVERIFY2(killed.err.find("killed by signal 9") != std::string::npos, killed.err.c_str());
    }

    void aMissingCommandIsNamedBeforeReady()
    {
        const Served s = serve({"joulebench-no-such-command-34b"}, false, "go 1\n");
        QCOMPARE(s.code, 2);
        QVERIFY(s.out.empty());
        QVERIFY2(s.err.find("'joulebench-no-such-command-34b' is not on PATH") != std::string::npos, s.err.c_str());
        const Served f = serve({"/nonexistent/prog"}, false, "go 1\n");
        QCOMPARE(f.code, 2);
        QVERIFY2(f.err.find("not an executable file") != std::string::npos, f.err.c_str());
    }

    void forwardsMarkersWithTheOptInAndRemovesTheFifo()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString seen = dir.filePath(QStringLiteral("fifo"));
        const Served s = serve(sh("echo \"$JOULEBENCH_MARK_FILE\" > '" + seen.toStdString() +
                                  "'; test -p \"$JOULEBENCH_MARK_FILE\" || exit 7; test -z \"$JOULEBENCH_MARKS\" || exit 8;"
                                  " echo 'mark load' > \"$JOULEBENCH_MARK_FILE\";"
                                  " printf 'mark run/a\\nmark -\\n' > \"$JOULEBENCH_MARK_FILE\""),
                               true, "go 2\nexit\n");
        QCOMPARE(s.code, 0);
        const std::vector<std::string> expected{"mark load", "mark run/a", "mark -", "mark load", "mark run/a", "mark -"};
        QCOMPARE(s.out.size(), expected.size() + 2);
        QVERIFY(s.out[0] == "ready 1");
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(s.out[i + 1], expected[i]);
        QVERIFY(s.out.back().rfind("done 2 ", 0) == 0);
        QFile f(seen);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString fifo = QString::fromUtf8(f.readAll()).trimmed();
        QVERIFY(!fifo.isEmpty());
        QVERIFY2(!QFile::exists(fifo), qPrintable(fifo));
    }

    void aBadMarkerFailsTheBatchNamingIt()
    {
        const Served s = serve(sh("echo 'mark two words' > \"$JOULEBENCH_MARK_FILE\""), true, "go 1\n");
        QCOMPARE(s.code, 5);
        QVERIFY2(s.err.find("JOULEBENCH_MARK_FILE: expected 'mark NAME'") != std::string::npos, s.err.c_str());
        QVERIFY2(s.err.find("'mark two words'") != std::string::npos, s.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExecServer)
#include "tst_execserver.moc"
