#pragma once
// MeasureRun: one measurement from its plan to its files, the same for `joulebench-cli measure`
// and the Measure page. It owns the plan, the session (on the caller's thread, or on a backend
// thread through a SessionSource the page draws), and the steps after the last round, done once
// here: the record (or every child's record) written atomically, this run's own journal removed
// once its record is safe (removeOwnJournal), an interleaved run's comparison.json, and every
// written file added to the library. Nothing measured is lost: an aborted run writes its record
// (status aborted, its finished rounds) like a complete one.
//
// The front ends map their flags or form fields onto MeasureRunOptions, one field each, and
// print or draw the past-tense signals; they write no file of the run themselves.
#include <jb/base/Result.h>
#include <jb/record/Record.h>
#include <jb/session/LiveComparison.h>
#include <jb/session/Plan.h>
#include <jb/session/Session.h>

#include <QDateTime>
#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class RunServer;
class RunSource;
class SessionSource;

struct MeasureRunOptions {
    Plan plan;  // its journal_path: the journal this run creates (empty: none)
    // One child: the record's file (--out). Empty: a file named by the record (recordFileName)
    // in `folder`; both empty: the record is written nowhere (the CLI prints it).
    std::string out_path;
    // Several children: the folder of every record and comparison.json (--out-dir). Empty: a
    // folder named by the run (recordFileName without ".json") in `folder`.
    std::string out_dir;
    std::string folder;  // the dashboard's records folder
    int baseline = 0;    // several children: index into plan.children
    ojson source;        // the record's "source" (the code's git state); null: none
    // The library each written file joins (a spec for librarySpec: a file or URL); none: none.
    std::optional<std::string> library;
    // Publish the run as it goes (--serve [ADDR:]PORT, core/remote's RunServer); none: not.
    std::optional<std::string> serve;
    // The session's clock, children and counters (Session.h); empty: the real ones. Thread::
    // Caller only: the tests' simulated bench (tests/session/SimBench.h) runs a whole
    // MeasureRun, files and all, in simulated time.
    SessionEnv env;
};

// "label-20261205-120000[-aborted].json": a record's file name in the dashboard's folder.
std::string recordFileName(const Record& r, const QDateTime& when);
// The journal a run of plan keeps in folder (a record's file name, ".journal").
std::string journalPathIn(const std::string& folder, const Plan& plan, const QDateTime& when);

// What the finish steps did.
struct MeasureOutcome {
    std::vector<Record> records;  // as written (with the source); one for a single child
    std::vector<std::optional<ChildDrop>> drops;  // several children: who was dropped (empty: unknown)
    std::vector<std::string> paths;               // each record's file ("" where none)
    std::string folder;                           // several children: where the files went
    std::string comparison_path;                  // "" where none
    ojson comparison;                             // several children: comparison.json's content
    std::vector<std::string> errors;              // "could not write PATH: why", one per file
    std::vector<std::pair<std::string, std::string>> library_errors;  // path, why it was not added
    bool journal_removed = false;
    bool aborted = false;  // a record aborted (a dropped child's too: the CLI's exit status 1)
    bool interleaved = false;  // several children: one record each and a comparison
    bool several() const { return interleaved; }
};

class MeasureRun : public QObject {
    Q_OBJECT
public:
    // Where the session runs: the caller's thread (the CLI, tests) or a backend thread (the
    // dashboard, which draws source()).
    enum class Thread { Caller, Backend };
    explicit MeasureRun(Thread where = Thread::Caller, QObject* parent = nullptr);
    ~MeasureRun() override;

    // Checks the plan (the message names the field) and starts the session.
    Status start(MeasureRunOptions options);
    void stop();                        // the session's stop(): an aborted record follows
    void abort(const QString& reason);  // the same with the caller's reason
    bool running() const;
    const MeasureRunOptions& options() const { return options_; }
    // The live run as the pages see it (Thread::Backend; the same object for every run).
    RunSource* source() const;
    // The session (Thread::Caller, while it lives): round numbering of an interleaved run.
    const Session* session() const { return session_.data(); }
    // An interleaved run's comparison over the blocks finished so far (null for one child).
    const LiveComparison* liveComparison() const { return live_.get(); }
    const MeasureOutcome& outcome() const { return outcome_; }
    // The run's server (options.serve), listening from start() on; null where none.
    RunServer* server() const { return server_; }

    // The finish steps (called by the run itself; public for a session driven elsewhere).
    void finishRecord(const Record& record);
    // drops and order: the session's (Session::drops, Session::order: the blocks as run; on a
    // backend thread, told by RunSource::setRan); empty: the planned order, no drops.
    void finishSet(const std::vector<Record>& records, std::vector<std::optional<ChildDrop>> drops,
                   std::vector<std::vector<int>> order);

signals:
    void roundFinished(int index, const jb::Round& round);
    void comparisonAdvanced(int blocks);  // an interleaved run: one more block done by every child
    void recordWritten(const QString& path);
    void recordNotWritten(const QString& path, const QString& error);
    void journalRemoved(const QString& path);
    void comparisonWritten(const QString& path);
    void libraryAdded(const QString& path);
    void libraryNotAdded(const QString& path, const QString& error);
    // Last, once: what the finish steps did.
    void finished(const jb::MeasureOutcome& outcome);

private:
    void onRound(int index, const Round& round);
    void addToLibrary(const std::string& path);
    Status serve();  // options_.serve: a server listening, fed by the run's signals

    Thread where_;
    MeasureRunOptions options_;
    QPointer<Session> session_;           // Thread::Caller
    SessionSource* source_ = nullptr;     // Thread::Backend
    std::unique_ptr<LiveComparison> live_;
    SetCourse course_;  // Thread::Backend: the session's course, told just before its records
    MeasureOutcome outcome_;
    RunServer* server_ = nullptr;
    bool running_ = false;
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::MeasureOutcome)
