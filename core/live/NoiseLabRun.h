#pragma once
// NoiseLabRun: the Noise lab's live runs, one at a time. It owns the three sources a lab run
// can come from (the `sim` generator, a real session on the machine's counter with the demo
// decoder, a saved record replayed), says which one is live, switches between them, and
// restarts a real run when its layout changes (once the slider rests, and only after the
// previous run has ended). Only the live source's events come out, as past-tense signals, so
// the page draws them without knowing which kind of source it follows.
//
// sim(), real() and replay() are for tests, which drive a source's clock (tick()) directly.
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/live/RunSource.h>
#include <jb/noise/LiveSim.h>
#include <jb/noise/RealCounter.h>

#include <QObject>
#include <QTimer>

#include <cstdint>
#include <string>
#include <vector>

namespace jb {

class ReplaySource;
class SessionSource;
class SimSource;

struct NoiseLabRunOptions {
    RealCounterChoice real;                 // the real run's counter, or why there is none
    std::vector<std::string> decoder_argv;  // the real run's child: program and arguments
    CounterOptions counters;                // where the real counters are read
    std::uint64_t seed = 1;                 // the simulation's noise
};

class NoiseLabRun : public QObject {
    Q_OBJECT
public:
    enum class Live { None, Simulated, Real, Replay };
    // A layout change during a real run restarts it once the settings have rested this long:
    // each start launches the decoder.
    static constexpr int kRealRestartMs = 800;

    explicit NoiseLabRun(NoiseLabRunOptions options, QObject* parent = nullptr);
    ~NoiseLabRun() override;

    Live live() const { return live_; }
    RunSource* source() const;  // the live source; null where none is
    const RealCounterChoice& realChoice() const { return options_.real; }

    // Each stops the run there is and makes the new one live.
    void startSimulated(const LiveSimSettings& s, double speed);
    // A real run of the lab's layout; an error where no real counter is readable or the session
    // refuses the plan. Where the previous real run is still ending, it starts once that has.
    Status startReal(const LiveSimSettings& s);
    // The record's samples of `spec` played back at `speed`; an error where it has none.
    Status startReplay(const Record& r, const std::string& spec, double speed);
    void stopAll();  // every source stops; none is live

    // The simulation pauses while nobody looks and goes on after.
    void pauseSimulated();
    void resumeSimulated();

    enum class SettingsEffect { None, Applied, RealRestartScheduled };
    // New lab settings: the simulation takes them (continuing or restarting its run); a real run
    // whose layout they change restarts once they rest.
    SettingsEffect setSettings(const LiveSimSettings& s);
    void setSimSpeed(double speed);
    void setReplaySpeed(double speed);

    // What the live figures' words need of each kind.
    const LiveSimSettings& simSettings() const;
    double simSpeed() const;
    double replaySpeed() const;
    std::int64_t replayEndNs() const;
    const Record& replayRecord() const;
    const std::string& replaySpec() const;

    SimSource* sim() const { return sim_; }
    SessionSource* real() const { return real_; }
    ReplaySource* replay() const { return replay_; }

signals:
    // The live source started a run; spec: the counter the lab shows (the real choice, or the
    // source's first counter), its store is source()->storeOf(spec).
    void liveStarted(qint64 origin_ns, const QString& spec);
    void phase(const jb::PhaseEvent& event);
    void roundFinished(int index, const jb::Round& round);
    void warning(const QString& message);
    void childReady(qint64 jobs);
    void idleChanged(qint64 t_ns);  // the simulation's idle W or noise moved at this time
    void realEnded(const QString& error);  // a real run ended and does not start again
    void realRestarting();                 // a layout change: the real run starts again
    void replayEnded(int rounds);          // the replay reached the record's end

private:
    void setLive(Live l);
    void restartReal();
    void onRealFinished(const Record& r);

    NoiseLabRunOptions options_;
    SimSource* sim_;
    SessionSource* real_;
    ReplaySource* replay_;
    Live live_ = Live::None;
    LiveSimSettings real_settings_;  // what the next real start uses
    QTimer real_restart_;
    bool real_restart_pending_ = false;  // start again once the running real run has ended
};

}  // namespace jb
