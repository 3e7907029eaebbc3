// Histogram of idle power with its normal fit, by hand and on a large Gaussian sample.
#include <jb/noise/Histogram.h>
#include <jb/noise/NoiseMath.h>

#include <QtTest>

#include <cmath>
#include <numeric>

using namespace jb;

class TestHistogram : public QObject {
    Q_OBJECT
private slots:
    void freedmanDiaconisByHand()
    {
        // Sorted: 1 2 2 3 3 3 4 4 5 10. Quartiles (linear interpolation): position 2.25 -> 2.25,
        // position 6.75 -> 4; IQR 1.75. FD width 2 * 1.75 / 10^(1/3) = 1.6245; range 9 -> 6 bins
        // of 1.5: edges 1 2.5 4 5.5 7 8.5 10; counts 3 3 3 0 0 1. Mean 3.7.
        const std::vector<double> v{3, 1, 4, 2, 3, 10, 2, 5, 3, 4};
        const PowerHistogram h = powerHistogram(v);
        QCOMPARE(QString::fromStdString(h.rule), QStringLiteral("freedman-diaconis"));
        QCOMPARE(h.n, 10);
        QVERIFY(std::abs(h.mean_w - 3.7) < 1e-12);
        QCOMPARE(h.counts, (std::vector<int>{3, 3, 3, 0, 0, 1}));
        QCOMPARE(h.edges_w.size(), std::size_t(7));
        QVERIFY(std::abs(h.bin_width_w - 1.5) < 1e-12);
        QCOMPARE(h.edges_w.front(), 1.0);
        QCOMPARE(h.edges_w.back(), 10.0);
        QVERIFY(std::abs(h.edges_w[2] - 4.0) < 1e-12);
        // Expected count of bin 0: 10 (Phi((2.5 - 3.7)/sd) - Phi((1 - 3.7)/sd)).
        const double e0 = 10 * (noise::normalCdf((2.5 - 3.7) / h.sd_w) - noise::normalCdf((1 - 3.7) / h.sd_w));
        QVERIFY(std::abs(h.expected[0] - e0) < 1e-12);
    }

    void sqrtRuleWhereTheIqrIsZero()
    {
        // Quartiles both 5: FD has no width; sqrt rule: ceil(sqrt 8) = 3 bins over 5..9.
        const std::vector<double> v{5, 5, 5, 5, 5, 5, 5, 9};
        const PowerHistogram h = powerHistogram(v);
        QCOMPARE(QString::fromStdString(h.rule), QStringLiteral("sqrt"));
        QCOMPARE(h.counts, (std::vector<int>{7, 0, 1}));
    }

    void allEqualAndEmpty()
    {
        const std::vector<double> v(5, 20.0);
        const PowerHistogram h = powerHistogram(v);
        QCOMPARE(QString::fromStdString(h.rule), QStringLiteral("single"));
        QCOMPARE(h.counts, std::vector<int>{5});
        QCOMPARE(h.expected, std::vector<double>{5.0});
        QCOMPARE(h.sd_w, 0.0);
        QVERIFY(h.edges_w[0] < 20.0 && h.edges_w[1] > 20.0);
        const PowerHistogram e = powerHistogram(std::vector<double>{});
        QCOMPARE(e.n, 0);
        QVERIFY(e.counts.empty());
    }

    void binCap()
    {
        std::vector<double> v(1000);
        std::iota(v.begin(), v.end(), 0.0);
        v.push_back(1e6);  // one far outlier makes FD ask for thousands of bins
        const PowerHistogram h = powerHistogram(v, 50);
        QCOMPARE(h.counts.size(), std::size_t(50));
        QCOMPARE(std::accumulate(h.counts.begin(), h.counts.end(), 0), 1001);
    }

    void gaussianSampleFitsItsNormal()
    {
        // 20000 draws, sd 0.15 around 20 W. Every bin's count lies within 5 Poisson sds
        // (plus 3) of its expected count, and the fit's mean and sd match the truth within
        // 5 standard errors.
        noise::Gaussian g(5);
        std::vector<double> v(20000);
        for (double& x : v)
            x = 20.0 + 0.15 * g.next();
        const PowerHistogram h = powerHistogram(v);
        QCOMPARE(std::accumulate(h.counts.begin(), h.counts.end(), 0), 20000);
        QVERIFY(h.counts.size() > 20);
        QVERIFY(std::abs(h.mean_w - 20.0) < 5 * 0.15 / std::sqrt(20000.0));
        QVERIFY(std::abs(h.sd_w - 0.15) < 5 * 0.15 / std::sqrt(40000.0));
        double expectedSum = 0;
        for (std::size_t i = 0; i < h.counts.size(); ++i) {
            expectedSum += h.expected[i];
            QVERIFY2(std::abs(h.counts[i] - h.expected[i]) < 5 * std::sqrt(h.expected[i]) + 3,
                     qPrintable(QStringLiteral("bin %1: %2 against %3").arg(i).arg(h.counts[i]).arg(h.expected[i])));
        }
        QVERIFY(expectedSum > 19990 && expectedSum <= 20000);  // mass beyond min..max is tiny
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
