#include "measure/StatusLine.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

namespace jb {

StatusLine::StatusLine(QWidget* parent)
    : QWidget(parent),
      counter_(new QLabel(this)),
      figures_(new QLabel(this)),
      phase_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      time_(new QLabel(this)),
      message_(new QLabel(this))
{
    setObjectName(QStringLiteral("statusLine"));
    counter_->setObjectName(QStringLiteral("statusCounter"));
    figures_->setObjectName(QStringLiteral("statusFigures"));
    figures_->setToolTip(
        tr("Lateness: how long after its deadline each read came (reads are due every period "
           "from the first). Updates: how often the counter's value was seen to change."));
    phase_->setObjectName(QStringLiteral("statusPhase"));
    progress_->setObjectName(QStringLiteral("statusProgress"));
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->setFixedWidth(160);
    progress_->setMaximumHeight(14);
    time_->setObjectName(QStringLiteral("statusTime"));
    message_->setObjectName(QStringLiteral("statusMessage"));
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setSizePolicy(QSizePolicy::Ignored,
                            QSizePolicy::Preferred);  // long paths must not widen the window
    for (QLabel* l : {counter_, figures_, phase_, time_})
        l->setTextFormat(Qt::PlainText);

    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(6, 2, 6, 2);
    h->setSpacing(14);
    h->addWidget(counter_);
    h->addWidget(figures_);
    h->addWidget(message_, 1);
    h->addWidget(phase_);
    h->addWidget(progress_);
    h->addWidget(time_);
    hideProgress();
}

void StatusLine::setCounter(const QString& text)
{
    counter_->setText(text);
}

void StatusLine::setFigures(const QString& text)
{
    figures_->setText(text);
}

void StatusLine::setPhase(const QString& text)
{
    phase_->setText(text);
    phase_->setVisible(!text.isEmpty());
}

void StatusLine::setProgress(double fraction, double elapsed_s, std::optional<double> eta_s)
{
    progress_->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    progress_->show();
    time_->setText(eta_s ? tr("%1 elapsed · ETA %2").arg(fmt::clock(elapsed_s), fmt::clock(*eta_s))
                         : tr("%1 elapsed").arg(fmt::clock(elapsed_s)));
    time_->show();
}

void StatusLine::hideProgress()
{
    progress_->hide();
    time_->hide();
}

void StatusLine::setMessage(const QString& text, Tone tone)
{
    message_->setText(text);
    message_->setToolTip(text);
    switch (tone) {
    case Tone::Info:
        message_->setStyleSheet(QString());
        break;
    case Tone::Good:
        message_->setStyleSheet(palette::textStyle(palette::okText()));
        break;
    case Tone::Error:
        message_->setStyleSheet(palette::textStyle(palette::errorText(), true));
        break;
    }
}

QString StatusLine::phaseText() const
{
    return phase_->text();
}

QString StatusLine::messageText() const
{
    return message_->text();
}

int StatusLine::progressPercent() const
{
    return progress_->value() / 10;
}

}  // namespace jb
