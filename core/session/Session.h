#pragma once
// One measurement run: the reference's plan and arithmetic, event-driven (timers, QProcess),
// so Stop acts within a sample period and the GUI can run it on a backend thread.
//
//   idle bracket -> [go k ... done -> idle bracket -> 2 sample periods -> round figures] x rounds
//
// Signals are past tense and carry values; no exception crosses a thread. A run that fails
// still emits finished() with an aborted record holding every round done.
//
// Time, children and counters come from a SessionEnv: the real ones by default (the monotonic
// clock and Qt's timers, DecoderChild processes, openCounter); a test hands a SimulatedTime,
// simulated children and counters that follow them, and the whole run takes milliseconds.
#include <jb/base/Mailbox.h>
#include <jb/base/TimeSource.h>
#include <jb/child/ChildLink.h>
#include <jb/child/Protocol.h>
#include <jb/counters/EnergyCounter.h>
#include <jb/counters/GpuTime.h>
#include <jb/counters/TaskCounter.h>
#include <jb/record/Record.h>
#include <jb/record/RecordExtras.h>
#include <jb/sampling/SampleStore.h>
#include <jb/session/ChildDrop.h>
#include <jb/session/PhaseEvent.h>
#include <jb/session/Plan.h>
#include <jb/session/RunSchedule.h>

#include <QObject>
#include <QString>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

class Sampler;
class TaskReader;
class Journal;

// Opens a whole-device counter by spec (counters/CounterRegistry's openCounter by default).
using CounterFactory =
    std::function<Result<std::unique_ptr<EnergyCounter>>(const std::string& spec, const CounterOptions& options)>;

// What a session takes from outside; each left empty is the real one.
struct SessionEnv {
    TimeSource* time = nullptr;  // null: realTime(); a simulated one must outlive the session
    ChildFactory children;       // empty: a DecoderChild process per child
    CounterFactory counters;     // empty: openCounter (the mirror check's second copies too)
    bool empty() const { return !time && !children && !counters; }
};

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(Plan plan, QObject* parent = nullptr);
    Session(Plan plan, SessionEnv env, QObject* parent = nullptr);
    ~Session() override;

    const Plan& plan() const { return plan_; }
    // The whole-device counters' stores, in plan order; valid from started() on, safe to read
    // from any thread (each store locks itself).
    std::vector<std::pair<std::string, std::shared_ptr<const SampleStore>>> stores() const;
    // The record as measured so far (on the session's thread).
    Record snapshot() const;
    // The child's stderr: forwarded to ours (CLI, the reference's behaviour) or captured into
    // failure messages (GUI). Before start().
    void setForwardChildStderr(bool forward);
    qint64 childPid() const;  // 0 before the child started (several children: the one running now)
    // Several children (plan.children): which child ran round `index` (in run order), in which
    // block (0-based, warm-up blocks first), whether it was a warm-up round, and the blocks'
    // order (order[b][k]: the k-th child of block b; with a dropped child, the order as run).
    int roundChild(int index) const;
    int roundBlock(int index) const;
    bool isWarmupRound(int index) const;
    const std::vector<std::vector<int>>& order() const { return sched_.order(); }
    // Per child (plan order): how it was dropped (plan.keep_going), or none.
    const std::vector<std::optional<ChildDrop>>& drops() const { return sched_.drops(); }
    bool isRunning() const { return state_ != State::Idle && state_ != State::Finished; }

public slots:
    void start();
    // Ends the child and writes an aborted record with every finished round (reason: stopped).
    void stop();
    // Ends the run the same way with a reason of the caller's (a signal, closing the window).
    void abort(const QString& reason);

signals:
    void started(qint64 origin_ns, QStringList counters);  // counters opened, child starting
    void childReady(qint64 jobs);
    void phase(jb::PhaseEvent event);
    void roundFinished(int index, jb::Round round);
    // The child marked a phase boundary in round `round` (0-based): `mark NAME` (name) or
    // `mark -` (empty), at t_ns on the monotonic clock (child/Protocol.h). The round's marks
    // and, at the end, each phase's energy are in its record (Round::marks, phase_energy).
    void phaseMarked(int round, QString name, qint64 t_ns);
    void warning(QString message);  // e.g. a counter read failed (the run goes on)
    // Always emitted once: status "complete" or "aborted" (with error). With plan.with_samples
    // the raw intervals are in the record.
    void finished(jb::Record record);
    // Several children: emitted once instead of finished(), with one record per child (plan
    // order), each as a single-child run writes it; warm-up rounds in its warmup_rounds
    // (record/RecordExtras).
    void finishedSet(std::vector<jb::Record> records);
    // Several children: the run's course (drops, blocks' order as run), just before finishedSet.
    void setRan(jb::SetCourse course);

