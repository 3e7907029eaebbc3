// Special functions, the per-round verdict probability (against a direct Monte-Carlo of its
// own assumptions) and the resolution table, by hand.
#include <jb/noise/NoiseMath.h>
#include <jb/noise/Resolution.h>
#include <jb/noise/RoundModel.h>

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace jb;

class TestNoiseMath : public QObject {
    Q_OBJECT
private slots:
    void normal()
    {
        QCOMPARE(noise::normalCdf(0.0), 0.5);
        QVERIFY(std::abs(noise::normalCdf(1.959963984540054) - 0.975) < 1e-12);
        QVERIFY(std::abs(noise::normalCdf(-1.0) - 0.15865525393145705) < 1e-12);
        QVERIFY(std::abs(noise::normalQuantile(0.975) - 1.959963984540054) < 1e-9);
        QVERIFY(std::abs(noise::normalQuantile(0.5)) < 1e-12);
        QVERIFY(std::isinf(noise::normalQuantile(0.0)));
        QVERIFY(std::abs(noise::normalPdf(0.0) - 0.3989422804014327) < 1e-15);
    }

    void incompleteGamma()
    {
        // a = 1: P = 1 - e^-x. a = 5, x = 5: 1 - e^-5 (1 + 5 + 25/2 + 125/6 + 625/24).
        for (double x : {0.1, 1.0, 3.0, 20.0})
            QVERIFY(std::abs(noise::regularizedGammaP(1.0, x) - (1.0 - std::exp(-x))) < 1e-13);
        const double p55 = 1.0 - std::exp(-5.0) * (1 + 5 + 12.5 + 125.0 / 6 + 625.0 / 24);
        QVERIFY(std::abs(noise::regularizedGammaP(5.0, 5.0) - p55) < 1e-13);
        QCOMPARE(noise::regularizedGammaP(3.0, 0.0), 0.0);
        // Chi-square: 2 dof is exponential; table values 3.841459 (1 dof) and 124.3421 (100)
        // at 0.95; a large dof by the normal limit.
        QVERIFY(std::abs(noise::chiSquareCdf(4.0, 2.0) - (1.0 - std::exp(-2.0))) < 1e-13);
        QVERIFY(std::abs(noise::chiSquareCdf(3.841458820694124, 1.0) - 0.95) < 1e-9);
        QVERIFY(std::abs(noise::chiSquareCdf(124.3421134, 100.0) - 0.95) < 1e-7);
        QVERIFY(std::abs(noise::chiSquareCdf(20000.0, 20000.0) - 0.5) < 0.01);
    }

