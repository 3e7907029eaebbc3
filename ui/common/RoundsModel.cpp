#include "common/RoundsModel.h"

#include "common/Format.h"
#include "common/Palette.h"
#include <jb/session/RoundLine.h>

namespace jb {

namespace {

std::optional<double> jPerDecode(const Round& r, const CounterRound* c)
{
    if (!c || !c->has_marginal || r.decodes <= 0)
        return std::nullopt;
    return c->marginal_nj / 1e9 / double(r.decodes);
}

QString bracketText(const std::optional<Bracket>& b)
{
    return b ? fmt::meanSd(b->mean_w, b->sd_w) : QStringLiteral("–");
}

QString bracketTip(const char* what, const std::optional<Bracket>& b)
{
    if (!b)
        return QStringLiteral("%1: fewer than two intervals, no figure").arg(QLatin1String(what));
    return QStringLiteral("%1: %2 W mean, sd %3 W over %4 intervals (%5 advanced, longest run %6), %7 s")
        .arg(QLatin1String(what), fmt::fixed(b->mean_w, 4), fmt::fixed(b->sd_w, 4))
        .arg(b->intervals)
        .arg(b->advanced)
        .arg(b->longest_run)
        .arg(fmt::secondsFromNs(b->span_ns));
}

}  // namespace

RoundsModel::RoundsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RoundsModel::setCounter(const std::string& spec)
{
    if (spec == spec_)
        return;
    spec_ = spec;
    if (!rounds_.empty())
        emit dataChanged(index(0, IdleBeforeCol), index(int(rounds_.size()) - 1, VerdictCol));
}

void RoundsModel::setRounds(std::vector<Round> rounds)
{
    beginResetModel();
    rounds_ = std::move(rounds);
    endResetModel();
}

void RoundsModel::setRound(int index, const Round& round)
{
    if (index < 0)
        return;
    if (std::size_t(index) < rounds_.size()) {
        rounds_[std::size_t(index)] = round;
        emit dataChanged(this->index(index, 0), this->index(index, ColumnCount - 1));
        return;
    }
    // Rounds arrive in order; a gap (never expected) is filled with the round itself so that
    // row i is always round i.
    const int first = int(rounds_.size());
    beginInsertRows({}, first, index);
    while (int(rounds_.size()) < index)
        rounds_.push_back(Round{});
    rounds_.push_back(round);
    endInsertRows();
}

void RoundsModel::clear()
{
    setRounds({});
    setWorkloads({}, {});
}

void RoundsModel::setWorkloads(std::vector<std::string> names, std::vector<int> of_round)
{
    workload_names_ = std::move(names);
    workload_of_round_ = std::move(of_round);
    if (!rounds_.empty())
        emit dataChanged(index(0, WorkloadCol), index(int(rounds_.size()) - 1, WorkloadCol));
}

QString RoundsModel::workloadOf(int row) const
{
    if (row < 0 || std::size_t(row) >= workload_of_round_.size())
        return {};
    const int w = workload_of_round_[std::size_t(row)];
    if (w < 0 || std::size_t(w) >= workload_names_.size())
        return {};
    return QString::fromStdString(workload_names_[std::size_t(w)]);
}

int RoundsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rounds_.size());
}

int RoundsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Round& r = rounds_[std::size_t(index.row())];
    const CounterRound* c = r.counter(spec_);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == RoundCol)
            return QString::number(index.row() + 1);
        if (index.column() == WorkloadCol)
            return workloadOf(index.row());
        return display(r, c, index.column());
    case SortRole:
        if (index.column() == RoundCol)
            return index.row() + 1;
        if (index.column() == WorkloadCol)
            return workloadOf(index.row());
        return raw(r, c, index.column());
    case VerdictRole:
        return c && c->verdict ? QString::fromLatin1(verdictName(*c->verdict)) : QString();
    case Qt::ToolTipRole:
        return tooltip(r, c, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == WorkloadCol)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        if (index.column() == VerdictCol)
            return int(Qt::AlignCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant RoundsModel::display(const Round& r, const CounterRound* c, int column) const
{
    switch (column) {
    case DecodesCol:
        return QString::number(r.decodes);
    case ChildWallCol:
        return fmt::secondsFromNs(r.child_wall_ns);
    case WindowCol:
        return fmt::secondsFromNs(r.window_ns);
    case IdleBeforeCol:
        return c ? bracketText(c->idle_before) : QStringLiteral("–");
    case IdleAfterCol:
        return c ? bracketText(c->idle_after) : QStringLiteral("–");
    case BusyCol:
        return c ? bracketText(c->busy) : QStringLiteral("–");
    case MarginalCol:
        return c && c->has_marginal ? fmt::joulesFromNj(c->marginal_nj) : QStringLiteral("–");
    case JPerDecodeCol: {
        const auto j = jPerDecode(r, c);
        return j ? fmt::significant(*j, 4) : QStringLiteral("–");
    }
    case RatioCol:
        return c && c->ratio ? fmt::significant(*c->ratio, 3) : QStringLiteral("–");
    case VerdictCol:
        return verdictStyle(c ? c->verdict : std::nullopt).text;
    }
    return {};
}

QVariant RoundsModel::raw(const Round& r, const CounterRound* c, int column) const
{
    auto mean = [](const std::optional<Bracket>& b) { return b ? QVariant(b->mean_w) : QVariant(); };
    switch (column) {
    case DecodesCol:
        return qlonglong(r.decodes);
    case ChildWallCol:
        return double(r.child_wall_ns) / 1e9;
    case WindowCol:
        return double(r.window_ns) / 1e9;
    case IdleBeforeCol:
        return c ? mean(c->idle_before) : QVariant();
    case IdleAfterCol:
        return c ? mean(c->idle_after) : QVariant();
    case BusyCol:
        return c ? mean(c->busy) : QVariant();
    case MarginalCol:
        return c && c->has_marginal ? QVariant(c->marginal_nj / 1e9) : QVariant();
    case JPerDecodeCol: {
        const auto j = jPerDecode(r, c);
        return j ? QVariant(*j) : QVariant();
    }
    case RatioCol:
        return c && c->ratio ? QVariant(*c->ratio) : QVariant();
    case VerdictCol:
        return c && c->verdict ? QString::fromLatin1(verdictName(*c->verdict)) : QString();
    }
    return {};
}

QString RoundsModel::tooltip(const Round& r, const CounterRound* c, int column) const
{
    switch (column) {
    case ChildWallCol:
        return QStringLiteral("The child's own timing of the round (done line)");
    case WindowCol:
        return QStringLiteral("From 'go' sent to 'done' read: the busy window");
    case IdleBeforeCol:
        return c ? bracketTip("idle before", c->idle_before) : QString();
    case IdleAfterCol:
        return c ? bracketTip("idle after", c->idle_after) : QString();
    case BusyCol:
        return c ? bracketTip("busy", c->busy) : QString();
    case MarginalCol:
        if (!c)
            return {};
        return QStringLiteral("window %1 J over %2 s minus the idle power (mean of the brackets) "
                              "times that span")
            .arg(fmt::joulesFromNj(double(c->window_nj)), fmt::secondsFromNs(c->covered_ns));
    case JPerDecodeCol:
        return QStringLiteral("marginal J / %1 decodes").arg(r.decodes);
    case RatioCol:
    case VerdictCol: {
        // What the counter's limits make of the round (the CLI's indented line under it) first.
        const std::string limit = roundLimitOf(r, spec_);
        const QString tip = verdictTooltip(c ? c->verdict : std::nullopt, c ? c->ratio : std::nullopt);
        return limit.empty() ? tip : QString::fromStdString(limit) + QStringLiteral("\n\n") + tip;
    }
    default:
        return r.child_note ? QStringLiteral("child note: ") + QString::fromStdString(*r.child_note)
                            : QString();
    }
}

QVariant RoundsModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (role == Qt::ToolTipRole && (section == RatioCol || section == VerdictCol))
        return QString::fromStdString(verdictThresholdsText());
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RoundCol:
        return QStringLiteral("Round");
    case DecodesCol:
        return QStringLiteral("Decodes");
    case ChildWallCol:
        return QStringLiteral("Child wall s");
    case WindowCol:
        return QStringLiteral("Window s");
    case IdleBeforeCol:
        return QStringLiteral("Idle before W");
    case IdleAfterCol:
        return QStringLiteral("Idle after W");
    case BusyCol:
        return QStringLiteral("Busy W");
    case MarginalCol:
        return QStringLiteral("Marginal J");
    case JPerDecodeCol:
        return QStringLiteral("J / decode");
    case RatioCol:
        return QStringLiteral("Ratio");
    case VerdictCol:
        return QStringLiteral("Verdict");
    case WorkloadCol:
        return QStringLiteral("Workload");
    }
    return {};
}

}  // namespace jb