private:
    enum class State { Idle, Starting, IdleBracket, Busy, Settling, Finished };
    void openCountersAndChild();
    void openJournal();
    void journalRound(const Round& round);
    void beginIdle();
    void endIdle();
    void beginRound();
    void onDone(const DoneLine& line);
    void onMark(const QString& name, std::int64_t t_ns);
    // Each round's phase figures from the counters' stores (stats/PhaseEnergy), where a round
    // has marks.
    void addPhaseEnergy(Record& r) const;
    void finishRound();
    // hwmon channels, RAPL zones and the package zones a rapl:packages sum adds are read back to
    // back (second copies, every 20 ms) over the first idle bracket; two whose advances were
    // identical read one counter twice (a mirrored per-die channel or zone) and the run is
    // refused with both names.
    void readMirrorProbes();
    std::optional<std::string> mirroredCounters() const;
    void fail(const std::string& reason);
    void finish(std::optional<std::string> error);
    void readTaskSettled(std::function<void(Result<TaskSample>)> then);
    void settleStep();
    void afterTaskBefore();
    void afterTaskAfter();
    // A child failed (a bad line, an exit, a timeout): without plan.keep_going the run ends;
    // with it, the child is dropped and the others go on.
    void onChildTrouble(int index, const std::string& message);
    void dropChild(int index, const std::string& reason);
    void endRun();  // every round done: ask the children to exit
    std::string who(int index, const std::string& message) const;
    int plannedRounds() const;  // rounds still to be run included (several children: the schedule's)
    void onSamplerError(const QString& spec, const QString& message);
    Record baseRecord(int child = 0) const;
    InterleavedInfo interleavedInfo(int child, std::optional<DroppedChild> dropped = std::nullopt) const;
    ChildLink* child() const { return children_.empty() ? nullptr : children_[std::size_t(active_)].get(); }
    bool interleaved() const { return !plan_.children.empty(); }
    void onChildReady(int index, const ReadyLine& r);
    void allReady();
    int childOfRound(int index) const;  // by the schedule (0 with one child)
    void setWorkloadFor(int round);     // the counters that follow a workload's CPU (sim)

    Mailbox mail_{this};  // sampler threads report errors to this thread here
    Plan plan_;
    TimeSource& time_;
    ChildFactory make_child_;
    CounterFactory open_counter_;
    State state_ = State::Idle;
    std::vector<std::unique_ptr<Sampler>> samplers_;
    std::unique_ptr<TaskReader> task_reader_;
    std::vector<std::unique_ptr<ChildLink>> children_;  // plan order
    int active_ = 0;                                     // the child of the current round
    int ready_children_ = 0;
    int exits_pending_ = 0;
    // The rounds in run order, the blocks' order and the drops (several children); a dropped
    // child's rounds to come are taken out.
    RunSchedule sched_;
    std::vector<bool> ready_;          // per child: it printed its ready line
    std::vector<bool> awaiting_exit_;  // per child: sent 'exit' at the end of the run
    bool round_open_ = false;    // the round's done line came; its post bracket is not in yet
    bool fresh_bracket_ = false;  // the bracket under way opens the next round (a dropped child's round was lost)
    std::vector<int> round_child_;         // per finished round
    std::unique_ptr<Journal> journal_;          // with plan.journal_path: one line per round
    std::vector<std::size_t> journaled_upto_;  // per sampler: intervals already journaled
    // One-shot timers on time_, made in the constructor: on the real source QTimers parented to
    // the session, so they live on its thread and a moveToThread() takes them along.
    std::unique_ptr<OneShot> idle_timer_;     // the idle bracket's end
    std::unique_ptr<OneShot> timeout_timer_;  // --ready-timeout, then --round-timeout
    std::unique_ptr<OneShot> settle_timer_;   // two sample periods after a bracket
    std::unique_ptr<OneShot> mirror_timer_;   // the mirror probes, every 20 ms of the first bracket
    std::unique_ptr<OneShot> exit_timer_;     // 10 s for the children to exit after 'exit'
    std::unique_ptr<OneShot> settle_poll_;    // the task reader's settled rule, every 50 ms
    struct MirrorProbe {
        std::string spec;   // the counter read (a package zone of rapl:packages: that zone's spec)
        std::string owner;  // the plan's --counter it belongs to
        std::unique_ptr<EnergyCounter> counter;
    };
    std::vector<MirrorProbe> mirror_probes_;
    std::vector<std::vector<std::int64_t>> mirror_reads_;  // one row per probe time
    std::int64_t origin_ns_ = 0;
    std::vector<std::int64_t> jobs_;  // per child, from its ready line
    std::vector<std::array<std::int64_t, 2>> brackets_;
    std::int64_t idle_t0_ = 0;
    // Random round phases (plan.random_phase): the generator, and the offset the bracket under
    // way added before the round that follows it.
    PhaseOffsets phase_rng_;
    // Per whole-device counter (samplers_ order): its profile (the plan's measured one, else its
    // kind's default) and the averaging tail its brackets wait out (0: none).
    std::vector<CounterProfile> profiles_;
    std::vector<std::int64_t> tails_ns_;
    // Whether sampler si's counter updates less often than it is read: its rounds are then cut
    // on its own updates (stats/RoundTimes roundFigures, the record's aligned_cuts).
    bool cutOnUpdates(std::size_t si) const;
    std::int64_t maxTailNs() const;
    std::int64_t phase_offset_ns_ = 0;
    std::int64_t busy_t0_ = 0, busy_t1_ = 0;
    Round current_;
    std::optional<MarkSpan> open_mark_;  // the phase the child marked last, still open
    std::vector<Round> rounds_;
    std::string started_at_;  // set by start(): the record's started_at
    std::vector<std::string> warnings_;
    std::optional<TaskSample> task_before_;
    std::optional<GpuTimes> gpu_before_;
    int settle_tries_ = 0;
    std::optional<TaskSample> settle_prev_;
    std::function<void(Result<TaskSample>)> settle_then_;
    bool exit_expected_ = false;
    bool forward_child_stderr_ = true;
};

}  // namespace jb

