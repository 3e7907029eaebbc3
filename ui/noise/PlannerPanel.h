#pragma once
// The planner on the Noise lab page: given the idle noise shown (measured now, or a record's)
// and an expected marginal power (typed, or the rounds' measured one), the idle seconds, k
// and rounds that reach a chosen verdict in a chosen share of rounds, with the run's total
// time (jb::planRun); "unreachable" in plain words with what would be needed. Where the noise is
// a record's and its counter is coarse (jb::cadencePlan, as `joulebench-cli plan`), the idle sd
// is the counter's quantisation: the panel recommends the sampling period and round length the
// CLI does, in core's words, instead of planning from it.
#include <jb/noise/CadencePlan.h>
#include <jb/noise/Planner.h>
#include <jb/record/Record.h>

#include <QString>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>

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
    // The record's counter is forgotten (live noise).
    void setNoise(const PlanInputs& base, const QString& source);
    // As setNoise, from a record's counter spec: where that counter is coarse in the record, the
    // plan is jb::cadencePlan's (redone as busy per k changes).
    void setRecordNoise(const PlanInputs& base, const QString& source, std::shared_ptr<const Record> record,
                        const std::string& spec);
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
    // The coarse counter's recommendation the panel shows (none: the plan is planRun's).
    const std::optional<CadencePlan>& coarsePlan() const { return coarse_; }
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
    void showCoarse(const CadencePlan& p);

    PlanInputs base_;
    bool have_noise_ = false;
    PlanInputs in_;
    std::optional<PlanOutcome> outcome_;
    std::shared_ptr<const Record> record_;  // where the noise is a record's
    std::string spec_;
    std::optional<CadencePlan> coarse_;
    // The busy per k last set, unrounded, and the box's value then: while the box still shows it,
    // the coarse plan uses the exact figure (as the CLI does), not the box's 3 decimals.
    double busy_per_k_set_ = 0, busy_per_k_shown_ = -1;
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
