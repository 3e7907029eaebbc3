#pragma once
// The Jobs page's table: one row per job of the loaded job file, in file order. Fed by the
// disk (RunFolders, when a file is loaded or refreshed) and by the queue's signals while it
// runs; the rules of what each cell says live in JobRow.h.
#include "jobs/JobRow.h"

#include <nlohmann/json.hpp>
#include <jb/jobs/DryRun.h>
#include <jb/jobs/JobFile.h>

#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace jb {

class JobTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Status,
        Gpu,
        Elapsed,
        PeakMemory,
        Power,
        Energy,
        Marginal,
        ExitCode,
        Folder,
        Command,  // the command as it runs ({run_dir} filled by the dry run)
        ColumnCount
    };
    enum Role {
        StatusKeyRole = Qt::UserRole + 1,  // statusKey(): "completed", "running", "orphaned" ...
        ProgressRole,                      // Elapsed: elapsed / timeout (double), where both are known
        BarColorRole,                      // Elapsed: the bar's fill (QColor)
        SortRole,                          // numbers as numbers
    };

    explicit JobTableModel(QObject* parent = nullptr);

    // One NotRun row per job (resets the model).
    void setJobs(const std::vector<JobSpec>& jobs);
    void clear();
    // What is on disk now, for every row (RunFolders::inspectJob). The run folders are shown
    // relative to outputRoot from then on (the page names it above the table).
    void refreshFromDisk(const std::string& outputRoot);

    int rowOf(const QString& name) const;  // -1: no such job
    const JobRow& job(int row) const { return rows_.at(std::size_t(row)); }
    int jobCount() const { return int(rows_.size()); }

    // The queue's story.
    void markQueued();  // every NotRun/WouldRun row: the queue will look at it
    void markStarting(const QString& name, int gpu, const QString& runDir);
    void markStarted(const QString& name, int gpu, const QString& runDir, qint64 pid);
    // A Slurm job's state (JobQueue::jobRemoteState): PENDING keeps it queued, RUNNING runs it.
    void markRemote(const QString& name, const QString& state, const QString& reason, const QString& jobId,
                    const QString& node);
    void setProgress(const QString& name, double elapsedS, qint64 peakMib, double powerW);
    void markCancelling(const QString& name);  // asked to end: the status says so until it has
    void markFinished(const QString& name, const JobManifest& m, const QString& manifestPath);
    void markPreserved(const QString& name, const QString& manifestPath);  // reads the manifest
    void markSkipped(const QString& name, jb::DiskState state, const QString& detail);
    void markWouldRun(const QString& name, const QString& gpu, const QStringList& argv);
    // The dry run's checks (core/jobs/DryRun): each job's filled command and its problems.
    void setDryRun(const DryRunReport& report);
    void markFailed(const QString& name, const QString& message);
    // A served queue's job-state message (core/remote's RemoteSource::jobState, docs/REMOTE.md):
    // a job not yet in the table gets a row; launched/running/failed/preserved/skipped/would-run
    // and a manifest status ("completed", ...) set the row as the local queue's events would.
    void markServed(const QString& name, const QString& state, const nlohmann::ordered_json& detail);
    // The queue is over: rows it never started go back to NotRun, saying why.
    void markNotStarted(const QString& why);

    // "3 jobs: 1 running, 1 completed, 1 queued".
    QString summaryText() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static QString commandText(const JobRow& r);
    JobRow* find(const QString& name);
    void rowChanged(int row);

    std::vector<JobRow> rows_;
    QString outputRoot_;
    QHash<QString, int> index_;
};

}  // namespace jb
