// The live comparison of an interleaved run: rounds go to their children by the plan's block
// order, warm-up blocks stay out, only whole blocks count, and at the end it gives the same
// comparison record/Interleaved computes from the children's records.
#include <jb/session/LiveComparison.h>
#include <jb/stats/Paired.h>

#include <QtTest>

using namespace jb;

namespace {

Plan twoChildren(int rounds, int warmup)
{
    Plan p;
    p.label = "live";
    p.rounds = rounds;
    p.warmup = warmup;
    p.order_seed = 7;
    p.children = {{"a", {"deca", "--q", "3"}, {}}, {"b", {"decb", "--q", "3"}, {}}};
    return p;
}

// A round of `decodes` decodes that cost j_per_decode each on "rapl".
Round costRound(double j_per_decode, int decodes = 4, double s_per_decode = 0.25)
{
    Round r;
    r.decodes = decodes;
    r.child_wall_ns = std::int64_t(s_per_decode * decodes * 1e9);
    CounterRound c;
    c.has_marginal = true;
    c.marginal_nj = j_per_decode * decodes * 1e9;
    r.counters.emplace_back("rapl", c);
    return r;
}

// Child b costs 20% more; a small per-block wobble both share (the drift pairing removes).
double truth(int child, int block)
{
    return (child == 1 ? 1.2 : 1.0) * (1.0 + 0.01 * (block % 3));
}

}  // namespace

class TestLiveComparison : public QObject {
    Q_OBJECT
private slots:
    void roundsGoToTheirChildByTheOrder()
    {
        const Plan p = twoChildren(6, 1);
        LiveComparison live(p);
        const auto order = balancedOrder(2, 7, 7);
        QCOMPARE(live.order(), order);
        for (int b = 0; b < 7; ++b)
            for (int k = 0; k < 2; ++k)
                QCOMPARE(live.childOfRound(2 * b + k), order[std::size_t(b)][std::size_t(k)]);
        QCOMPARE(live.childOfRound(14), -1);
        QVERIFY(live.isWarmup(0) && live.isWarmup(1) && !live.isWarmup(2));
    }

    void warmupIsLeftOutAndOnlyWholeBlocksCount()
    {
        const Plan p = twoChildren(6, 1);
        LiveComparison live(p);
        // The warm-up block costs 10x: were it counted, the medians would move.
        live.addRound(0, costRound(10.0));
        live.addRound(1, costRound(10.0));
        QCOMPARE(live.blocksDone(), 0);
        live.addRound(2, costRound(truth(live.childOfRound(2), 1)));
        QCOMPARE(live.blocksDone(), 0);  // half a block
        live.addRound(3, costRound(truth(live.childOfRound(3), 1)));
        QCOMPARE(live.blocksDone(), 1);
        const ojson c = live.comparison();
        QCOMPARE(c.at("children")[0].at("rounds").get<int>(), 1);
        QVERIFY(std::abs(c.at("children")[0].at("median_j_per_decode").get<double>() - 1.01) < 1e-9);
    }

    void theEndMatchesTheRecordsComparison()
    {
        const Plan p = twoChildren(8, 1);
        LiveComparison live(p);
        std::vector<Record> records(2);
        for (int i = 0; i < p.totalRounds(); ++i) {
            const int child = live.childOfRound(i);
            const Round r = costRound(live.isWarmup(i) ? 5.0 : truth(child, i / 2));
            live.addRound(i, r);
            if (!live.isWarmup(i))
                records[std::size_t(child)].rounds.push_back(r);
        }
        QCOMPARE(live.blocksDone(), 8);
        const ojson c = live.comparison();
        const ojson& e = c.at("pairs")[0].at("energy");
        QCOMPARE(e.at("blocks").get<int>(), 8);
        QVERIFY2(std::abs(e.at("ratio").get<double>() - 1.2) < 1e-9, e.dump().c_str());
        QCOMPARE(e.at("significant").get<bool>(), true);

        InterleavedInput in;
        in.records = records;
        in.names = {"a", "b"};
        in.order = live.order();
        in.warmup_blocks = 1;
        in.order_seed = 7;
        in.resamples = 2000;
        in.counter = "rapl";
        const ojson end = interleavedComparison(in);
        QCOMPARE(QString::fromStdString(c.at("pairs").dump()), QString::fromStdString(end.at("pairs").dump()));
    }
};

QTEST_GUILESS_MAIN(TestLiveComparison)
#include "tst_livecomparison.moc"
