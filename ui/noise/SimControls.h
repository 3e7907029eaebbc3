#pragma once
// The sliders of the live `sim` counter: idle power, noise sd, signal (busy) power, sample
// period, idle seconds and k, and the speed of the simulated clock. The first three are the
// counter's power (a run continues as they move); the rest lay the run out (a new run).
// On a real counter only the layout sliders apply.
#include <jb/noise/LiveSim.h>

#include <QWidget>

class QComboBox;
class QLabel;

namespace jb {

class ValueSlider;

class SimControls : public QWidget {
    Q_OBJECT
public:
    explicit SimControls(QWidget* parent = nullptr);

    LiveSimSettings settings() const;
    void setSettings(const LiveSimSettings& s);
    double speed() const;
    void setSpeed(double speed);
    // Real counter: its power is the machine's, the speed is real time.
    void setPowerEditable(bool editable);

    ValueSlider* idleSlider() const { return idle_; }
    ValueSlider* noiseSlider() const { return noise_; }
    ValueSlider* signalSlider() const { return signal_; }
    ValueSlider* periodSlider() const { return period_; }
    ValueSlider* idleSecondsSlider() const { return idle_s_; }
    ValueSlider* kSlider() const { return k_; }
    QComboBox* speedBox() const { return speed_; }

signals:
    void settingsChanged(const jb::LiveSimSettings& s);
    void speedChanged(double speed);

private:
    ValueSlider* idle_;
    ValueSlider* noise_;
    ValueSlider* signal_;
    ValueSlider* period_;
    ValueSlider* idle_s_;
    ValueSlider* k_;
    QComboBox* speed_;
    QLabel* powerNote_;
    double busy_s_per_k_ = 1.0;
    int jobs_ = 4;
    bool applying_ = false;
};

}  // namespace jb
