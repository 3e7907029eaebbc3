#include "measure/CounterModel.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

namespace jb {

CounterModel::CounterModel(QObject* parent) : QAbstractTableModel(parent) {}

void CounterModel::setCounters(std::vector<CounterStatus> list, std::vector<CounterDetails> details)
{
    const QStringList keep = checked();
    beginResetModel();
    list_ = std::move(list);
    details_ = std::move(details);
    details_.resize(list_.size());
    checked_.assign(list_.size(), false);
    endResetModel();
    setChecked(keep);
}

const CounterStatus* CounterModel::find(const QString& spec) const
{
    for (const CounterStatus& c : list_)
        if (QString::fromStdString(c.spec) == spec)
            return &c;
    return nullptr;
}

QStringList CounterModel::checked() const
{
    QStringList out;
    for (std::size_t i = 0; i < list_.size(); ++i)
        if (checked_[i])
            out << QString::fromStdString(list_[i].spec);
    return out;
}

QStringList CounterModel::setChecked(const QStringList& specs)
{
    QStringList refused = specs;
    for (std::size_t i = 0; i < list_.size(); ++i) {
        const QString spec = QString::fromStdString(list_[i].spec);
        const bool want = specs.contains(spec) && list_[i].available;
        if (want)
            refused.removeAll(spec);
        if (checked_[i] != want) {
            checked_[i] = want;
            const QModelIndex at = index(int(i), CounterCol);
            emit dataChanged(at, at, {Qt::CheckStateRole});
        }
    }
    emit checkedChanged();
    return refused;
}

int CounterModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(list_.size());
}

int CounterModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CounterModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CounterStatus& c = list_[std::size_t(index.row())];
    const QString desc = QString::fromStdString(c.description);
    const QString reason = QString::fromStdString(c.reason);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == CounterCol)
            return QString::fromStdString(c.spec);
        if (c.available)
            return desc.isEmpty() ? tr("available") : tr("available: %1").arg(desc);
        return tr("unavailable: %1").arg(reason);
    case Qt::CheckStateRole:
        if (index.column() == CounterCol)
            return checked_[std::size_t(index.row())] ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::ToolTipRole: {
        QString tip = desc;
        const CounterDetails& d = details_[std::size_t(index.row())];
        if (!d.scope.empty())
            tip += tr("\nScope: %1").arg(QString::fromStdString(d.scope));
        if (!d.unit.empty())
            tip += tr("\nUnit: %1").arg(QString::fromStdString(d.unit));
        if (d.wrap_range > 0)
            tip += tr("; wraps at %1").arg(d.wrap_range);
        tip += c.whole_device ? tr("\nRead every sample period (whole device).")
                              : tr("\nRead around each round (the child's own figures).");
        if (!c.available)
            tip += tr("\n\nNot available: %1").arg(reason);
        return tip;
    }
    case Qt::ForegroundRole:
        if (!c.available)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (index.column() == CounterCol && c.available) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

bool CounterModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        index.column() != CounterCol || !list_[std::size_t(index.row())].available)
        return false;
    const bool on = value.value<Qt::CheckState>() == Qt::Checked || value.toInt() == Qt::Checked;
    if (checked_[std::size_t(index.row())] == on)
        return true;
    checked_[std::size_t(index.row())] = on;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit checkedChanged();
    return true;
}

Qt::ItemFlags CounterModel::flags(const QModelIndex& index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    // Unavailable counters stay enabled (their tooltip tells why) but cannot be checked.
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == CounterCol && list_[std::size_t(index.row())].available)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant CounterModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == CounterCol ? tr("Counter") : tr("Availability");
}

}  // namespace jb
