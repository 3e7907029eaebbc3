// With ChartFrame.cpp and the other adapters, the code that includes Qt Charts.
#include "chart/PowerChart.h"

#include "chart/AxisTicks.h"
#include "chart/ChartViewport.h"
#include "common/Palette.h"
#include <jb/sampling/SampleStore.h>

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QWheelEvent>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

constexpr int kPixelsPerColumn = 2;

using ticks::decimalsFor;
constexpr auto niceStep = ticks::nearestStep;

}  // namespace

// The chart view (a named class, as Impl holds one): paints the shading and bands beneath the
// series (drawBackground), the hover marker above (drawForeground), and turns the wheel and
// drags into zoom and pan.
class PowerChartView : public QChartView {
public:
    PowerChartView(QChart* chart, PowerChart::Impl* d) : QChartView(chart), d_(d) {}

protected:
    void drawBackground(QPainter* p, const QRectF& rect) override;
    void drawForeground(QPainter* p, const QRectF& rect) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    PowerChart::Impl* d_;
    bool panning_ = false;
    QPointF pan_from_;
    std::pair<double, double> pan_view_;
};

struct PowerChart::Impl {
    PowerChart* q;
    QLineSeries* series = nullptr;
    QValueAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    PowerChartView* view = nullptr;
    QString placeholder;  // what the chart says while it has no samples
    QTimer timer;

    std::shared_ptr<const SampleStore> store;
    std::int64_t origin_ns = 0;
    bool live = false;
    DecimationIndex index;
    std::size_t seen_size = 0;
    double newest_s = 0;  // end of the data shown (newest sample, or the frozen moment)

    std::vector<ChartShade> shades;
    std::vector<ChartBand> bands;
    std::vector<ChartPhase> phases;
    ChartViewport vp;
    bool dirty = true;   // the view changed (user, layout, new source): redraw at the next tick
    bool stale = false;  // the data or overlays changed: redraw at the live pace
    QElapsedTimer since_redraw;
    bool applying = false;  // our own axis changes, not the user's
    int points = 0;
    std::int64_t redraws = 0;
    std::optional<PlotPoint> hover;
    std::optional<PlotPoint> exportHover;  // the marker put aside while exporting
    std::vector<LegendEntry> shownLegend;  // as last announced by legendChanged

    explicit Impl(PowerChart* owner) : q(owner) {}

    // Tells the chart's listeners what a viewport change did.
    void changed(ChartViewport::Change c)
    {
        if (c.range || c.following || c.frozen)
            dirty = true;
        if (c.following)
            emit q->followingChanged(vp.following());
        if (c.frozen)
            emit q->frozenChanged(vp.frozen());
        if (c.range)
            emit q->visibleRangeChanged(vp.start(), vp.end());
    }

    // Mapping from values to scene coordinates, by the axes as they are drawn now.
    QRectF plotInScene() const { return q->plotInScene(); }
    double xAt(double t) const { return q->sceneX(t, ax->min(), ax->max()); }
    double yAt(double w) const { return q->sceneY(w, ay->min(), ay->max()); }
    double tAtViewX(double x) const
    {
        const QRectF pa = view->mapFromScene(plotInScene()).boundingRect();
        return ax->min() + (x - pa.left()) / std::max(1.0, pa.width()) * (ax->max() - ax->min());
    }
    bool insidePlot(QPointF viewPos) const
    {
        return view->mapFromScene(plotInScene()).boundingRect().contains(viewPos.toPoint());
    }

    // One decimation column per kPixelsPerColumn pixels: up to 4 points each, so at most two
    // points per pixel column reach the series (Qt Charts strokes every point's outline).
    int columns() const { return std::max(1, int(q->chart()->plotArea().width()) / kPixelsPerColumn); }

    void redraw();
    void applyAxes(double y0, double y1);
    void onUserRange(qreal min, qreal max)
    {
        if (applying)
            return;
        changed(vp.setRange(min, max));
    }
    void hoverAt(QPointF viewPos, QPoint globalPos);
    void legendMayHaveChanged()
    {
        std::vector<LegendEntry> now = q->legend();
        if (now == shownLegend)
            return;
        shownLegend = std::move(now);
        emit q->legendChanged();
    }
    void clearHover()
    {
        if (!hover)
            return;
        hover.reset();
        view->viewport()->update();
        q->showHover(QString(), QPoint());
    }
};

