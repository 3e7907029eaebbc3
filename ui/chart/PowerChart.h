#pragma once
// The power chart: watts against seconds since the start, for one counter's sample store.
// A ChartFrame (the chart, placeholder and export are its); this header is free of Qt Charts
// (pimpl), so the plotting back end can be swapped behind it. What the time axis shows
// (follow, freeze, zoom, pan) is a ChartViewport's.
//
// Redraw cost does not grow with history: on a timer (at most every kRedrawIntervalMs) it
// decimates only the visible range to first/min/max/last per pixel column (jb::decimate with a
// block index kept up to date as the store grows) and hands the series its points in one
// replace().
#include "chart/ChartFrame.h"
#include <jb/sampling/Decimation.h>

#include <QColor>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace jb {

class SampleStore;

// A shaded span of time: an idle bracket or a busy window.
struct ChartShade {
    enum Kind { Idle, Busy };
    Kind kind = Idle;
    double t0_s = 0;
    std::optional<double> t1_s;  // none: still open, reaches the newest sample
    QColor color;
    QString label;                     // what hovering over it says ("round 2 busy: clean")
    std::optional<double> baseline_w;  // busy: the idle power the marginal energy is above
    QString legend;                    // its entry in the legend ("clean", "decode-png"); empty: none
};

// An idle bracket's mean power with a +/- one standard deviation band.
struct ChartBand {
    double t0_s = 0, t1_s = 0;
    double mean_w = 0, sd_w = 0;
};

// A span of a phase the child marked (`mark NAME`): a thin coloured strip along the top of
// the plot within its round's busy window.
struct ChartPhase {
    double t0_s = 0;
    std::optional<double> t1_s;  // none: still open, reaches the newest sample
    QColor color;
    QString name;  // "decode/png"
    int round = 0;  // 0-based
};

// One entry of the chart's legend: a mark as the chart draws it, and what it means.
struct LegendEntry {
    enum Mark { Line, Fill, DashedLine, Band, Unshaded };
    Mark mark = Fill;
    QColor color;
    QString text;  // "idle bracket", "round: clean", "workload png"
    QString tip;   // the longer explanation (the entry's tooltip)
    bool operator==(const LegendEntry&) const = default;
};

class PowerChart : public ChartFrame {
    Q_OBJECT
public:
    static constexpr int kRedrawIntervalMs = 40;  // at most 25 redraws a second
    // A live run's new samples and overlays are drawn at most this often (user actions at once).
    static constexpr int kLivePaceMs = 300;

    explicit PowerChart(QWidget* parent = nullptr);
    ~PowerChart() override;

    // The samples to show; origin_ns is shown as 0 s. live: new samples keep arriving (the
    // timer looks for them). A null store clears the chart; `placeholder` says why.
    void setSource(std::shared_ptr<const SampleStore> store, std::int64_t origin_ns, bool live);
    void setLive(bool live);
    void clear(const QString& placeholder = {});
    void setShades(std::vector<ChartShade> shades);
    void setBands(std::vector<ChartBand> bands);
    // The phases' strips (empty: none, and no space taken).
    void setPhases(std::vector<ChartPhase> phases);
    const std::vector<ChartPhase>& phases() const;
    static constexpr int kPhaseStripPx = 7;  // the strips' height
    void setSeriesName(const QString& name);  // the counter, for the y axis and exports
    // While following, the x axis spans at least this many seconds (the plan's expected
    // duration), so a live run fills the chart from the left instead of rescaling every tick.
    void setMinimumSpan(double seconds);

    // The view. Following: the whole run so far, growing with it. Zooming or panning stops
    // following; resetView() returns to it. Frozen: the picture stops at the newest sample of
    // the moment (the run goes on underneath); zoom and pan still work.
    bool following() const;
    void setFollowing(bool follow);
    bool frozen() const;
    void setFrozen(bool frozen);
    void resetView();
    void setVisibleRange(double t0_s, double t1_s);  // stops following
    void zoom(double factor, double anchor_s);       // factor < 1 zooms in
    void pan(double dt_s);
    std::pair<double, double> visibleRange() const;

    // The redraw timer's tick, public for tests and the bench: decimates the visible range
    // and replaces the series' points.
    void redraw();
    int pointCount() const;  // points handed to the series by the last redraw
    int columns() const;     // decimation columns: one per two pixels of the plot area
    std::int64_t redrawCount() const;
    std::pair<double, double> yRange() const;
    double yTickStep() const;

    // The sample whose midpoint lies nearest to t_s (what hovering shows).
    std::optional<PlotPoint> sampleNear(double t_s) const;
    // Hover text at a time, as the tooltip and hovered() say it ("12.300 s  35.21 W  round 2
    // busy: clean").
    QString describeAt(double t_s) const;

    // Every mark the chart draws now, named: the power line, the unshaded start, idle brackets,
    // idle mean +- sd bands, each busy kind (verdict or workload), the dashed baseline, each phase.
    std::vector<LegendEntry> legend() const;

    // Export (ChartFrame's renderTo, toImage, savePng, saveSvg) shows it as seen, without the
    // hover marker.

signals:
    void followingChanged(bool following);
    void frozenChanged(bool frozen);
    void visibleRangeChanged(double t0_s, double t1_s);
    void legendChanged();  // legend() says something else

protected:
    void showEvent(QShowEvent* e) override;
    void hideEvent(QHideEvent* e) override;
    void exporting(bool begins) const override;

public:
    struct Impl;  // named here so PowerChart.cpp's view class can hold one; defined there only

private:
    std::unique_ptr<Impl> d;
};

}  // namespace jb
