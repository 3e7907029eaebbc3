// The Noise lab's chart adapter, offscreen: the histogram's bars and fitted normal (its peak
// n x width x pdf(0) / sd), the Allan chart on log-log axes with the averaging limit drawn
// where the curve stops falling, and the rounds chart's verdict floors.
#include "noise/NoiseCharts.h"
#include <jb/noise/Allan.h>
#include <jb/noise/Histogram.h>
#include <jb/noise/NoiseMath.h>

#include <QtTest>

#include <cmath>

namespace {

std::vector<double> gaussian(int n, double mean, double sd, std::uint64_t seed, double walk_sd = 0.0)
{
    jb::noise::Gaussian g(seed);
    std::vector<double> v;
    double walk = 0;
    for (int i = 0; i < n; ++i) {
        walk += walk_sd * g.next();
        v.push_back(mean + walk + sd * g.next());
    }
    return v;
}

}  // namespace

class TestNoiseCharts : public QObject {
    Q_OBJECT
private slots:
    void histogramWithItsFit();
    void histogramTooFewValues();
    void allanLogLogWhiteNoise();
    void allanMarksWhereAveragingStops();
    void allanFlatSeries();
    void roundsAgainstTheFloors();
};

void TestNoiseCharts::histogramWithItsFit()
{
    jb::HistogramChart c;
    c.resize(500, 300);
    c.show();
    const auto h = jb::powerHistogram(gaussian(2000, 20.0, 0.15, 1));
    c.setHistogram(h);
    QCOMPARE(c.bins(), int(h.counts.size()));
    QVERIFY(c.fitPoints() > 100);
    // The curve's peak: n x bin width x pdf(0) / sd, within the sampling of the curve (0.5%).
    const double peak = h.n * h.bin_width_w * jb::noise::normalPdf(0.0) / h.sd_w;
    QVERIFY2(std::abs(c.fitPeakCount() - peak) < 0.005 * peak, qPrintable(QString::number(c.fitPeakCount())));
    QVERIFY(c.title().contains(QStringLiteral("2000 intervals")));
}

void TestNoiseCharts::histogramTooFewValues()
{
    jb::HistogramChart c;
    c.setHistogram(jb::powerHistogram(std::vector<double>{20.0}));
    QCOMPARE(c.bins(), 0);
    c.setHistogram(jb::powerHistogram(gaussian(100, 20.0, 0.1, 2)));
    QVERIFY(c.bins() > 0);
    c.clear(QStringLiteral("nothing"));
    QCOMPARE(c.bins(), 0);
    QCOMPARE(c.fitPoints(), 0);
}

void TestNoiseCharts::allanLogLogWhiteNoise()
{
    jb::AllanChart c;
    c.resize(500, 300);
    c.show();
    const auto curve = jb::allanDeviation(gaussian(4000, 20.0, 0.2, 3), 0.1);
    const auto lim = jb::averagingLimit(curve);
    QVERIFY(lim && lim->still_falling);
    c.setCurve(curve, lim);
    QVERIFY(c.logLog());
    QCOMPARE(c.points(), int(curve.size()));
    QVERIFY(!c.limitTauS());
    QVERIFY2(c.title().contains(QStringLiteral("still falling")), qPrintable(c.title()));
}

void TestNoiseCharts::allanMarksWhereAveragingStops()
{
    jb::AllanChart c;
    const auto curve = jb::allanDeviation(gaussian(4000, 20.0, 0.2, 9, 0.02), 0.1);
    const auto lim = jb::averagingLimit(curve);
    QVERIFY(lim && !lim->still_falling);
    c.setCurve(curve, lim);
    QVERIFY(c.limitTauS());
    QCOMPARE(*c.limitTauS(), lim->tau_s);
    QVERIFY2(c.title().contains(QStringLiteral("Averaging helps up to")), qPrintable(c.title()));
}

void TestNoiseCharts::allanFlatSeries()
{
    // A counter too coarse to move: every Allan deviation 0, nothing a log axis can show.
    jb::AllanChart c;
    c.setCurve(jb::allanDeviation(std::vector<double>(64, 20.0), 0.1), std::nullopt);
    QCOMPARE(c.points(), 0);
    QVERIFY(!c.logLog());
}

void TestNoiseCharts::roundsAgainstTheFloors()
{
    jb::RoundsChart c;
    c.resize(500, 300);
    c.show();
    const double sd = 0.15;
    std::vector<jb::ThresholdLine> lines = {
        {jb::Verdict::Clean, 10, 10 * sd}, {jb::Verdict::RelativeOnly, 3, 3 * sd}, {jb::Verdict::Noisy, 1, sd}};
    std::vector<jb::RoundPoint> pts = {
        {1, 15.0, jb::Verdict::Clean},
        {2, 0.6, jb::Verdict::RelativeOnly},
        {3, -0.1, jb::Verdict::Unusable},
        {4, 0.2, std::nullopt}};
    c.setRounds(pts, lines);
    QCOMPARE(c.points(), 4);
    const auto t = c.thresholdsW();
    QCOMPARE(int(t.size()), 3);
    QCOMPARE(t[0], 1.5);
    QCOMPARE(t[1], 3 * sd);
    QCOMPARE(t[2], sd);
    // Every point and line inside the plot.
    QVERIFY(c.yRange().first <= -0.1);
    QVERIFY(c.yRange().second >= 15.0);
    c.setRounds({}, {});
    QCOMPARE(c.points(), 0);
    QVERIFY(c.thresholdsW().empty());
}

QTEST_MAIN(TestNoiseCharts)
#include "tst_noisecharts.moc"