namespace {

ChartLook powerLook()
{
    ChartLook look;
    look.transparent = true;  // the view paints the shading and the bands beneath the series
    look.antialias = false;   // redraw() turns it on where the line is sparse
    look.svg_title = QStringLiteral("JouleBench power chart");
    look.svg_description = QStringLiteral("Power against time, made by JouleBench");
    return look;
}

}  // namespace

PowerChart::PowerChart(QWidget* parent) : ChartFrame(powerLook(), parent), d(std::make_unique<Impl>(this))
{
    d->series = new QLineSeries;
    QPen pen(palette::powerTrace());
    pen.setWidthF(1.0);
    pen.setCosmetic(true);  // the raster engine's fast stroker: thousands of points per redraw
    d->series->setPen(pen);
    chart()->addSeries(d->series);

    d->ax = new QValueAxis;
    d->ax->setTickType(QValueAxis::TicksDynamic);
    d->ay = new QValueAxis;
    d->ay->setTickType(QValueAxis::TicksDynamic);
    addAxis(d->ax, Qt::AlignBottom, QStringLiteral("seconds since start"));
    addAxis(d->ay, Qt::AlignLeft, QStringLiteral("W"));
    d->series->attachAxis(d->ax);
    d->series->attachAxis(d->ay);
    connect(d->ax, &QValueAxis::rangeChanged, this, [this](qreal a, qreal b) { d->onUserRange(a, b); });
    connect(chart(), &QChart::plotAreaChanged, this, [this] { d->dirty = true; });

    d->view = new PowerChartView(chart(), d.get());
    setView(d->view);
    d->view->setRubberBand(QChartView::HorizontalRubberBand);
    d->view->setCacheMode(QGraphicsView::CacheNone);
    d->view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    d->view->setMouseTracking(true);
    d->view->setFocusPolicy(Qt::StrongFocus);
    // What is under the pointer goes to the panel's read-out above the plot (hovered()): no
    // tooltip over the data. The controls are spelled out there while nothing is hovered.
    setHoverTooltip(false);

    d->timer.setInterval(kRedrawIntervalMs);
    connect(&d->timer, &QTimer::timeout, this, [this] {
        // What the user does is drawn at the next tick; what the run adds at most every
        // kLivePaceMs: at 100 ms samples a repaint per sample would cost more than the run.
        const bool grown = d->live && !d->vp.frozen() && d->store && d->store->size() != d->seen_size;
        const bool paced = !d->since_redraw.isValid() || d->since_redraw.elapsed() >= kLivePaceMs;
        if (d->dirty || ((grown || d->stale) && paced))
            redraw();
    });
    clear(QStringLiteral("No samples yet"));
}

PowerChart::~PowerChart() = default;

void PowerChart::setSource(std::shared_ptr<const SampleStore> store, std::int64_t origin_ns, bool live)
{
    d->store = std::move(store);
    d->origin_ns = origin_ns;
    d->live = live && d->store;
    d->index.clear();
    d->seen_size = 0;
    d->newest_s = 0;
    d->vp.newSource();
    if (d->store)
        hidePlaceholder();
    else
        showPlaceholder(d->placeholder);
    d->clearHover();
    d->dirty = true;
    d->legendMayHaveChanged();
}

void PowerChart::setLive(bool live)
{
    d->live = live && d->store;
    d->dirty = true;
}

void PowerChart::clear(const QString& placeholder)
{
    setSource(nullptr, 0, false);
    d->shades.clear();
    d->bands.clear();
    d->phases.clear();
    d->placeholder = placeholder;
    showPlaceholder(placeholder);
    redraw();
    d->legendMayHaveChanged();
}

void PowerChart::setShades(std::vector<ChartShade> shades)
{
    d->shades = std::move(shades);
    d->stale = true;
    d->legendMayHaveChanged();
}

void PowerChart::setBands(std::vector<ChartBand> bands)
{
    d->bands = std::move(bands);
    d->stale = true;  // the y range takes the bands in
    d->legendMayHaveChanged();
}

