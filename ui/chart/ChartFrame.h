#pragma once
// The base of every chart adapter (PowerChart; RoundChart in the Inspector; the Noise lab's
// histogram, Allan and rounds charts; the Jobs page's JobLiveChart). It builds the QChart and
// its view, the placeholder shown over the plot while there is nothing to draw, the axes in one
// style, and the export: an image, PNG or SVG of the chart as seen, with the title drawn above
// it in one style. An adapter keeps only what is its own: its series and how it fills them.
//
// Qt Charts stays behind this file and the adapters' .cpp files: this header only names its
// classes (forward declarations), so a page never includes Qt Charts.
#include <jb/base/Result.h>

#include <QImage>
#include <QMargins>
#include <QSize>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QChartView;
class QPainter;
class QValueAxis;
class QXYSeries;

namespace jb {

// How a chart looks; each adapter says what differs from these.
struct ChartLook {
    QMargins margins{4, 6, 10, 4};
    // The view paints the background itself: the frame's own view fills it and calls
    // paintBeneath(); an adapter's own view (setView(view)) paints it as it likes.
    bool transparent = false;
    bool antialias = true;
    int title_pt = 0;                // the chart's own title (bold); 0: the default size
    int axis_pt = 0;                 // axis labels, axis titles and the legend; 0: the default size
    QSize minimum;                   // the view's smallest size (empty: none)
    bool empty_hides_chart = false;  // the placeholder alone, not over empty axes
    QString svg_title;               // an SVG's title when the export names none
    QString svg_description;         // what an SVG says it is
};

class ChartFrame : public QWidget {
    Q_OBJECT
public:
    ~ChartFrame() override;

    // The placeholder's text while it is shown over the plot, empty while it is hidden.
    QString placeholderText() const;
    QString title() const;  // the chart's own title (empty: none)

    // Export, as seen; a title is drawn above the plot (kTitleHeight px).
    static constexpr int kTitleHeight = 34;
    void renderTo(QPainter* painter, const QRectF& target, const QString& title = {}) const;
    QImage toImage(const QString& title = {}) const;  // at twice the screen's pixels
    Status savePng(const QString& path, const QString& title = {}) const;
    Status saveSvg(const QString& path, const QString& title = {}) const;

    // Puts a dynamic-tick value axis on [min, max] with ticks every step from anchor, labelled
    // as AxisTicks' labelFormat(step) says. Only what differs is changed (each change lays the
    // labels out again), and the coarser tick interval goes first: the old fine interval on a
    // new wide range (10 ms ticks across a day, 0.001 J ticks across 0..1) would be thousands
    // of labels for a moment, a GUI stall of hundreds of ms.
    static void setValueScale(QValueAxis* axis, double min, double max, double step, double anchor = 0.0);

signals:
    // What the pointer is over, as the tooltip says it; empty when it leaves.
    void hovered(const QString& text);

protected:
    ChartFrame(const ChartLook& look, QWidget* parent);
    // The view over chart(): the adapter's own QChartView subclass, or the frame's (null),
    // which paints paintBeneath() under the series where the look is transparent. Called once,
    // from the adapter's constructor.
    void setView(QChartView* view = nullptr);
    QChart* chart() const;
    QChartView* chartView() const;

    void showPlaceholder(const QString& text);
    void hidePlaceholder();

    // An axis in the look's fonts with a faint grid, added to the chart; returns it.
    template <class Axis>
    Axis* addAxis(Axis* axis, Qt::Alignment where, const QString& title = {})
    {
        addStyledAxis(axis, where, title);
        return axis;
    }
    void attach(QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y);
    void removeSeriesAndAxes();  // every series and axis, deleted
    // Nothing to draw: no series, axes or title, and the placeholder says why.
    void showEmpty(const QString& placeholder);

    // The plot area in scene coordinates, and a value's place along it by an axis's range as
    // drawn now (what a view paints beneath or above the series).
    QRectF plotInScene() const;
    double sceneX(double v, double axisMin, double axisMax) const;
    double sceneY(double v, double axisMin, double axisMax) const;

    // A value axis fitted to [lo, hi]: about six ticks (AxisTicks' steps), fewer where the plot
    // is too short to label them all, the range on whole ticks, anchored at 0. Call it again
    // when the plot area changes size.
    void fitValueAxis(QValueAxis* axis, double lo, double hi) const;
    // The same, kept: fitted now and again whenever the plot area changes size, until it is
    // given no range (nothing shown). One axis per chart.
    void keepValueAxisFitted(QValueAxis* axis, std::optional<std::pair<double, double>> range);

    // With the frame's view and a transparent look: what lies beneath the series, painted
    // clipped to the plot area (plot, in scene coordinates, as plotInScene()), antialiased.
    virtual void paintBeneath(QPainter* painter, const QRectF& plot) const;

    // The tooltip at globalPos and hovered() say text; an empty text hides the tooltip.
    void showHover(const QString& text, const QPoint& globalPos);
    // Off: hovering only emits hovered(), for a read-out beside the plot (no tooltip over the data).
    void setHoverTooltip(bool on);
    // Hovering a point of series shows describe(the point's index in series) at the pointer.
    void hoverPoints(QXYSeries* series, std::function<QString(qsizetype index)> describe);

    // Around an export: an adapter hides what is only for the pointer (a hover marker).
    virtual void exporting(bool begins) const;

private:
    void addStyledAxis(QAbstractAxis* axis, Qt::Alignment where, const QString& title);
    struct Frame;
    std::unique_ptr<Frame> f_;
};

}  // namespace jb
