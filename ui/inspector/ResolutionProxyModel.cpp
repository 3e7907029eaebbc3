#include "inspector/ResolutionProxyModel.h"

#include "common/Palette.h"
#include "common/RoundsModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace jb {

ResolutionProxyModel::ResolutionProxyModel(QObject* parent) : QIdentityProxyModel(parent) {}

void ResolutionProxyModel::setRoundsModel(RoundsModel* rounds)
{
    if (rounds_)
        disconnect(rounds_, nullptr, this, nullptr);
    rounds_ = rounds;
    setSourceModel(rounds);
    if (!rounds)
        return;
    // The extra column follows the rows' data (a new counter, a replaced round).
    connect(rounds, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& tl, const QModelIndex& br) { extraChanged(tl.row(), br.row()); });
}

void ResolutionProxyModel::setRecord(const Record& r)
{
    cadences_.clear();
    for (const std::string& spec : r.wholeDeviceCounters())
        cadences_.emplace_back(spec, cadenceOf(r, spec));
    extraChanged(0, rowCount() - 1);
}

void ResolutionProxyModel::extraChanged(int first, int last)
{
    if (first > last || last < 0)
        return;
    const int c = resolutionColumn();
    emit dataChanged(index(first, c), index(last, c));
}

int ResolutionProxyModel::resolutionColumn() const
{
    return sourceModel() ? sourceModel()->columnCount() : 0;
}

WindowResolution ResolutionProxyModel::resolutionAt(int row) const
{
    if (!rounds_ || row < 0 || row >= int(rounds_->rounds().size()))
        return {};
    const Round& r = rounds_->rounds()[std::size_t(row)];
    const std::string& spec = rounds_->counter();
    CounterCadence cad;
    for (const auto& [k, c] : cadences_)
        if (k == spec)
            cad = c;
    const CounterRound* c = r.counter(spec);
    return windowResolution(r.window_ns, cad, c ? c->busy : std::nullopt);
}

int ResolutionProxyModel::coarseCount() const
{
    int n = 0;
    for (int row = 0; row < rowCount(); ++row)
        n += resolutionAt(row).coarse;
    return n;
}

int ResolutionProxyModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return sourceModel()->columnCount() + 1;
}

int ResolutionProxyModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return sourceModel()->rowCount();
}

bool ResolutionProxyModel::hasChildren(const QModelIndex& parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

QModelIndex ResolutionProxyModel::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return {};
    if (column == resolutionColumn())
        return createIndex(row, column);
    return QIdentityProxyModel::index(row, column, parent);
}

QModelIndex ResolutionProxyModel::parent(const QModelIndex&) const
{
    return {};  // a table
}

QModelIndex ResolutionProxyModel::sibling(int row, int column, const QModelIndex&) const
{
    return index(row, column);
}

QModelIndex ResolutionProxyModel::mapToSource(const QModelIndex& proxyIndex) const
{
    if (!proxyIndex.isValid() || proxyIndex.column() == resolutionColumn())
        return {};
    return QIdentityProxyModel::mapToSource(proxyIndex);
}

Qt::ItemFlags ResolutionProxyModel::flags(const QModelIndex& index) const
{
    if (index.isValid() && index.column() == resolutionColumn())
        return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    return QIdentityProxyModel::flags(index);
}

QMap<int, QVariant> ResolutionProxyModel::itemData(const QModelIndex& index) const
{
    if (!index.isValid() || index.column() != resolutionColumn())
        return QIdentityProxyModel::itemData(index);
    QMap<int, QVariant> m;
    for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(CoarseRole), int(UpdatesRole)})
        m.insert(role, data(index, role));
    return m;
}

QVariant ResolutionProxyModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.column() != resolutionColumn()) {
        const QVariant v = QIdentityProxyModel::data(index, role);
        if (role == Qt::ToolTipRole && index.column() == RoundsModel::VerdictCol) {
            const WindowResolution w = resolutionAt(index.row());
            if (w.coarse)
                return QString(QString::fromStdString(w.text) + QStringLiteral("\n\n") + v.toString());
        }
        return v;
    }
    const WindowResolution w = resolutionAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(w.short_text);
    case Qt::ToolTipRole:
        return QString(QString::fromStdString(w.text) + QStringLiteral("\n\n") +
                       QString::fromStdString(resolutionRuleText()));
    case Qt::ForegroundRole:
        return w.coarse ? QVariant(QBrush(palette::errorText())) : QVariant(QBrush(palette::mutedText()));
    case Qt::FontRole:
        if (w.coarse) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    case CoarseRole:
        return w.coarse;
    case UpdatesRole:
        return w.updates ? QVariant(*w.updates) : QVariant();
    case RoundsModel::SortRole:
        return w.updates ? QVariant(*w.updates) : QVariant();
    default:
        return {};
    }
}

QVariant ResolutionProxyModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o == Qt::Horizontal && section == resolutionColumn()) {
        if (role == Qt::DisplayRole)
            return QStringLiteral("Counter updates in window");
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(resolutionRuleText());
        return {};
    }
    return QIdentityProxyModel::headerData(section, o, role);
}

}  // namespace jb
