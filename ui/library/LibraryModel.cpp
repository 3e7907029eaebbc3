#include "library/LibraryModel.h"

#include "library/LibraryReport.h"

namespace jb {

LibraryModel::LibraryModel(QObject* parent) : QAbstractTableModel(parent) {}

void LibraryModel::setEntries(std::vector<LibraryEntry> entries)
{
    beginResetModel();
    entries_ = std::move(entries);
    rows_.clear();
    rows_.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].figures.empty())
            rows_.push_back({i, -1});
        for (int f = 0; f < int(entries_[i].figures.size()); ++f)
            rows_.push_back({i, f});
    }
    endResetModel();
}

int LibraryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int LibraryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LibraryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = rows_[std::size_t(index.row())];
    const LibraryEntry& e = entries_[row.entry];
    const CounterFigures* f = row.figures >= 0 ? &e.figures[std::size_t(row.figures)] : nullptr;
    if (role == PathRole)
        return QString::fromStdString(e.path);
    if (role == Qt::ToolTipRole && index.column() == File)
        return QString::fromStdString(e.path);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (Column(index.column())) {
    case Label:
        return QString::fromStdString(e.label.value_or("-"));
    case Started:
        return sort ? QVariant(qlonglong(e.started_ms)) : QVariant(QString::fromStdString(isoTimeMs(e.started_ms)));
    case Host:
        return QString::fromStdString(e.host);
    case Counter:
        return f ? QString::fromStdString(f->counter) : QStringLiteral("-");
    case Verdicts:
        if (!f)
            return QStringLiteral("-");
        return sort ? QVariant(f->summary.clean)
                    : QVariant(QStringLiteral("%1 clean, %2 rel., %3 noisy, %4 unus.")
                                   .arg(f->summary.clean)
                                   .arg(f->summary.relative_only)
                                   .arg(f->summary.noisy)
                                   .arg(f->summary.unusable));
    case MedianJ:
        if (!f || !f->summary.median_j_per_decode)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("-"));
        return sort ? QVariant(*f->summary.median_j_per_decode)
                    : QVariant(QString::number(*f->summary.median_j_per_decode, 'g', 4));
    case Commit: {
        QString c = e.commit ? QString::fromStdString(e.commit->substr(0, 10)) : QStringLiteral("-");
        if (e.dirty && *e.dirty)
            c += QStringLiteral("+dirty");
        return c;
    }
    case File:
        return QString::fromStdString(e.path);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant LibraryModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (Column(section)) {
    case Label: return tr("Label");
    case Started: return tr("Started (UTC)");
    case Host: return tr("Host");
    case Counter: return tr("Counter");
    case Verdicts: return tr("Verdicts");
    case MedianJ: return tr("Median J/decode");
    case Commit: return tr("Commit");
    case File: return tr("File");
    case ColumnCount: break;
    }
    return {};
}

}  // namespace jb
