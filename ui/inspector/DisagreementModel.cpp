#include "inspector/DisagreementModel.h"

#include "common/Palette.h"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

namespace jb {

DisagreementModel::DisagreementModel(QObject* parent) : QAbstractTableModel(parent) {}

void DisagreementModel::setDisagreements(std::vector<Disagreement> d)
{
    beginResetModel();
    rows_ = std::move(d);
    endResetModel();
}

int DisagreementModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int DisagreementModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DisagreementModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Disagreement& d = rows_[std::size_t(index.row())];
    const std::string& s = index.column() == PathCol ? d.path
        : index.column() == StoredCol                ? d.stored
                                                     : d.recomputed;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return QString::fromStdString(s);
    case Qt::FontRole:
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::BackgroundRole:
        // The stored figure is the suspect one; the recomputed one is what the samples say.
        if (index.column() == StoredCol)
            return QBrush(palette::disagreeFill());
        if (index.column() == RecomputedCol)
            return QBrush(palette::agreeFill());
        return {};
    case Qt::ForegroundRole:
        return index.column() == PathCol ? QVariant() : QVariant(QBrush(palette::darkInk()));
    default:
        return {};
    }
}

QVariant DisagreementModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PathCol:
        return QStringLiteral("JSON path");
    case StoredCol:
        return QStringLiteral("Stored in the file");
    case RecomputedCol:
        return QStringLiteral("Recomputed from the samples");
    }
    return {};
}

}  // namespace jb
