#pragma once
// The Noise lab's sensor view: a counter's profile (a file `characterize --out` wrote, or any
// profile handed to it) shown as its step response against the load's edges, the spread of
// short bursts' counted energy over the phases of its update period, and its figures in words.
// Characterize measures a counter from the registry's list (sim, the default, everywhere) on
// core/profile's CharacterizeRun thread: the charts and figures grow as the measurement goes
// (core/profile/CharacterizeLive), and at the end the measured profile is shown as a saved one
// is and kept in the record library, as the CLI's `characterize` keeps it. Stop, and closing the
// window, cancel the run. Every figure is core's; this widget only lays them out.
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTimer;

namespace jb {

class StepResponseChart;
class BurstChart;
class CharacterizeRun;

class SensorView : public QWidget {
    Q_OBJECT
public:
    explicit SensorView(QWidget* parent = nullptr);
    ~SensorView() override;
    void setProfile(const CounterProfile& p);
    // Reads a profile file; the error names the file and the JSON path.
    Status openProfile(const QString& path);
    QString figuresText() const;
    // What the last characterize said: started, kept in the library, failed or stopped.
    QString statusText() const;
    const StepResponseChart* stepChart() const { return step_; }
    const BurstChart* burstChart() const { return bursts_; }

    // Characterize the counter (a spec from the list, or any) for about `seconds` (the spin
    // box's value where 0); false where one is under way.
    bool characterize(const QString& spec = {}, double seconds = 0);
    void stopCharacterize();
    const CharacterizeRun* run() const { return run_; }

signals:
    void characterizeEnded();  // finished, failed or stopped

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void showLive();

    QPushButton* open_ = nullptr;
    QComboBox* counter_ = nullptr;
    QDoubleSpinBox* seconds_ = nullptr;
    QPushButton* characterize_ = nullptr;
    QPushButton* stop_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* figures_ = nullptr;
    StepResponseChart* step_ = nullptr;
    BurstChart* bursts_ = nullptr;
    CharacterizeRun* run_ = nullptr;
    QTimer* redraw_ = nullptr;
};

}  // namespace jb
