#pragma once
// The Noise lab's sensor view charts (SensorView.h): a counter's modelled reading after a load
// step up and down, drawn against the load's edges, and the share of a short burst's energy it
// counts at each phase of its update period. Their figures are core/noise/SensorFigures; this
// header is free of Qt Charts (SensorCharts.cpp is its one user), like NoiseCharts.h.
#include "chart/ChartFrame.h"
#include <jb/noise/SensorFigures.h>

#include <QString>

namespace jb {

class StepResponseChart : public ChartFrame {
    Q_OBJECT
public:
    explicit StepResponseChart(QWidget* parent = nullptr);
    void setFigures(const SensorFigures& f);
    void clear(const QString& placeholder);
    int readingPoints() const { return reading_points_; }

private:
    int reading_points_ = 0;
};

class BurstChart : public ChartFrame {
    Q_OBJECT
public:
    explicit BurstChart(QWidget* parent = nullptr);
    void setFigures(const SensorFigures& f);
    void clear(const QString& placeholder);
    int points() const { return points_; }

private:
    int points_ = 0;
};

}  // namespace jb
