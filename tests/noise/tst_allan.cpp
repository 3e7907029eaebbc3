// Allan deviation against hand-computed values and the known laws of white noise (falls as
// 1/sqrt(m)) and of a random walk (grows as sqrt(m)).
#include <jb/noise/Allan.h>
#include <jb/noise/NoiseMath.h>

#include <QtTest>

#include <cmath>

using namespace jb;

namespace {

double at(const std::vector<AllanPoint>& pts, int m)
{
    for (const AllanPoint& p : pts)
        if (p.m == m)
            return p.adev_w;
    return std::nan("");
}

// Least-squares slope of log adev against log m over [mLo, mHi].
double logLogSlope(const std::vector<AllanPoint>& pts, int mLo, int mHi)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (const AllanPoint& p : pts) {
        if (p.m < mLo || p.m > mHi)
            continue;
        const double x = std::log(double(p.m)), y = std::log(p.adev_w);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
        ++n;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

class TestAllan : public QObject {
    Q_OBJECT
private slots:
    void tinySeriesByHand()
    {
        // y = 1 3 2 6 4, period 0.5 s.
        // m = 1: differences 2 -1 4 -2, squares 4 1 16 4 = 25 over 4 terms: AVAR 25 / 8.
        // m = 2 overlapping: j = 0: means (1,3) = 2 and (2,6) = 4, diff 2;
        //   j = 1: means (3,2) = 2.5 and (6,4) = 5, diff 2.5; AVAR (4 + 6.25) / (2 * 2).
        // m = 2 non-overlapping: blocks (1,3) = 2, (2,6) = 4 (the 5th value left over): AVAR 4 / 2.
        // m = 4: needs 8 values: absent.
        const std::vector<double> y{1, 3, 2, 6, 4};
        const auto ov = allanDeviation(y, 0.5);
        QCOMPARE(ov.size(), std::size_t(2));
        QCOMPARE(ov[0].m, 1);
        QCOMPARE(ov[0].tau_s, 0.5);
        QCOMPARE(ov[0].terms, 4);
        QVERIFY(std::abs(ov[0].adev_w - std::sqrt(25.0 / 8.0)) < 1e-12);
        QCOMPARE(ov[1].m, 2);
        QCOMPARE(ov[1].tau_s, 1.0);
        QCOMPARE(ov[1].terms, 2);
        QVERIFY(std::abs(ov[1].adev_w - std::sqrt(10.25 / 4.0)) < 1e-12);

        const auto no = allanDeviation(y, 0.5, AllanKind::NonOverlapping);
        QCOMPARE(no.size(), std::size_t(2));
        QVERIFY(std::abs(no[0].adev_w - std::sqrt(25.0 / 8.0)) < 1e-12);
        QCOMPARE(no[1].terms, 1);
        QVERIFY(std::abs(no[1].adev_w - std::sqrt(2.0)) < 1e-12);
    }

    void tooShort()
    {
        QVERIFY(allanDeviation(std::vector<double>{}, 0.1).empty());
        QVERIFY(allanDeviation(std::vector<double>{5.0}, 0.1).empty());
        QCOMPARE(allanDeviation(std::vector<double>{5.0, 7.0}, 0.1).size(), std::size_t(1));
    }

    void constantSeriesIsZero()
    {
        const std::vector<double> y(64, 20.0);
        for (const AllanPoint& p : allanDeviation(y, 0.1))
            QCOMPARE(p.adev_w, 0.0);
    }

    void pooledRunsNeverDifferenceAcrossTheGap()
    {
        // a = 1 3 2 6: m = 1 squares 4 1 16 (3 terms); m = 2: (2 -> 4)^2 = 4 (1 term).
        // b = 0 1: m = 1 square 1 (1 term); too short for m = 2.
        // Pooled m = 1: (21 + 1) / (2 * 4); m = 2: 4 / 2. Joining a and b would add (6 -> 0).
        const auto p = allanDeviationPooled({{1, 3, 2, 6}, {0, 1}}, 0.1);
        QCOMPARE(p.size(), std::size_t(2));
        QCOMPARE(p[0].terms, 4);
        QVERIFY(std::abs(p[0].adev_w - std::sqrt(22.0 / 8.0)) < 1e-12);
        QCOMPARE(p[1].terms, 1);
        QVERIFY(std::abs(p[1].adev_w - std::sqrt(2.0)) < 1e-12);
    }

    void whiteNoiseFallsAsOneOverSqrtM_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("overlapping") << int(AllanKind::Overlapping);
        QTest::newRow("non-overlapping") << int(AllanKind::NonOverlapping);
    }
    void whiteNoiseFallsAsOneOverSqrtM()
    {
        // White noise of sd s: an m-average has sd s / sqrt(m), the difference of two
        // independent ones has variance 2 s^2 / m, so AVAR = s^2 / m exactly in expectation.
        // Tolerance: the estimate's relative sd is about 1 / sqrt(2 edf) with edf >= N / m - 1
        // (non-overlapping; overlapping has more), and we allow 4 of those.
        QFETCH(int, kind);
        const double s = 0.2;
        const int n = 1 << 15;
        noise::Gaussian g(42);
        std::vector<double> y(n);
        for (double& v : y)
            v = 20.0 + s * g.next();
        const auto pts = allanDeviation(y, 0.1, AllanKind(kind));
        QVERIFY(pts.size() >= 14);
        for (int m = 1; m <= 512; m *= 2) {
            const double expected = s / std::sqrt(double(m));
            const double tol = 4.0 / std::sqrt(2.0 * (double(n) / m - 1.0));
            const double got = at(pts, m);
            QVERIFY2(std::abs(got / expected - 1.0) < tol,
                     qPrintable(QStringLiteral("m %1: adev %2, expected %3 +- %4%")
                                    .arg(m).arg(got).arg(expected).arg(tol * 100)));
        }
        const double slope = logLogSlope(pts, 1, 512);
        QVERIFY2(std::abs(slope + 0.5) < 0.05, qPrintable(QString::number(slope)));
    }

    void randomWalkGrowsAsSqrtM()
    {
        // Random walk x_i = x_{i-1} + d_i, d of sd q. The difference of adjacent m-averages is
        // (1/m) sum_t w_t d_t with weights min(t, 2m - t), t = 1 .. 2m - 1, so
        // AVAR = q^2 / (2 m^2) * (m^2 + 2 sum_{t<m} t^2) = q^2 (2 m^2 + 1) / (6 m): q^2 / 2 at
        // m = 1 and ~ q^2 m / 3 for large m (adev grows as sqrt(m)). A random walk's estimate is
        // far less steady than white noise's (edf ~ N / m at best, fewer for large m): 5 of
        // its relative sds up to m = 64, and the slope over 8..256 within 0.1 of +0.5.
        const double q = 0.05;
        const int n = 1 << 16;
        noise::Gaussian g(7);
        std::vector<double> y(n);
        double x = 20.0;
        for (double& v : y) {
            x += q * g.next();
            v = x;
        }
        const auto pts = allanDeviation(y, 0.1);
        for (int m = 1; m <= 64; m *= 2) {
            const double expected = q * std::sqrt((2.0 * m * m + 1.0) / (6.0 * m));
            const double tol = 5.0 / std::sqrt(2.0 * (double(n) / m / 4.0));
            const double got = at(pts, m);
            QVERIFY2(std::abs(got / expected - 1.0) < tol,
                     qPrintable(QStringLiteral("m %1: adev %2, expected %3 +- %4%")
                                    .arg(m).arg(got).arg(expected).arg(tol * 100)));
        }
        const double slope = logLogSlope(pts, 8, 256);
        QVERIFY2(std::abs(slope - 0.5) < 0.1, qPrintable(QString::number(slope)));
    }
};

QTEST_GUILESS_MAIN(TestAllan)
#include "tst_allan.moc"
