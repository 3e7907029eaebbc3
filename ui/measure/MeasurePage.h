#pragma once
// The Measure page: the run form on the left; the run on the right (chart, summary, rounds
// table: a RecordView); the status line below. Its form maps onto core/run's MeasureRunOptions
// (runOptions()); the MeasureRun starts and stops the session on a backend thread, saves every
// finished run by itself, removes its journal and adds its files to the library, and the page
// draws its RunSource and what the run says it did. It shows opened records read-only.
// It also watches a run served by another process (`--serve`, core/remote): watchRemote()
// draws that run's RemoteSource the same way, marked remote in the banner, the form's
// controls off; at the end the record is the one the server wrote (its path shown).
#include "common/Banner.h"
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/record/Record.h>
#include <jb/remote/RemoteTarget.h>
#include <jb/run/MeasureRun.h>
#include <jb/session/Session.h>

#include <QTimer>
#include <vector>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>

class QPushButton;

namespace jb {

class RemoteSource;
class InterleavedView;
class WorkloadProbe;
struct ProbeResult;
class RecordView;
class RunSource;
class RunForm;
class StatusLine;

class MeasurePage : public QWidget {
    Q_OBJECT
public:
    explicit MeasurePage(CounterOptions options = {}, QWidget* parent = nullptr);
    ~MeasurePage() override;

    RunForm* form() const { return form_; }
    RecordView* view() const { return view_; }
    StatusLine* statusLine() const { return status_; }
    // The run as it goes (the same source for every run) and the run itself.
    RunSource* controller() const { return source_; }
    MeasureRun* run() const { return run_; }
    // The library every saved record joins (the dashboard's; none: none, the default).
    void setLibrary(std::optional<std::string> spec) { library_ = std::move(spec); }
    // The form's plan as the run's options: records and journal in the records folder
    // (autosaveFolder), the library set above. One form field, one field of the plan.
    MeasureRunOptions runOptions(Plan plan) const;
    Banner* banner() const { return banner_; }
    // An interleaved run's comparison, filled in as blocks finish (hidden for one workload).
    InterleavedView* comparisonView() const { return cmp_view_; }
    QString comparisonPath() const { return comparison_path_; }  // where the last set's comparison.json lies
    // The check before Start (core/session/StartCheck): while its probe runs, checking() is true;
    // a plan that will not work shows the banner with these two buttons.
    bool checking() const { return probe_ != nullptr; }
    QWidget* startCheckBar() const { return checkBar_; }
    QPushButton* useSuggestedKButton() const { return useK_; }
    QPushButton* startAnywayButton() const { return startAnyway_; }

    bool running() const;
    bool hasRecord() const { return has_record_; }  // a finished run or an opened record
    bool readOnly() const { return read_only_; }    // an opened record
    const Record& record() const;
    QString recordPath() const { return record_path_; }  // where the record shown lies on disk

    // Watching a served run (File > Connect to a Run...): the connection is made here; the
    // banner says "Watching a run on HOST:PORT (remote)", or the error naming the address.
    Status watchRemote(const RemoteTarget& target);
    void disconnectRemote();  // the run goes on over there
    bool watching() const { return remote_ != nullptr; }
    RemoteSource* remote() const { return remote_; }
    QPushButton* disconnectButton() const { return disconnect_; }
    // After a watched run: where the server wrote its record (on the server's machine).
    QString remoteRecordPath() const { return remote_path_; }

    Status openRecord(const QString& path);
    Status saveRecord(const QString& path);
    Status exportRoundsCsv(const QString& path) const;
    Status exportSamplesCsv(const QString& path) const;
    Status exportChartPng(const QString& path);
    Status exportChartSvg(const QString& path);
    // A title for exports: "label · counter".
    QString exportTitle() const;

    // The window is closing during a run: end it, save what it measured, then readyToClose().
    void stopForClose(const QString& reason = {});  // reason: the record's error (a default if empty)

public slots:
    // Start as the button does: each workload probed for one pass first (the Start check); a
    // plan whose rounds would be too short for the counter is not started but explained, with
    // the k that fixes it.
    void start();
    // Start at once, unchecked (Start anyway; closing tests that time a run from its start).
    void startNow();
    void stop();

signals:
    void startChecked(const QString& message);  // the check found a problem: what it says
    void checkingChanged(bool checking);        // the check's probe began or ended (checking())
    void runningChanged(bool running);
    void hasRecordChanged(bool has);
    void recordSaved(const QString& path);
    void libraryAdded(const QString& path);  // a saved record joined the library
    void recordOpened(const QString& path);
    void runFinished(const jb::Record& record, const QString& savedPath);
    void readyToClose();
    void watchingChanged(bool watching);
    // The address given serves a job queue, not a measure run: the Jobs page watches it.
    void queueServed(const jb::RemoteTarget& target);

private:
    void onProbed(const std::vector<ProbeResult>& results);
    void onStarted(qint64 origin_ns, const QStringList& counters);
    void onChildReady(qint64 jobs);
    void onPhase(const PhaseEvent& e);
    void onRound(int index, const Round& r);
    void onWarning(const QString& message);
    void onRunFinished(const MeasureOutcome& outcome);
    void onFinished(const MeasureOutcome& outcome);
    void onFinishedSet(const MeasureOutcome& outcome);
    void refreshComparison();
    void updateStatus();
    void setBanner(const QString& text, bool error);
    // The watched run's events (a RemoteSource's, not a MeasureRun's).
    void onRemoteStarted(qint64 origin_ns, const QStringList& counters);
    void onRemoteFinished(const Record& r);
    void endWatching(const QString& banner, bool error);
    const Plan& livePlan() const;  // the local run's plan, or the watched run's layout as one
    std::int64_t liveNowNs() const;

    RunForm* form_;
    RecordView* view_;
    StatusLine* status_;
    MeasureRun* run_;
    RunSource* source_;
    std::optional<std::string> library_;
    Banner* banner_;
    QTimer statusTimer_;
    WorkloadProbe* probe_ = nullptr;
    QWidget* checkBar_;
    QPushButton* useK_;
    QPushButton* startAnyway_;
    int suggested_k_ = 0;
    RemoteSource* remote_ = nullptr;
    QWidget* remoteBar_ = nullptr;
    QPushButton* disconnect_ = nullptr;
    QString remote_where_;
    QString remote_path_;
    Plan remote_plan_;

    Record base_;  // the plan's figures, shown before the session's record arrives
    std::int64_t origin_ns_ = 0;
    std::int64_t busy_t0_ns_ = 0;
    std::int64_t plan_t0_ns_ = 0;  // when the first idle bracket began (0: the child is starting)
    bool busy_ = false;
    int rounds_done_ = 0;
    QString phase_text_;
    QStringList warnings_;
    bool has_record_ = false;
    bool read_only_ = false;
    bool closing_ = false;
    QString record_path_;
    InterleavedView* cmp_view_;
    QString comparison_path_;
};

}  // namespace jb
