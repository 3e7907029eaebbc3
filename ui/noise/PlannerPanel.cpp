#include "noise/PlannerPanel.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace jb {

namespace {

QString planPercent(double p)
{
    return QString::number(p * 100.0, 'f', p > 0.995 && p < 1.0 ? 1 : 0) + QLatin1Char('%');
}

// Inputs that change the plan; the live idle sd moves a little every refresh, and a plan that
// flickers between two settings helps nobody, so a change under 2% keeps the plan.
bool samePlanInputs(const PlanInputs& a, const PlanInputs& b)
{
    auto near = [](double x, double y) {
        return std::abs(x - y) <= 0.02 * std::max(std::abs(x), std::abs(y));
    };
    return near(a.idle_sd_w, b.idle_sd_w) && near(a.busy_sd_w, b.busy_sd_w) && a.marginal_w == b.marginal_w &&
        a.period_s == b.period_s && a.busy_s_per_k == b.busy_s_per_k && a.target == b.target &&
        a.confidence == b.confidence && near(a.extra_rel_sd, b.extra_rel_sd);
}

}  // namespace

PlannerPanel::PlannerPanel(QWidget* parent)
    : QWidget(parent),
      source_(new QLabel),
      marginal_(new QDoubleSpinBox),
      useMeasured_(new QPushButton(tr("Measured"))),
      busyPerK_(new QDoubleSpinBox),
      target_(new QComboBox),
      confidence_(new QSpinBox),
      result_(new QLabel),
      detail_(new QLabel),
      apply_(new QPushButton(tr("Use idle and k in the run")))
{
    source_->setWordWrap(true);
    source_->setStyleSheet(palette::textStyle(palette::mutedText()));
    marginal_->setRange(0.0, 100000.0);
    marginal_->setDecimals(3);
    marginal_->setSuffix(QStringLiteral(" W"));
    marginal_->setValue(1.0);
    marginal_->setToolTip(tr("The power the workload adds while busy (marginal W)"));
    useMeasured_->setEnabled(false);
    busyPerK_->setRange(0.001, 600.0);
    busyPerK_->setDecimals(3);
    busyPerK_->setSuffix(QStringLiteral(" s"));
    busyPerK_->setValue(1.0);
    busyPerK_->setToolTip(tr("Busy seconds per unit of k: one pass over the decoder's jobs"));
    for (const Verdict v : {Verdict::Clean, Verdict::RelativeOnly, Verdict::Noisy})
        target_->addItem(QString::fromLatin1(verdictName(v)));
    confidence_->setRange(51, 99);
    confidence_->setValue(90);
    confidence_->setSuffix(tr("% of rounds"));

    QFont rf = result_->font();
    rf.setPointSize(17);
    rf.setBold(true);
    result_->setFont(rf);
    result_->setWordWrap(true);
    QFont df = detail_->font();
    df.setPointSize(df.pointSize() + 1);
    detail_->setFont(df);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_->setEnabled(false);

    auto* marginalRow = new QHBoxLayout;
    marginalRow->addWidget(marginal_, 1);
    marginalRow->addWidget(useMeasured_);
    auto* form = new QFormLayout;
    form->addRow(tr("Marginal power"), marginalRow);
    form->addRow(tr("Busy per k"), busyPerK_);
    form->addRow(tr("Target"), target_);
    form->addRow(tr("In"), confidence_);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(source_);
    v->addLayout(form);
    v->addWidget(result_);
    v->addWidget(detail_);
    v->addWidget(apply_);
    v->addStretch(1);

    debounce_.setSingleShot(true);
    debounce_.setInterval(150);
    connect(&debounce_, &QTimer::timeout, this, &PlannerPanel::replan);
    connect(marginal_, &QDoubleSpinBox::valueChanged, this, &PlannerPanel::schedule);
    connect(busyPerK_, &QDoubleSpinBox::valueChanged, this, &PlannerPanel::schedule);
    connect(target_, &QComboBox::currentIndexChanged, this, &PlannerPanel::schedule);
    connect(confidence_, &QSpinBox::valueChanged, this, [this] {
        emit confidenceChanged(confidence());
        schedule();
    });
    connect(useMeasured_, &QPushButton::clicked, this, [this] {
        if (measured_)
            marginal_->setValue(*measured_);
    });
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (outcome_ && outcome_->reachable)
            emit applyRequested(outcome_->idle_s, outcome_->k);
    });
    clearNoise(tr("No idle noise measured yet."));
}

void PlannerPanel::setNoise(const PlanInputs& base, const QString& source)
{
    setRecordNoise(base, source, nullptr, std::string());
}

void PlannerPanel::setRecordNoise(const PlanInputs& base, const QString& source, std::shared_ptr<const Record> record,
                                  const std::string& spec)
{
    if (record != record_ || spec != spec_)
        outcome_.reset();  // another record or counter: plan again even where the noise looks alike
    record_ = std::move(record);
    spec_ = record_ ? spec : std::string();
    base_ = base;
    have_noise_ = true;
    source_->setText(source);
    schedule();
}

void PlannerPanel::clearNoise(const QString& why)
{
    have_noise_ = false;
    outcome_.reset();
    coarse_.reset();
    record_.reset();
    spec_.clear();
    source_->setText(why);
    result_->setText(tr("No plan yet"));
    result_->setStyleSheet(palette::textStyle(palette::faintText()));
    detail_->setText(
        tr("The planner needs an idle bracket's noise: run the simulation or a counter, or open a record."));
    apply_->setEnabled(false);
}

