// The one file of JouleBench that includes Qt Charts.
#include "chart/PowerChart.h"

#include "chart/AxisTicks.h"
#include "common/Palette.h"

#include "record/AtomicWrite.h"
#include "sampling/SampleStore.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

constexpr double kFollowMinSpanS = 10.0;
constexpr double kMinVisibleSpanS = 1e-3;  // deepest zoom: a millisecond across the plot
constexpr int kTitleHeight = 34;
constexpr int kPixelsPerColumn = 2;

using ticks::decimalsFor;
using ticks::labelFormat;
constexpr auto niceStep = ticks::nearestStep;

}  // namespace

namespace {

// The chart view: paints the shading and bands beneath the series (drawBackground), the hover
// marker above (drawForeground), and turns the wheel and drags into zoom and pan.
class View : public QChartView {
public:
    View(QChart* chart, PowerChart::Impl* d) : QChartView(chart), d_(d) {}

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

}  // namespace

struct PowerChart::Impl {
    PowerChart* q;
    QChart* chart = nullptr;
    QLineSeries* series = nullptr;
    QValueAxis* ax = nullptr;
    QValueAxis* ay = nullptr;
    View* view = nullptr;
    QLabel* placeholder = nullptr;
    QTimer timer;

    std::shared_ptr<const SampleStore> store;
    std::int64_t origin_ns = 0;
    bool live = false;
    DecimationIndex index;
    std::size_t seen_size = 0;
    double newest_s = 0;  // end of the data shown (newest sample, or the frozen moment)

    std::vector<ChartShade> shades;
    std::vector<ChartBand> bands;
    bool following = true;
    bool frozen = false;
    std::optional<std::int64_t> frozen_end_ns;
    double view0 = 0, view1 = kFollowMinSpanS;
    double min_span = kFollowMinSpanS;
    bool dirty = true;   // the view changed (user, layout, new source): redraw at the next tick
    bool stale = false;  // the data or overlays changed: redraw at the live pace
    QElapsedTimer since_redraw;
    bool applying = false;  // our own axis changes, not the user's
    int points = 0;
    std::int64_t redraws = 0;
    std::optional<PlotPoint> hover;

    explicit Impl(PowerChart* owner) : q(owner) {}

    void setView(double t0, double t1, bool byUser)
    {
        if (!(t1 > t0)) {
            const double mid = t0;
            t0 = mid - kMinVisibleSpanS / 2;
            t1 = mid + kMinVisibleSpanS / 2;
        }
        if (t1 - t0 < kMinVisibleSpanS) {
            const double mid = (t0 + t1) / 2;
            t0 = mid - kMinVisibleSpanS / 2;
            t1 = mid + kMinVisibleSpanS / 2;
        }
        view0 = t0;
        view1 = t1;
        dirty = true;
        if (byUser && following) {
            following = false;
            emit q->followingChanged(false);
        }
        emit q->visibleRangeChanged(view0, view1);
    }

    QRectF plotInScene() const { return chart->mapToScene(chart->plotArea()).boundingRect(); }

    // Mapping from values to scene coordinates, by the axes as they are drawn now.
    double xAt(double t) const
    {
        const QRectF pa = plotInScene();
        return ticks::toPixel(t, ax->min(), ax->max(), pa.left(), pa.width());
    }
    double yAt(double w) const
    {
        const QRectF pa = plotInScene();
        return ticks::toPixel(w, ay->min(), ay->max(), pa.bottom(), -pa.height());
    }
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
    int columns() const { return std::max(1, int(chart->plotArea().width()) / kPixelsPerColumn); }

