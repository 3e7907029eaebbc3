#pragma once
// The Jobs page: a job file's GPU jobs (docs/JOBS.md) in a table with their state on disk,
// Run all / Dry run / cancel one job / stop the queue, the selected (or newest running) job's
// live GPU memory and power and the tail of its log, and its manifest in a read-only viewer.
//
// Threading: the jb::JobQueue lives on the GUI thread's event loop. It is event-driven and
// never blocks its thread: provenance hashing and GPU probes run on its preparation thread and
// every job on its own worker thread, which post back to this thread; what it does here is
// small (looking at a few run folders, writing one manifest per job). A backend QThread would
// only add a second hop for the same signals. The one wait is the queue's destructor (a page
// destroyed mid-run): it ends the running jobs and writes their manifests (`cancelled`) so no
// folder is left orphaned; that takes up to the jobs' grace periods. Ask running() first.
#include <jb/base/Result.h>
#include <jb/jobs/DryRun.h>
#include <jb/jobs/JobExecutor.h>
#include <jb/jobs/JobFile.h>
#include <jb/jobs/JobQueue.h>
#include <jb/live/JobTraces.h>
#include <jb/run/JobRun.h>

#include <QString>

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QModelIndex;
class QPushButton;
class QTableView;

namespace jb {

class Banner;

class JobLiveChart;
class JobLogView;
class JobTableModel;
class ManifestDialog;
class RemoteSource;
struct RemoteTarget;

class JobsPage : public QWidget {
    Q_OBJECT
public:
    // Makes the executor for a job file (default: core/run's makeJobExecutor with runOptions():
    // LocalExecutor with the counter options and the file's nvml_library and nvidia_smi, or
    // SlurmExecutor); tests and a remote executor put their own here.
    using ExecutorFactory = std::function<std::shared_ptr<JobExecutor>(const JobFile&)>;

    explicit JobsPage(QWidget* parent = nullptr);
    ~JobsPage() override;  // mid-run: ends the running jobs and records them (see above)

    // Reads the job file and shows every job's state on disk (preserved, orphaned ...). A bad
    // file: false, the table is emptied and the banner names the file and the JSON path.
    // Refused while a queue runs.
    bool loadJobFile(const QString& path);
    // Re-reads the loaded job file and looks at its run folders again.
    bool refresh();
    // Re-read the job file, then run every job that has no run folder yet (dryRun: say what
    // would run, start nothing, create nothing). False where nothing was started.
    bool runAll();
    bool dryRun();
    // Ends one running job (its manifest says `cancelled`); the queue goes on with the others.
    bool cancelJob(const QString& name);
    // Ends every running job and starts no more (jobs not started stay not run).
    void stopQueue();
    // The job's manifest in the read-only viewer; false where it has none.
    bool openManifest(const QString& name);

    bool running() const;
    // Watching a queue served by `jobs run --serve` (core/remote): the table shows each job's
    // state as the served queue reports it; the banner says "Watching a job queue on HOST:PORT
    // (remote)", or the error naming the address; the local queue's buttons are off.
    Status watchRemote(const RemoteTarget& target);
    void disconnectRemote();
    bool watching() const { return remote_ != nullptr; }
    QPushButton* disconnectButton() const { return disconnect_; }
    QString jobFilePath() const { return path_; }
    QString errorText() const;  // the banner's error, empty when there is none
    QString bannerText() const;
    QString statusText() const;

    void setExecutorFactory(ExecutorFactory factory) { factory_ = std::move(factory); }
    // Where the local executor reads its energy counters (the dashboard's counter options, as
    // the Measure page's), and the library each manifest joins (none: none, the default).
    void setCounterOptions(CounterOptions counters) { counters_ = std::move(counters); }
    void setLibrary(std::optional<std::string> spec) { library_ = std::move(spec); }
    // The options Run All / Dry Run give core/run's JobRun: one setting, one field.
    JobRunOptions runOptions(bool dry) const;
    // What the dry run's checks look at (core/jobs/DryRun; default: this machine); tests set it.
    void setDryRunEnvironment(DryRunEnvironment env) { dryEnv_ = std::move(env); }
    // The last dry run found what would make Run All fail: Run All stays disabled until the
    // file is loaded again or a dry run finds nothing.
    bool dryRunBlocked() const { return dryBlocked_; }
    QPushButton* runAllButton() const { return runAll_; }
    // Asked before the buttons cancel a job or stop the queue; tests replace it.
    std::function<bool(const QString& title, const QString& question)> confirm;

    JobTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    JobLiveChart* chart() const { return chart_; }
    JobLogView* logView() const { return log_; }
    ManifestDialog* manifestDialog() const { return manifest_; }  // null until first opened
    QString shownJob() const { return shown_; }                   // whose chart and log are shown
    void showJob(const QString& name);                            // selects its row

Q_SIGNALS:
    void jobFileLoaded(const QString& path);
    void runningChanged(bool running);
    // A job's manifest was written (its path), and joined the library (setLibrary).
    void manifestWritten(const QString& path);
    void libraryAdded(const QString& path);
    void queueFinished(const jb::QueueSummary& summary);

private:
    enum class Banner { None, Info, Warning, Error };
    void setBanner(Banner level, const QString& text);
    bool startQueue(bool dry);
    void connectQueue();
    void updateActions();
    void updateFileLabel();
    void onSelectionChanged();
    void showSelectedJob();
    void selectJob(const QString& name, bool automatic);
    void showChartFor(const QString& name);
    void updateShownLabel();
    void diskBanner();
    void openRunFolder();
    int selectedRow() const;

    QString path_;
    std::optional<JobFile> file_;
    ExecutorFactory factory_;
    DryRunEnvironment dryEnv_;
    bool dryBlocked_ = false;
    CounterOptions counters_;
    std::optional<std::string> library_;
    std::unique_ptr<JobRun> run_;  // the queue's run (its executor chosen by core/run)
    bool dry_ = false;
    JobTraces traces_;  // the launched jobs' live GPU memory and power
    QString shown_;
    bool follow_ = true;      // show each newly started job (until the user picks a row)
    bool selecting_ = false;  // the page, not the user, changes the selection
    Banner bannerLevel_ = Banner::None;

    JobTableModel* model_;
    QTableView* table_;
    JobLiveChart* chart_;
    JobLogView* log_;
    ManifestDialog* manifest_ = nullptr;
    QLabel* fileLabel_;
    jb::Banner* banner_;
    QLabel* status_;
    QLabel* shownLabel_;  // whose chart and log are below, and whether the page follows new jobs
    QPushButton* open_;
    QPushButton* refresh_;
    QPushButton* dryRun_;
    QPushButton* runAll_;
    QPushButton* cancelJob_;
    QPushButton* stop_;
    QPushButton* manifestButton_;
    QPushButton* folderButton_;
    QPushButton* disconnect_;
    RemoteSource* remote_ = nullptr;
    QString remote_where_;
    void endWatching(const QString& banner, bool error);
};

}  // namespace jb
