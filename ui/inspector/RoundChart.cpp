// The Inspector's one file that includes Qt Charts (beside ui/chart/ChartFrame.cpp).
#include "inspector/RoundChart.h"

#include "chart/AxisTicks.h"

#include "common/Palette.h"

#include <QPainter>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace jb {

namespace {

constexpr double kMarkerSize = 11.0;

constexpr auto niceStep = ticks::nearestStep;

}  // namespace

struct RoundChart::Impl {
    std::vector<RoundMarkSeries> series;  // what is shown
    QValueAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    // Each scatter series of the chart: which RoundMarkSeries and which marks its points are.
    struct Scatter {
        QScatterSeries* s;
        int series;
        std::vector<int> marks;
    };
    std::vector<Scatter> scatters;
};

void RoundChart::paintBeneath(QPainter* p, const QRectF&) const
{
    const auto xAt = [this](double x) { return sceneX(x, d->ax->min(), d->ax->max()); };
    const auto yAt = [this](double y) { return sceneY(y, d->ay->min(), d->ay->max()); };
    for (const RoundMarkSeries& s : d->series) {
        QColor c = s.outline;
        c.setAlpha(190);
        p->setPen(QPen(c, 1.4));
        for (const RoundMark& m : s.marks) {
            if (!m.sd || !(*m.sd > 0))
                continue;
            const double x = xAt(m.round + 1 + s.x_offset);
            const double y0 = yAt(m.value - *m.sd), y1 = yAt(m.value + *m.sd);
            p->drawLine(QPointF(x, y0), QPointF(x, y1));
            p->drawLine(QPointF(x - 4, y0), QPointF(x + 4, y0));
            p->drawLine(QPointF(x - 4, y1), QPointF(x + 4, y1));
        }
    }
}

namespace {

ChartLook roundLook()
{
    ChartLook look;
    look.transparent = true;  // the view paints the sd bars beneath the points
    look.svg_title = QStringLiteral("JouleBench energy per decode by round");
    look.svg_description = QStringLiteral(
        "Marginal energy per decode of each round with one-sd bars, made by JouleBench");
    return look;
}

}  // namespace

RoundChart::RoundChart(QWidget* parent) : ChartFrame(roundLook(), parent), d(std::make_unique<Impl>())
{
    chart()->legend()->setAlignment(Qt::AlignBottom);
    d->ax = new QValueAxis;
    d->ax->setTickType(QValueAxis::TicksDynamic);
    d->ay = new QValueAxis;
    d->ay->setTickType(QValueAxis::TicksDynamic);
    addAxis(d->ax, Qt::AlignBottom, QStringLiteral("round"));
    addAxis(d->ay, Qt::AlignLeft);
    setView();
    chartView()->setMouseTracking(true);
    clear(QStringLiteral("No rounds"));
}

RoundChart::~RoundChart() = default;

void RoundChart::clear(const QString& placeholder)
{
    chart()->removeAllSeries();
    d->scatters.clear();
    d->series.clear();
    keepValueAxisFitted(d->ay, std::nullopt);
    showPlaceholder(placeholder);
    d->ax->setRange(0.5, 1.5);
    d->ay->setRange(0, 1);
    chart()->legend()->hide();
    chartView()->viewport()->update();
}