    void redraw();
    void applyAxes(double y0, double y1);
    void onUserRange(qreal min, qreal max)
    {
        if (applying)
            return;
        setView(min, max, true);
    }
    void hoverAt(QPointF viewPos, QPoint globalPos);
    void clearHover()
    {
        if (!hover)
            return;
        hover.reset();
        view->viewport()->update();
        QToolTip::hideText();
        emit q->hovered(QString());
    }
};

PowerChart::PowerChart(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>(this))
{
    d->chart = new QChart;
    d->chart->setAnimationOptions(QChart::NoAnimation);
    d->chart->legend()->hide();
    // The view paints the background, the shading and the bands itself, beneath the series.
    d->chart->setBackgroundVisible(false);
    d->chart->setPlotAreaBackgroundVisible(false);
    d->chart->setMargins(QMargins(4, 6, 10, 4));

    d->series = new QLineSeries;
    QPen pen(palette::powerTrace());
    pen.setWidthF(1.0);
    pen.setCosmetic(true);  // the raster engine's fast stroker: thousands of points per redraw
    d->series->setPen(pen);
    d->chart->addSeries(d->series);

    d->ax = new QValueAxis;
    d->ax->setTitleText(QStringLiteral("seconds since start"));
    d->ax->setTickType(QValueAxis::TicksDynamic);
    d->ay = new QValueAxis;
    d->ay->setTitleText(QStringLiteral("W"));
    d->ay->setTickType(QValueAxis::TicksDynamic);
    for (QValueAxis* a : {d->ax, d->ay}) {
        QPen grid = a->gridLinePen();
        grid.setColor(palette::gridLine());
        a->setGridLinePen(grid);
        a->setMinorGridLineVisible(false);
    }
    d->chart->addAxis(d->ax, Qt::AlignBottom);
    d->chart->addAxis(d->ay, Qt::AlignLeft);
    d->series->attachAxis(d->ax);
    d->series->attachAxis(d->ay);
    connect(d->ax, &QValueAxis::rangeChanged, this, [this](qreal a, qreal b) { d->onUserRange(a, b); });
    connect(d->chart, &QChart::plotAreaChanged, this, [this] { d->dirty = true; });

    d->view = new View(d->chart, d.get());
    d->view->setRenderHint(QPainter::Antialiasing, false);
    d->view->setRubberBand(QChartView::HorizontalRubberBand);
    d->view->setCacheMode(QGraphicsView::CacheNone);
    d->view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    d->view->setMouseTracking(true);
    d->view->setFocusPolicy(Qt::StrongFocus);
    d->view->setFrameShape(QFrame::NoFrame);
    d->view->setToolTip(QStringLiteral("Wheel: zoom · drag: zoom to a span · right or middle drag, "
                                       "arrow keys: pan · double-click or Home: reset"));

    d->placeholder = new QLabel(this);
    d->placeholder->setAlignment(Qt::AlignCenter);
    d->placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    d->placeholder->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: rgba(255, 255, 255, 210); padding: 10px; font-size: 12pt; }")
            .arg(palette::mutedText().name()));
    d->placeholder->setWordWrap(true);
    d->placeholder->setMaximumWidth(520);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(d->view, 0, 0);
    grid->addWidget(d->placeholder, 0, 0, Qt::AlignCenter);
    d->placeholder->raise();  // above the view, which the layout made the newer sibling

    d->timer.setInterval(kRedrawIntervalMs);
    connect(&d->timer, &QTimer::timeout, this, [this] {
        // What the user does is drawn at the next tick; what the run adds at most every
        // kLivePaceMs: at 100 ms samples a repaint per sample would cost more than the run.
        const bool grown = d->live && !d->frozen && d->store && d->store->size() != d->seen_size;
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
    d->frozen_end_ns.reset();
    d->placeholder->setVisible(!d->store);
    d->clearHover();
    d->dirty = true;
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
    d->placeholder->setText(placeholder);
    d->placeholder->setVisible(true);
    redraw();
}

void PowerChart::setShades(std::vector<ChartShade> shades)
{
    d->shades = std::move(shades);
    d->stale = true;
}

void PowerChart::setBands(std::vector<ChartBand> bands)
{
    d->bands = std::move(bands);
    d->stale = true;  // the y range takes the bands in
}

void PowerChart::setSeriesName(const QString& name)
{
    d->series->setName(name);
}

void PowerChart::setMinimumSpan(double seconds)
{
    d->min_span = std::max(kMinVisibleSpanS, std::isfinite(seconds) ? seconds : kFollowMinSpanS);
    d->dirty = true;
}

bool PowerChart::following() const
{
    return d->following;
}

void PowerChart::setFollowing(bool follow)
{
    if (follow == d->following)
        return;
    d->following = follow;
    d->dirty = true;
    emit followingChanged(follow);
}

bool PowerChart::frozen() const
{
    return d->frozen;
}

void PowerChart::setFrozen(bool frozen)
{
    if (frozen == d->frozen)
        return;
    d->frozen = frozen;
    d->frozen_end_ns.reset();
    if (frozen && d->store && d->store->size() > 0) {
        const auto last = d->store->slice(d->store->size() - 1, d->store->size());
        d->frozen_end_ns = last.front().t1_ns;
    }
    d->dirty = true;
    emit frozenChanged(frozen);
}

void PowerChart::resetView()
{
    setFollowing(true);
    d->dirty = true;
}

void PowerChart::setVisibleRange(double t0_s, double t1_s)
{
    d->setView(t0_s, t1_s, true);
}

void PowerChart::zoom(double factor, double anchor_s)
{
    if (!(factor > 0))
        return;
    const double t0 = anchor_s - (anchor_s - d->view0) * factor;
    const double t1 = anchor_s + (d->view1 - anchor_s) * factor;
    d->setView(t0, t1, true);
}

void PowerChart::pan(double dt_s)
{
    d->setView(d->view0 + dt_s, d->view1 + dt_s, true);
}

std::pair<double, double> PowerChart::visibleRange() const
{
    return {d->view0, d->view1};
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
            if (frozen_end_ns) {
                const auto end = std::partition_point(
                    all.begin(), all.end(), [&](const Interval& s) { return s.t1_ns <= *frozen_end_ns; });
                all = all.first(std::size_t(end - all.begin()));
            }
            if (all.empty())
                return;
            any = true;
            newest_s = double(all.back().t1_ns - origin_ns) * 1e-9;
            if (following) {
                view0 = std::min(0.0, double(all.front().t0_ns - origin_ns) * 1e-9);
                view1 = std::max(newest_s, view0 + min_span);
                // Live, the end snaps to the next tick: the line grows into the space left and
                // the axis (costly to lay out again) changes only now and then.
                if (live && !frozen) {
                    const double step = niceStep((view1 - view0) / 8.0);
                    view1 = std::max(view1, std::ceil(newest_s / step - 1e-9) * step);
                }
            }
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
    if (!any && following) {
        view0 = 0;
        view1 = min_span;
    }

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
    const ticks::Scale y = ticks::fitScale(lo, hi, niceStep((hi - lo) / 6.0), chart->plotArea().height(),
                                           QFontMetricsF(ay->labelsFont()).height());
    const double xstep = niceStep((view1 - view0) / 8.0);
    applying = true;
    // Each change makes the axis lay out its labels again, so change only what differs, and
    // the larger tick interval first: the old interval on the new range (10 ms ticks across a
    // day) would be millions of labels for a moment.
    auto apply = [](QValueAxis* a, double min, double max, double step) {
        const bool coarser = step > a->tickInterval();
        if (coarser)
            a->setTickInterval(step);
        if (a->min() != min || a->max() != max)
            a->setRange(min, max);
        if (!coarser && step != a->tickInterval())
            a->setTickInterval(step);
        if (a->tickAnchor() != 0.0)
            a->setTickAnchor(0.0);
        const QString format = labelFormat(step);
        if (a->labelFormat() != format)
            a->setLabelFormat(format);
    };
    apply(ax, view0, view1, xstep);
    apply(ay, y.lo, y.hi, y.step);
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
        if (d->frozen_end_ns) {
            const auto end = std::partition_point(
                all.begin(), all.end(), [&](const Interval& s) { return s.t1_ns <= *d->frozen_end_ns; });
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
    QToolTip::showText(globalPos, text, view);
    emit q->hovered(text);
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

// ---- View

void View::drawBackground(QPainter* p, const QRectF& rect)
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
    p->restore();
}

void View::drawForeground(QPainter* p, const QRectF& rect)
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

void View::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) {
        e->ignore();
        return;
    }
    d_->q->zoom(std::pow(0.8, steps), d_->tAtViewX(e->position().x()));
    e->accept();
}

