#pragma once
// The Noise lab's charts: the idle power histogram with its normal fit, the Allan deviation
// on log-log axes, and the rounds' marginal power against the verdict floors (threshold x
// idle sd). Each is a ChartFrame (chart, placeholder, export); NoiseCharts.cpp is the page's
// only file that includes Qt Charts; this header is free of it (pimpl), like chart/PowerChart.h.
#include "chart/ChartFrame.h"
#include <jb/live/RunState.h>  // RoundPoint: one round on the rounds chart
#include <jb/noise/Allan.h>
#include <jb/noise/Histogram.h>
#include <jb/noise/IdleNoise.h>

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// The Noise lab's chart look (fonts large enough to read from a distance, small enough that a
// 220 px high chart keeps its texts whole at 1280x720), shared by its
// charts and the sensor view's.
ChartLook noiseLabLook(const QString& svg_title, const QString& svg_description);

class HistogramChart : public ChartFrame {
    Q_OBJECT
public:
    explicit HistogramChart(QWidget* parent = nullptr);
    ~HistogramChart() override;
    void setHistogram(const PowerHistogram& h);
    void clear(const QString& placeholder);

    // What is drawn, for tests.
    int bins() const;
    int fitPoints() const;        // points of the fitted normal's curve
    double fitPeakCount() const;  // the curve's highest expected count

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

class AllanChart : public ChartFrame {
    Q_OBJECT
public:
    explicit AllanChart(QWidget* parent = nullptr);
    ~AllanChart() override;
    // limit: where averaging stops helping (drawn as a vertical line), if known.
    void setCurve(const std::vector<AllanPoint>& curve, std::optional<AveragingLimit> limit);
    void clear(const QString& placeholder);

    int points() const;   // Allan points drawn (those > 0)
    bool logLog() const;  // both axes logarithmic
    std::optional<double> limitTauS() const;

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

// A horizontal line: the smallest marginal W a verdict needs (threshold x idle sd).
struct ThresholdLine {
    Verdict verdict = Verdict::Clean;
    double threshold = 0;
    double w = 0;
};

class RoundsChart : public ChartFrame {
    Q_OBJECT
public:
    explicit RoundsChart(QWidget* parent = nullptr);
    ~RoundsChart() override;
    void setRounds(const std::vector<RoundPoint>& rounds, const std::vector<ThresholdLine>& lines);
    void clear(const QString& placeholder);

    int points() const;
    std::vector<double> thresholdsW() const;  // the lines drawn, in W
    std::pair<double, double> yRange() const;

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

}  // namespace jb