void PlannerPanel::setMeasuredMarginal(std::optional<double> w, const QString& from)
{
    measured_ = w;
    useMeasured_->setEnabled(w.has_value());
    useMeasured_->setToolTip(w ? tr("%1 W, %2").arg(fmt::significant(*w, 4), from)
                               : tr("No rounds with a marginal power yet"));
}

void PlannerPanel::setMarginalW(double w)
{
    marginal_->setValue(w);
}
void PlannerPanel::setBusySPerK(double s)
{
    busyPerK_->setValue(s);
    busy_per_k_set_ = s;
    busy_per_k_shown_ = busyPerK_->value();
}
void PlannerPanel::setTarget(const QString& verdict)
{
    target_->setCurrentText(verdict);
}

void PlannerPanel::setConfidence(double c)
{
    confidence_->setValue(int(std::lround(c * 100.0)));
}

double PlannerPanel::confidence() const
{
    return confidence_->value() / 100.0;
}

void PlannerPanel::setApplicable(bool applicable)
{
    applicable_ = applicable;
    apply_->setEnabled(applicable_ && outcome_ && outcome_->reachable);
}

void PlannerPanel::schedule()
{
    if (!debounce_.isActive())
        debounce_.start();
}

void PlannerPanel::replan()
{
    debounce_.stop();
    if (!have_noise_)
        return;
    PlanInputs in = base_;
    in.marginal_w = marginal_->value();
    in.busy_s_per_k = busyPerK_->value();
    in.target = parseVerdict(target_->currentText().toStdString()).value_or(Verdict::Clean);
    in.confidence = confidence();
    if (outcome_ && samePlanInputs(in, in_))
        return;
    in_ = in;
    // A coarse counter's idle sd is its quantisation: the remedy is its cadence, as the CLI's plan.
    const double perK = busyPerK_->value() == busy_per_k_shown_ ? busy_per_k_set_ : in_.busy_s_per_k;
    coarse_ = record_ ? cadencePlan(*record_, spec_, perK, in_.min_idle_intervals, in_.min_rounds) : std::nullopt;
    if (coarse_) {
        outcome_ = coarse_->outcome();
        showCoarse(*coarse_);
    } else {
        outcome_ = planRun(in_);
        show(*outcome_);
    }
    emit planned(*outcome_);
}

void PlannerPanel::show(const PlanOutcome& o)
{
    const QString target = QString::fromLatin1(verdictName(in_.target));
    if (o.reachable) {
        result_->setText(tr("idle %1 · k %2\n%3 rounds · total %4")
                             .arg(fmt::duration(o.idle_s))
                             .arg(o.k)
                             .arg(o.rounds)
                             .arg(fmt::clock(o.total_s)));
        result_->setStyleSheet(
            QStringLiteral("color: %1;").arg(verdictStyle(in_.target).background.darker(130).name()));
        QString d = tr("%1 in %2 of rounds expected; relative-only or better in %3, noisy or better in %4. "
                       "Busy window %5, idle sd %6 W.")
                        .arg(target, planPercent(o.round_probability), planPercent(o.p_relative_only),
                             planPercent(o.p_noisy), fmt::duration(o.busy_s),
                             fmt::significant(in_.idle_sd_w, 3));
        if (!o.ci_met)
            d += tr(" The median's confidence interval stays wider than ±5% even at %1 rounds.")
                     .arg(in_.max_rounds);
        detail_->setText(d);
    } else {
        result_->setText(tr("Unreachable"));
        result_->setStyleSheet(palette::textStyle(palette::errorText()));
        QString d;
        if (o.needed_marginal_w > 0 && in_.idle_sd_w > 0 && !(in_.marginal_w > o.threshold * in_.idle_sd_w))
            d = tr("%1 needs a ratio of %2; %3 W over an idle sd of %4 W is only %5. More rounds or a longer "
                   "busy window do not change that: a round's verdict compares its marginal power with the "
                   "spread of single samples (the Allan curve's first point). Where the Allan curve falls to "
                   "the right, longer samples spread less: a longer sample period raises the ratio. "
                   "Needed: a marginal power above %6 W, or an idle sd below %7 W.")
                    .arg(target, fmt::significant(o.threshold, 2), fmt::significant(in_.marginal_w, 3),
                         fmt::significant(in_.idle_sd_w, 3), fmt::significant(o.asymptotic_ratio, 3),
                         fmt::significant(o.needed_marginal_w, 3), fmt::significant(o.needed_idle_sd_w, 3));
        else
            d = QString::fromStdString(o.message);
        if (o.suggested_sample_s)
            d += tr(" The Allan curve suggests trying a sample period near %1.")
                     .arg(fmt::duration(*o.suggested_sample_s));
        detail_->setText(d);
    }
    apply_->setEnabled(applicable_ && o.reachable);
}

void PlannerPanel::showCoarse(const CadencePlan& p)
{
    result_->setText(QString::fromStdString(p.settings));
    result_->setStyleSheet(palette::textStyle(palette::errorText()));
    detail_->setText(QString::fromStdString(p.text()));
    apply_->setEnabled(false);  // the sampling period is not the run's to change from here
}

QString PlannerPanel::resultText() const
{
    return result_->text();
}
QString PlannerPanel::detailText() const
{
    return detail_->text();
}

}  // namespace jb
