#pragma once
// RunSource: a live run as the pages see it, whatever makes it. A real jb::Session on a
// backend thread (SessionSource), the `sim` generator (SimSource) or a saved record replayed
// (ReplaySource) all emit the same past-tense signals with values, on the thread the source
// lives on, and give their sample stores, their clock and the run's layout. A page holds one
// RunSource* and folds its events into a RunState; it does not ask which kind it has. What a
// page needs of a real run (its child ready, an interleaved run's records) is here too: a
// source that has no child or no children never emits those.
#include <jb/record/Record.h>
#include <jb/session/ChildDrop.h>
#include <jb/session/PhaseEvent.h>

#include <QObject>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

class SampleStore;

// The whole-device counters' sample stores, in plan order (each store locks itself).
using StoreList = std::vector<std::pair<std::string, std::shared_ptr<const SampleStore>>>;

// The run's shape: what a page needs to place it on a time axis and to plan.
struct RunLayout {
    double period_s = 0.1;  // the sample period
    double idle_s = 0.0;    // one idle bracket
    int k = 0;              // passes per busy window
    int rounds = 0;         // planned rounds (0: until stopped)
    // The busy window the source expects (the simulation knows it); none: measured from rounds.
    std::optional<double> busy_s;
};

class RunSource : public QObject {
    Q_OBJECT
public:
    explicit RunSource(QObject* parent = nullptr);
    ~RunSource() override;

    // The stores of the run there is (empty before started()).
    virtual StoreList stores() const = 0;
    // The store of one counter, or null.
    std::shared_ptr<const SampleStore> storeOf(const std::string& spec) const;
    // The run's clock: its origin (started()'s) and now, on the samples' time axis.
    virtual std::int64_t originNs() const = 0;
    virtual std::int64_t nowNs() const = 0;
    virtual RunLayout layout() const = 0;
    virtual bool running() const = 0;
    // Ends (or pauses) the run; a source with a record to give emits finished() after.
    virtual void stop() = 0;

signals:
    void started(qint64 origin_ns, const QStringList& counters);
    void phase(const jb::PhaseEvent& event);
    void roundFinished(int index, const jb::Round& round);
    // The child marked a phase boundary in round `round` (0-based): `mark NAME` (name) or
    // `mark -` (empty), at t_ns on the samples' clock (Session::phaseMarked).
    void phaseMarked(int round, const QString& name, qint64 t_ns);
    void warning(const QString& message);
    void finished(const jb::Record& record);
    // The run's child said 'ready <jobs>' (a real session).
    void childReady(qint64 jobs);
    // Several children (an interleaved run): emitted once instead of finished(), one record
    // per child in plan order (Session::finishedSet).
    void finishedSet(const std::vector<jb::Record>& records);
    // Several children: how the run went (drops, the blocks' order as run), just before
    // finishedSet (Session::setRan).
    void setRan(const jb::SetCourse& course);
    void advanced(qint64 now_ns);  // the clock moved (simulated and replayed runs)
};

}  // namespace jb
