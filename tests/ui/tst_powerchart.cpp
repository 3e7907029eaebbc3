// The chart adapter: it hands the series at most a few points per pixel column whatever the
// history, follows a growing store on its timer, zooms and pans without losing the data,
// freezes the picture while the store grows, answers hovering with the sample under the
// pointer, and exports PNG and SVG.
#include "chart/ChartFrame.h"
#include "chart/PowerChart.h"
#include <jb/sampling/SampleStore.h>

#include <QDir>
#include <QFile>
#include <QGraphicsView>
#include <QImage>
#include <QTemporaryDir>
#include <QtCharts/QValueAxis>
#include <QtTest>

using jb::Interval;
using jb::PowerChart;
using jb::SampleStore;

namespace {

constexpr std::int64_t kOrigin = 1'000'000'000'000;
constexpr std::int64_t kPeriod = 100'000'000;  // 100 ms

// n intervals from kOrigin: 20 W, with one 80 W spike at `spike` and a 5 W dip at `dip`.
std::vector<Interval> samples(std::size_t from, std::size_t n, std::size_t spike = SIZE_MAX,
                              std::size_t dip = SIZE_MAX)
{
    std::vector<Interval> v;
    for (std::size_t i = from; i < from + n; ++i) {
        const double w = i == spike ? 80.0 : i == dip ? 5.0 : 20.0 + 0.01 * double(i % 7);
        const std::int64_t t0 = kOrigin + std::int64_t(i) * kPeriod;
        v.push_back({t0, t0 + kPeriod, std::int64_t(w * double(kPeriod))});
    }
    return v;
}

}  // namespace

class TestPowerChart : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void handsFewPointsWhateverTheHistory();
    void keepsExtremesVisible();
    void followsAGrowingStoreOnItsTimer();
    void zoomAndPanStopFollowing();
    void freezeHoldsThePicture();
    void hoverNamesTheSample();
    void wheelDragAndDoubleClick();
    void shortPlotGetsFewerTicks();
    void valueScaleNeverExplodesTheTicks();
    void exportsPngAndSvg();
    void onlyOneFileIncludesQtCharts();

private:
    std::unique_ptr<PowerChart> chart_;
};

void TestPowerChart::init()
{
    chart_ = std::make_unique<PowerChart>();
    chart_->resize(900, 420);
    chart_->show();
    QVERIFY(QTest::qWaitForWindowExposed(chart_.get()));
}

void TestPowerChart::cleanup()
{
    chart_.reset();
}

void TestPowerChart::handsFewPointsWhateverTheHistory()
{
    for (std::size_t n : {10'000u, 200'000u}) {
        auto store = std::make_shared<SampleStore>();
        store->appendBatch(samples(0, n));
        chart_->setSource(store, kOrigin, false);
        chart_->redraw();
        const int cols = chart_->columns();
        QVERIFY(cols > 100);
        // At most first/min/max/last per column, plus one neighbour on each side.
        QVERIFY2(chart_->pointCount() <= 4 * cols + 2,
                 qPrintable(QStringLiteral("%1 points for %2 columns").arg(chart_->pointCount()).arg(cols)));
        QVERIFY(chart_->pointCount() >= cols);  // every column has samples
        const auto [a, b] = chart_->visibleRange();
        QCOMPARE(a, 0.0);
        QCOMPARE(b, double(n) * 0.1);  // following: the whole run
    }
}

