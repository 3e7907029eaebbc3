// The child helpers users include: the Python module (python/joulebench_child.py, run by the
// machine's python3) and the C++ header (include/joulebench/child.hpp, through tests/child/
// headerchild), and the demo decoder built on the header. Under the reference harness's
// protocol (no JOULEBENCH_MARKS) they send `ready` and `done` lines only; with JOULEBENCH_MARKS=1
// their markers come between `go` and `done`; outside a protocol child, with
// JOULEBENCH_MARK_FILE, the markers land in that file; and through the exec shim they come back
// as the shim's markers.
#include "../NeedTool.h"

#include <jb/child/ExecServer.h>
#include <jb/child/Protocol.h>

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kPython = QStringLiteral(JB_SOURCE_DIR "/python");
const QString kHeaderChild = QStringLiteral(JB_TEST_BIN_DIR "/headerchild");
const QString kDemo = QStringLiteral(JB_BIN_DIR "/joulebench-demo-decoder");
const QString kExec = QStringLiteral(JB_BIN_DIR "/joulebench-exec");

struct Ran {
    int code = -1;
    QStringList out;
    QString err;
};

// The program run with `input` on its stdin, in an environment without JouleBench's variables
// but those given.
Ran run(const QString& program, const QStringList& args, const QByteArray& input,
        const QList<QPair<QString, QString>>& env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("JOULEBENCH_MARKS"));
    e.remove(QStringLiteral("JOULEBENCH_MARK_FILE"));
    for (const auto& [k, v] : env)
        e.insert(k, v);
    p.setProcessEnvironment(e);
    p.start(program, args);
    Ran r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("did not start");
        return r;
    }
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// A Python child: the module imported from the source tree.
QStringList python(const QString& code)
{
    return {QStringLiteral("-c"), QStringLiteral("import sys; sys.path.insert(0, '%1')\n").arg(kPython) + code};
}

const QString kPyServe = QStringLiteral(
    "from joulebench_child import serve, phase\n"
    "def work(k):\n"
    "    for _ in range(2 * k):\n"
    "        with phase('load'):\n"
    "            print('chatter from the work')\n"
    "        with phase('work'):\n"
    "            with phase('inner'):\n"
    "                sum(range(1000))\n"
    "    return (2 * k, 'helper=py')\n"
    "sys.exit(serve(work, jobs=2))\n");
const QString kPyPlain = QStringLiteral(
    "from joulebench_child import phase\n"
    "with phase('load'):\n"
    "    pass\n"
    "with phase('work'):\n"
    "    with phase('inner'):\n"
    "        pass\n");

// The markers of one pass (see headerchild and kPyServe): load, then work with inner nested.
const QStringList kPass{QStringLiteral("mark load"), QStringLiteral("mark -"), QStringLiteral("mark work"),
                        QStringLiteral("mark work/inner"), QStringLiteral("mark work"), QStringLiteral("mark -")};

// Exactly what the reference harness expects: `ready 2`, then one `done` per `go`, nothing else.
void checkPlainProtocol(const Ran& r, const QString& note)
{
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out.size(), 3);
    QCOMPARE(jb::parseReady(r.out[0].toStdString())->jobs, std::int64_t(2));
    for (int i = 1; i < 3; ++i) {
        const auto d = jb::parseDone(r.out[i].toStdString());
        QVERIFY2(d.ok(), qPrintable(r.out[i]));
        QCOMPARE(d->decodes, std::int64_t(i == 1 ? 2 : 4));
        QCOMPARE(QString::fromStdString(d->note.value_or("")), note);
    }
}

// With the opt-in: go 1 gives two passes of markers, then done.
void checkMarkedProtocol(const Ran& r)
{
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QStringList expected{QStringLiteral("ready 2")};
    expected << kPass << kPass;
    QCOMPARE(r.out.mid(0, expected.size()), expected);
    QCOMPARE(r.out.size(), expected.size() + 1);
    QVERIFY2(r.out.last().startsWith(QStringLiteral("done 2 ")), qPrintable(r.out.last()));
}

QStringList fileLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {QStringLiteral("(no file)")};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

const QList<QPair<QString, QString>> kMarks{{QStringLiteral("JOULEBENCH_MARKS"), QStringLiteral("1")}};

}  // namespace

