#include "noise/VerdictBanner.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QGridLayout>
#include <QLabel>

namespace jb {

namespace {

QFont sized(QFont f, int pt, bool bold)
{
    f.setPointSize(pt);
    f.setBold(bold);
    return f;
}

}  // namespace

VerdictBanner::VerdictBanner(QWidget* parent)
    : QWidget(parent),
      badge_(new QLabel),
      caption_(new QLabel),
      ratio_(new QLabel),
      figures_(new QLabel),
      detail_(new QLabel),
      phase_(new QLabel)
{
    applySizes();
    badge_->setAlignment(Qt::AlignCenter);
    caption_->setAlignment(Qt::AlignCenter);
    detail_->setWordWrap(true);
    phase_->setStyleSheet(palette::textStyle(palette::mutedText()));
    phase_->setAlignment(Qt::AlignRight | Qt::AlignTop);
    for (QLabel* l : {ratio_, figures_, detail_, phase_})
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* g = new QGridLayout(this);
    g->setContentsMargins(6, 4, 6, 4);
    g->setHorizontalSpacing(18);
    g->setVerticalSpacing(0);
    g->addWidget(badge_, 0, 0, 2, 1);
    g->addWidget(caption_, 2, 0);
    g->addWidget(ratio_, 0, 1);
    g->addWidget(phase_, 0, 2);
    g->addWidget(figures_, 1, 1, 1, 2);
    g->addWidget(detail_, 2, 1, 1, 2);
    g->setColumnStretch(1, 1);
    clear(tr("Waiting for the first round…"));
}

void VerdictBanner::setCompact(bool compact)
{
    if (compact == compact_)
        return;
    compact_ = compact;
    applySizes();
}

void VerdictBanner::applySizes()
{
    const int big = compact_ ? 22 : 34, ratio = compact_ ? 20 : 30, figures = compact_ ? 12 : 15,
              small = compact_ ? 10 : 12;
    badge_->setFont(sized(font(), big, true));
    const QString widest = QString::fromLatin1(verdictName(Verdict::RelativeOnly));
    badge_->setMinimumWidth(QFontMetrics(badge_->font()).horizontalAdvance(widest) + 40);
    badge_->setMinimumHeight(QFontMetrics(badge_->font()).height() + (compact_ ? 8 : 16));
    caption_->setFont(sized(font(), small, false));
    ratio_->setFont(sized(font(), ratio, true));
    figures_->setFont(sized(font(), figures, false));
    detail_->setFont(sized(font(), small, false));
    phase_->setFont(sized(font(), small, false));
}

void VerdictBanner::showFigures(const BannerFigures& f)
{
    const VerdictStyle st = verdictStyle(f.verdict);
    badge_->setText(st.text);
    badge_->setStyleSheet(QStringLiteral("background: %1; color: %2; border-radius: 10px; padding: 4px 16px;")
                              .arg(st.background.name(), st.foreground.name()));
    badge_->setToolTip(verdictTooltip(f.verdict, f.ratio));
    caption_->setText(f.caption);
    ratio_->setText(f.ratio ? QString(f.ratio_label + QLatin1Char(' ') + fmt::significant(*f.ratio, 3))
                            : tr("no ratio"));
    figures_->setText(f.figures);
    detail_->setText(f.detail);
}

void VerdictBanner::clear(const QString& message)
{
    badge_->setText(QStringLiteral("–"));
    badge_->setStyleSheet(QStringLiteral("background: %1; color: %2; border-radius: 10px; padding: 4px 16px;")
                              .arg(palette::emptyFill().name(), palette::faintText().name()));
    badge_->setToolTip(QString());
    caption_->clear();
    ratio_->setText(QString());
    figures_->setText(message);
    detail_->clear();
}

void VerdictBanner::setPhase(const QString& text)
{
    phase_->setText(text);
}

QString VerdictBanner::verdictText() const
{
    return badge_->text();
}
QString VerdictBanner::ratioText() const
{
    return ratio_->text();
}
QString VerdictBanner::detailText() const
{
    return detail_->text();
}
QString VerdictBanner::phaseText() const
{
    return phase_->text();
}

}  // namespace jb
