#include "library/LibraryModel.h"

#include <jb/library/LibraryReport.h>
#include <jb/stats/CounterTrust.h>

#include <algorithm>
#include <map>

namespace jb {

namespace {

// The Commit column's text, which it also sorts by: "-" where none, "+dirty" for a dirty tree.
std::string commitText(const LibraryEntry& e)
{
    std::string c = e.commit ? e.commit->substr(0, 10) : std::string("-");
    if (e.dirty && *e.dirty)
        c += "+dirty";
    return c;
}

}  // namespace

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
    sortRows();
    endResetModel();
}

void LibraryModel::sort(int column, Qt::SortOrder order)
{
    if (column < -1 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::pair<std::size_t, int>> keys;  // what each persistent index pointed at
    keys.reserve(std::size_t(before.size()));
    for (const QModelIndex& i : before)
        keys.emplace_back(rows_[std::size_t(i.row())].entry, rows_[std::size_t(i.row())].figures);
    sortColumn_ = column;
    sortOrder_ = order;
    sortRows();
    if (!before.isEmpty()) {
        std::map<std::pair<std::size_t, int>, int> at;
        for (int r = 0; r < int(rows_.size()); ++r)
            at[{rows_[std::size_t(r)].entry, rows_[std::size_t(r)].figures}] = r;
        QModelIndexList after;
        after.reserve(before.size());
        for (int k = 0; k < before.size(); ++k)
            after << index(at.at(keys[std::size_t(k)]), before[k].column());
        changePersistentIndexList(before, after);
    }
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LibraryModel::sortRows()
{
    if (sortColumn_ < 0) {
        std::sort(rows_.begin(), rows_.end(),
                  [](const Row& a, const Row& b) { return std::pair(a.entry, a.figures) < std::pair(b.entry, b.figures); });
        return;
    }
    // One typed key per column; a row without figures sorts as SortRole says ("-", -1).
    const auto figures = [this](const Row& r) -> const CounterFigures* {
        return r.figures >= 0 ? &entries_[r.entry].figures[std::size_t(r.figures)] : nullptr;
    };
    const auto less = [&](const Row& a, const Row& b) -> bool {
        const LibraryEntry& ea = entries_[a.entry];
        const LibraryEntry& eb = entries_[b.entry];
        const CounterFigures* fa = figures(a);
        const CounterFigures* fb = figures(b);
        switch (Column(sortColumn_)) {
        case Label: return ea.label.value_or("-") < eb.label.value_or("-");
        case Started: return ea.started_ms < eb.started_ms;
        case Host: return ea.host < eb.host;
        case Counter: return (fa ? fa->counter : std::string("-")) < (fb ? fb->counter : std::string("-"));
        case Verdicts: return (fa ? fa->summary.clean : -1) < (fb ? fb->summary.clean : -1);
        case MedianJ: {
            const double ja = fa && fa->summary.median_j_per_decode ? *fa->summary.median_j_per_decode : -1.0;
            const double jb = fb && fb->summary.median_j_per_decode ? *fb->summary.median_j_per_decode : -1.0;
            return ja < jb;
        }
        case Trust: {
            // Absolute counters first, then by what they say.
            const auto key = [&](const LibraryEntry& e, const CounterFigures* f) {
                if (!f)
                    return std::pair(2, std::string("-"));
                const CounterTrust t = counterTrust(f->counter, e.counters);
                return std::pair(t.absolute ? 0 : 1, t.shortText());
            };
            return key(ea, fa) < key(eb, fb);
        }
        case Commit: return commitText(ea) < commitText(eb);
        case File: return ea.path < eb.path;
        case ColumnCount: break;
        }
        return false;
    };
    if (sortOrder_ == Qt::AscendingOrder)
        std::stable_sort(rows_.begin(), rows_.end(), less);
    else
        std::stable_sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) { return less(b, a); });
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
    if (role == LabelRole)
        return e.label ? QVariant(QString::fromStdString(*e.label)) : QVariant();
    if (role == CounterRole)
        return f ? QString::fromStdString(f->counter) : QString();
    if (role == Qt::ToolTipRole && index.column() == File)
        return QString::fromStdString(e.path);
    if (role == Qt::ToolTipRole && f &&
        (index.column() == Counter || index.column() == MedianJ || index.column() == Trust))
        return QString::fromStdString(f->counter + ": " + counterTrust(f->counter, e.counters).text());
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (Column(index.column())) {
    case Label:
        return QString::fromStdString(e.label.value_or("-"));
    case Started:
        return sort ? QVariant(qlonglong(e.started_ms)) : QVariant(QString::fromStdString(listTimeMs(e.started_ms)));
    case Host:
        return QString::fromStdString(e.host);
    case Counter:
        return f ? QString::fromStdString(f->counter) : QStringLiteral("-");
    case Verdicts:
        if (!f)
            return QStringLiteral("-");
        return sort ? QVariant(f->summary.clean) : QVariant(QString::fromStdString(verdictCounts(f->summary)));
    case MedianJ:
        if (!f || !f->summary.median_j_per_decode)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("-"));
        return sort ? QVariant(*f->summary.median_j_per_decode)
                    : QVariant(QString::number(*f->summary.median_j_per_decode, 'g', 4));
    case Trust:
        if (!f)
            return QStringLiteral("-");
        {
            const CounterTrust t = counterTrust(f->counter, e.counters);
            return sort ? QVariant(t.absolute ? 0 : 1) : QVariant(QString::fromStdString(t.shortText()));
        }
    case Commit:
        return QString::fromStdString(commitText(e));
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
    case Trust: return tr("Trust");
    case Commit: return tr("Commit");
    case File: return tr("File");
    case ColumnCount: break;
    }
    return {};
}

}  // namespace jb