void View::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton) {
        panning_ = true;
        pan_from_ = e->position();
        pan_view_ = {d_->view0, d_->view1};
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    QChartView::mousePressEvent(e);
}

void View::mouseMoveEvent(QMouseEvent* e)
{
    if (panning_) {
        const double width = std::max(1.0, d_->chart->plotArea().width());
        const double dt = (e->position().x() - pan_from_.x()) / width * (pan_view_.second - pan_view_.first);
        d_->setView(pan_view_.first - dt, pan_view_.second - dt, true);
        e->accept();
        return;
    }
    QChartView::mouseMoveEvent(e);
    if (e->buttons() == Qt::NoButton)
        d_->hoverAt(e->position(), e->globalPosition().toPoint());
}

void View::mouseReleaseEvent(QMouseEvent* e)
{
    if (panning_ && (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton)) {
        panning_ = false;
        unsetCursor();
        e->accept();
        return;
    }
    QChartView::mouseReleaseEvent(e);
}

void View::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton) {
        d_->q->resetView();
        e->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(e);
}

void View::keyPressEvent(QKeyEvent* e)
{
    const double span = d_->view1 - d_->view0;
    const double mid = (d_->view0 + d_->view1) / 2;
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

void View::leaveEvent(QEvent* e)
{
    d_->clearHover();
    QChartView::leaveEvent(e);
}

// ---- Export

void PowerChart::renderTo(QPainter* painter, const QRectF& target, const QString& title)
{
    const auto hover = d->hover;
    d->hover.reset();
    QRectF chartRect = target;
    painter->save();
    painter->fillRect(target, palette().base());
    if (!title.isEmpty()) {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.2);
        f.setBold(true);
        painter->setFont(f);
        painter->setPen(palette().text().color());
        const QRectF titleRect(target.left() + 12, target.top(), target.width() - 24, kTitleHeight);
        painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, title);
        chartRect.setTop(target.top() + kTitleHeight);
    }
    d->view->render(painter, chartRect, d->view->viewport()->rect(), Qt::KeepAspectRatio);
    painter->restore();
    d->hover = hover;
}