void TestPowerChart::valueScaleNeverExplodesTheTicks()
{
    // Each change of a dynamic-tick axis lays its labels out; between the two setters the
    // axis must never hold the old fine interval on the new wide range (or the reverse).
    QValueAxis a;
    jb::ChartFrame::setValueScale(&a, 0, 0.01, 0.001);
    QCOMPARE(a.tickType(), QValueAxis::TicksDynamic);
    double most = 0;
    const auto count = [&] {
        if (a.tickInterval() > 0)
            most = std::max(most, (a.max() - a.min()) / a.tickInterval());
    };
    connect(&a, &QValueAxis::rangeChanged, this, count);
    connect(&a, &QValueAxis::tickIntervalChanged, this, count);
    jb::ChartFrame::setValueScale(&a, 0, 1000, 100);  // a trend cleared to 0..1 after 0.03 J
    QCOMPARE(a.min(), 0.0);
    QCOMPARE(a.max(), 1000.0);
    QCOMPARE(a.tickInterval(), 100.0);
    QCOMPARE(a.labelFormat(), QStringLiteral("%.0f"));
    QVERIFY2(most <= 10.5, qPrintable(QString::number(most)));
    most = 0;
    jb::ChartFrame::setValueScale(&a, 5, 5.01, 0.002, 5.0);  // and back to a narrow one
    QCOMPARE(a.tickAnchor(), 5.0);
    QCOMPARE(a.labelFormat(), QStringLiteral("%.3f"));
    QVERIFY2(most <= 10.5, qPrintable(QString::number(most)));
}

void TestPowerChart::shortPlotGetsFewerTicks()
{
    // 5..80 W: about six ticks when tall; short, every label would crowd (Qt Charts then shows
    // "…" for all of them), so the step grows until each label has its line of room.
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 3000, 1000, 2000));
    chart_->setSource(store, kOrigin, false);
    QTest::qWait(3 * PowerChart::kRedrawIntervalMs);
    auto intervals = [&] {
        const auto [lo, hi] = chart_->yRange();
        return (hi - lo) / chart_->yTickStep();
    };
    const double tall = intervals();
    QVERIFY2(tall >= 5, qPrintable(QString::number(tall)));
    chart_->resize(900, 150);
    QTest::qWait(3 * PowerChart::kRedrawIntervalMs);
    const double shortIntervals = intervals();
    QVERIFY2(shortIntervals < tall && shortIntervals <= 3.0 + 1e-9,
             qPrintable(QStringLiteral("%1 then %2").arg(tall).arg(shortIntervals)));
    chart_->resize(900, 420);  // and back
    QTest::qWait(3 * PowerChart::kRedrawIntervalMs);
    QCOMPARE(intervals(), tall);
}

void TestPowerChart::keepsExtremesVisible()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 300'000, 123'457, 250'001));
    chart_->setSource(store, kOrigin, false);
    chart_->redraw();
    const auto [lo, hi] = chart_->yRange();
    QVERIFY2(lo <= 5.0 && hi >= 80.0, qPrintable(QStringLiteral("y %1..%2").arg(lo).arg(hi)));
    // Zoomed away from the spike, the axis fits the rest.
    chart_->setVisibleRange(100.0, 200.0);
    chart_->redraw();
    QVERIFY(chart_->yRange().second < 30.0);
}

void TestPowerChart::followsAGrowingStoreOnItsTimer()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 50));
    chart_->setMinimumSpan(10.0);
    chart_->setSource(store, kOrigin, true);
    QTRY_VERIFY(chart_->pointCount() >= 50);
    QCOMPARE(chart_->visibleRange().second, 10.0);  // the minimum span, filled from the left
    const auto before = chart_->redrawCount();
    store->appendBatch(samples(50, 150));  // now 20 s of data
    QTRY_COMPARE(chart_->visibleRange().second, 20.0);
    QVERIFY(chart_->redrawCount() > before);
    // Nothing new: the timer leaves the chart alone (redraws are coalesced, not per tick).
    QTest::qWait(3 * PowerChart::kRedrawIntervalMs);  // a relabelled axis may ask for one more
    const auto settled = chart_->redrawCount();
    QTest::qWait(5 * PowerChart::kRedrawIntervalMs);
    QCOMPARE(chart_->redrawCount(), settled);
}