class TestChildHelpers : public QObject {
    Q_OBJECT

private slots:
    void pythonUnderTheReferenceProtocolSendsNoMarkers()
    {
        JB_NEED_TOOL("/usr/bin/python3", "python3");
        const Ran r = run(QStringLiteral("/usr/bin/python3"), python(kPyServe), "go 1\ngo 2\nexit\n");
        checkPlainProtocol(r, QStringLiteral("helper=py"));
        QVERIFY(r.err.contains(QStringLiteral("chatter from the work")));  // print() went to stderr
    }
    void pythonWithTheOptInSendsMarkers()
    {
        JB_NEED_TOOL("/usr/bin/python3", "python3");
        checkMarkedProtocol(run(QStringLiteral("/usr/bin/python3"), python(kPyServe), "go 1\nexit\n", kMarks));
    }
    void pythonOutsideAChildWritesTheMarkFile()
    {
        JB_NEED_TOOL("/usr/bin/python3", "python3");
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("marks"));
        const Ran none = run(QStringLiteral("/usr/bin/python3"), python(kPyPlain), "");
        QCOMPARE(none.code, 0);
        QVERIFY(none.out.isEmpty());
        const Ran r = run(QStringLiteral("/usr/bin/python3"), python(kPyPlain), "", {{QStringLiteral("JOULEBENCH_MARK_FILE"), file}});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QCOMPARE(fileLines(file), kPass);
    }
    void pythonFailingWorkEndsTheChild()
    {
        JB_NEED_TOOL("/usr/bin/python3", "python3");
        const Ran r = run(QStringLiteral("/usr/bin/python3"),
                          python(QStringLiteral("from joulebench_child import serve\n"
                                                "def work(k):\n    raise RuntimeError('boom')\n"
                                                "sys.exit(serve(work))\n")),
                          "go 1\n");
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains(QStringLiteral("boom")));
        const Ran bad = run(QStringLiteral("/usr/bin/python3"), python(kPyServe), "go x\n");
        QCOMPARE(bad.code, 4);
        QVERIFY(bad.err.contains(QStringLiteral("expected 'go <k>'")));
    }

    void headerUnderTheReferenceProtocolSendsNoMarkers()
    {
        checkPlainProtocol(run(kHeaderChild, {QStringLiteral("serve")}, "go 1\ngo 2\nexit\n"), QStringLiteral("helper=cpp"));
    }
    void headerWithTheOptInSendsMarkers()
    {
        checkMarkedProtocol(run(kHeaderChild, {QStringLiteral("serve")}, "go 1\nexit\n", kMarks));
    }
    void headerOutsideAChildWritesTheMarkFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("marks"));
        const Ran none = run(kHeaderChild, {QStringLiteral("plain")}, "");
        QCOMPARE(none.code, 0);
        QVERIFY(none.out.isEmpty());
        QVERIFY(!QFile::exists(file));
        const Ran r = run(kHeaderChild, {QStringLiteral("plain")}, "", {{QStringLiteral("JOULEBENCH_MARK_FILE"), file}});
        QCOMPARE(r.code, 0);
        QCOMPARE(fileLines(file), kPass);
    }
    void headerFailingWorkAndBadLines()
    {
        const Ran r = run(kHeaderChild, {QStringLiteral("fail")}, "go 1\n");
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains(QStringLiteral("asked to fail")));
        const Ran bad = run(kHeaderChild, {QStringLiteral("serve")}, "go -1\n");
        QCOMPARE(bad.code, 4);
        QVERIFY(bad.err.contains(QStringLiteral("expected 'go <k>'")));
    }

    // Through the exec shim: the helpers' markers written to its FIFO come back on its stdout.
    void markersThroughTheExecShim()
    {
        const Ran r = run(kExec, {QStringLiteral("--"), kHeaderChild, QStringLiteral("plain")}, "go 2\nexit\n", kMarks);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList expected{QStringLiteral("ready 1")};
        expected << kPass << kPass;
        QCOMPARE(r.out.mid(0, expected.size()), expected);
        QCOMPARE(r.out.size(), expected.size() + 1);
        QVERIFY(r.out.last().startsWith(QStringLiteral("done 2 ")));
    }
    void pythonMarkersThroughTheExecShim()
    {
        JB_NEED_TOOL("/usr/bin/python3", "python3");
        QStringList args{QStringLiteral("--"), QStringLiteral("/usr/bin/python3")};
        args << python(kPyPlain);
        const Ran r = run(kExec, args, "go 1\nexit\n", kMarks);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList expected{QStringLiteral("ready 1")};
        expected << kPass;
        QCOMPARE(r.out.mid(0, expected.size()), expected);
        QVERIFY(r.out.last().startsWith(QStringLiteral("done 1 ")));
    }

    // The demo decoder, on the header: no markers under the reference protocol; with the
    // opt-in, its decode and checksum phases per image.
    void demoDecoderPhases()
    {
        const QStringList args{QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("2"), QStringLiteral("--size"),
                               QStringLiteral("32x32")};
        const Ran plain = run(kDemo, args, "go 1\ngo 2\nexit\n");
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        QCOMPARE(plain.out.size(), 3);
        QVERIFY(plain.out[1].startsWith(QStringLiteral("done 2 ")));
        QVERIFY(plain.out[2].startsWith(QStringLiteral("done 4 ")));
        const Ran marked = run(kDemo, args, "go 1\nexit\n", kMarks);
        QVERIFY2(marked.code == 0, qPrintable(marked.err));
        const QStringList perImage{QStringLiteral("mark decode/png"), QStringLiteral("mark -"), QStringLiteral("mark checksum"),
                                   QStringLiteral("mark -")};
        QStringList expected{QStringLiteral("ready 2")};
        expected << perImage << perImage;
        QCOMPARE(marked.out.mid(0, expected.size()), expected);
        QCOMPARE(marked.out.size(), expected.size() + 1);
        QVERIFY(marked.out.last().startsWith(QStringLiteral("done 2 ")));
        // Its one-shot mode through the exec shim: the same phases, through JOULEBENCH_MARK_FILE.
        const Ran once = run(kExec, QStringList{QStringLiteral("--"), kDemo, QStringLiteral("once")} + args.mid(1),
                             "go 1\nexit\n", kMarks);
        QVERIFY2(once.code == 0, qPrintable(once.err));
        expected[0] = QStringLiteral("ready 1");
        QCOMPARE(once.out.mid(0, expected.size()), expected);
        QVERIFY(once.out.last().startsWith(QStringLiteral("done 1 ")));
    }
};

QTEST_GUILESS_MAIN(TestChildHelpers)
#include "tst_childhelpers.moc"
