#include "jobs/JobTableModel.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <cmath>
#include <map>

namespace jb {

namespace {

QString elapsedText(const JobRow& r)
{
    const QString limit = r.timeout_s > 0 ? fmt::clock(r.timeout_s) : QStringLiteral("–");
    if (!r.elapsed_s)
        return QStringLiteral("– / ") + limit;
    return fmt::clock(*r.elapsed_s) + QStringLiteral(" / ") + limit;
}

QColor barColor(const JobRow& r)
{
    // Amber in the last tenth before the timeout ends it.
    return palette::jobBar(statusKey(r), r.elapsed_s && r.timeout_s > 0 && *r.elapsed_s > 0.9 * r.timeout_s);
}

}  // namespace

JobTableModel::JobTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void JobTableModel::setJobs(const std::vector<JobSpec>& jobs)
{
    beginResetModel();
    rows_.clear();
    index_.clear();
    for (const JobSpec& s : jobs) {
        index_.insert(QString::fromStdString(s.name), int(rows_.size()));
        rows_.push_back(rowFromSpec(s));
    }
    endResetModel();
}

void JobTableModel::markServed(const QString& name, const QString& state, const nlohmann::ordered_json& d)
{
    if (!find(name)) {
        JobSpec spec;
        spec.name = name.toStdString();
        const int row = int(rows_.size());
        beginInsertRows({}, row, row);
        index_.insert(name, row);
        rows_.push_back(rowFromSpec(spec));
        endInsertRows();
    }
    const auto text = [&](const char* key) {
        return d.is_object() && d.contains(key) && d[key].is_string() ? QString::fromStdString(d[key].get<std::string>())
                                                                      : QString();
    };
    const int gpu = d.is_object() && d.contains("gpu") && d["gpu"].is_number_integer() ? d["gpu"].get<int>() : -1;
    if (state == QLatin1String("launched")) {
        markStarting(name, gpu, text("run_dir"));
    } else if (state == QLatin1String("running")) {
        const qint64 pid = d.is_object() && d.contains("pid") && d["pid"].is_number_integer() ? d["pid"].get<qint64>() : 0;
        markStarted(name, gpu, text("run_dir"), pid);
    } else if (state == QLatin1String("failed")) {
        markFailed(name, text("error"));
    } else if (auto status = jobStatusFrom(state.toStdString())) {
        JobRow* r = find(name);
        r->state = RowState::Finished;
        r->status = *status;
        r->manifest_path = text("manifest");  // on the server's machine
        r->detail.clear();
        rowChanged(rowOf(name));
    } else if (state == QLatin1String("preserved")) {
        JobRow* r = find(name);
        r->state = RowState::Preserved;
        r->status = jobStatusFrom(text("status").toStdString());
        r->manifest_path = text("manifest");
        rowChanged(rowOf(name));
    } else if (state == QLatin1String("skipped")) {
        JobRow* r = find(name);
        r->state = RowState::NotRun;
        r->detail = text("detail").isEmpty() ? text("disk_state") : text("detail");
        rowChanged(rowOf(name));
    } else if (state == QLatin1String("would-run")) {
        JobRow* r = find(name);
        r->state = RowState::WouldRun;
        rowChanged(rowOf(name));
    }
}

void JobTableModel::clear()
{
    setJobs({});
}

void JobTableModel::refreshFromDisk(const std::string& outputRoot)
{
    outputRoot_ = QString::fromStdString(outputRoot);
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        JobRow& r = rows_[i];
        const JobDiskInfo d = inspectJob(outputRoot, r.name.toStdString());
        // A fresh look: forget what a finished queue or a dry run said about this row.
        JobRow fresh;
        fresh.name = r.name;
        fresh.gpu_spec = r.gpu_spec;
        fresh.timeout_s = r.timeout_s;
        fresh.argv = r.argv;
        applyDisk(fresh, d);
        if (fresh.state == RowState::NotRun)
            fresh.detail.clear();  // inspectJob's "not run yet" says no more than the status
        r = std::move(fresh);
    }
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

int JobTableModel::rowOf(const QString& name) const
{
    return index_.value(name, -1);
}

JobRow* JobTableModel::find(const QString& name)
{
    const int r = rowOf(name);
    return r < 0 ? nullptr : &rows_[std::size_t(r)];
}

void JobTableModel::rowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void JobTableModel::markQueued()
{
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        JobRow& r = rows_[i];
        if (r.state == RowState::NotRun || r.state == RowState::WouldRun) {
            r.state = RowState::Queued;
            r.detail.clear();
            rowChanged(int(i));
        }
    }
}

void JobTableModel::markStarting(const QString& name, int gpu, const QString& runDir)
{
    if (JobRow* r = find(name)) {
        r->state = RowState::Starting;
        r->gpu = gpu;
        r->run_dir = runDir;
        rowChanged(rowOf(name));
    }
}

