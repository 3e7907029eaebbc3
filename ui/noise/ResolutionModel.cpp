#include "noise/ResolutionModel.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QBrush>
#include <QFont>

namespace jb {

namespace {

QString cellWatts(double w)
{
    return fmt::significant(w, 3) + QStringLiteral(" W");
}

QString joules(double j)
{
    return fmt::significant(j, 3) + QStringLiteral(" J");
}

}  // namespace

ResolutionModel::ResolutionModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResolutionModel::setRows(std::vector<ResolutionRow> rows, double confidence)
{
    const bool sameShape = rows.size() == rows_.size();
    if (!sameShape)
        beginResetModel();
    rows_ = std::move(rows);
    const bool headerChanged = confidence != confidence_;
    confidence_ = confidence;
    if (!sameShape) {
        endResetModel();
        return;
    }
    if (!rows_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    if (headerChanged)
        emit headerDataChanged(Qt::Horizontal, AtConfidenceWCol, AtConfidenceJCol);
}

void ResolutionModel::clear()
{
    if (rows_.empty())
        return;
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int ResolutionModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int ResolutionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResolutionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ResolutionRow& r = rows_[std::size_t(index.row())];
    const int c = index.column();
    if (role == VerdictRole)
        return QString::fromLatin1(verdictName(r.verdict));
    if (role == SortRole) {
        switch (c) {
        case VerdictCol:
            return QString::fromLatin1(verdictName(r.verdict));
        case ThresholdCol:
            return r.threshold;
        case FloorWCol:
            return r.min_marginal_w;
        case FloorJCol:
            return r.min_energy_j;
        case AtConfidenceWCol:
            return r.marginal_w_at_confidence ? QVariant(*r.marginal_w_at_confidence) : QVariant();
        case AtConfidenceJCol:
            return r.energy_j_at_confidence ? QVariant(*r.energy_j_at_confidence) : QVariant();
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (c) {
        case VerdictCol:
            return QString::fromLatin1(verdictName(r.verdict));
        case ThresholdCol:
            return QStringLiteral("%1 σ").arg(QString::number(r.threshold, 'g', 3));
        case FloorWCol:
            return cellWatts(r.min_marginal_w);
        case FloorJCol:
            return joules(r.min_energy_j);
        case AtConfidenceWCol:
            return r.marginal_w_at_confidence ? cellWatts(*r.marginal_w_at_confidence) : QStringLiteral("–");
        case AtConfidenceJCol:
            return r.energy_j_at_confidence ? joules(*r.energy_j_at_confidence) : QStringLiteral("–");
        }
        return {};
    }
    if (role == Qt::BackgroundRole && c == VerdictCol)
        return QBrush(verdictStyle(r.verdict).background);
    if (role == Qt::ForegroundRole && c == VerdictCol)
        return QBrush(verdictStyle(r.verdict).foreground);
    if (role == Qt::TextAlignmentRole)
        return c == VerdictCol ? int(Qt::AlignCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (c == AtConfidenceWCol || c == AtConfidenceJCol)
            return tr("The marginal power that reaches %1 in %2% of rounds with these idle brackets and busy "
                      "window: above the floor, because short brackets estimate the idle mean and sd roughly.")
                .arg(QString::fromLatin1(verdictName(r.verdict)))
                .arg(confidence_ * 100.0, 0, 'f', 0);
        return tr("A round is %1 where its marginal power is at least %2 × the idle sd. Long brackets tend "
                  "to this floor.")
            .arg(QString::fromLatin1(verdictName(r.verdict)), fmt::significant(r.threshold, 2));
    }
    return {};
}

QVariant ResolutionModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    const QString pct = QString::number(confidence_ * 100.0, 'f', 0) + QLatin1Char('%');
    switch (section) {
    case VerdictCol:
        return tr("Verdict");
    case ThresholdCol:
        return tr("Ratio");
    case FloorWCol:
        return tr("Smallest W");
    case FloorJCol:
        return tr("Smallest J");
    case AtConfidenceWCol:
        return tr("W in %1").arg(pct);
    case AtConfidenceJCol:
        return tr("J in %1").arg(pct);
    }
    return {};
}

}  // namespace jb
