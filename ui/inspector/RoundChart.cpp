// The Inspector's one file that includes Qt Charts.
#include "inspector/RoundChart.h"

#include "chart/AxisTicks.h"

#include "common/Palette.h"
#include "record/AtomicWrite.h"

#include <QBuffer>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
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

constexpr int kTitleHeight = 34;
constexpr double kMarkerSize = 11.0;

using ticks::labelFormat;
constexpr auto niceStep = ticks::nearestStep;

class View : public QChartView {
public:
    View(QChart* chart, RoundChart::Impl* d) : QChartView(chart), d_(d) {}

protected:
    void drawBackground(QPainter* p, const QRectF& rect) override;

private:
    RoundChart::Impl* d_;
};

}  // namespace

struct RoundChart::Impl {
    RoundChart* q;
    QChart* chart = nullptr;
    QValueAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    View* view = nullptr;
    QLabel* placeholder = nullptr;
    std::vector<RoundMarkSeries> series;
    // Each scatter series of the chart: which RoundMarkSeries and which marks its points are.
    struct Scatter {
        QScatterSeries* s;
        int series;
        std::vector<int> marks;
    };
    std::vector<Scatter> scatters;

    // The values' range, padded (none: nothing shown); the y axis is fitted to it and to the
    // plot's height, again whenever the plot is resized.
    std::optional<std::pair<double, double>> y_range;
    bool fitting = false;

    explicit Impl(RoundChart* owner) : q(owner) {}

    void fitYAxis()
    {
        if (!y_range || fitting)
            return;
        fitting = true;
        const auto [lo, hi] = *y_range;
        // About six ticks, fewer where the plot is too short to label them all.
        const ticks::Scale y = ticks::fitScale(lo, hi, niceStep((hi - lo) / 6.0), chart->plotArea().height(),
                                               QFontMetricsF(ay->labelsFont()).height());
        if (ay->min() != y.lo || ay->max() != y.hi)
            ay->setRange(y.lo, y.hi);
        ay->setTickAnchor(0.0);
        if (ay->tickInterval() != y.step)
            ay->setTickInterval(y.step);
        ay->setLabelFormat(labelFormat(y.step));
        fitting = false;
    }

    QRectF plotInScene() const { return chart->mapToScene(chart->plotArea()).boundingRect(); }
    double xAt(double x) const
    {
        const QRectF pa = plotInScene();
        return ticks::toPixel(x, ax->min(), ax->max(), pa.left(), pa.width());
    }
    double yAt(double y) const
    {
        const QRectF pa = plotInScene();
        return ticks::toPixel(y, ay->min(), ay->max(), pa.bottom(), -pa.height());
    }

    void removeAll()
    {
        for (QAbstractSeries* s : chart->series()) {
            chart->removeSeries(s);
            delete s;
        }
        scatters.clear();
    }

    void onHover(const Scatter& sc, const QPointF& point, bool state)
    {
        if (!state) {
            QToolTip::hideText();
            emit q->hovered(QString());
            return;
        }
        const QList<QPointF> pts = sc.s->points();
        for (qsizetype i = 0; i < pts.size(); ++i) {
            if (pts[i] == point) {
                const QString text = q->describe(sc.series, sc.marks[std::size_t(i)]);
                QToolTip::showText(QCursor::pos(), text, view);
                emit q->hovered(text);
                return;
            }
        }
    }
};

void View::drawBackground(QPainter* p, const QRectF& rect)
{
    p->fillRect(rect, palette().base());
    if (d_->series.empty())
        return;
    const QRectF pa = d_->plotInScene();
    p->save();
    p->setClipRect(pa.adjusted(-1, -1, 1, 1));
    p->setRenderHint(QPainter::Antialiasing);
    for (const RoundMarkSeries& s : d_->series) {
        QColor c = s.outline;
        c.setAlpha(190);
        p->setPen(QPen(c, 1.4));
        for (const RoundMark& m : s.marks) {
            if (!m.sd || !(*m.sd > 0))
                continue;
            const double x = d_->xAt(m.round + 1 + s.x_offset);
            const double y0 = d_->yAt(m.value - *m.sd), y1 = d_->yAt(m.value + *m.sd);
            p->drawLine(QPointF(x, y0), QPointF(x, y1));
            p->drawLine(QPointF(x - 4, y0), QPointF(x + 4, y0));
            p->drawLine(QPointF(x - 4, y1), QPointF(x + 4, y1));
        }
    }
    p->restore();
}

RoundChart::RoundChart(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>(this))
{
    d->chart = new QChart;
    d->chart->setAnimationOptions(QChart::NoAnimation);
    d->chart->setBackgroundVisible(false);
    d->chart->setPlotAreaBackgroundVisible(false);
    d->chart->setMargins(QMargins(4, 6, 10, 4));
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->ax = new QValueAxis;
    d->ax->setTitleText(QStringLiteral("round"));
    d->ax->setTickType(QValueAxis::TicksDynamic);
    d->ay = new QValueAxis;
    d->ay->setTickType(QValueAxis::TicksDynamic);
    for (QValueAxis* a : {d->ax, d->ay}) {
        QPen grid = a->gridLinePen();
        grid.setColor(palette::gridLine());
        a->setGridLinePen(grid);
        a->setMinorGridLineVisible(false);
    }
    d->chart->addAxis(d->ax, Qt::AlignBottom);
    d->chart->addAxis(d->ay, Qt::AlignLeft);
    connect(d->chart, &QChart::plotAreaChanged, this, [this] { d->fitYAxis(); });

    d->view = new View(d->chart, d.get());
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setFrameShape(QFrame::NoFrame);
    d->view->setMouseTracking(true);

    d->placeholder = new QLabel(this);
    d->placeholder->setAlignment(Qt::AlignCenter);
    d->placeholder->setWordWrap(true);
    d->placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    d->placeholder->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 12pt;"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(d->view, 0, 0);
    grid->addWidget(d->placeholder, 0, 0, Qt::AlignCenter);
    clear(QStringLiteral("No rounds"));
}