void JobTableModel::markStarted(const QString& name, int gpu, const QString& runDir, qint64 pid)
{
    if (JobRow* r = find(name)) {
        r->state = RowState::Running;
        r->gpu = gpu;
        r->run_dir = runDir;
        r->pid = pid;
        r->elapsed_s = 0.0;
        rowChanged(rowOf(name));
    }
}

void JobTableModel::markRemote(const QString& name, const QString& state, const QString& reason,
                               const QString& jobId, const QString& node)
{
    JobRow* r = find(name);
    if (!r || isOver(*r))
        return;
    r->remote_state = state;
    r->remote_reason = reason;
    r->remote_job_id = jobId;
    r->remote_node = node;
    if (state == QLatin1String("RUNNING")) {
        if (r->state != RowState::Running)
            r->elapsed_s = 0.0;
        r->state = RowState::Running;
    } else {
        r->state = RowState::Queued;
    }
    rowChanged(rowOf(name));
}

void JobTableModel::setProgress(const QString& name, double elapsedS, qint64 peakMib, double powerW)
{
    JobRow* r = find(name);
    if (!r || isOver(*r))
        return;  // a late sample after the manifest: the manifest's figures stand
    r->state = RowState::Running;
    r->elapsed_s = elapsedS;
    r->peak_mib = peakMib;
    r->power_w = powerW;
    rowChanged(rowOf(name));
}

void JobTableModel::markCancelling(const QString& name)
{
    JobRow* r = find(name);
    if (r && (r->state == RowState::Running || r->state == RowState::Starting)) {
        r->cancelling = true;
        rowChanged(rowOf(name));
    }
}

void JobTableModel::markFinished(const QString& name, const JobManifest& m, const QString& manifestPath)
{
    if (JobRow* r = find(name)) {
        r->detail.clear();
        applyManifest(*r, m, manifestPath);
        rowChanged(rowOf(name));
    }
}

void JobTableModel::markPreserved(const QString& name, const QString& manifestPath)
{
    JobRow* r = find(name);
    if (!r)
        return;
    auto m = readManifest(manifestPath.toStdString());
    if (m) {
        applyManifest(*r, *m, manifestPath);
        r->detail.clear();
    } else {
        r->manifest_path = manifestPath;
        r->detail = QString::fromStdString(m.error());
    }
    r->state = RowState::Preserved;
    rowChanged(rowOf(name));
}

void JobTableModel::markSkipped(const QString& name, DiskState state, const QString& detail)
{
    JobRow* r = find(name);
    if (!r)
        return;
    if (state == DiskState::Orphaned)
        r->state = RowState::Orphaned;
    else if (state == DiskState::Running)
        r->state = RowState::RunningElsewhere;
    else
        r->state = RowState::Conflict;
    r->detail = detail;
    rowChanged(rowOf(name));
}

void JobTableModel::markWouldRun(const QString& name, const QString& gpu, const QStringList& argv)
{
    if (JobRow* r = find(name)) {
        r->state = RowState::WouldRun;
        r->gpu_spec = gpu;
        r->argv = argv;
        r->detail.clear();
        rowChanged(rowOf(name));
    }
}

// The command as the dry run resolved it, else as the job file gives it.
QString JobTableModel::commandText(const JobRow& r)
{
    return r.command.isEmpty() ? r.argv.join(QLatin1Char(' ')) : r.command;
}

void JobTableModel::setDryRun(const DryRunReport& report)
{
    for (const DryRunJob& j : report.jobs)
        if (JobRow* r = find(QString::fromStdString(j.name))) {
            r->command = QString::fromStdString(j.commandLine());
            r->dry_problems.clear();
            for (const std::string& p : j.problems)
                r->dry_problems << QString::fromStdString(p);
            rowChanged(rowOf(r->name));
        }
}

void JobTableModel::markFailed(const QString& name, const QString& message)
{
    if (JobRow* r = find(name)) {
        r->state = RowState::Failed;
        r->detail = message;
        rowChanged(rowOf(name));
    }
}

void JobTableModel::markNotStarted(const QString& why)
{
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        JobRow& r = rows_[i];
        if (r.state == RowState::Queued) {
            r.state = RowState::NotRun;
            r.detail = why;
            rowChanged(int(i));
        }
    }
}

