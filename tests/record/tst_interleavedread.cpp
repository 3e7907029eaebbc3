// record/Interleaved's reader of comparison.json: the fixture's figures as written, a child's
// record path resolved against the file's folder, and errors naming the file and `$.path`.
#include <jb/record/Interleaved.h>
#include <jb/record/JsonText.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace jb;

namespace {

std::string fixture(const char* name)
{
    return std::string(JB_FIXTURES) + "/comparison/" + name;
}

ojson fixtureTree()
{
    auto text = readWholeFile(fixture("comparison.json"));
    if (!text)
        qFatal("%s", text.error().c_str());
    return parseJsonText(*text).value();
}

std::string errorOf(const ojson& j)
{
    auto r = readComparison(j, "cmp.json");
    return r ? std::string("(no error)") : r.error();
}

}  // namespace

class TestInterleavedRead : public QObject {
    Q_OBJECT
private slots:
    void readsTheFixtureAsWritten()
    {
        auto c = loadComparisonFile(fixture("comparison.json"));
        QVERIFY2(c, c ? "" : c.error().c_str());
        QCOMPARE(c->baseline, std::string("low"));
        QCOMPARE(c->counter, std::string("rapl"));
        QCOMPARE(c->children.size(), std::size_t(2));
        QCOMPARE(c->order.size(), std::size_t(7));  // one warm-up block and six measured
        const ComparisonChild& low = c->children[0];
        const ComparisonChild& high = c->children[1];
        QVERIFY(low.baseline && !high.baseline);
        QVERIFY(!low.energy && high.energy && high.time);
        QCOMPARE(*low.record, std::string("low.json"));
        // The figures are the file's, not recomputed.
        const ojson tree = fixtureTree();
        const ojson& e = tree.at("pairs")[0].at("energy");
        QCOMPARE(*high.energy->ratio, e.at("ratio").get<double>());
        QCOMPARE(*high.energy->ratio_low, e.at("ratio_ci95")[0].get<double>());
        QCOMPARE(*high.energy->ratio_high, e.at("ratio_ci95")[1].get<double>());
        QCOMPARE(*high.energy->p_value, e.at("p_value").get<double>());
        QCOMPARE(*high.energy->significant, e.at("significant").get<bool>());
        QCOMPARE(*high.energy->difference, e.at("difference_j").get<double>());
        QCOMPARE(high.energy->blocks, 6);
        QCOMPARE(*high.time->difference, tree.at("pairs")[0].at("time").at("difference_s").get<double>());
        QCOMPARE(*high.median_j_per_decode, tree.at("children")[1].at("median_j_per_decode").get<double>());
        QVERIFY(!high.dropped_block);
    }

    void readsADroppedChild()
    {
        ojson j = fixtureTree();
        j["children"][1]["dropped"] = {{"block", 3}, {"reason", "child 2 (high): it exited"}};
        auto c = readComparison(j, "cmp.json");
        QVERIFY2(c, c ? "" : c.error().c_str());
        QCOMPARE(*c->children[1].dropped_block, 3);
        QCOMPARE(c->children[1].dropped_reason, std::string("child 2 (high): it exited"));
    }

    void errorsNameTheFileAndThePath()
    {
        struct Case {
            std::function<void(ojson&)> spoil;
            const char* says;
        };
        const std::vector<Case> cases{
            {[](ojson& j) { j["kind"] = "something-else"; }, "cmp.json: $.kind: expected \"joulebench-interleaved-comparison\""},
            {[](ojson& j) { j["version"] = 2; }, "cmp.json: $.version: expected 1, found 2"},
            {[](ojson& j) { j["baseline"] = "nobody"; }, "cmp.json: $.baseline: \"nobody\" is none of the children"},
            {[](ojson& j) { j["pairs"][0]["energy"]["ratio_ci95"] = "wide"; },
             "cmp.json: $.pairs[0].energy.ratio_ci95: expected [low, high] or null, found \"wide\""},
            {[](ojson& j) { j["pairs"][0]["time"]["p_value"] = "small"; },
             "cmp.json: $.pairs[0].time.p_value: expected a number or null"},
            {[](ojson& j) { j["pairs"][0]["name"] = "ghost"; }, "cmp.json: $.pairs[0].name: \"ghost\" is none of the children"},
            {[](ojson& j) { j["children"][1]["name"] = "low"; }, "cmp.json: $.children[1].name: \"low\" names two children"},
            {[](ojson& j) { j["children"][0].erase("name"); }, "cmp.json: $.children[0]: missing key \"name\""},
            {[](ojson& j) { j["children"][1]["dropped"] = {{"reason", "x"}}; },
             "cmp.json: $.children[1].dropped: missing key \"block\""},
            {[](ojson& j) { j["order"][2] = 5; }, "cmp.json: $.order[2]: expected"},
        };
        for (const Case& c : cases) {
            ojson j = fixtureTree();
            c.spoil(j);
            const std::string e = errorOf(j);
            QVERIFY2(e.find(c.says) == 0, (e + "  (wanted: " + c.says + ")").c_str());
        }
    }

    void aFileIsTellable()
    {
        QVERIFY(looksLikeComparisonFile(fixture("comparison.json")));
        QVERIFY(!looksLikeComparisonFile(fixture("low.json")));
        QVERIFY(!looksLikeComparisonFile(fixture("no-such-file.json")));
        QTemporaryDir dir;
        const std::string bad = dir.filePath(QStringLiteral("comparison.json")).toStdString();
        std::ofstream(bad) << "{\"kind\": \"joulebench-interleaved-comparison\", \"version\": 1,";
        QVERIFY(looksLikeComparisonFile(bad));
        auto r = loadComparisonFile(bad);
        QVERIFY(!r);
        QVERIFY2(r.error().find(bad) == 0, r.error().c_str());
        QCOMPARE(comparisonChildPath("/a/b/comparison.json", "low.json"), std::string("/a/b/low.json"));
        QCOMPARE(comparisonChildPath("/a/b/comparison.json", "../c/low.json"), std::string("/a/c/low.json"));
        QCOMPARE(comparisonChildPath("/a/b/comparison.json", "/d/low.json"), std::string("/d/low.json"));
    }
};

QTEST_GUILESS_MAIN(TestInterleavedRead)
#include "tst_interleavedread.moc"
