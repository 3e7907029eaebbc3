// With ChartFrame.cpp and the other adapters, the only code that includes Qt Charts.
#include "chart/TrendChart.h"

#include "chart/AxisTicks.h"
#include "common/Palette.h"

#include <QPainter>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace jb {

namespace {

constexpr int kMostLabels = 12;  // x labels shown at most (every k-th point beyond that)

ChartLook trendLook()
{
    ChartLook look;
    look.transparent = true;  // the view paints the interval bars and regression shading beneath
    look.minimum = QSize(360, 200);
    look.svg_title = QStringLiteral("JouleBench energy per decode over time");
    look.svg_description =
        QStringLiteral("Median energy per decode of a label by commit or date, with 95% intervals, made by JouleBench");
    return look;
}

}  // namespace

struct TrendChart::Impl {
    std::vector<TrendMark> marks;
    QCategoryAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    QScatterSeries* points = nullptr;       // ordinary points
    QScatterSeries* regressions = nullptr;  // points marked as a regression
    std::vector<int> pointMarks, regressionMarks;  // which mark each scatter point is
    int bars = 0;

    void removeSeries(QChart* chart)
    {
        chart->removeAllSeries();
        points = regressions = nullptr;
        pointMarks.clear();
        regressionMarks.clear();
        bars = 0;
        for (const QString& l : ax->categoriesLabels())
            ax->remove(l);
    }
};

void TrendChart::paintBeneath(QPainter* p, const QRectF& pa) const
{
    if (d->marks.empty())
        return;
    const auto xAt = [this](double x) { return sceneX(x, d->ax->min(), d->ax->max()); };
    const auto yAt = [this](double y) { return sceneY(y, d->ay->min(), d->ay->max()); };
    const double half = std::max(2.0, (xAt(1) - xAt(0)) * 0.4);
    QColor shade = palette::errorText();
    shade.setAlpha(40);
    QColor bar = palette::recordA();
    bar.setAlpha(200);
    for (std::size_t i = 0; i < d->marks.size(); ++i) {
        const TrendMark& m = d->marks[i];
        const double x = xAt(double(i));
        if (m.regression)
            p->fillRect(QRectF(x - half, pa.top(), 2 * half, pa.height()), shade);
        if (!m.low || !m.high)
            continue;
        p->setPen(QPen(m.regression ? palette::errorText() : bar, 1.6));
        const double y0 = yAt(*m.low), y1 = yAt(*m.high);
        const double cap = std::min(5.0, half);
        p->drawLine(QPointF(x, y0), QPointF(x, y1));
        p->drawLine(QPointF(x - cap, y0), QPointF(x + cap, y0));
        p->drawLine(QPointF(x - cap, y1), QPointF(x + cap, y1));
    }
}

TrendChart::TrendChart(QWidget* parent) : ChartFrame(trendLook(), parent), d(std::make_unique<Impl>())
{
    d->ax = new QCategoryAxis;
    d->ax->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    d->ay = new QValueAxis;
    d->ay->setTickType(QValueAxis::TicksDynamic);
    addAxis(d->ax, Qt::AlignBottom);
    addAxis(d->ay, Qt::AlignLeft);
    setView();
    chartView()->setMouseTracking(true);
    clear(tr("Select a record to see its label's trend"));
}

TrendChart::~TrendChart() = default;

void TrendChart::clear(const QString& placeholder)
{
    d->removeSeries(chart());
    d->marks.clear();
    keepValueAxisFitted(d->ay, std::nullopt);
    chart()->setTitle(QString());
    d->ax->setRange(-0.5, 0.5);
    setValueScale(d->ay, 0, 1, 0.25);
    showPlaceholder(placeholder);
    chartView()->viewport()->update();
}

void TrendChart::setTrend(std::vector<TrendMark> marks, const QString& title, const QString& yTitle)
{
    d->removeSeries(chart());
    d->marks = std::move(marks);
    keepValueAxisFitted(d->ay, std::nullopt);
    double lo = INFINITY, hi = -INFINITY;
    for (const TrendMark& m : d->marks)
        for (const auto& v : {m.median, m.low, m.high})
            if (v && std::isfinite(*v)) {
                lo = std::min(lo, *v);
                hi = std::max(hi, *v);
            }
    if (!(lo <= hi)) {
        clear(tr("No point of this trend has rounds to show"));
        return;
    }
    hidePlaceholder();
    chart()->setTitle(title);
    d->ay->setTitleText(yTitle);

    auto* line = new QLineSeries;
    QPen linePen(palette::recordA());
    linePen.setWidthF(1.2);
    line->setPen(linePen);
    d->points = new QScatterSeries;
    d->points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    d->points->setMarkerSize(9);
    d->points->setColor(palette::recordA());
    d->points->setBorderColor(palette::darkInk());
    d->regressions = new QScatterSeries;
    d->regressions->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    d->regressions->setMarkerSize(12);
    d->regressions->setColor(palette::errorText());
    d->regressions->setBorderColor(palette::darkInk());
    const int n = int(d->marks.size());
    for (int i = 0; i < n; ++i) {
        const TrendMark& m = d->marks[std::size_t(i)];
        if (m.low && m.high)
            ++d->bars;
        if (!m.median)
            continue;
        line->append(double(i), *m.median);
        if (m.regression) {
            d->regressions->append(double(i), *m.median);
            d->regressionMarks.push_back(i);
        } else {
            d->points->append(double(i), *m.median);
            d->pointMarks.push_back(i);
        }
    }
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(d->points),
                               static_cast<QAbstractSeries*>(d->regressions)})
        attach(s, d->ax, d->ay);
    hoverPoints(d->points, [this](qsizetype i) { return describe(d->pointMarks[std::size_t(i)]); });
    hoverPoints(d->regressions, [this](qsizetype i) { return describe(d->regressionMarks[std::size_t(i)]); });

    // Every k-th key along x (a category axis labels values; labels must differ).
    const int step = std::max(1, (n + kMostLabels - 1) / kMostLabels);
    std::set<QString> used;
    d->ax->setStartValue(-0.5);
    for (int i = 0; i < n; i += step) {
        QString label = d->marks[std::size_t(i)].key;
        while (!used.insert(label).second)
            label += QLatin1Char(' ');
        d->ax->append(label, double(i));
    }
    d->ax->setRange(-0.5, double(n) - 0.5);

    const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(hi) * 0.05, 1e-9);
    keepValueAxisFitted(d->ay, std::pair(lo - pad, hi + pad));
    chartView()->viewport()->update();
}

const std::vector<TrendMark>& TrendChart::marks() const
{
    return d->marks;
}

int TrendChart::pointCount() const
{
    return int(d->pointMarks.size() + d->regressionMarks.size());
}

int TrendChart::barCount() const
{
    return d->bars;
}

int TrendChart::regressionCount() const
{
    return d->regressions ? int(d->regressions->count()) : 0;
}

std::pair<double, double> TrendChart::yRange() const
{
    return {d->ay->min(), d->ay->max()};
}

QStringList TrendChart::axisLabels() const
{
    QStringList out;
    for (const QString& l : d->ax->categoriesLabels())
        out << l.trimmed();
    return out;
}

QString TrendChart::describe(int mark) const
{
    if (mark < 0 || mark >= int(d->marks.size()))
        return {};
    return d->marks[std::size_t(mark)].tip;
}

}  // namespace jb
