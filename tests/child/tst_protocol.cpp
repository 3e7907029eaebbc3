// The child's line protocol as pure functions.
#include <jb/child/Protocol.h>

#include <QtTest>

using namespace jb;

class TestProtocol : public QObject {
    Q_OBJECT
private slots:
    void ready_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("jobs");
        QTest::addColumn<QString>("error");
        QTest::newRow("plain") << "ready 4" << true << qint64(4) << "";
        QTest::newRow("extra words ignored") << "ready 8 warm" << true << qint64(8) << "";
        QTest::newRow("spaces and CR") << "  ready\t12 \r" << true << qint64(12) << "";
        QTest::newRow("plus sign, as Python's int()") << "ready +3" << true << qint64(3) << "";
        QTest::newRow("empty") << "" << false << qint64(0) << "empty line";
        QTest::newRow("other word") << "loading model" << false << qint64(0) << "'loading model' where 'ready <jobs>'";
        QTest::newRow("no number") << "ready" << false << qint64(0) << "needs the number of jobs";
        QTest::newRow("not a number") << "ready four" << false << qint64(0) << "not a non-negative integer";
        QTest::newRow("negative") << "ready -1" << false << qint64(0) << "not a non-negative integer";
        QTest::newRow("float") << "ready 1.5" << false << qint64(0) << "not a non-negative integer";
    }
    void mark_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("name");  // empty: `mark -`
        QTest::addColumn<QString>("error");
        QTest::newRow("plain") << "mark decode" << true << "decode" << "";
        QTest::newRow("nested, every allowed character") << "mark train/fwd_1.a:b+c-d" << true
                                                         << "train/fwd_1.a:b+c-d" << "";
        QTest::newRow("spaces and CR") << "  mark\tparse \r" << true << "parse" << "";
        QTest::newRow("end the phase") << "mark -" << true << "" << "";
        QTest::newRow("64 characters") << QString(QStringLiteral("mark ") + QString(64, QLatin1Char('x'))) << true << QString(64, QLatin1Char('x'))
                                       << "";
        QTest::newRow("65 characters") << QString(QStringLiteral("mark ") + QString(65, QLatin1Char('x'))) << false << ""
                                       << "longer than 64 characters";
        QTest::newRow("no name") << "mark" << false << "" << "'mark' needs a phase name";
        QTest::newRow("two words") << "mark a b" << false << "" << "'mark a b': 'mark' takes one phase name";
        QTest::newRow("bad character") << "mark a!b" << false << "" << "the phase name holds '!'";
        QTest::newRow("not a mark") << "done 1 2" << false << "" << "where 'mark <phase>' was expected";
    }
    void mark()
    {
        QFETCH(QString, line);
        QFETCH(bool, ok);
        QFETCH(QString, name);
        QFETCH(QString, error);
        const auto m = parseMark(line.toStdString());
        QCOMPARE(m.ok(), ok);
        if (ok) {
            QCOMPARE(isMarkLine(line.toStdString()), true);
            QCOMPARE(QString::fromStdString(m->name.value_or("")), name);
            QCOMPARE(m->name.has_value(), !name.isEmpty());
        } else {
            QVERIFY2(QString::fromStdString(m.error()).contains(error), m.error().c_str());
        }
    }
    void markLinesAreTold()
    {
        QVERIFY(isMarkLine("mark x"));
        QVERIFY(isMarkLine(" mark"));
        QVERIFY(!isMarkLine("marker x"));
        QVERIFY(!isMarkLine("done 4 100"));
        QVERIFY(!isMarkLine(""));
        QCOMPARE(std::string(kMarksEnv), std::string("JOULEBENCH_MARKS"));
    }
    void ready()
    {
        QFETCH(QString, line);
        QFETCH(bool, ok);
        QFETCH(qint64, jobs);
        QFETCH(QString, error);
        const auto r = parseReady(line.toStdString());
        QCOMPARE(r.ok(), ok);
        if (ok)
            QCOMPARE(r->jobs, jobs);
        else
            QVERIFY2(QString::fromStdString(r.error()).contains(error), r.error().c_str());
    }

    void done_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("decodes");
        QTest::addColumn<qint64>("wall");
        QTest::addColumn<QString>("note");
        QTest::newRow("plain") << "done 8 800243231" << true << qint64(8) << qint64(800243231) << "";
        QTest::newRow("note") << "done 8 800 truth_nj=12" << true << qint64(8) << qint64(800) << "truth_nj=12";
        QTest::newRow("note words joined by one space") << "done 1 2 a   b\tc" << true << qint64(1) << qint64(2) << "a b c";
        QTest::newRow("missing wall") << "done 8" << false << qint64(0) << qint64(0) << "needs <decodes> and <wall-ns>";
        QTest::newRow("garbage") << "oops 2" << false << qint64(0) << qint64(0) << "'oops 2'";
        QTest::newRow("bad decodes") << "done x 5" << false << qint64(0) << qint64(0) << "<decodes>";
        QTest::newRow("bad wall") << "done 5 1e9" << false << qint64(0) << qint64(0) << "<wall-ns>";
    }
    void done()
    {
        QFETCH(QString, line);
        QFETCH(bool, ok);
        QFETCH(qint64, decodes);
        QFETCH(qint64, wall);
        QFETCH(QString, note);
        const auto d = parseDone(line.toStdString());
        QCOMPARE(d.ok(), ok);
        if (ok) {
            QCOMPARE(d->decodes, decodes);
            QCOMPARE(d->wall_ns, wall);
            QCOMPARE(QString::fromStdString(d->note.value_or("")), note);
            QCOMPARE(d->note.has_value(), !note.isEmpty());
        } else {
            QVERIFY2(QString::fromStdString(d.error()).contains(note), d.error().c_str());
        }
    }

    void commands()
    {
        QCOMPARE(QString::fromStdString(formatGo(3)), QStringLiteral("go 3\n"));
        QCOMPARE(QString::fromStdString(formatExit()), QStringLiteral("exit\n"));
    }

    // done's note may say when the work ran; a word that is not whole says nothing.
    void ranStampsInTheNote()
    {
        QCOMPARE(QString::fromStdString(formatRan(12, 345)), QStringLiteral("ran=12,345"));
        const auto d = parseDone("done 6 1000 " + formatRan(12, 345) + " gpu=Fake_H200");
        QVERIFY(d);
        const auto r = ranStamps(*d);
        QVERIFY(r);
        QCOMPARE(r->start_ns, std::int64_t(12));
        QCOMPARE(r->end_ns, std::int64_t(345));
        for (const char* line : {"done 6 1000", "done 6 1000 gpu=x", "done 6 1000 ran=12", "done 6 1000 ran=12,x",
                                 "done 6 1000 ran=-1,4", "done 6 1000 ran=,4"}) {
            const auto e = parseDone(line);
            QVERIFY(e);
            QVERIFY2(!ranStamps(*e), line);
        }
    }

    void quoteEscapesAndShortens()
    {
        QCOMPARE(QString::fromStdString(quoteLine("a\x01z")), QStringLiteral("'a\\x01z'"));
        const std::string q = quoteLine(std::string(500, 'x'));
        QVERIFY(q.size() < 130);
        QVERIFY(q.find("...") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
