// compare: the ratio of median J per decode and its percentile bootstrap interval, checked
// against bootstrap distributions enumerated by hand.
#include <jb/record/Compare.h>
#include <jb/record/RecordJson.h>

#include <QtTest>

#include <map>

using namespace jb;

namespace {

// A record whose rounds have the given J per decode on "rapl" (4 decodes a round).
Record withJPerDecode(const std::vector<double>& j, Verdict verdict = Verdict::Clean)
{
    Record r;
    r.counters = {"rapl"};
    for (double x : j) {
        Round round;
        round.decodes = 4;
        CounterRound c;
        c.has_marginal = true;
        c.marginal_nj = x * 1e9 * 4;
        c.ratio = 20;
        c.verdict = verdict;
        round.counters.emplace_back("rapl", c);
        r.rounds.push_back(round);
    }
    return r;
}

// The exact bootstrap distribution of median(A*) / median(B*): every way of drawing n_a
// indices of A and n_b of B, each equally likely.
std::map<double, double> exactRatioDistribution(const std::vector<double>& a, const std::vector<double>& b)
{
    auto medians = [](const std::vector<double>& v) {
        std::vector<double> out;
        const std::size_t n = v.size();
        std::size_t total = 1;
        for (std::size_t i = 0; i < n; ++i)
            total *= n;
        for (std::size_t code = 0; code < total; ++code) {
            std::vector<double> draw;
            std::size_t c = code;
            for (std::size_t i = 0; i < n; ++i, c /= n)
                draw.push_back(v[c % n]);
            out.push_back(median(draw));
        }
        return out;
    };
    const auto ma = medians(a), mb = medians(b);
    std::map<double, double> p;
    const double w = 1.0 / double(ma.size() * mb.size());
    for (double x : ma)
        for (double y : mb)
            p[x / y] += w;
    return p;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    void identicalConstantRecordsGiveOneAndOne()
    {
        const Record a = withJPerDecode({0.7, 0.7, 0.7, 0.7, 0.7});
        const Comparison c = compareRecords(a, a, "rapl");
        QVERIFY2(c.problem.empty(), c.problem.c_str());
        QCOMPARE(*c.ratio, 1.0);
        QCOMPARE(*c.ci_low, 1.0);
        QCOMPARE(*c.ci_high, 1.0);
        QCOMPARE(c.resamples, 10000);
        QCOMPARE(c.discarded_resamples, 0);
    }

    void identicalVariedRecordsGiveOneInsideItsInterval()
    {
        // Rounds resampled independently: the interval is not a point, but it holds 1.
        const Record a = withJPerDecode({1.0, 1.1, 0.9, 1.05, 0.95, 1.2, 0.8});
        const Comparison c = compareRecords(a, a, "rapl");
        QCOMPARE(*c.ratio, 1.0);
        QVERIFY(*c.ci_low < 1.0 && *c.ci_high > 1.0);
        QVERIFY(*c.ci_low >= 0.8 / 1.2 && *c.ci_high <= 1.2 / 0.8);
    }

    void threeRoundsAgainstTheirEnumeration()
    {
        // median of 3 draws from {1, 2, 3}: 1 with 7/27 (at least two 1s), 3 likewise, 2 with
        // 13/27. B is constant 1, so the ratio takes those values with those chances.
        const std::vector<double> a{1, 2, 3}, b{1, 1, 1};
        const BootstrapRatios boot = bootstrapRatioOfMedians(a, b, 10000, 1);
        QCOMPARE(boot.ratios.size(), std::size_t(10000));
        std::map<double, int> count;
        for (double r : boot.ratios)
            ++count[r];
        QCOMPARE(count.size(), std::size_t(3));
        // 4 standard deviations of a binomial share over 10000 draws is under 0.02.
        QVERIFY(std::abs(count[1.0] / 1e4 - 7.0 / 27) < 0.02);
        QVERIFY(std::abs(count[2.0] / 1e4 - 13.0 / 27) < 0.02);
        QVERIFY(std::abs(count[3.0] / 1e4 - 7.0 / 27) < 0.02);
        const Comparison c = compareRecords(withJPerDecode(a), withJPerDecode(b), "rapl");
        QCOMPARE(*c.ratio, 2.0);
        // Over a quarter of the draws are 1 and as many are 3: both 2.5% tails sit on them.
        QCOMPARE(*c.ci_low, 1.0);
        QCOMPARE(*c.ci_high, 3.0);
    }

    void twoRoundsMedianIsTheMeanOfTheDraws()
    {
        // A* median: 1 (1/4), 2 (1/2), 3 (1/4); B constant 2: ratios 0.5, 1, 1.5.
        const Comparison c = compareRecords(withJPerDecode({1, 3}), withJPerDecode({2, 2}), "rapl");
        QCOMPARE(*c.ratio, 1.0);
        QCOMPARE(*c.ci_low, 0.5);
        QCOMPARE(*c.ci_high, 1.5);
    }

    void wholeDistributionMatchesTheExactOne()
    {
        const std::vector<double> a{1, 2, 4}, b{1, 2};
        const auto exact = exactRatioDistribution(a, b);
        const BootstrapRatios boot = bootstrapRatioOfMedians(a, b, 20000, 42);
        std::map<double, int> seen;
        for (double r : boot.ratios)
            ++seen[r];
        for (const auto& [ratio, n] : seen)
            QVERIFY2(exact.count(ratio), "a ratio the enumeration says cannot happen");
        double sum = 0;
        for (const auto& [ratio, p] : exact) {
            sum += p;
            const double share = seen[ratio] / 20000.0;
            const double sd = std::sqrt(p * (1 - p) / 20000.0);
            QVERIFY2(std::abs(share - p) < 5 * sd + 1e-12,
                     qPrintable(QStringLiteral("ratio %1: %2 drawn, %3 exact").arg(ratio).arg(share).arg(p)));
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
    }

    void sameSeedSameAnswerOtherSeedOtherDraws()
    {
        const Record a = withJPerDecode({1.0, 1.3, 0.9, 1.7, 1.1}), b = withJPerDecode({0.5, 0.6, 0.55, 0.7});
        const Comparison c1 = compareRecords(a, b, "rapl", 5000, 9);
        const Comparison c2 = compareRecords(a, b, "rapl", 5000, 9);
        QCOMPARE(*c1.ci_low, *c2.ci_low);
        QCOMPARE(*c1.ci_high, *c2.ci_high);
        const auto d1 = bootstrapRatioOfMedians({1.0, 1.3, 0.9, 1.7, 1.1}, {0.5, 0.6, 0.55, 0.7}, 200, 9);
        const auto d2 = bootstrapRatioOfMedians({1.0, 1.3, 0.9, 1.7, 1.1}, {0.5, 0.6, 0.55, 0.7}, 200, 10);
        QVERIFY(d1.ratios != d2.ratios);
        QCOMPARE(*c1.ratio, 1.1 / 0.575);
        QVERIFY(*c1.ci_low <= *c1.ratio && *c1.ratio <= *c1.ci_high);
    }

    void perRoundListsSkipRoundsWithoutAFigure()
    {
        Record a = withJPerDecode({1.0, 2.0, 3.0, 4.0}, Verdict::RelativeOnly);
        a.rounds[1].decodes = 0;                              // no decodes: no J per decode
        a.rounds[2].counters[0].second.has_marginal = false;  // no marginal figure
        a.rounds[3].counters[0].second.verdict = Verdict::Noisy;
        const Comparison c = compareRecords(a, withJPerDecode({1.0}), "rapl");
        QCOMPARE(c.a.size(), std::size_t(2));
        QCOMPARE(c.a[0].round, 0);
        QCOMPARE(c.a[1].round, 3);
        QCOMPARE(c.a[1].j_per_decode, 4.0);
        QCOMPARE(c.summary_a.relative_only, 2);  // rounds 0 and 1 (a marginal, zero decodes)
        QCOMPARE(c.summary_a.noisy, 1);
        QCOMPARE(c.summary_b.clean, 1);
        QCOMPARE(*c.median_a, 2.5);
        const ojson j = comparisonToJson(c);
        QCOMPARE(j["ratio"].get<double>(), 2.5);
        QCOMPARE(j["a"]["rounds"].size(), std::size_t(2));
        QCOMPARE(j["a"]["summary"]["verdicts"]["noisy"].get<int>(), 1);
        QVERIFY(j["ci95"].is_array());
    }

    void problemsAreSaid()
    {
        const Record a = withJPerDecode({1.0, 2.0});
        Comparison c = compareRecords(a, a, "rapl:psys");
        QVERIFY(!c.ratio && !c.ci_low);
        QCOMPARE(c.problem,
                 std::string(
                     "A has no round with a marginal energy on counter 'rapl:psys' and at least one decode"));
        c = compareRecords(a, withJPerDecode({-1.0, 0.5}), "rapl");
        QVERIFY(!c.ratio);
        QVERIFY2(QString::fromStdString(c.problem).contains(QStringLiteral("not positive")),
                 c.problem.c_str());
        // B's median is positive, but some draws of B have a negative median: no interval.
        c = compareRecords(a, withJPerDecode({-1.0, 0.5, 0.6}), "rapl");
        QCOMPARE(*c.ratio, 1.5 / 0.5);
        QVERIFY(!c.ci_low && c.discarded_resamples > 0);
        QVERIFY2(QString::fromStdString(c.problem).contains(QStringLiteral("bootstrap draws")),
                 c.problem.c_str());
        QVERIFY(comparisonToJson(c)["ci95"].is_null());
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