void PowerChart::setPhases(std::vector<ChartPhase> phases)
{
    d->phases = std::move(phases);
    d->stale = true;
    d->legendMayHaveChanged();
}

const std::vector<ChartPhase>& PowerChart::phases() const
{
    return d->phases;
}

void PowerChart::setSeriesName(const QString& name)
{
    d->series->setName(name);
    d->legendMayHaveChanged();
}

std::vector<LegendEntry> PowerChart::legend() const
{
    std::vector<LegendEntry> out;
    if (!d->store)
        return out;
    const QString name = d->series->name();
    out.push_back({LegendEntry::Line, d->series->pen().color(),
                   name.isEmpty() ? QStringLiteral("power (W)") : QStringLiteral("%1 power (W)").arg(name),
                   QStringLiteral("The counter's power: each sample's energy over its interval")});
    if (d->shades.empty() || d->shades.front().t0_s > 0)
        out.push_back({LegendEntry::Unshaded, QColor(), QStringLiteral("unshaded: child starting"),
                       QStringLiteral("Before the first idle bracket the child loads its jobs; no figure "
                                      "uses these seconds")});
    auto add = [&out](LegendEntry e) {
        for (const LegendEntry& x : out)
            if (x.mark == e.mark && x.text == e.text)
                return;
        out.push_back(std::move(e));
    };
    bool baseline = false;
    for (const ChartShade& s : d->shades) {
        if (s.kind == ChartShade::Idle)
            add({LegendEntry::Fill, s.color, QStringLiteral("idle bracket"),
                 QStringLiteral("Idle brackets: the machine at rest before each round and after the last")});
        baseline = baseline || s.baseline_w.has_value();
    }
    if (!d->bands.empty())
        add({LegendEntry::Band, palette::bandFill(), QStringLiteral("idle mean ± 1 sd"),
             QStringLiteral("The dark box: an idle bracket's mean power (its line) and one standard deviation "
                            "either side")});
    for (const ChartShade& s : d->shades)
        if (s.kind == ChartShade::Busy && !s.legend.isEmpty())
            add({LegendEntry::Fill, s.color, s.legend,
                 QStringLiteral("Busy windows (the rounds), coloured by %1")
                     .arg(s.legend.startsWith(QStringLiteral("workload")) ? QStringLiteral("workload")
                                                                          : QStringLiteral("verdict"))});
    for (const ChartPhase& ph : d->phases)
        add({LegendEntry::Fill, ph.color, QStringLiteral("phase ") + ph.name,
             QStringLiteral("The strips along the top: the phases the child marked (mark NAME) in each round")});
    if (baseline)
        add({LegendEntry::DashedLine, palette::bandMean(), QStringLiteral("idle baseline"),
             QStringLiteral("The dashed line: the idle power under a round (the mean of the brackets either "
                            "side); the round's marginal energy is what lies above it")});
    return out;
}

void PowerChart::setMinimumSpan(double seconds)
{
    d->vp.setMinimumSpan(seconds);
    d->dirty = true;
}

bool PowerChart::following() const
{
    return d->vp.following();
}

void PowerChart::setFollowing(bool follow)
{
    d->changed(d->vp.setFollowing(follow));
}

bool PowerChart::frozen() const
{
    return d->vp.frozen();
}

void PowerChart::setFrozen(bool frozen)
{
    std::optional<std::int64_t> end;
    if (frozen && d->store && d->store->size() > 0)
        end = d->store->slice(d->store->size() - 1, d->store->size()).front().t1_ns;
    d->changed(d->vp.setFrozen(frozen, end));
}

void PowerChart::resetView()
{
    d->changed(d->vp.resetView());
    d->dirty = true;
}

void PowerChart::setVisibleRange(double t0_s, double t1_s)
{
    d->changed(d->vp.setRange(t0_s, t1_s));
}

void PowerChart::zoom(double factor, double anchor_s)
{
    d->changed(d->vp.zoom(factor, anchor_s));
}

void PowerChart::pan(double dt_s)
{
    d->changed(d->vp.pan(dt_s));
}

std::pair<double, double> PowerChart::visibleRange() const
{
    return d->vp.range();
}

void PowerChart::redraw()
{
    d->redraw();
}

int PowerChart::pointCount() const
{
    return d->points;
}

int PowerChart::columns() const
{
    return d->columns();
}