RoundChart::~RoundChart() = default;

void RoundChart::clear(const QString& placeholder)
{
    d->removeAll();
    d->series.clear();
    d->y_range.reset();
    d->placeholder->setText(placeholder);
    d->placeholder->setVisible(true);
    d->ax->setRange(0.5, 1.5);
    d->ay->setRange(0, 1);
    d->chart->legend()->hide();
    d->view->viewport()->update();
}

void RoundChart::setSeries(std::vector<RoundMarkSeries> series, const QString& yTitle)
{
    d->removeAll();
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
    d->placeholder->setVisible(false);

    // Verdicts in the order of trust, each in the legend once.
    static const std::optional<std::string> kOrder[] = {std::string("clean"), std::string("relative-only"),
                                                        std::string("noisy"), std::string("unusable"),
                                                        std::nullopt};
    std::set<QString> inLegend;
    for (int si = 0; si < int(d->series.size()); ++si) {
        const RoundMarkSeries& s = d->series[std::size_t(si)];
        for (const auto& v : kOrder) {
            Impl::Scatter sc{new QScatterSeries, si, {}};
            QList<QPointF> pts;
            for (int mi = 0; mi < int(s.marks.size()); ++mi) {
                const RoundMark& m = s.marks[std::size_t(mi)];
                const bool known = m.verdict &&
                    (*m.verdict == "clean" || *m.verdict == "relative-only" || *m.verdict == "noisy" ||
                     *m.verdict == "unusable");
                if ((v && known && *m.verdict == *v) || (!v && !known)) {
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
            d->chart->addSeries(sc.s);
            sc.s->attachAxis(d->ax);
            sc.s->attachAxis(d->ay);
            const bool first = inLegend.insert(vs.text).second;
            for (QLegendMarker* lm : d->chart->legend()->markers(sc.s))
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
            d->chart->addSeries(line);
            line->attachAxis(d->ax);
            line->attachAxis(d->ay);
        }
    }
    for (const Impl::Scatter& sc : d->scatters) {
        const Impl::Scatter* p = &sc;
        connect(sc.s, &QScatterSeries::hovered, this,
                [this, p](const QPointF& pt, bool state) { d->onHover(*p, pt, state); });
    }
    d->chart->legend()->show();

    // Axes: rounds 1..N with room for the side-by-side offset; values padded by 8 %.
    double span = hi - lo;
    if (!(span > 0))
        span = std::max(std::abs(hi) * 0.1, 1e-9);
    lo -= span * 0.08;
    hi += span * 0.08;
    d->y_range = std::pair{lo, hi};
    d->fitYAxis();
    d->ay->setTitleText(yTitle);
    // About six labels: a narrow side panel cannot fit one per round.
    const double xstep = std::max(1.0, niceStep(maxRound / 6.0));
    d->ax->setRange(0.5, maxRound + 0.5);
    d->ax->setTickAnchor(0.0);
    d->ax->setTickInterval(xstep);
    d->ax->setLabelFormat(QStringLiteral("%.0f"));
    d->view->viewport()->update();
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

QString RoundChart::placeholderText() const
{
    return d->placeholder->isVisible() ? d->placeholder->text() : QString();
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

QImage RoundChart::toImage(const QString& title) const
{
    const QSize chartSize = d->view->viewport()->size();
    const QSize size(chartSize.width(), chartSize.height() + (title.isEmpty() ? 0 : kTitleHeight));
    const qreal dpr = 2.0;
    QImage img(size * dpr, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(palette().base().color());
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    QRectF target(QPointF(0, 0), QSizeF(size));
    if (!title.isEmpty()) {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.2);
        f.setBold(true);
        p.setFont(f);
        p.setPen(palette().text().color());
        p.drawText(QRectF(12, 0, size.width() - 24, kTitleHeight), Qt::AlignLeft | Qt::AlignVCenter, title);
        target.setTop(kTitleHeight);
    }
    d->view->render(&p, target, d->view->viewport()->rect(), Qt::KeepAspectRatio);
    return img;
}

Status RoundChart::savePng(const QString& path, const QString& title) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!toImage(title).save(&buffer, "PNG"))
        return Error{"cannot encode the chart as PNG for " + path.toStdString()};
    return writeFileAtomic(path.toStdString(),
                           std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

Status RoundChart::saveSvg(const QString& path, const QString& title) const
{
    const QSize chartSize = d->view->viewport()->size();
    const QSize size(chartSize.width(), chartSize.height() + (title.isEmpty() ? 0 : kTitleHeight));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setTitle(title.isEmpty() ? QStringLiteral("JouleBench energy per decode by round") : title);
    gen.setDescription(
        QStringLiteral("Marginal energy per decode of each round with one-sd bars, made by JouleBench"));
    QPainter p;
    if (!p.begin(&gen))
        return Error{"cannot draw the chart as SVG for " + path.toStdString()};
    QRectF target(QPointF(0, 0), QSizeF(size));
    if (!title.isEmpty()) {
        p.setPen(palette().text().color());
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        p.drawText(QRectF(12, 0, size.width() - 24, kTitleHeight), Qt::AlignLeft | Qt::AlignVCenter, title);
        target.setTop(kTitleHeight);
    }
    d->view->render(&p, target, d->view->viewport()->rect(), Qt::KeepAspectRatio);
    p.end();
    return writeFileAtomic(path.toStdString(),
                           std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

}  // namespace jb