QImage PowerChart::toImage(const QString& title) const
{
    const QSize chartSize = d->view->viewport()->size();
    const QSize size(chartSize.width(), chartSize.height() + (title.isEmpty() ? 0 : kTitleHeight));
    const qreal dpr = 2.0;  // crisp enough for a report
    QImage img(size * dpr, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(palette().base().color());
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    const_cast<PowerChart*>(this)->renderTo(&p, QRectF(QPointF(0, 0), QSizeF(size)), title);
    return img;
}

Status PowerChart::savePng(const QString& path, const QString& title)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!toImage(title).save(&buffer, "PNG"))
        return Error{"cannot encode the chart as PNG for " + path.toStdString()};
    return writeFileAtomic(path.toStdString(),
                           std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

Status PowerChart::saveSvg(const QString& path, const QString& title)
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
    gen.setTitle(title.isEmpty() ? QStringLiteral("JouleBench power chart") : title);
    gen.setDescription(QStringLiteral("Power against time, made by JouleBench"));
    QPainter p;
    if (!p.begin(&gen))
        return Error{"cannot draw the chart as SVG for " + path.toStdString()};
    renderTo(&p, QRectF(QPointF(0, 0), QSizeF(size)), title);
    p.end();
    return writeFileAtomic(path.toStdString(),
                           std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

}  // namespace jb