std::int64_t PowerChart::redrawCount() const
{
    return d->redraws;
}

std::pair<double, double> PowerChart::yRange() const
{
    return {d->ay->min(), d->ay->max()};
}

double PowerChart::yTickStep() const
{
    return d->ay->tickInterval();
}

void PowerChart::Impl::redraw()
{
    ++redraws;
    dirty = false;
    stale = false;
    since_redraw.restart();
    std::vector<PlotPoint> pts;
    bool any = false;
    if (store) {
        const int cols = columns();
        store->read([&](const std::vector<Interval>& v) {
            index.update(v);  // reads only what arrived since the last redraw
            seen_size = v.size();
            std::span<const Interval> all(v);
            if (const auto frozenEnd = vp.frozenEnd()) {
                const auto end = std::partition_point(
                    all.begin(), all.end(), [&](const Interval& s) { return s.t1_ns <= *frozenEnd; });
                all = all.first(std::size_t(end - all.begin()));
            }
            if (all.empty())
                return;
            any = true;
            newest_s = double(all.back().t1_ns - origin_ns) * 1e-9;
            // Live, the end snaps to the next tick: the line grows into the space left and the
            // axis (costly to lay out again) changes only now and then.
            vp.follow(std::pair{double(all.front().t0_ns - origin_ns) * 1e-9, newest_s}, live);
            const double view0 = vp.start(), view1 = vp.end();
            const auto t0 = origin_ns + std::int64_t(std::floor(view0 * 1e9));
            const auto t1 = origin_ns + std::int64_t(std::ceil(view1 * 1e9));
            pts = decimate(all, index, origin_ns, t0, t1, cols);
            // One neighbour on each side, so the line runs to the plot's edges.
            auto point = [&](std::size_t i) {
                return PlotPoint{double(midpointNs(all[i]) - origin_ns) * 1e-9, all[i].power_w()};
            };
            const auto lo = std::partition_point(all.begin(), all.end(),
                                                 [&](const Interval& s) { return midpointNs(s) < t0; });
            const auto hi = std::partition_point(lo, all.end(),
                                                 [&](const Interval& s) { return midpointNs(s) <= t1; });
            if (lo != all.begin())
                pts.insert(pts.begin(), point(std::size_t(lo - all.begin()) - 1));
            if (hi != all.end())
                pts.push_back(point(std::size_t(hi - all.begin())));
        });
    }
    if (!any)
        vp.follow(std::nullopt, live);
    const double view0 = vp.start(), view1 = vp.end();

    QList<QPointF> list;
    list.reserve(qsizetype(pts.size()));
    double lo = INFINITY, hi = -INFINITY;
    for (const PlotPoint& p : pts) {
        list.append(QPointF(p.t_s, p.power_w));
        if (p.t_s >= view0 && p.t_s <= view1) {
            lo = std::min(lo, p.power_w);
            hi = std::max(hi, p.power_w);
        }
    }
    for (const ChartBand& b : bands) {
        if (b.t1_s < view0 || b.t0_s > view1)
            continue;
        lo = std::min(lo, b.mean_w - b.sd_w);
        hi = std::max(hi, b.mean_w + b.sd_w);
    }
    points = int(list.size());
    // Antialiasing a dense min/max zigzag costs several times the rest of a frame and shows
    // nothing more; sparse lines (zoomed in) keep it for smooth slopes.
    view->setRenderHint(QPainter::Antialiasing, points < 2 * columns());
    series->replace(list);  // one replace, never point by point
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    applyAxes(lo, hi);
    view->viewport()->update();
}

void PowerChart::Impl::applyAxes(double lo, double hi)
{
    // Pad the data by a little and round outwards to the tick step.
    double span = hi - lo;
    if (span < 0.2) {  // a flat line still gets a readable scale
        lo -= (0.2 - span) / 2;
        hi += (0.2 - span) / 2;
        span = 0.2;
    }
    lo -= span * 0.08;
    hi += span * 0.08;
    // About six ticks, fewer where the plot is too short to label them all.
    const ticks::Scale y = ticks::fitScale(lo, hi, niceStep((hi - lo) / 6.0), q->chart()->plotArea().height(),
                                           QFontMetricsF(ay->labelsFont()).height());
    const double xstep = vp.xTickStep();
    applying = true;
    // Each change makes the axis lay out its labels again, so change only what differs, and
    // the larger tick interval first: the old interval on the new range (10 ms ticks across a
    // day) would be millions of labels for a moment.
    // (ChartFrame::setValueScale changes only what differs, the coarser interval first.)
    ChartFrame::setValueScale(ax, vp.start(), vp.end(), xstep);
    ChartFrame::setValueScale(ay, y.lo, y.hi, y.step);
    applying = false;
}

