#pragma once
// The power chart with its view controls: follow the newest samples, freeze, reset, and a
// readout of the hovered sample
// above the plot (never over it), and the legend below it. Free of Qt Charts (PowerChart is the adapter).
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace jb {

class ChartLegend;
class PowerChart;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    PowerChart* chart() const { return chart_; }
    // Where callers put their own controls (the counter chooser), left of the view buttons.
    QHBoxLayout* toolbar() const { return toolbar_; }
    QToolButton* followButton() const { return follow_; }
    QToolButton* freezeButton() const { return freeze_; }
    QToolButton* resetButton() const { return reset_; }
    ChartLegend* legend() const { return legend_; }  // every mark of the chart, named
    QLabel* readout() const { return readout_; }     // the hovered sample: time, W, what it lies in

private:
    PowerChart* chart_;
    QHBoxLayout* toolbar_;
    QToolButton* follow_;
    QToolButton* freeze_;
    QToolButton* reset_;
    QLabel* readout_;
    ChartLegend* legend_;
};

}  // namespace jb
