#include "noise/ValueSlider.h"

#include <QGridLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace jb {

ValueSlider::ValueSlider(const QString& name, std::vector<double> values, double initial, Formatter format,
                         QWidget* parent)
    : QWidget(parent),
      values_(std::move(values)),
      format_(std::move(format)),
      slider_(new QSlider(Qt::Horizontal)),
      value_(new QLabel)
{
    if (values_.empty())
        values_ = {0.0};
    auto* title = new QLabel(name);
    QFont nf = title->font();
    nf.setPointSize(nf.pointSize() + 1);
    title->setFont(nf);
    QFont vf = value_->font();
    vf.setPointSize(16);
    vf.setBold(true);
    value_->setFont(vf);
    value_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    value_->setMinimumWidth(QFontMetrics(vf).horizontalAdvance(QStringLiteral("00.00 W ")));
    slider_->setRange(0, int(values_.size()) - 1);
    slider_->setPageStep(1);
    slider_->setTickPosition(QSlider::TicksBelow);
    slider_->setTickInterval(std::max(1, int(values_.size()) / 20));  // a comb of 100 ticks reads as noise
    slider_->setAccessibleName(name);
    title->setBuddy(slider_);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setVerticalSpacing(0);
    grid->addWidget(title, 0, 0);
    grid->addWidget(value_, 0, 1, 2, 1);
    grid->addWidget(slider_, 1, 0);
    grid->setColumnStretch(0, 1);

    connect(slider_, &QSlider::valueChanged, this, [this] {
        value_->setText(valueText());
        emit valueChanged(value());
    });
    setValue(initial);
    value_->setText(valueText());
}

double ValueSlider::value() const
{
    return values_[std::size_t(std::clamp(slider_->value(), 0, int(values_.size()) - 1))];
}

QString ValueSlider::valueText() const
{
    return format_ ? format_(value()) : QString::number(value());
}

void ValueSlider::setValue(double v)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < values_.size(); ++i)
        if (std::abs(values_[i] - v) < std::abs(values_[best] - v))
            best = i;
    slider_->setValue(int(best));
}

void ValueSlider::setValueAtLeast(double v)
{
    const auto it = std::find_if(values_.begin(), values_.end(), [v](double x) { return x >= v - 1e-12; });
    slider_->setValue(it == values_.end() ? int(values_.size()) - 1 : int(it - values_.begin()));
}

}  // namespace jb
