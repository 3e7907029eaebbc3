// The child's side of the protocol (child/ChildServer): `go <k>` parsing, and the serving loop
// fed from a string: what it prints is what the parent's parser (child/Protocol) accepts.
#include <jb/child/ChildServer.h>
#include <jb/child/Protocol.h>

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

}  // namespace

class TestChildServer : public QObject {
    Q_OBJECT

private slots:
    void parsesGo()
    {
        QCOMPARE(*jb::parseGo("go 3"), 3);
        QCOMPARE(*jb::parseGo("go 0"), 0);
        QCOMPARE(*jb::parseGo(" go 12 \r"), 12);
        for (const char* bad : {"", "go", "go -1", "go x", "go 3 4", "stop 3", "go 99999999999"}) {
            const auto r = jb::parseGo(bad);
            QVERIFY2(!r.ok(), bad);
            QVERIFY2(r.error().find("expected 'go <k>'") != std::string::npos, r.error().c_str());
        }
    }

    void servesUntilExit()
    {
        std::istringstream in("go 2\ngo 0\nexit\ngo 5\n");
        std::ostringstream out, err;
        std::vector<int> asked;
        const int rc = jb::serveChild(
            "child", 7,
            [&](int k) -> jb::Result<jb::ChildBatch> {
                asked.push_back(k);
                return jb::ChildBatch{std::int64_t(k) * 7, k ? "note=a b" : ""};
            },
            in, out, err);
        QCOMPARE(rc, 0);
        QCOMPARE(asked, (std::vector<int>{2, 0}));  // nothing after exit
        const auto l = lines(out.str());
        QCOMPARE(l.size(), std::size_t(3));
        QCOMPARE(jb::parseReady(l[0]).value().jobs, std::int64_t(7));
        const auto d1 = jb::parseDone(l[1]);
        QVERIFY2(d1.ok(), l[1].c_str());
        QCOMPARE(d1->decodes, std::int64_t(14));
        QVERIFY(d1->wall_ns >= 0);
        QCOMPARE(d1->note.value_or(""), std::string("note=a b"));
        const auto d2 = jb::parseDone(l[2]);
        QVERIFY2(d2.ok(), l[2].c_str());
        QCOMPARE(d2->decodes, std::int64_t(0));
        QVERIFY(!d2->note.has_value());
        QVERIFY(err.str().empty());
    }

    void endOfInputEndsCleanly()
    {
        std::istringstream in("go 1\n");
        std::ostringstream out, err;
        QCOMPARE(jb::serveChild("child", 1, [](int) -> jb::Result<jb::ChildBatch> { return jb::ChildBatch{1, ""}; },
                                in, out, err),
                 0);
        QCOMPARE(lines(out.str()).size(), std::size_t(2));
    }

    void badLineIsExit4()
    {
        std::istringstream in("go 1\nhello\ngo 1\n");
        std::ostringstream out, err;
        int calls = 0;
        const int rc = jb::serveChild(
            "child", 1,
            [&](int) -> jb::Result<jb::ChildBatch> {
                ++calls;
                return jb::ChildBatch{1, ""};
            },
            in, out, err);
        QCOMPARE(rc, 4);
        QCOMPARE(calls, 1);
        QVERIFY2(err.str().rfind("child: expected 'go <k>'", 0) == 0, err.str().c_str());
        QVERIFY2(err.str().find("'hello'") != std::string::npos, err.str().c_str());
    }

    void failedWorkIsExit5()
    {
        std::istringstream in("go 1\n");
        std::ostringstream out, err;
        const int rc = jb::serveChild(
            "child", 1, [](int) -> jb::Result<jb::ChildBatch> { return jb::Error{"the GPU fell off"}; }, in, out, err);
        QCOMPARE(rc, 5);
        QCOMPARE(lines(out.str()).size(), std::size_t(1));  // ready, no done
        QCOMPARE(err.str(), std::string("child: the GPU fell off\n"));
    }
};

QTEST_GUILESS_MAIN(TestChildServer)
#include "tst_childserver.moc"
