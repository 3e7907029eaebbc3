#pragma once
// The Noise lab's sensor view: a counter's profile (a file `characterize --out` wrote, or any
// profile handed to it) shown as its step response against the load's edges, the spread of
// short bursts' counted energy over the phases of its update period, and its figures in words.
// Every figure is core's (noise/SensorFigures); this widget only lays them out.
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>

#include <QWidget>

class QLabel;
class QPushButton;

namespace jb {

class StepResponseChart;
class BurstChart;

class SensorView : public QWidget {
    Q_OBJECT
public:
    explicit SensorView(QWidget* parent = nullptr);
    void setProfile(const CounterProfile& p);
    // Reads a profile file; the error names the file and the JSON path.
    Status openProfile(const QString& path);
    QString figuresText() const;
    const StepResponseChart* stepChart() const { return step_; }
    const BurstChart* burstChart() const { return bursts_; }

private:
    QPushButton* open_ = nullptr;
    QLabel* figures_ = nullptr;
    StepResponseChart* step_ = nullptr;
    BurstChart* bursts_ = nullptr;
};

}  // namespace jb