std::optional<PlotPoint> PowerChart::sampleNear(double t_s) const
{
    if (!d->store)
        return std::nullopt;
    std::optional<PlotPoint> out;
    const auto t = d->origin_ns + std::int64_t(std::llround(t_s * 1e9));
    d->store->read([&](const std::vector<Interval>& v) {
        std::span<const Interval> all(v);
        if (const auto frozenEnd = d->vp.frozenEnd()) {
            const auto end = std::partition_point(all.begin(), all.end(),
                                                  [&](const Interval& s) { return s.t1_ns <= *frozenEnd; });
            all = all.first(std::size_t(end - all.begin()));
        }
        if (all.empty())
            return;
        auto it = std::partition_point(all.begin(), all.end(),
                                       [&](const Interval& s) { return midpointNs(s) < t; });
        if (it == all.end() || (it != all.begin() && t - midpointNs(*(it - 1)) < midpointNs(*it) - t))
            --it;
        out = PlotPoint{double(midpointNs(*it) - d->origin_ns) * 1e-9, it->power_w()};
    });
    return out;
}

QString PowerChart::describeAt(double t_s) const
{
    const auto p = sampleNear(t_s);
    if (!p)
        return {};
    QString text = QStringLiteral("%1 s   %2 W")
                       .arg(QString::number(p->t_s, 'f', 3), QString::number(p->power_w, 'f', 2));
    for (const ChartShade& s : d->shades) {
        const double end = s.t1_s.value_or(d->newest_s);
        if (p->t_s >= s.t0_s && p->t_s <= end && !s.label.isEmpty())
            text += QStringLiteral("   ") + s.label;
    }
    for (const ChartPhase& ph : d->phases) {
        const double end = ph.t1_s.value_or(d->newest_s);
        if (p->t_s >= ph.t0_s && p->t_s <= end)
            text += QStringLiteral("   phase ") + ph.name;
    }
    return text;
}

void PowerChart::Impl::hoverAt(QPointF viewPos, QPoint globalPos)
{
    if (!store || !insidePlot(viewPos)) {
        clearHover();
        return;
    }
    const double t = tAtViewX(viewPos.x());
    const auto p = q->sampleNear(t);
    if (!p || p->t_s < ax->min() || p->t_s > ax->max()) {
        clearHover();
        return;
    }
    hover = p;
    view->viewport()->update();
    const QString text = q->describeAt(p->t_s);
    q->showHover(text, globalPos);
}

void PowerChart::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    d->dirty = true;
    d->timer.start();
}

void PowerChart::hideEvent(QHideEvent* e)
{
    d->timer.stop();
    QWidget::hideEvent(e);
}

// ---- PowerChartView

