#include "noise/SimControls.h"

#include "common/Format.h"
#include "common/Palette.h"
#include "noise/ValueSlider.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace jb {

namespace {

QString sliderWatts(double w)
{
    return fmt::significant(w, w >= 10 ? 3 : 2) + QStringLiteral(" W");
}

std::vector<double> range(double from, double to, double step)
{
    std::vector<double> v;
    for (double x = from; x <= to + step / 2; x += step)
        v.push_back(std::round(x / step) * step);
    return v;
}

}  // namespace

SimControls::SimControls(QWidget* parent) : QWidget(parent), speed_(new QComboBox), powerNote_(new QLabel)
{
    const LiveSimSettings d;
    idle_ = new ValueSlider(tr("Idle power"), range(1, 100, 1), d.idle_w, sliderWatts);
    noise_ = new ValueSlider(tr("Noise sd (per interval)"),
                             {0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5},
                             d.noise_sd_w, sliderWatts);
    signal_ = new ValueSlider(
        tr("Signal (busy) power"),
        {0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 50}, d.signal_w,
        sliderWatts);
    period_ = new ValueSlider(tr("Sample period"), {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0}, d.period_s,
                              [](double s) { return fmt::duration(s); });
    std::vector<double> idleValues = range(0.5, 10, 0.5);
    for (double s : {12.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0})
        idleValues.push_back(s);
    idle_s_ = new ValueSlider(tr("Idle bracket"), idleValues, d.idle_s,
                              [](double s) { return fmt::duration(s); });
    std::vector<double> kValues = range(1, 20, 1);
    for (double k : {25.0, 30.0, 40.0, 50.0, 60.0, 80.0, 100.0})
        kValues.push_back(k);
    k_ = new ValueSlider(tr("k (passes per round)"), kValues, d.k,
                         [](double k) { return QString::number(int(k)); });
    busy_s_per_k_ = d.busy_s_per_k;
    jobs_ = d.jobs;

    for (double s : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0})
        speed_->addItem(QStringLiteral("%1×").arg(s), s);
    QFont sf = speed_->font();
    sf.setPointSize(sf.pointSize() + 2);
    sf.setBold(true);
    speed_->setFont(sf);
    speed_->setToolTip(tr("Simulated seconds per real second"));

    auto* power = new QGroupBox(tr("The counter's power"));
    auto* pl = new QVBoxLayout(power);
    pl->addWidget(idle_);
    pl->addWidget(noise_);
    pl->addWidget(signal_);
    powerNote_->setWordWrap(true);
    powerNote_->setStyleSheet(palette::textStyle(palette::mutedText()));
    powerNote_->hide();
    pl->addWidget(powerNote_);
    auto* layout = new QGroupBox(tr("The run's layout"));
    auto* ll = new QVBoxLayout(layout);
    ll->addWidget(period_);
    ll->addWidget(idle_s_);
    ll->addWidget(k_);
    auto* speedRow = new QFormLayout;
    speedRow->addRow(tr("Speed"), speed_);
    ll->addLayout(speedRow);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(power);
    v->addWidget(layout);

    for (ValueSlider* s : {idle_, noise_, signal_, period_, idle_s_, k_})
        connect(s, &ValueSlider::valueChanged, this, [this] {
            if (!applying_)
                emit settingsChanged(settings());
        });
    connect(speed_, &QComboBox::currentIndexChanged, this, [this] { emit speedChanged(speed()); });
}

LiveSimSettings SimControls::settings() const
{
    LiveSimSettings s;
    s.idle_w = idle_->value();
    s.noise_sd_w = noise_->value();
    s.signal_w = signal_->value();
    s.period_s = period_->value();
    s.idle_s = idle_s_->value();
    s.k = int(std::lround(k_->value()));
    s.busy_s_per_k = busy_s_per_k_;
    s.jobs = jobs_;
    return s;
}

void SimControls::setSettings(const LiveSimSettings& s)
{
    applying_ = true;
    idle_->setValue(s.idle_w);
    noise_->setValue(s.noise_sd_w);
    signal_->setValue(s.signal_w);
    period_->setValue(s.period_s);
    idle_s_->setValueAtLeast(s.idle_s);
    k_->setValueAtLeast(s.k);
    busy_s_per_k_ = s.busy_s_per_k;
    jobs_ = s.jobs;
    applying_ = false;
    emit settingsChanged(settings());
}

double SimControls::speed() const
{
    return speed_->currentData().toDouble();
}

void SimControls::setSpeed(double speed)
{
    int best = 0;
    for (int i = 1; i < speed_->count(); ++i)
        if (std::abs(speed_->itemData(i).toDouble() - speed) <
            std::abs(speed_->itemData(best).toDouble() - speed))
            best = i;
    speed_->setCurrentIndex(best);
}

void SimControls::setPowerEditable(bool editable)
{
    // Hidden rather than greyed: a room reading "15 W" beside a real counter's trace would
    // take it for the machine's figure.
    for (ValueSlider* s : {idle_, noise_, signal_})
        s->setVisible(editable);
    speed_->setEnabled(editable);
    powerNote_->setText(
        tr("A real counter: the machine sets the power; the decoder is the signal, in real time."));
    powerNote_->setVisible(!editable);
}

}  // namespace jb