    void gaussianIsReproducibleAndStandard()
    {
        noise::Gaussian a(3), b(3);
        double sum = 0, sq = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const double x = a.next();
            QCOMPARE(x, b.next());
            sum += x;
            sq += x * x;
        }
        // Mean within 5 standard errors of 0, variance within 5 of 1 (sd of s^2 ~ sqrt(2/n)).
        QVERIFY(std::abs(sum / n) < 5.0 / std::sqrt(double(n)));
        QVERIFY(std::abs(sq / n - 1.0) < 5.0 * std::sqrt(2.0 / n));
    }

    void intervalCounts()
    {
        QCOMPARE(intervalsInside(1.0, 0.1), 9);
        QCOMPARE(intervalsInside(0.3, 0.1), 2);
        QCOMPARE(intervalsInside(0.29, 0.1), 1);
        QCOMPARE(intervalsInside(0.05, 0.1), 0);
        QCOMPARE(intervalsInside(1.0, 0.0), 0);
        QVERIFY(std::abs(windowHolding(9, 0.1) - 1.0) < 1e-12);
        for (int n : {2, 3, 10, 57, 1000})
            QCOMPARE(intervalsInside(windowHolding(n, 0.1), 0.1), n);
    }

    void probabilityLimits()
    {
        RoundModel m;
        m.idle_sd_w = 0.2;
        m.busy_sd_w = 0.2;
        m.idle_intervals = 20000;
        m.busy_intervals = 20000;
        // Long brackets: the ratio is close to marginal / sd; 12 clears 10 surely, 8 never.
        m.marginal_w = 12 * 0.2;
        QVERIFY(verdictProbability(m, 10.0) > 0.999);
        m.marginal_w = 8 * 0.2;
        QVERIFY(verdictProbability(m, 10.0) < 0.001);
        // Exactly at the threshold: the ratio divides by the larger of two sample sds, and
        // both must fall below the true sd, each with probability ~1/2: ~1/4, not 1/2.
        m.marginal_w = 10 * 0.2;
        QVERIFY(std::abs(verdictProbability(m, 10.0) - 0.25) < 0.05);
        // Under two intervals a bracket has no sd: no ratio, never a verdict.
        m.idle_intervals = 1;
        QCOMPARE(verdictProbability(m, 1.0), 0.0);
        m.idle_intervals = 10;
        m.busy_intervals = 1;
        QCOMPARE(verdictProbability(m, 1.0), 0.0);
        m.busy_intervals = 10;
        m.idle_sd_w = 0.0;
        QCOMPARE(verdictProbability(m, 1.0), 0.0);
    }

    void probabilityMatchesItsAssumptions_data()
    {
        QTest::addColumn<double>("marginal");
        QTest::addColumn<double>("sd");
        QTest::addColumn<int>("nIdle");
        QTest::addColumn<int>("nBusy");
        QTest::addColumn<double>("threshold");
        QTest::newRow("clean, short brackets") << 3.0 << 0.2 << 9 << 7 << 10.0;
        QTest::newRow("clean, two intervals") << 6.0 << 0.2 << 2 << 2 << 10.0;
        QTest::newRow("relative-only") << 1.0 << 0.25 << 30 << 5 << 3.0;
        QTest::newRow("noisy, busy noise matters") << 0.5 << 0.3 << 40 << 3 << 1.0;
        QTest::newRow("near the threshold") << 2.1 << 0.2 << 200 << 40 << 10.0;
    }
    void probabilityMatchesItsAssumptions()
    {
        // Draw what the model assumes, directly: n Gaussian powers per bracket, sample sds
        // and means, the reference's ratio. 20000 draws: standard error <= 0.0036; allow 4.
        QFETCH(double, marginal);
        QFETCH(double, sd);
        QFETCH(int, nIdle);
        QFETCH(int, nBusy);
        QFETCH(double, threshold);
        RoundModel m{marginal, sd, sd, nIdle, nBusy};
        const double p = verdictProbability(m, threshold);
        noise::Gaussian g(11);
        auto meanSd = [&](int n, double mu) {
            // Sums of deviations from mu: no cancellation worth the name at these sizes.
            double s = 0, ss = 0;
            for (int i = 0; i < n; ++i) {
                const double d = sd * g.next();
                s += d;
                ss += d * d;
            }
            const double meanDev = s / n;
            return std::pair{mu + meanDev, std::sqrt(std::max(0.0, (ss - n * meanDev * meanDev) / (n - 1)))};
        };
        const int draws = 20000;
        int hits = 0;
        for (int i = 0; i < draws; ++i) {
            const auto [b, bsd] = meanSd(nBusy, 20.0 + marginal);
            const auto [i1, s1] = meanSd(nIdle, 20.0);
            const auto [i2, s2] = meanSd(nIdle, 20.0);
            (void)bsd;
            if ((b - (i1 + i2) / 2) / std::max(s1, s2) >= threshold)
                ++hits;
        }
        const double share = double(hits) / draws;
        QVERIFY2(std::abs(share - p) < 0.0142,
                 qPrintable(QStringLiteral("model %1, drawn %2").arg(p).arg(share)));
    }

    void requiredMarginalInvertsTheProbability()
    {
        RoundModel m{0.0, 0.15, 0.15, 49, 9};
        for (double t : {1.0, 3.0, 10.0}) {
            const double w = requiredMarginalW(m, t, 0.9);
            QVERIFY(w > t * 0.15);  // finite brackets need more than the floor
            m.marginal_w = w;
            QVERIFY(std::abs(verdictProbability(m, t) - 0.9) < 1e-4);
        }
    }

    void resolutionTable()
    {
        ResolutionInputs in;
        in.idle_sd_w = 0.15;
        in.window_s = 2.0;
        auto rows = resolution(in);
        QCOMPARE(rows.size(), std::size_t(3));
        QVERIFY(rows[0].verdict == jb::Verdict::Clean);
        QVERIFY(std::abs(rows[0].min_marginal_w - 1.5) < 1e-12);  // 10 * 0.15
        QVERIFY(std::abs(rows[0].min_energy_j - 3.0) < 1e-12);    // 1.5 W * 2 s
        QVERIFY(std::abs(rows[1].min_marginal_w - 0.45) < 1e-12);
        QVERIFY(std::abs(rows[2].min_marginal_w - 0.15) < 1e-12);
        QVERIFY(std::abs(rows[2].min_energy_j - 0.3) < 1e-12);
        QVERIFY(!rows[0].marginal_w_at_confidence);  // no period, no bracket length: no column

        in.period_s = 0.1;
        in.idle_s = 5.0;
        in.confidence = 0.9;
        rows = resolution(in);
        for (const auto& r : rows) {
            QVERIFY(r.marginal_w_at_confidence);
            QVERIFY(*r.marginal_w_at_confidence > r.min_marginal_w);
            QVERIFY(std::abs(*r.energy_j_at_confidence - *r.marginal_w_at_confidence * 2.0) < 1e-12);
            RoundModel m{*r.marginal_w_at_confidence, 0.15, 0.15, 49, 19};
            QVERIFY(std::abs(verdictProbability(m, r.threshold) - 0.9) < 1e-4);
        }
    }

    void thresholds()
    {
        QCOMPARE(*verdictThreshold(*parseVerdict("clean")), 10.0);
        QCOMPARE(*verdictThreshold(*parseVerdict("relative-only")), 3.0);
        QCOMPARE(*verdictThreshold(*parseVerdict("noisy")), 1.0);
        QVERIFY(!verdictThreshold(*parseVerdict("unusable")));
        QVERIFY(!parseVerdict("Clean"));
        QVERIFY(!parseVerdict("relative_only"));
        for (const Verdict v : kVerdicts)
            QVERIFY(parseVerdict(verdictName(v)) == v);
    }
};

QTEST_GUILESS_MAIN(TestNoiseMath)
#include "tst_noisemath.moc"
