#pragma once
// The Measure page's status line: counter and period, the sampler's lateness and the counter's
// update cadence, the phase, and a progress bar with elapsed time and ETA for the whole plan.
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;

namespace jb {

class StatusLine : public QWidget {
    Q_OBJECT
public:
    enum class Tone { Info, Good, Error };
    explicit StatusLine(QWidget* parent = nullptr);

    void setCounter(const QString& text);  // "sim · 100 ms"
    void setFigures(const QString& text);  // "reads late by 0.1 ms typically, 0.4 ms at worst · ..."
    void setPhase(const QString& text);    // "round 2 of 5: busy"
    // fraction in [0, 1]; eta none: unknown yet.
    void setProgress(double fraction, double elapsed_s, std::optional<double> eta_s);
    void hideProgress();
    void setMessage(const QString& text, Tone tone = Tone::Info);

    QString phaseText() const;
    QString messageText() const;
    int progressPercent() const;

private:
    QLabel* counter_;
    QLabel* figures_;
    QLabel* phase_;
    QProgressBar* progress_;
    QLabel* time_;
    QLabel* message_;
};

}  // namespace jb
