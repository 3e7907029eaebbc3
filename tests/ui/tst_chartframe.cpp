// The chart base on its own, through a small adapter: a value axis kept fitted to a range as
// the plot is resized (and let go when the range goes), the frame's view painting what an
// adapter draws beneath its series only where its look says so, and hovering a point saying
// the adapter's text for that point in the tooltip and in hovered().
#include "chart/ChartFrame.h"

#include <QPainter>
#include <QSignalSpy>
#include <QtCharts/QChart>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>

#include <optional>
#include <utility>

namespace {

jb::ChartLook probeLook(bool transparent)
{
    jb::ChartLook look;
    look.transparent = transparent;
    return look;
}

// An adapter with one scatter series of three points, which paints its plot area pure red
// beneath them and counts how often it did.
class Probe : public jb::ChartFrame {
public:
    explicit Probe(bool transparent) : ChartFrame(probeLook(transparent), nullptr)
    {
        ax = addAxis(new QValueAxis, Qt::AlignBottom);
        ay = addAxis(new QValueAxis, Qt::AlignLeft);
        ax->setRange(0, 4);
        ay->setRange(0, 10);
        points = new QScatterSeries;
        points->append({{1, 2}, {2, 5}, {3, 8}});
        attach(points, ax, ay);
        setView();
    }

    using ChartFrame::hoverPoints;
    using ChartFrame::keepValueAxisFitted;

    void paintBeneath(QPainter* p, const QRectF& plot) const override
    {
        ++paints;
        painted_plot = plot;
        p->fillRect(plot, Qt::red);
    }

    QValueAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    QScatterSeries* points = nullptr;
    mutable int paints = 0;
    mutable QRectF painted_plot;
};

}  // namespace

class TestChartFrame : public QObject {
    Q_OBJECT
private slots:
    void keepsTheValueAxisFittedAsThePlotResizes();
    void paintsBeneathOnlyWhereTheLookIsTransparent();
    void hoveringAPointSaysItsText();
};

void TestChartFrame::keepsTheValueAxisFittedAsThePlotResizes()
{
    Probe probe(false);
    probe.resize(600, 500);
    probe.show();
    QVERIFY(QTest::qWaitForWindowExposed(&probe));
    probe.keepValueAxisFitted(probe.ay, std::pair(0.0, 97.0));
    QVERIFY(probe.ay->min() <= 0.0 && probe.ay->max() >= 97.0);
    const double tall = probe.ay->tickInterval();
    QVERIFY(tall > 0);

    // A plot too short for six labels: the same range is fitted again with fewer, coarser ticks.
    probe.resize(600, 110);
    QTRY_VERIFY(probe.ay->tickInterval() > tall);
    QVERIFY(probe.ay->min() <= 0.0 && probe.ay->max() >= 97.0);
    const double shortStep = probe.ay->tickInterval();

    // A new range is fitted at once, and kept as the plot grows back.
    probe.keepValueAxisFitted(probe.ay, std::pair(-5.0, 5.0));
    QVERIFY(probe.ay->min() <= -5.0 && probe.ay->max() >= 5.0 && probe.ay->max() < 97.0);
    probe.resize(600, 500);
    QTRY_VERIFY(probe.ay->tickInterval() < shortStep);
    QVERIFY(probe.ay->min() <= -5.0 && probe.ay->max() >= 5.0);

    // No range (nothing shown): the axis is left as the adapter sets it.
    probe.keepValueAxisFitted(probe.ay, std::nullopt);
    probe.ay->setRange(0, 1);
    probe.resize(600, 120);
    QTest::qWait(50);
    QCOMPARE(probe.ay->min(), 0.0);
    QCOMPARE(probe.ay->max(), 1.0);
}

void TestChartFrame::paintsBeneathOnlyWhereTheLookIsTransparent()
{
    for (const bool transparent : {true, false}) {
        Probe probe(transparent);
        probe.resize(500, 320);
        probe.show();
        QVERIFY(QTest::qWaitForWindowExposed(&probe));
        const QImage img = probe.toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!img.isNull());
        // Between the points, near the plot's bottom-right corner: red only where it painted.
        const QPointF inPlot = probe.painted_plot.isEmpty()
            ? QPointF(img.width() / img.devicePixelRatio() * 0.9, img.height() / img.devicePixelRatio() * 0.8)
            : probe.painted_plot.bottomRight() - QPointF(6, 6);
        const QColor at = img.pixelColor((inPlot * img.devicePixelRatio()).toPoint());
        if (transparent) {
            QVERIFY(probe.paints > 0);
            QVERIFY2(at.red() > 200 && at.green() < 60 && at.blue() < 60, qPrintable(at.name()));
        } else {
            QCOMPARE(probe.paints, 0);
            QVERIFY2(!(at.red() > 200 && at.green() < 60), qPrintable(at.name()));
        }
    }
}

void TestChartFrame::hoveringAPointSaysItsText()
{
    Probe probe(true);
    probe.resize(400, 300);
    probe.show();
    QVERIFY(QTest::qWaitForWindowExposed(&probe));
    probe.hoverPoints(probe.points, [](qsizetype i) { return QStringLiteral("point %1").arg(i); });
    QSignalSpy said(&probe, &jb::ChartFrame::hovered);
    emit probe.points->hovered(QPointF(2, 5), true);
    QCOMPARE(said.size(), 1);
    QCOMPARE(said.last()[0].toString(), QStringLiteral("point 1"));
    emit probe.points->hovered(QPointF(3, 8), true);
    QCOMPARE(said.last()[0].toString(), QStringLiteral("point 2"));
    // Leaving a point says nothing; a point the series does not hold says nothing new.
    emit probe.points->hovered(QPointF(3, 8), false);
    QCOMPARE(said.size(), 3);
    QVERIFY(said.last()[0].toString().isEmpty());
    emit probe.points->hovered(QPointF(7, 7), true);
    QCOMPARE(said.size(), 3);
}

QTEST_MAIN(TestChartFrame)
#include "tst_chartframe.moc"
