// With the adapters' .cpp files, the only code that includes Qt Charts.
#include "chart/ChartFrame.h"

#include "chart/AxisTicks.h"
#include "common/Palette.h"
#include <jb/record/AtomicWrite.h>

#include <QBuffer>
#include <QCursor>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QSvgGenerator>
#include <QToolTip>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>

#include <algorithm>

namespace jb {

struct ChartFrame::Frame {
    ChartLook look;
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QLabel* placeholder = nullptr;
    QGridLayout* grid = nullptr;
    // keepValueAxisFitted's axis (null once deleted) and range; fitting: a fit under way (it
    // changes the plot area)
    QPointer<QValueAxis> fitted;
    std::optional<std::pair<double, double>> fitted_range;
    bool fitting = false;
    bool hover_tooltip = true;
};

namespace {

QFont sized(QFont f, int pt)
{
    if (pt > 0)
        f.setPointSize(pt);
    return f;
}

Status writeBytes(const QString& path, const QByteArray& bytes)
{
    return writeFileAtomic(path.toStdString(),
                           std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

// The frame's own view: the look's background, or the base colour and what paint draws
// beneath the series (clipped to the plot area in scene coordinates, antialiased).
class FrameView : public QChartView {
public:
    using Paint = std::function<void(QPainter*, const QRectF& plot)>;
    FrameView(QChart* chart, Paint paint) : QChartView(chart), paint_(std::move(paint)) {}

protected:
    void drawBackground(QPainter* p, const QRectF& rect) override
    {
        if (!paint_) {
            QChartView::drawBackground(p, rect);
            return;
        }
        p->fillRect(rect, palette().base());
        const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
        p->save();
        p->setClipRect(plot.adjusted(-1, -1, 1, 1));
        p->setRenderHint(QPainter::Antialiasing);
        paint_(p, plot);
        p->restore();
    }

private:
    Paint paint_;
};

}  // namespace

ChartFrame::ChartFrame(const ChartLook& look, QWidget* parent)
    : QWidget(parent), f_(std::make_unique<Frame>())
{
    f_->look = look;
    f_->chart = new QChart;
    f_->chart->setAnimationOptions(QChart::NoAnimation);
    f_->chart->setMargins(look.margins);
    f_->chart->legend()->hide();
    if (look.axis_pt > 0)
        f_->chart->legend()->setFont(sized(f_->chart->legend()->font(), look.axis_pt));
    if (look.transparent) {
        f_->chart->setBackgroundVisible(false);
        f_->chart->setPlotAreaBackgroundVisible(false);
    }
    QFont tf = sized(f_->chart->titleFont(), look.title_pt);
    tf.setBold(true);
    f_->chart->setTitleFont(tf);

    f_->placeholder = new QLabel(this);
    f_->placeholder->setObjectName(QStringLiteral("chartPlaceholder"));
    f_->placeholder->setAlignment(Qt::AlignCenter);
    f_->placeholder->setWordWrap(true);
    f_->placeholder->setMaximumWidth(520);
    f_->placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    f_->placeholder->setStyleSheet(
        QStringLiteral(
            "QLabel { color: %1; background: rgba(255, 255, 255, 210); padding: 10px; font-size: 12pt; }")
            .arg(palette::mutedText().name()));
    f_->grid = new QGridLayout(this);
    f_->grid->setContentsMargins(0, 0, 0, 0);
    connect(f_->chart, &QChart::plotAreaChanged, this, [this] {
        if (f_->fitted && f_->fitted_range)
            keepValueAxisFitted(f_->fitted, f_->fitted_range);
    });
}

ChartFrame::~ChartFrame()
{
    // The chart outlives this part of the object (QWidget deletes it later): it must not call
    // back into a frame that is gone.
    disconnect(f_->chart, nullptr, this, nullptr);
}

void ChartFrame::setView(QChartView* view)
{
    if (!view) {
        FrameView::Paint paint;
        if (f_->look.transparent)
            paint = [this](QPainter* p, const QRectF& plot) { paintBeneath(p, plot); };
        view = new FrameView(f_->chart, std::move(paint));
    }
    f_->view = view;
    f_->view->setParent(this);
    f_->view->setRenderHint(QPainter::Antialiasing, f_->look.antialias);
    f_->view->setFrameShape(QFrame::NoFrame);
    if (!f_->look.minimum.isEmpty())
        setMinimumSize(f_->look.minimum);  // the frame's: it keeps its room while the view is hidden
    f_->grid->addWidget(f_->view, 0, 0);
    f_->grid->addWidget(f_->placeholder, 0, 0, Qt::AlignCenter);
    f_->placeholder->raise();  // above the view, which the layout made the newer sibling
}

QChart* ChartFrame::chart() const
{
    return f_->chart;
}

QChartView* ChartFrame::chartView() const
{
    return f_->view;
}

QString ChartFrame::placeholderText() const
{
    return f_->placeholder->isHidden() ? QString() : f_->placeholder->text();
}

QString ChartFrame::title() const
{
    return f_->chart->title();
}

void ChartFrame::showPlaceholder(const QString& text)
{
    f_->placeholder->setText(text);
    f_->placeholder->setVisible(!text.isEmpty());
    if (f_->look.empty_hides_chart && f_->view)
        f_->view->hide();
}

void ChartFrame::hidePlaceholder()
{
    f_->placeholder->hide();
    if (f_->view)
        f_->view->show();
}

void ChartFrame::addStyledAxis(QAbstractAxis* axis, Qt::Alignment where, const QString& title)
{
    // Fonts only where the look names a size: an axis keeps its theme's (bold) title otherwise.
    if (f_->look.axis_pt > 0) {
        axis->setLabelsFont(sized(axis->labelsFont(), f_->look.axis_pt));
        QFont t = sized(axis->titleFont(), f_->look.axis_pt);
        t.setBold(false);
        axis->setTitleFont(t);
    }
    if (!title.isEmpty())
        axis->setTitleText(title);
    QPen grid = axis->gridLinePen();
    grid.setColor(palette::gridLine());
    axis->setGridLinePen(grid);
    f_->chart->addAxis(axis, where);
}

void ChartFrame::attach(QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y)
{
    f_->chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void ChartFrame::removeSeriesAndAxes()
{
    f_->chart->removeAllSeries();
    for (QAbstractAxis* a : f_->chart->axes()) {
        f_->chart->removeAxis(a);
        delete a;
    }
}

QRectF ChartFrame::plotInScene() const
{
    return f_->chart->mapToScene(f_->chart->plotArea()).boundingRect();
}

double ChartFrame::sceneX(double v, double axisMin, double axisMax) const
{
    const QRectF pa = plotInScene();
    return ticks::toPixel(v, axisMin, axisMax, pa.left(), pa.width());
}

double ChartFrame::sceneY(double v, double axisMin, double axisMax) const
{
    const QRectF pa = plotInScene();
    return ticks::toPixel(v, axisMin, axisMax, pa.bottom(), -pa.height());
}

void ChartFrame::showEmpty(const QString& placeholder)
{
    removeSeriesAndAxes();
    f_->chart->setTitle(QString());
    showPlaceholder(placeholder);
}

void ChartFrame::exporting(bool) const {}

void ChartFrame::paintBeneath(QPainter*, const QRectF&) const {}

void ChartFrame::showHover(const QString& text, const QPoint& globalPos)
{
    if (f_->hover_tooltip) {
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(globalPos, text, f_->view);
    }
    emit hovered(text);
}

void ChartFrame::setHoverTooltip(bool on)
{
    f_->hover_tooltip = on;
}

void ChartFrame::hoverPoints(QXYSeries* series, std::function<QString(qsizetype)> describe)
{
    connect(series, &QXYSeries::hovered, this,
            [this, series, describe = std::move(describe)](const QPointF& point, bool over) {
                if (!over) {
                    showHover(QString(), QPoint());
                    return;
                }
                const QList<QPointF> pts = series->points();
                const auto at = std::find(pts.cbegin(), pts.cend(), point);
                if (at != pts.cend())
                    showHover(describe(at - pts.cbegin()), QCursor::pos());
            });
}

void ChartFrame::renderTo(QPainter* painter, const QRectF& target, const QString& title) const
{
    exporting(true);
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
    f_->view->render(painter, chartRect, f_->view->viewport()->rect(), Qt::KeepAspectRatio);
    painter->restore();
    exporting(false);
}

QImage ChartFrame::toImage(const QString& title) const
{
    const QSize chartSize = f_->view->viewport()->size();
    const QSize size(chartSize.width(), chartSize.height() + (title.isEmpty() ? 0 : kTitleHeight));
    const qreal dpr = 2.0;  // crisp enough for a report
    QImage img(size * dpr, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(palette().base().color());
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    renderTo(&p, QRectF(QPointF(0, 0), QSizeF(size)), title);
    return img;
}

Status ChartFrame::savePng(const QString& path, const QString& title) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!toImage(title).save(&buffer, "PNG"))
        return Error{"cannot encode the chart as PNG for " + path.toStdString()};
    return writeBytes(path, bytes);
}

Status ChartFrame::saveSvg(const QString& path, const QString& title) const
{
    const QSize chartSize = f_->view->viewport()->size();
    const QSize size(chartSize.width(), chartSize.height() + (title.isEmpty() ? 0 : kTitleHeight));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setTitle(title.isEmpty() ? f_->look.svg_title : title);
    gen.setDescription(f_->look.svg_description);
    QPainter p;
    if (!p.begin(&gen))
        return Error{"cannot draw the chart as SVG for " + path.toStdString()};
    renderTo(&p, QRectF(QPointF(0, 0), QSizeF(size)), title);
    p.end();
    return writeBytes(path, bytes);
}

void ChartFrame::fitValueAxis(QValueAxis* axis, double lo, double hi) const
{
    const ticks::Scale y = ticks::fitScale(lo, hi, ticks::nearestStep((hi - lo) / 6.0), chart()->plotArea().height(),
                                           QFontMetricsF(axis->labelsFont()).height());
    setValueScale(axis, y.lo, y.hi, y.step);
}

void ChartFrame::keepValueAxisFitted(QValueAxis* axis, std::optional<std::pair<double, double>> range)
{
    f_->fitted = axis;
    f_->fitted_range = range;
    if (!range || f_->fitting)
        return;
    f_->fitting = true;
    fitValueAxis(axis, range->first, range->second);
    f_->fitting = false;
}

void ChartFrame::setValueScale(QValueAxis* a, double min, double max, double step, double anchor)
{
    if (a->tickType() != QValueAxis::TicksDynamic)
        a->setTickType(QValueAxis::TicksDynamic);
    const bool coarser = step > a->tickInterval();
    if (coarser)
        a->setTickInterval(step);
    if (a->min() != min || a->max() != max)
        a->setRange(min, max);
    if (!coarser && step != a->tickInterval())
        a->setTickInterval(step);
    if (a->tickAnchor() != anchor)
        a->setTickAnchor(anchor);
    const QString format = ticks::labelFormat(step);
    if (a->labelFormat() != format)
        a->setLabelFormat(format);
}

}  // namespace jb