void TestPowerChart::zoomAndPanStopFollowing()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 1000));  // 100 s
    chart_->setSource(store, kOrigin, true);
    chart_->redraw();
    QSignalSpy following(chart_.get(), &PowerChart::followingChanged);
    chart_->zoom(0.5, 50.0);
    QCOMPARE(following.count(), 1);
    QVERIFY(!chart_->following());
    QCOMPARE(chart_->visibleRange(), std::make_pair(25.0, 75.0));
    chart_->pan(10.0);
    QCOMPARE(chart_->visibleRange(), std::make_pair(35.0, 85.0));
    store->appendBatch(samples(1000, 100));
    chart_->redraw();
    QCOMPARE(chart_->visibleRange(), std::make_pair(35.0, 85.0));  // the run goes on, the view stays
    QVERIFY(chart_->pointCount() <= 4 * chart_->columns() + 2);
    chart_->resetView();
    chart_->redraw();
    QVERIFY(chart_->following());
    QCOMPARE(chart_->visibleRange(), std::make_pair(0.0, 110.0));
    // The deepest zoom still shows a sane span.
    chart_->setVisibleRange(5.0, 5.0);
    QVERIFY(chart_->visibleRange().second > chart_->visibleRange().first);
}

void TestPowerChart::freezeHoldsThePicture()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 200));  // 20 s
    chart_->setSource(store, kOrigin, true);
    chart_->redraw();
    chart_->setFrozen(true);
    store->appendBatch(samples(200, 100, 250));  // 10 s more, with a spike
    chart_->redraw();
    QCOMPARE(chart_->visibleRange().second, 20.0);
    QVERIFY(chart_->yRange().second < 80.0);
    QVERIFY(chart_->sampleNear(29.0)->t_s < 20.0);  // the newest frozen sample
    chart_->setFrozen(false);
    chart_->redraw();
    QCOMPARE(chart_->visibleRange().second, 30.0);
    QVERIFY(chart_->yRange().second >= 80.0);
}

void TestPowerChart::hoverNamesTheSample()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 100, 42));
    chart_->setSource(store, kOrigin, false);
    chart_->setShades({{jb::ChartShade::Busy, 4.0, 5.0, QColor(0, 128, 0, 50),
                        QStringLiteral("round 1 busy: clean"), 20.0, QStringLiteral("round: clean")}});
    chart_->redraw();
    const auto p = chart_->sampleNear(4.27);  // sample 42 spans 4.2..4.3 s, midpoint 4.25
    QVERIFY(p);
    QCOMPARE(p->t_s, 4.25);
    QCOMPARE(p->power_w, 80.0);
    const QString text = chart_->describeAt(4.27);
    QVERIFY2(text.contains(QStringLiteral("4.250 s")) && text.contains(QStringLiteral("80.00 W")) &&
                 text.contains(QStringLiteral("round 1 busy: clean")),
             qPrintable(text));
    QVERIFY(!chart_->describeAt(9.0).contains(QStringLiteral("busy")));
}

