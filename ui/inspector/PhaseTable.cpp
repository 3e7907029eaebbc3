#include "inspector/PhaseTable.h"

#include "common/Palette.h"

#include <jb/record/SummaryTable.h>

#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QTableWidget>
#include <QVBoxLayout>

namespace jb {

PhaseTable::PhaseTable(QWidget* parent) : QWidget(parent), note_(new QLabel(this)), table_(new QTableWidget(this))
{
    note_->setObjectName(QStringLiteral("phaseNote"));
    note_->setWordWrap(true);
    note_->setStyleSheet(palette::textStyle(palette::mutedText()));
    table_->setObjectName(QStringLiteral("phaseTable"));
    table_->setColumnCount(ColumnCount);
    table_->setHorizontalHeaderLabels({tr("phase"), tr("marginal J"), tr("spread (MAD)"), tr("span"),
                                       tr("share"), tr("too short")});
    table_->horizontalHeaderItem(MarginalCol)
        ->setToolTip(tr("Median over rounds of the phase's energy above the round's idle power"));
    table_->horizontalHeaderItem(SpreadCol)
        ->setToolTip(tr("Median absolute deviation of the marginal J over rounds"));
    table_->horizontalHeaderItem(ShareCol)->setToolTip(tr("Median share of the round's marginal J"));
    table_->horizontalHeaderItem(TooShortCol)
        ->setToolTip(tr("Rounds where the phase was shorter than the counter can resolve: no figure there"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(table_, 1);
    v->addWidget(note_);
}

void PhaseTable::setRecord(const Record& r, const std::string& spec)
{
    const std::vector<PhaseRow> rows = phaseRows(r, spec);
    table_->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const PhaseRow& p = rows[std::size_t(i)];
        const QString why = QString::fromStdString(p.too_short_why);
        auto put = [&](Column c, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            if (c != NameCol && c != TooShortCol)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!why.isEmpty() && (c == TooShortCol || c == MarginalCol))
                item->setToolTip(why);
            table_->setItem(i, c, item);
            return item;
        };
        QPixmap swatch(10, 10);
        swatch.fill(palette::phase(i));
        put(NameCol, QString::fromStdString(p.name))->setIcon(QIcon(swatch));
        // Too short in every round: no figure, said as such.
        if (p.all_too_short) {
            put(MarginalCol, tr("too short"))->setForeground(palette::errorText());
        } else {
            put(MarginalCol, QString::fromStdString(p.marginal_j));
        }
        put(SpreadCol, QString::fromStdString(p.spread_j));
        put(SpanCol, QString::fromStdString(p.span));
        put(ShareCol, QString::fromStdString(p.share));
        QTableWidgetItem* ts = put(TooShortCol, QString::fromStdString(p.too_short));
        if (!p.too_short.empty())
            ts->setForeground(palette::errorText());
    }
    table_->resizeColumnsToContents();
    note_->setText(rows.empty() ? QString()
                                : tr("Phases the child marked on %1: medians over rounds; a phase shorter than "
                                     "the counter can resolve gets no figure in that round.")
                                      .arg(QString::fromStdString(spec)));
}

int PhaseTable::rowCount() const
{
    return table_->rowCount();
}

QString PhaseTable::cell(int row, Column col) const
{
    const QTableWidgetItem* item = table_->item(row, col);
    return item ? item->text() : QString();
}

QString PhaseTable::noteText() const
{
    return note_->text();
}

}  // namespace jb
