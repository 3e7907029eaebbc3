#include "chart/ChartPanel.h"

#include "chart/ChartLegend.h"
#include "chart/PowerChart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace jb {

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent),
      chart_(new PowerChart(this)),
      toolbar_(new QHBoxLayout),
      follow_(new QToolButton(this)),
      freeze_(new QToolButton(this)),
      reset_(new QToolButton(this)),
      readout_(new QLabel(this)),
      legend_(new ChartLegend(this))
{
    follow_->setText(tr("Follow"));
    follow_->setObjectName(QStringLiteral("followButton"));
    follow_->setCheckable(true);
    follow_->setChecked(chart_->following());
    follow_->setToolTip(tr("Show the whole run and keep up with the newest samples"));
    freeze_->setText(tr("Freeze"));
    freeze_->setObjectName(QStringLiteral("freezeButton"));
    freeze_->setCheckable(true);
    freeze_->setToolTip(tr("Hold the picture as it is now; the run goes on and nothing is lost"));
    reset_->setText(tr("Reset view"));
    reset_->setObjectName(QStringLiteral("resetButton"));
    reset_->setToolTip(tr("Back to the whole run, following (double-click the chart or press Home)"));
    for (QToolButton* b : {follow_, freeze_, reset_})
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);

    readout_->setObjectName(QStringLiteral("hoverReadout"));
    readout_->setTextFormat(Qt::PlainText);
    readout_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    readout_->setText(tr("wheel: zoom · drag: zoom to span · right-drag: pan"));
    readout_->setToolTip(tr("Hover the plot: the sample under the pointer (seconds, watts, the round or bracket "
                            "it lies in).\nWheel: zoom · drag: zoom to a span · right or middle drag, arrow "
                            "keys: pan · double-click or Home: reset"));
    readout_->setStyleSheet(QStringLiteral("color: palette(dark);"));
    readout_->setMinimumWidth(0);
    readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    toolbar_->setContentsMargins(0, 0, 0, 0);
    toolbar_->addWidget(follow_);
    toolbar_->addWidget(freeze_);
    toolbar_->addWidget(reset_);
    toolbar_->addWidget(readout_, 1);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addLayout(toolbar_);
    v->addWidget(chart_, 1);
    v->addWidget(legend_);
    legend_->hide();

    connect(follow_, &QToolButton::toggled, chart_, &PowerChart::setFollowing);
    connect(chart_, &PowerChart::followingChanged, follow_, &QToolButton::setChecked);
    connect(freeze_, &QToolButton::toggled, chart_, &PowerChart::setFrozen);
    connect(chart_, &PowerChart::frozenChanged, freeze_, &QToolButton::setChecked);
    connect(reset_, &QToolButton::clicked, chart_, &PowerChart::resetView);
    connect(chart_, &PowerChart::hovered, this, [this](const QString& text) {
        readout_->setText(text.isEmpty() ? tr("wheel: zoom · drag: zoom to span · right-drag: pan") : text);
        readout_->setStyleSheet(text.isEmpty() ? QStringLiteral("color: palette(dark);") : QString());
    });
    connect(chart_, &PowerChart::legendChanged, this, [this] { legend_->setEntries(chart_->legend()); });
}

}  // namespace jb