void TestPowerChart::wheelDragAndDoubleClick()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 1000));  // 100 s
    chart_->setSource(store, kOrigin, false);
    chart_->redraw();
    auto* view = chart_->findChild<QGraphicsView*>();
    QVERIFY(view);
    QWidget* vp = view->viewport();
    const QPoint mid = vp->rect().center();
    // Hovering names the sample under the pointer.
    QSignalSpy hovered(chart_.get(), &PowerChart::hovered);
    QMouseEvent move(QEvent::MouseMove, QPointF(mid), vp->mapToGlobal(QPointF(mid)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(vp, &move);
    QVERIFY(!hovered.isEmpty());
    QVERIFY2(hovered.last()[0].toString().contains(QStringLiteral(" W")),
             qPrintable(hovered.last()[0].toString()));
    // The wheel zooms in around the pointer and stops following.
    QWheelEvent wheel(QPointF(mid), vp->mapToGlobal(QPointF(mid)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(vp, &wheel);
    QVERIFY(!chart_->following());
    const auto [a, b] = chart_->visibleRange();
    QVERIFY2(b - a < 70.0 && a > 0.0 && b < 100.0, qPrintable(QStringLiteral("%1..%2").arg(a).arg(b)));
    // A right-button drag pans: dragging to the right shows earlier times.
    chart_->redraw();
    QTest::mousePress(vp, Qt::RightButton, Qt::NoModifier, mid);
    QMouseEvent drag(QEvent::MouseMove, QPointF(mid + QPoint(100, 0)),
                     vp->mapToGlobal(QPointF(mid + QPoint(100, 0))), Qt::NoButton, Qt::RightButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(vp, &drag);
    QTest::mouseRelease(vp, Qt::RightButton, Qt::NoModifier, mid + QPoint(100, 0));
    QVERIFY(chart_->visibleRange().first < a);
    QCOMPARE(chart_->visibleRange().second - chart_->visibleRange().first, b - a);
    // A double-click goes back to the whole run, following.
    QTest::mouseDClick(vp, Qt::LeftButton, Qt::NoModifier, mid);
    QVERIFY(chart_->following());
    chart_->redraw();
    // A left-button drag (rubber band) zooms to the span dragged over.
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, mid - QPoint(150, 0));
    QMouseEvent band(QEvent::MouseMove, QPointF(mid + QPoint(150, 0)),
                     vp->mapToGlobal(QPointF(mid + QPoint(150, 0))), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(vp, &band);
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, mid + QPoint(150, 0));
    QVERIFY(!chart_->following());
    const auto [c, e] = chart_->visibleRange();
    QVERIFY2(c > 10.0 && e < 90.0 && e - c > 20.0 && e - c < 60.0,
             qPrintable(QStringLiteral("%1..%2").arg(c).arg(e)));
}

void TestPowerChart::exportsPngAndSvg()
{
    auto store = std::make_shared<SampleStore>();
    store->appendBatch(samples(0, 500));
    chart_->setSource(store, kOrigin, false);
    chart_->setBands({{0.0, 10.0, 20.0, 0.1}});
    chart_->redraw();
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    const QString svg = dir.filePath(QStringLiteral("chart.svg"));
    QVERIFY(chart_->savePng(png, QStringLiteral("test run · sim")));
    QVERIFY(chart_->saveSvg(svg, QStringLiteral("test run · sim")));
    QImage img(png);
    QVERIFY(!img.isNull());
    QVERIFY(img.width() >= chart_->width());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg") && text.contains("test run"));
    // A folder that does not exist is an error naming the path, not a silent failure.
    const auto bad = chart_->savePng(dir.filePath(QStringLiteral("no/such/dir/c.png")));
    QVERIFY(!bad);
    QVERIFY(QString::fromStdString(bad.error()).contains(QStringLiteral("no/such/dir")));
}

void TestPowerChart::onlyOneFileIncludesQtCharts()
{
    // The dashboard's rule: the chart base and the adapters alone know Qt Charts, so the back
    // end can go (here: the base, ChartFrame, the power chart, the ratio chart and the Library
    // page's trend chart).
    QStringList offenders;
    for (const QString& room :
         {QStringLiteral("ui/chart"), QStringLiteral("ui/common"), QStringLiteral("ui/measure"),
          QStringLiteral("ui"), QStringLiteral("app/gui")}) {
        QDir dir(QStringLiteral(JB_SOURCE_DIR "/") + room);
        for (const QString& name :
             dir.entryList({QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files)) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            if (text.contains("#include <QtCharts") || text.contains("#include <QChart") ||
                text.contains("#include <QLineSeries"))
                offenders << room + QLatin1Char('/') + name;
        }
    }
    QCOMPARE(
        offenders,
        (QStringList{QStringLiteral("ui/chart/ChartFrame.cpp"), QStringLiteral("ui/chart/PowerChart.cpp"),
                     QStringLiteral("ui/chart/RatioChart.cpp"), QStringLiteral("ui/chart/TrendChart.cpp")}));
}

QTEST_MAIN(TestPowerChart)
#include "tst_powerchart.moc"
