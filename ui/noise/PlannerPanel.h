#pragma once
// The planner on the Noise lab page: given the idle noise shown (measured now, or a record's)
// and an expected marginal power (typed, or the rounds' measured one), the idle seconds, k
// and rounds that reach a chosen verdict in a chosen share of rounds, with the run's total
// time (jb::planRun); "unreachable" in plain words with what would be needed.
#include "noise/Planner.h"

#include <QString>
#include <QTimer>
#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace jb {

class PlannerPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlannerPanel(QWidget* parent = nullptr);

    // The noise the plan rests on: idle sd, busy sd, period, Allan curve and the workload's own
    // spread from `base` (its marginal_w and busy_s_per_k are ignored: see below). source says
    // where it comes from, for people ("measured now: 12 brackets").
    void setNoise(const PlanInputs& base, const QString& source);
    void clearNoise(const QString& why);
    // The marginal power the rounds shown measured (none: the button is off).
    void setMeasuredMarginal(std::optional<double> w, const QString& from);
    void setMarginalW(double w);
    void setBusySPerK(double s);
    void setTarget(const QString& verdict);
    void setConfidence(double c);  // (0.5, 1)
    // Whether the plan can be applied to the run shown (the live simulation or counter).
    void setApplicable(bool applicable);

    // Plans now (the panel otherwise plans shortly after its inputs change).
    void replan();
    const PlanInputs& inputs() const { return in_; }
    const std::optional<PlanOutcome>& outcome() const { return outcome_; }
    QString resultText() const;
    QString detailText() const;
    double confidence() const;

    QDoubleSpinBox* marginalBox() const { return marginal_; }
    QPushButton* useMeasuredButton() const { return useMeasured_; }
    QPushButton* applyButton() const { return apply_; }
    QComboBox* targetBox() const { return target_; }

signals:
    void planned(const jb::PlanOutcome& outcome);
    void applyRequested(double idle_s, int k);
    void confidenceChanged(double confidence);

private:
    void schedule();
    void show(const PlanOutcome& o);

    PlanInputs base_;
    bool have_noise_ = false;
    PlanInputs in_;
    std::optional<PlanOutcome> outcome_;
    std::optional<double> measured_;
    QTimer debounce_;

    QLabel* source_;
    QDoubleSpinBox* marginal_;
    QPushButton* useMeasured_;
    QDoubleSpinBox* busyPerK_;
    QComboBox* target_;
    QSpinBox* confidence_;
    QLabel* result_;
    QLabel* detail_;
    QPushButton* apply_;
    bool applicable_ = false;
};

}  // namespace jb
