#include "common/InterleavedView.h"

#include "common/Banner.h"
#include "common/Format.h"
#include "common/Palette.h"
#include "chart/RatioChart.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace jb {

namespace {

QString orDash(const std::optional<double>& v, int digits)
{
    return v ? fmt::significant(*v, digits) : QStringLiteral("–");
}

QString ratioText(const std::optional<double>& v)
{
    return v ? fmt::fixed(*v, 4) : QStringLiteral("–");
}

QString ciText(const ComparisonSide& s)
{
    if (!s.ratio_low || !s.ratio_high)
        return QStringLiteral("–");
    return fmt::fixed(*s.ratio_low, 4) + QStringLiteral(" – ") + fmt::fixed(*s.ratio_high, 4);
}

QString pText(const std::optional<double>& p)
{
    if (!p)
        return QStringLiteral("–");
    return *p < 0.001 ? QString::number(*p, 'e', 1) : fmt::fixed(*p, 3);
}

QString significantText(const ComparisonSide& s, double level)
{
    if (!s.significant)
        return QStringLiteral("–");
    return *s.significant ? QObject::tr("yes (p < %1)").arg(level) : QObject::tr("no");
}

}  // namespace

InterleavedView::InterleavedView(const QString& path, ComparisonRecord comparison, QWidget* parent)
    : QWidget(parent),
      path_(path),
      comparison_(std::move(comparison)),
      banner_(new Banner(this)),
      headline_(new QLabel(this)),
      table_(new QTableWidget(this)),
      chart_(new RatioChart(this))
{
    setObjectName(QStringLiteral("interleavedView"));
    banner_->setObjectName(QStringLiteral("interleavedBanner"));
    headline_->setObjectName(QStringLiteral("interleavedHeadline"));
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setObjectName(QStringLiteral("interleavedTable"));
    table_->setColumnCount(ColumnCount);
    table_->setHorizontalHeaderLabels({tr("child"), tr("J/decode"), tr("energy ratio"), tr("95% CI"), tr("p"),
                                       tr("significant"), tr("s/decode"), tr("time ratio"), tr("95% CI"), tr("p"),
                                       tr("significant"), tr("blocks"), tr("record")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);

    // The table as tall as its rows (up to a scroll), the chart takes the rest.
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 8, 8, 8);
    v->addWidget(banner_);
    v->addWidget(headline_);
    v->addWidget(split, 1);
    fill();
    updateBanner();
}

void InterleavedView::fill()
{
    const ComparisonRecord& c = comparison_;
    int blocks = 0;
    for (const ComparisonChild& ch : c.children)
        for (const auto* s : {&ch.energy, &ch.time})
            if (*s)
                blocks = std::max(blocks, (*s)->blocks);
    QString head = tr("<b>%1</b>: baseline <b>%2</b>, counter %3, %4")
                       .arg((title_.isEmpty() ? QFileInfo(path_).dir().dirName() : title_).toHtmlEscaped(),
                            QString::fromStdString(c.baseline).toHtmlEscaped(),
                            QString::fromStdString(c.counter).toHtmlEscaped(),
                            QString::fromStdString(pairedOverText(blocks)));  // core's words
    if (c.warmup_blocks > 0)
        head += c.warmup_blocks == 1 ? tr(" (1 warm-up block left out)")
                                     : tr(" (%1 warm-up blocks left out)").arg(c.warmup_blocks);
    head += tr(".<br>Wilcoxon signed-rank test, significant at p &lt; %1; intervals: block bootstrap, %2 resamples.")
                .arg(c.significance_level)
                .arg(c.resamples);
    headline_->setText(head);

    table_->setRowCount(int(c.children.size()));
    for (int r = 0; r < int(c.children.size()); ++r) {
        const ComparisonChild& ch = c.children[std::size_t(r)];
        QStringList cells(ColumnCount);
        cells[Child] = QString::fromStdString(ch.name);
        cells[JPerDecode] = orDash(ch.median_j_per_decode, 4);
        cells[SPerDecode] = orDash(ch.median_s_per_decode, 4);
        if (ch.baseline) {
            cells[EnergyRatio] = cells[TimeRatio] = tr("1 (baseline)");
        }
        for (const auto& [side, ratio, ci, p, sig] :
             {std::tuple{&ch.energy, EnergyRatio, EnergyCi, EnergyP, EnergySignificant},
              std::tuple{&ch.time, TimeRatio, TimeCi, TimeP, TimeSignificant}}) {
            if (!*side)
                continue;
            const ComparisonSide& s = **side;
            cells[ratio] = ratioText(s.ratio);
            cells[ci] = ciText(s);
            cells[p] = pText(s.p_value);
            cells[sig] = significantText(s, c.significance_level);
            if (side == &ch.energy)
                cells[Blocks] = QString::number(s.blocks);
        }
        QString status = ch.record ? QString::fromStdString(*ch.record) : tr("(none)");
        if (ch.dropped_block)
            status += tr(", dropped at block %1").arg(*ch.dropped_block);
        else if (ch.status && *ch.status != "complete")
            status += QStringLiteral(", ") + QString::fromStdString(*ch.status);
        cells[Status] = status;
        for (int col = 0; col < ColumnCount; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col != Child && col != Status)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            const bool yes = (col == EnergySignificant || col == TimeSignificant) && cells[col].startsWith(tr("yes"));
            if (yes) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            if (ch.dropped_block)
                item->setForeground(palette::errorText());
            if (col == EnergyCi || col == EnergyP || col == EnergySignificant) {
                if (ch.energy && !ch.energy->problem.empty())
                    item->setToolTip(QString::fromStdString(ch.energy->problem));
            }
            table_->setItem(r, col, item);
        }
    }
    chart_->setComparison(c);
}

void InterleavedView::setComparison(ComparisonRecord comparison)
{
    comparison_ = std::move(comparison);
    fill();
    updateBanner();
}

void InterleavedView::setTitle(const QString& title)
{
    title_ = title;
    fill();
}

void InterleavedView::setMissing(const QStringList& messages)
{
    missing_ = messages;
    updateBanner();
}

void InterleavedView::updateBanner()
{
    QStringList lines;
    for (const ComparisonChild& ch : comparison_.children)
        if (ch.dropped_block)
            lines << tr("%1 was dropped at block %2 (--keep-going): %3. Its pairs hold the blocks before.")
                         .arg(QString::fromStdString(ch.name))
                         .arg(*ch.dropped_block)
                         .arg(QString::fromStdString(ch.dropped_reason));
    for (const ComparisonChild& ch : comparison_.children)
        for (const auto* s : {&ch.energy, &ch.time})
            if (*s && !(*s)->problem.empty())
                lines << tr("%1, %2: %3")
                             .arg(QString::fromStdString(ch.name), s == &ch.energy ? tr("energy") : tr("time"),
                                  QString::fromStdString((*s)->problem));
    lines += missing_;
    if (lines.isEmpty())
        banner_->clearMessage();
    else
        banner_->setMessage(lines.join(QLatin1Char('\n')), missing_.isEmpty() ? Tone::Warning : Tone::Error);
}

QString InterleavedView::cellText(int row, Column column) const
{
    const QTableWidgetItem* i = table_->item(row, column);
    return i ? i->text() : QString();
}

int InterleavedView::rowCount() const
{
    return table_->rowCount();
}

QString InterleavedView::headline() const
{
    return headline_->text();
}

}  // namespace jb