void PowerChartView::drawBackground(QPainter* p, const QRectF& rect)
{
    p->fillRect(rect, palette().base());
    if (!d_->store)
        return;
    const QRectF pa = d_->plotInScene();
    p->save();
    p->setClipRect(pa);
    for (const ChartShade& s : d_->shades) {
        const double x0 = d_->xAt(s.t0_s);
        const double x1 = d_->xAt(s.t1_s.value_or(d_->newest_s));
        if (x1 < pa.left() || x0 > pa.right())
            continue;
        p->fillRect(QRectF(QPointF(x0, pa.top()), QPointF(x1, pa.bottom())), s.color);
        if (s.baseline_w) {
            QColor c = s.color;
            c.setAlpha(200);
            QPen pen(c.darker(140), 1.2, Qt::DashLine);
            p->setPen(pen);
            const double y = d_->yAt(*s.baseline_w);
            p->drawLine(QPointF(x0, y), QPointF(x1, y));
        }
    }
    const QColor bandFill = palette::bandFill();
    const QColor meanLine = palette::bandMean();
    for (const ChartBand& b : d_->bands) {
        const double x0 = d_->xAt(b.t0_s), x1 = d_->xAt(b.t1_s);
        if (x1 < pa.left() || x0 > pa.right())
            continue;
        p->fillRect(QRectF(QPointF(x0, d_->yAt(b.mean_w + b.sd_w)), QPointF(x1, d_->yAt(b.mean_w - b.sd_w))),
                    bandFill);
        p->setPen(QPen(meanLine, 1.2));
        const double y = d_->yAt(b.mean_w);
        p->drawLine(QPointF(x0, y), QPointF(x1, y));
    }
    // The phases: thin strips along the top of the plot, at least a pixel wide.
    for (const ChartPhase& ph : d_->phases) {
        const double x0 = d_->xAt(ph.t0_s);
        const double x1 = std::max(x0 + 1.0, d_->xAt(ph.t1_s.value_or(d_->newest_s)));
        if (x1 < pa.left() || x0 > pa.right())
            continue;
        p->fillRect(QRectF(QPointF(x0, pa.top()), QPointF(x1, pa.top() + PowerChart::kPhaseStripPx)), ph.color);
    }
    p->restore();
}

void PowerChartView::drawForeground(QPainter* p, const QRectF& rect)
{
    QChartView::drawForeground(p, rect);
    if (!d_->hover)
        return;
    const QRectF pa = d_->plotInScene();
    const QPointF at(d_->xAt(d_->hover->t_s), d_->yAt(d_->hover->power_w));
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(palette::hoverGuide(), 1, Qt::DotLine));
    p->drawLine(QPointF(at.x(), pa.top()), QPointF(at.x(), pa.bottom()));
    p->setPen(QPen(Qt::white, 1.5));
    p->setBrush(d_->series->pen().color());
    p->drawEllipse(at, 4.5, 4.5);
    p->restore();
}

void PowerChartView::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) {
        e->ignore();
        return;
    }
    d_->q->zoom(std::pow(0.8, steps), d_->tAtViewX(e->position().x()));
    e->accept();
}

void PowerChartView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton) {
        panning_ = true;
        pan_from_ = e->position();
        pan_view_ = d_->vp.range();
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    QChartView::mousePressEvent(e);
}

void PowerChartView::mouseMoveEvent(QMouseEvent* e)
{
    if (panning_) {
        const double width = std::max(1.0, chart()->plotArea().width());
        const double dt = (e->position().x() - pan_from_.x()) / width * (pan_view_.second - pan_view_.first);
        d_->changed(d_->vp.setRange(pan_view_.first - dt, pan_view_.second - dt));
        e->accept();
        return;
    }
    QChartView::mouseMoveEvent(e);
    if (e->buttons() == Qt::NoButton)
        d_->hoverAt(e->position(), e->globalPosition().toPoint());
}

void PowerChartView::mouseReleaseEvent(QMouseEvent* e)
{
    if (panning_ && (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton)) {
        panning_ = false;
        unsetCursor();
        e->accept();
        return;
    }
    QChartView::mouseReleaseEvent(e);
}

void PowerChartView::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton) {
        d_->q->resetView();
        e->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(e);
}

void PowerChartView::keyPressEvent(QKeyEvent* e)
{
    const double span = d_->vp.end() - d_->vp.start();
    const double mid = (d_->vp.start() + d_->vp.end()) / 2;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        d_->q->zoom(0.8, mid);
        break;
    case Qt::Key_Minus:
        d_->q->zoom(1.25, mid);
        break;
    case Qt::Key_Left:
        d_->q->pan(-span * 0.1);
        break;
    case Qt::Key_Right:
        d_->q->pan(span * 0.1);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        d_->q->resetView();
        break;
    default:
        QChartView::keyPressEvent(e);
        return;
    }
    e->accept();
}

void PowerChartView::leaveEvent(QEvent* e)
{
    d_->clearHover();
    QChartView::leaveEvent(e);
}

// ---- Export

void PowerChart::exporting(bool begins) const
{
    // As seen, without the hover marker.
    if (begins) {
        d->exportHover = d->hover;
        d->hover.reset();
    } else {
        d->hover = d->exportHover;
    }
}

}  // namespace jb