void RoundChart::setSeries(std::vector<RoundMarkSeries> series, const QString& yTitle)
{
    chart()->removeAllSeries();
    d->scatters.clear();
    d->series = std::move(series);
    int maxRound = 0;
    double lo = INFINITY, hi = -INFINITY;
    int marks = 0;
    for (const RoundMarkSeries& s : d->series) {
        for (const RoundMark& m : s.marks) {
            maxRound = std::max(maxRound, m.round + 1);
            const double sd = m.sd && std::isfinite(*m.sd) ? *m.sd : 0.0;
            lo = std::min(lo, m.value - sd);
            hi = std::max(hi, m.value + sd);
            ++marks;
        }
        if (s.median) {
            lo = std::min(lo, *s.median);
            hi = std::max(hi, *s.median);
        }
    }
    if (marks == 0) {
        clear(tr("No round has a marginal energy and a decode to show."));
        return;
    }
    hidePlaceholder();

    // Verdicts in the order of trust, each in the legend once.
    static const std::optional<Verdict> kOrder[] = {Verdict::Clean, Verdict::RelativeOnly, Verdict::Noisy,
                                                    Verdict::Unusable, std::nullopt};
    std::set<QString> inLegend;
    for (int si = 0; si < int(d->series.size()); ++si) {
        const RoundMarkSeries& s = d->series[std::size_t(si)];
        for (const auto& v : kOrder) {
            Impl::Scatter sc{new QScatterSeries, si, {}};
            QList<QPointF> pts;
            for (int mi = 0; mi < int(s.marks.size()); ++mi) {
                const RoundMark& m = s.marks[std::size_t(mi)];
                if (m.verdict == v) {
                    pts.append(QPointF(m.round + 1 + s.x_offset, m.value));
                    sc.marks.push_back(mi);
                }
            }
            if (pts.isEmpty()) {
                delete sc.s;
                continue;
            }
            const VerdictStyle vs = verdictStyle(v);
            sc.s->setName(vs.text);
            sc.s->setMarkerShape(s.square ? QScatterSeries::MarkerShapeRectangle
                                          : QScatterSeries::MarkerShapeCircle);
            sc.s->setMarkerSize(kMarkerSize);
            sc.s->setColor(vs.background);
            sc.s->setBorderColor(s.outline);
            QPen pen(s.outline);
            pen.setWidthF(1.3);
            sc.s->setPen(pen);
            sc.s->replace(pts);
            chart()->addSeries(sc.s);
            sc.s->attachAxis(d->ax);
            sc.s->attachAxis(d->ay);
            const bool first = inLegend.insert(vs.text).second;
            for (QLegendMarker* lm : chart()->legend()->markers(sc.s))
                lm->setVisible(first);
            d->scatters.push_back(std::move(sc));
        }
        if (s.median) {
            auto* line = new QLineSeries;
            QPen pen(s.outline);
            pen.setWidthF(1.4);
            pen.setStyle(Qt::DashLine);
            line->setPen(pen);
            line->setName(s.name.isEmpty() ? tr("median") : tr("%1 median").arg(s.name));
            line->append(0.5, *s.median);
            line->append(maxRound + 0.5, *s.median);
            chart()->addSeries(line);
            line->attachAxis(d->ax);
            line->attachAxis(d->ay);
        }
    }
    for (const Impl::Scatter& sc : d->scatters)
        hoverPoints(sc.s, [this, series = sc.series, marks = sc.marks](qsizetype i) {
            return describe(series, marks[std::size_t(i)]);
        });
    chart()->legend()->show();

    // Axes: rounds 1..N with room for the side-by-side offset; values padded by 8 %.
    double span = hi - lo;
    if (!(span > 0))
        span = std::max(std::abs(hi) * 0.1, 1e-9);
    lo -= span * 0.08;
    hi += span * 0.08;
    keepValueAxisFitted(d->ay, std::pair{lo, hi});
    d->ay->setTitleText(yTitle);
    // About six labels: a narrow side panel cannot fit one per round.
    const double xstep = std::max(1.0, niceStep(maxRound / 6.0));
    setValueScale(d->ax, 0.5, maxRound + 0.5, xstep);
    chartView()->viewport()->update();
}

int RoundChart::markCount() const
{
    int n = 0;
    for (const Impl::Scatter& sc : d->scatters)
        n += int(sc.s->count());
    return n;
}

int RoundChart::seriesCount() const
{
    return int(d->series.size());
}

std::pair<double, double> RoundChart::yRange() const
{
    return {d->ay->min(), d->ay->max()};
}

std::pair<double, double> RoundChart::xRange() const
{
    return {d->ax->min(), d->ax->max()};
}

QString RoundChart::describe(int series, int mark) const
{
    if (series < 0 || series >= int(d->series.size()))
        return {};
    const RoundMarkSeries& s = d->series[std::size_t(series)];
    if (mark < 0 || mark >= int(s.marks.size()))
        return {};
    const RoundMark& m = s.marks[std::size_t(mark)];
    if (!m.tip.isEmpty())
        return m.tip;
    return QStringLiteral("round %1: %2").arg(m.round + 1).arg(m.value);
}

}  // namespace jb
