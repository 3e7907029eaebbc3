#include "jobs/JobRow.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QCoreApplication>

#include <csignal>

namespace jb {

namespace {

using fmt::q;

QString tr(const char* text)
{
    return QCoreApplication::translate("JobRow", text);
}

std::optional<double> number(const nlohmann::json& j, const char* key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

}  // namespace

JobRow rowFromSpec(const JobSpec& spec)
{
    JobRow r;
    r.name = q(spec.name);
    r.gpu_spec = q(gpuText(spec.gpu));
    r.timeout_s = spec.timeout_seconds;
    for (const std::string& a : spec.argv)
        r.argv << q(a);
    return r;
}

void applyDisk(JobRow& row, const JobDiskInfo& disk)
{
    row.detail = q(disk.detail);
    row.run_dir = q(disk.run_dir);
    switch (disk.state) {
    case DiskState::NotRun:
        row.state = RowState::NotRun;
        break;
    case DiskState::Preserved:
        row.state = RowState::Preserved;
        if (disk.manifest)
            applyManifest(row, *disk.manifest, q(disk.manifest_path));
        row.state = RowState::Preserved;
        break;
    case DiskState::Orphaned:
    case DiskState::Submitted:  // a Slurm job whose driver is gone: watched again by the next run
        row.state = RowState::Orphaned;
        break;
    case DiskState::Running:
        row.state = RowState::RunningElsewhere;
        break;
    case DiskState::Conflict:
        row.state = RowState::Conflict;
        break;
    }
}

void applyManifest(JobRow& row, const JobManifest& m, const QString& manifestPath)
{
    row.state = RowState::Finished;
    row.status = m.status;
    row.return_code = m.return_code;
    row.elapsed_s = m.driver_wall_seconds;
    row.peak_mib = m.hardware.peak_process_gpu_memory_mib;
    if (m.hardware.physical_index >= 0)
        row.gpu = m.hardware.physical_index;
    // The timeout the job ran under, which an edited job file may no longer say.
    if (auto t = number(m.job, "timeout_seconds"))
        row.timeout_s = *t;
    row.power_w = std::nan("");
    const EnergyFigures e = energyFigures(m.energy);
    row.gpu_energy_j = e.total_j;
    row.marginal_j = e.marginal_j;
    row.busy_power_w = e.busy_mean_w;
    row.energy_note = e.note;
    row.run_dir = q(m.run_directory);
    row.manifest_path = manifestPath;
    row.notes.clear();
    for (const std::string& n : m.notes)
        row.notes << q(n);
    row.pid = 0;
    row.cancelling = false;
}

EnergyFigures energyFigures(const std::optional<JobEnergy>& energy)
{
    EnergyFigures f;
    if (!energy)
        return f;
    if (!energy->gpu_counter) {
        f.note = tr("no GPU energy counter (energy.gpu is false)");
        return f;
    }
    const std::string& spec = *energy->gpu_counter;
    const CounterEnergy* c = energy->gpuCounter();
    if (!c) {
        f.note = tr("%1 was not reported").arg(q(spec));
        return f;
    }
    if (!c->available) {
        f.note = tr("%1 not available: %2").arg(q(spec), q(c->reason));
        return f;
    }
    f.total_j = c->total_j;
    f.marginal_j = c->marginal_j;
    if (c->busy)
        f.busy_mean_w = c->busy->mean_w;
    if (c->verdict)
        f.note = tr("%1 verdict: %2").arg(q(spec), QString::fromLatin1(verdictName(*c->verdict)));
    else if (c->marginal_note)
        f.note = tr("%1: no marginal energy: %2").arg(q(spec), q(*c->marginal_note));
    else
        f.note = q(spec);
    return f;
}

QString statusKey(const JobRow& row)
{
    switch (row.state) {
    case RowState::NotRun:
        return QStringLiteral("not_run");
    case RowState::Queued:
        return QStringLiteral("queued");
    case RowState::Starting:
        return QStringLiteral("starting");
    case RowState::Running:
        return QStringLiteral("running");
    case RowState::Finished:
    case RowState::Preserved:
        return row.status ? q(statusName(*row.status)) : QStringLiteral("unknown");
    case RowState::Orphaned:
        return QStringLiteral("orphaned");
    case RowState::RunningElsewhere:
        return QStringLiteral("running_elsewhere");
    case RowState::Conflict:
        return QStringLiteral("conflict");
    case RowState::WouldRun:
        return QStringLiteral("would_run");
    case RowState::Failed:
        return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

QString statusText(const JobRow& row)
{
    QString text = statusKey(row);
    if (row.state == RowState::RunningElsewhere)
        text = tr("running elsewhere");
    else if (row.state == RowState::Starting)
        text = tr("starting (idle)");
    else if (row.state == RowState::NotRun)
        text = tr("not run");
    else if (row.state == RowState::WouldRun)
        text = row.dry_problems.isEmpty() ? tr("would run") : tr("would fail: %1").arg(row.dry_problems.first());
    else if (row.state == RowState::Failed)
        text = tr("failed (no folder)");
    else if (!row.remote_state.isEmpty() && (row.state == RowState::Queued || row.state == RowState::Running))
        text = (row.remote_state == QLatin1String("RUNNING")
                    ? tr("running on %1").arg(row.remote_node)
                    : row.remote_state.toLower() +
                     (row.remote_reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(row.remote_reason))) +
            tr(" · Slurm %1").arg(row.remote_job_id);
    else
        text.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (row.state == RowState::Preserved)
        text += tr(" (preserved)");
    if (row.cancelling && (row.state == RowState::Running || row.state == RowState::Starting))
        text += tr(" – cancelling…");
    return text;
}

QString statusTooltip(const JobRow& row)
{
    QString t;
    switch (row.state) {
    case RowState::NotRun:
        t = tr("No run folder yet: Run all starts it.");
        break;
    case RowState::Queued:
        t = tr("Waiting for GPU %1 to be free.").arg(row.gpu_spec);
        break;
    case RowState::Starting:
        t = tr("On GPU %1: measuring the idle power before the job starts.").arg(row.gpu);
        break;
    case RowState::Running:
        t = row.remote_job_id.isEmpty()
            ? tr("Running on GPU %1, pid %2.").arg(row.gpu).arg(row.pid)
            : tr("Slurm job %1 running on %2.").arg(row.remote_job_id, row.remote_node);
        break;
    case RowState::Finished:
        t = tr("Ran now; its manifest is written.");
        break;
    case RowState::Preserved:
        t = tr("Recorded by an earlier run: its manifest is kept and the job is not run again "
               "(delete its folder to run it again).");
        break;
    case RowState::Orphaned:
        t = tr("A run folder without a manifest (a driver that stopped before the job ended). "
               "Left untouched for an audit; the queue skips it.");
        break;
    case RowState::RunningElsewhere:
        t = tr("Another live driver runs this job; the queue leaves it alone.");
        break;
    case RowState::Conflict:
        t = tr("Several manifests, or one that cannot be read: left untouched.");
        break;
    case RowState::WouldRun:
        t = tr("The dry run would start it on GPU %1: %2")
                .arg(row.gpu_spec, row.command.isEmpty() ? row.argv.join(QLatin1Char(' ')) : row.command);
        for (const QString& p : row.dry_problems)
            t += tr("\nWould fail: %1").arg(p);
        break;
    case RowState::Failed:
        t = tr("No run folder could be made, so nothing was recorded.");
        break;
    }
    if (!row.detail.isEmpty())
        t += QLatin1Char('\n') + row.detail;
    for (const QString& n : row.notes)
        t += QStringLiteral("\n• ") + n;
    return t;
}

StatusColors statusColors(const JobRow& row)
{
    const palette::RowColors c = palette::jobStatus(statusKey(row));
    return {c.background, c.foreground};
}

bool isOver(const JobRow& row)
{
    return row.state == RowState::Finished || row.state == RowState::Preserved;
}

bool isActive(const JobRow& row)
{
    return row.state == RowState::Queued || row.state == RowState::Starting || row.state == RowState::Running;
}

QString exitCodeText(std::optional<int> code)
{
    if (!code)
        return QStringLiteral("–");
    if (*code >= 0)
        return QString::number(*code);
    // -N: signal N ended the job (as Python reports it).
    const char* name = nullptr;
    switch (-*code) {
    case SIGTERM:
        name = "SIGTERM";
        break;
    case SIGKILL:
        name = "SIGKILL";
        break;
    case SIGINT:
        name = "SIGINT";
        break;
    case SIGSEGV:
        name = "SIGSEGV";
        break;
    case SIGABRT:
        name = "SIGABRT";
        break;
    case SIGBUS:
        name = "SIGBUS";
        break;
    case SIGHUP:
        name = "SIGHUP";
        break;
    default:
        return QString::number(*code) + QStringLiteral(" (signal %1)").arg(-*code);
    }
    return QString::number(*code) + QStringLiteral(" (") + QLatin1String(name) + QLatin1Char(')');
}

}  // namespace jb
