// The reference's per-round arithmetic against values computed by hand.
#include <jb/stats/RoundTimes.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using namespace jb;

class TestStatistics : public QObject {
    Q_OBJECT
private slots:
    void bracketNeedsTwoIntervals()
    {
        const std::vector<Interval> one{{0, 100, 1000}};
        QVERIFY(!bracket(one).has_value());
        QVERIFY(!bracket({}).has_value());
    }

    void bracketByHand()
    {
        // Powers 10, 30, 0, 20 W (nJ / ns); mean 15; deviations -5, 15, -15, 5;
        // sum of squares 500; sample variance 500 / 3.
        const std::vector<Interval> iv{{0, 100, 1000}, {100, 200, 3000}, {200, 300, 0}, {300, 400, 2000}};
        const auto b = bracket(iv);
        QVERIFY(b.has_value());
        QCOMPARE(b->intervals, 4);
        QCOMPARE(b->advanced, 3);
        QCOMPARE(b->longest_run, 2);
        QCOMPARE(b->span_ns, 400);
        QCOMPARE(b->mean_w, 15.0);
        QVERIFY(std::abs(b->sd_w - std::sqrt(500.0 / 3.0)) < 1e-12);
    }

    void verdictEdges_data()
    {
        QTest::addColumn<double>("ratio");
        QTest::addColumn<QString>("expected");
        QTest::newRow("10 is clean") << 10.0 << QStringLiteral("clean");
        QTest::newRow("just under 10") << std::nextafter(10.0, 0.0) << QStringLiteral("relative-only");
        QTest::newRow("3 is relative-only") << 3.0 << QStringLiteral("relative-only");
        QTest::newRow("just under 3") << 2.999999 << QStringLiteral("noisy");
        QTest::newRow("1 is noisy") << 1.0 << QStringLiteral("noisy");
        QTest::newRow("0.99") << 0.99 << QStringLiteral("unusable");
        QTest::newRow("negative") << -4.0 << QStringLiteral("unusable");
    }
    void verdictEdges()
    {
        QFETCH(double, ratio);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromLatin1(verdictName(*verdict(ratio))), expected);
    }
    void verdictNone() { QVERIFY(!verdict(std::nullopt).has_value()); }

    void betweenAndCovering()
    {
        const std::vector<Interval> iv{{0, 10, 1}, {10, 20, 1}, {20, 30, 1}, {30, 40, 1}};
        auto b = between(iv, 10, 30);
        QCOMPARE(b.begin, std::size_t(1));
        QCOMPARE(b.end, std::size_t(3));
        b = between(iv, 11, 30);  // the interval starting at 10 is not inside
        QCOMPARE(b.begin, std::size_t(2));
        QCOMPARE(b.size(), std::size_t(1));
        auto c = covering(iv, 15, 25);  // overlaps [10,20] and [20,30]
        QCOMPARE(c.begin, std::size_t(1));
        QCOMPARE(c.end, std::size_t(3));
        c = covering(iv, 20, 30);  // [10,20] ends at 20: t1 > 20 is false
        QCOMPARE(c.begin, std::size_t(2));
        QCOMPARE(c.end, std::size_t(3));
        c = covering(iv, 50, 60);
        QCOMPARE(c.size(), std::size_t(0));
    }

    void counterRoundByHand()
    {
        // Idle 10 W with sd from powers {9, 11} -> sd sqrt(2); busy 30 W flat.
        const std::vector<Interval> pre{{0, 100, 900}, {100, 200, 1100}};
        const std::vector<Interval> busy{{200, 300, 3000}, {300, 400, 3000}};
        const std::vector<Interval> post{{400, 500, 1100}, {500, 600, 900}};
        const auto r = counterRound({busy, busy, pre, post});
        QVERIFY(r.has_marginal);
        QCOMPARE(r.window_nj, 6000);
        QCOMPARE(r.covered_ns, 200);
        QCOMPARE(r.marginal_nj, 6000.0 - 10.0 * 200.0);
        QVERIFY(r.ratio.has_value());
        QVERIFY(std::abs(*r.ratio - 20.0 / std::sqrt(2.0)) < 1e-12);
        QVERIFY(r.verdict == Verdict::Clean);
    }

    void counterRoundZeroIdleSdHasNoRatio()
    {
        const std::vector<Interval> pre{{0, 100, 1000}, {100, 200, 1000}};
        const std::vector<Interval> busy{{200, 300, 3000}, {300, 400, 3000}};
        const std::vector<Interval> post{{400, 500, 1000}, {500, 600, 1000}};
        const auto r = counterRound({busy, busy, pre, post});
        QVERIFY(r.has_marginal);
        QVERIFY(!r.ratio.has_value());
        QVERIFY(!r.verdict.has_value());
    }

    void counterRoundWithoutBracketsHasNoMarginal()
    {
        const std::vector<Interval> busy{{200, 300, 3000}, {300, 400, 3000}};
        const auto r = counterRound({busy, busy, {}, {}});
        QVERIFY(!r.has_marginal);
        QCOMPARE(r.window_nj, 6000);
    }

    // A counter read every 50 ns that updates every 100 ns (a lump of 2000 nJ: 20 W idle), the
    // busy window adding 3000 nJ to the two updates inside it. The bracket before starts between
    // two updates, so it holds 4 updates in 7 reads: cut at read times its power reads 22.9 W;
    // cut on its updates it is the 20 W of 6000 nJ over the 300 ns between its first and last.
    void alignedCutsCountWholeUpdates()
    {
        std::vector<Interval> iv;
        for (int i = 0; i < 20; ++i)
            iv.push_back({50 * i, 50 * i + 50, i % 2 ? 2000 : 0});
        iv[9].nj += 3000;   // t1 500
        iv[11].nj += 3000;  // t1 600
        const RoundTimes tt = roundTimes(400, 600, 25, 400, 600, 1000);
        const CounterRound plain = roundFigures(iv, tt, false);
        const CounterRound cut = roundFigures(iv, tt, true);
        // The reference's figures are counterRound's, untouched.
        QVERIFY(plain.idle_before && plain.idle_after && plain.has_marginal);
        QCOMPARE(plain.idle_before->intervals, 7);
        QVERIFY(std::abs(plain.idle_before->mean_w - 160.0 / 7.0) < 1e-9);
        QCOMPARE(plain.idle_after->mean_w, 20.0);
        QCOMPARE(plain.window_nj, std::int64_t(10000));
        QVERIFY(std::abs(plain.marginal_nj - (10000.0 - (160.0 / 7.0 + 20.0) / 2.0 * 200.0)) < 1e-6);
        // Aligned: both brackets 20 W, the window from the update at 400 to the one at 600.
        QCOMPARE(cut.idle_before->mean_w, 20.0);
        QCOMPARE(cut.idle_after->mean_w, 20.0);
        QCOMPARE(cut.idle_before->sd_w, plain.idle_before->sd_w);  // the reference's sd stays
        QCOMPARE(cut.window_nj, std::int64_t(10000));
        QCOMPARE(cut.covered_ns, std::int64_t(200));
        QCOMPARE(cut.marginal_nj, 6000.0);
        // A window whose start falls between reads: it still runs from the update at 400.
        const CounterRound late = roundFigures(iv, roundTimes(425, 600, 25, 425, 600, 1000), true);
        QCOMPARE(late.covered_ns, std::int64_t(200));
        QCOMPARE(late.marginal_nj, 6000.0);
        // A bracket with one update keeps the reference's power (nothing to align on).
        const CounterRound one = roundFigures(iv, roundTimes(400, 600, 300, 400, 600, 1000), true);
        QVERIFY(one.idle_before);
        QVERIFY(*one.idle_before == *bracket(std::span<const Interval>(iv).subspan(6, 2)));
    }

    void quantilesAndMad()
    {
        QCOMPARE(median({3, 1, 2}), 2.0);
        QCOMPARE(median({4, 1, 2, 3}), 2.5);
        QCOMPARE(quantile({0, 10}, 0.25), 2.5);
        // median 10, |dev| {0,0,1,1,90} -> MAD 1; 100 is 0.6745*90 = 60.7 > 3.5
        const std::vector<double> v{10, 10, 11, 9, 100};
        const auto out = madOutliers(v);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out.front(), 4);
    }

    void summaryCountsAndJPerDecode()
    {
        CounterRound a, b, c;
        a.has_marginal = b.has_marginal = c.has_marginal = true;
        a.marginal_nj = 2e9;
        a.verdict = Verdict::Clean;
        b.marginal_nj = 4e9;
        b.verdict = Verdict::Noisy;
        c.marginal_nj = 3e9;
        c.verdict = Verdict::Clean;
        const std::vector<RoundForSummary> rounds{{&a, 2}, {&b, 2}, {nullptr, 2}, {&c, 2}};
        const auto s = summarize(rounds);
        QCOMPARE(s.rounds, 3);
        QCOMPARE(s.clean, 2);
        QCOMPARE(s.noisy, 1);
        QCOMPARE(*s.median_j_per_decode, 1.5);
        QCOMPARE(*s.min_j_per_decode, 1.0);
        QCOMPARE(*s.max_j_per_decode, 2.0);
        QVERIFY(s.outlier_rounds.empty());
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
