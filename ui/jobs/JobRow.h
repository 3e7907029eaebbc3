#pragma once
// One job's line on the Jobs page: what the job file says, what is on disk (RunFolders) and
// what the running queue reported. Plain values and free functions, so the page's rules (what
// a status is called, how it is coloured, what an exit code means) are tested without a view.
#include <jb/jobs/Manifest.h>
#include <jb/jobs/RunFolders.h>

#include <QColor>
#include <QString>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace jb {

enum class RowState {
    NotRun,            // no folder on disk, nothing queued
    Queued,            // waiting in the running queue for its GPU
    Starting,          // on its GPU: the idle bracket before the job
    Running,           // its process runs
    Finished,          // ran in this session; status holds how it ended
    Preserved,         // a manifest from an earlier run: kept, not run again
    Orphaned,          // a folder without a manifest: left for an audit
    RunningElsewhere,  // another live driver runs it
    Conflict,          // several manifests, or an unreadable one
    WouldRun,          // the dry run would start it
    Failed,            // no run folder could be made (nothing recorded)
};

struct JobRow {
    QString name;
    QString gpu_spec;  // the job file's "any" or index
    int gpu = -1;      // the physical GPU it runs or ran on (-1: not yet)
    double timeout_s = 0;
    QStringList argv;
    QString command;            // the dry run's command, placeholders filled (empty: not checked)
    QStringList dry_problems;   // what the dry run found would make it fail
    RowState state = RowState::NotRun;
    std::optional<JobStatus> status;  // Finished and Preserved
    std::optional<int> return_code;
    std::optional<double> elapsed_s;  // running: so far; over: driver_wall_seconds
    std::optional<std::int64_t> peak_mib;
    double power_w = std::nan("");       // the running job's GPU board power (NaN: unknown)
    std::optional<double> gpu_energy_j;  // the GPU counter's total over the job's brackets
    std::optional<double> marginal_j;    // ... above the idle power
    std::optional<double> busy_power_w;  // the GPU's mean power while the job ran
    QString energy_note;                 // verdict, or why there is no figure
    QString run_dir;
    QString manifest_path;
    QString detail;     // why orphaned/conflict/failed/not started, for the tooltip
    QStringList notes;  // the manifest's notes
    qint64 pid = 0;
    bool cancelling = false;  // asked to end; its manifest is on the way
    // A job on a Slurm cluster: Slurm's state (PENDING, RUNNING), why it pends, job id, node.
    QString remote_state, remote_reason, remote_job_id, remote_node;
};

// A row for a job as the job file gives it (state NotRun).
JobRow rowFromSpec(const JobSpec& spec);
// What RunFolders found on disk: preserved (with its manifest), orphaned, running, conflict.
void applyDisk(JobRow& row, const JobDiskInfo& disk);
// A manifest's figures (status, exit code, wall time, peak memory, energy, folder).
void applyManifest(JobRow& row, const JobManifest& m, const QString& manifestPath);

// The status as a key ("not_run", "queued", "starting", "running", "would_run", "orphaned",
// "running_elsewhere", "conflict", "failed", or a manifest status such as "completed",
// "timeout", "cancelled"): what tests and the colours go by.
QString statusKey(const JobRow& row);
// What the Status column says: the key in words, "(preserved)" after an earlier run's status.
QString statusText(const JobRow& row);
// Why, in a sentence or two (the tooltip).
QString statusTooltip(const JobRow& row);

struct StatusColors {
    QColor background;  // invalid: the view's own
    QColor foreground;
};
StatusColors statusColors(const JobRow& row);
// Only the manifest statuses count as over; a row still queued or running is not.
bool isOver(const JobRow& row);
bool isActive(const JobRow& row);  // queued, starting or running

// "0", "3", "-9 (SIGKILL)"; "–" where there is none.
QString exitCodeText(std::optional<int> code);

// The GPU counter's figures of a manifest's energy report (as `jobs run` prints them).
struct EnergyFigures {
    std::optional<double> total_j, marginal_j, busy_mean_w;
    QString note;  // "verdict clean", or why the counter had no figure
};
EnergyFigures energyFigures(const std::optional<JobEnergy>& energy);

}  // namespace jb