QString JobTableModel::summaryText() const
{
    // Counted in the order a researcher reads them: what runs, what is done, what needs a look.
    std::map<QString, int> counts;
    std::vector<QString> order;
    for (const JobRow& r : rows_) {
        const QString t = statusText(r);
        if (counts[t]++ == 0)
            order.push_back(t);
    }
    QStringList parts;
    for (const QString& t : order)
        parts << QStringLiteral("%1 %2").arg(counts[t]).arg(t);
    const QString n = rows_.size() == 1 ? tr("1 job") : tr("%1 jobs").arg(rows_.size());
    return parts.isEmpty() ? n : n + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

int JobTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int JobTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount)
        return {};
    const JobRow& r = rows_[std::size_t(index.row())];
    const bool live = r.state == RowState::Running || r.state == RowState::Starting;
    switch (role) {
    case StatusKeyRole:
        return statusKey(r);
    case ProgressRole:
        if (index.column() == Elapsed && r.elapsed_s && r.timeout_s > 0)
            return *r.elapsed_s / r.timeout_s;
        return {};
    case BarColorRole:
        return index.column() == Elapsed ? QVariant(barColor(r)) : QVariant();
    case Qt::BackgroundRole:
        if (index.column() == Status) {
            const QColor c = statusColors(r).background;
            return c.isValid() ? QVariant(c) : QVariant();
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Status) {
            const QColor c = statusColors(r).foreground;
            return c.isValid() ? QVariant(c) : QVariant();
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case PeakMemory:
        case Power:
        case Energy:
        case Marginal:
        case ExitCode:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        case Gpu:
        case Elapsed:
            return int(Qt::AlignCenter);
        default:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Name:
            return r.argv.join(QLatin1Char(' '));
        case Status:
            return statusTooltip(r);
        case Gpu:
            return r.gpu >= 0 ? tr("Physical GPU %1 (the job file asks for %2)").arg(r.gpu).arg(r.gpu_spec)
                              : tr("The job file asks for GPU %1").arg(r.gpu_spec);
        case Elapsed:
            return live ? tr("Time since the job's process started, against its timeout")
                        : tr("The job's wall time (driver_wall_seconds), against its timeout");
        case PeakMemory:
            return tr("Peak GPU memory of the job's processes (MiB), sampled every memory period");
        case Power:
            return live ? tr("The GPU's board power now") : tr("The GPU's mean power while the job ran");
        case Energy:
        case Marginal:
            return r.energy_note.isEmpty() ? tr("GPU energy over the job (J); marginal: above the idle power")
                                           : r.energy_note;
        case ExitCode:
            return tr("The job's exit code; -N: signal N ended it");
        case Folder:
            return r.manifest_path.isEmpty() ? r.run_dir : r.manifest_path;
        case Command:
            return r.dry_problems.isEmpty() ? commandText(r) : commandText(r) + QLatin1Char('\n') + r.dry_problems.join(QLatin1Char('\n'));
        }
        return {};
    case SortRole:
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
    case Name:
        return r.name;
    case Status:
        return statusText(r);
    case Gpu:
        if (r.gpu >= 0)
            return sort ? QVariant(r.gpu) : QVariant(QString::number(r.gpu));
        return r.gpu_spec;
    case Elapsed:
        if (sort)
            return r.elapsed_s ? QVariant(*r.elapsed_s) : QVariant();
        return elapsedText(r);
    case PeakMemory:
        if (!r.peak_mib)
            return sort ? QVariant() : QVariant(QStringLiteral("–"));
        return sort ? QVariant(qlonglong(*r.peak_mib)) : QVariant(QString::number(*r.peak_mib));
    case Power: {
        const double w = live ? r.power_w : r.busy_power_w.value_or(std::nan(""));
        if (sort)
            return std::isfinite(w) ? QVariant(w) : QVariant();
        return fmt::fixed(w, 1);
    }
    case Energy:
        if (sort)
            return r.gpu_energy_j ? QVariant(*r.gpu_energy_j) : QVariant();
        return fmt::fixedOrDash(r.gpu_energy_j, 1);
    case Marginal:
        if (sort)
            return r.marginal_j ? QVariant(*r.marginal_j) : QVariant();
        return fmt::fixedOrDash(r.marginal_j, 1);
    case ExitCode:
        if (sort)
            return r.return_code ? QVariant(*r.return_code) : QVariant();
        return exitCodeText(r.return_code);
    case Folder:
        if (r.run_dir.isEmpty())
            return QStringLiteral("–");
        // NAME/driver_<time> under the output root: the part that tells runs apart.
        if (!outputRoot_.isEmpty() && r.run_dir.startsWith(outputRoot_ + QLatin1Char('/')))
            return r.run_dir.mid(outputRoot_.size() + 1);
        return r.run_dir;
    case Command:
        return commandText(r);
    }
    return {};
}

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Elapsed:
            return tr("Elapsed time against the job's timeout_seconds");
        case Energy:
            return tr("GPU energy counter's total over the job (J)");
        case Marginal:
            return tr("GPU energy above the idle power (J), as a measure round computes it");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Job");
    case Status:
        return tr("Status");
    case Gpu:
        return tr("GPU");
    case Elapsed:
        return tr("Elapsed / timeout");
    case PeakMemory:
        return tr("Peak MiB");
    case Power:
        return tr("Power W");
    case Energy:
        return tr("GPU energy J");
    case Marginal:
        return tr("Marginal J");
    case ExitCode:
        return tr("Exit code");
    case Folder:
        return tr("Run folder");
    case Command:
        return tr("Command");
    }
    return {};
}

}  // namespace jb
