#pragma once
// Runs a LiveSim on a timer for the Noise lab page: the simulated clock advances by the wall
// time since the last tick times the speed, the new intervals go into a sample store the
// power chart reads, and the run's phases and rounds come out as the same past-tense signals
// a real session's SessionSource gives (both are RunSources), so a page shows both the same way.
//
// Power settings (idle W, noise sd, signal W) continue the run; layout settings (period, idle
// seconds, k) start a new one. tick() is public: tests advance the clock without waiting.
#include <jb/live/RunSource.h>
#include <jb/noise/LiveSim.h>
#include <jb/sampling/SampleStore.h>

#include <QElapsedTimer>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>

namespace jb {

class SimSource : public RunSource {
    Q_OBJECT
public:
    static constexpr int kTickMs = 50;
    // A run is started afresh past this many intervals, so memory stays bounded however long
    // the lecture (200k intervals: 5.5 hours at 100 ms and 1x).
    static constexpr std::size_t kMaxIntervals = 200'000;

    explicit SimSource(QObject* parent = nullptr);

    const LiveSimSettings& settings() const { return settings_; }
    // Applies new settings: continues the run where only the power changed, else restarts it
    // (while running). Returns true where it restarted.
    bool setSettings(const LiveSimSettings& s);
    void setSeed(std::uint64_t seed) { seed_ = seed; }
    double speed() const { return speed_; }
    void setSpeed(double speed);  // simulated seconds per wall second (> 0)

    void start();   // a new run from the current settings
    void stop() override;  // the timer stops; what was generated stays
    void resume();         // the timer goes on with the run there is (a new one where none)
    bool running() const override { return timer_.isActive(); }

    // Advances the simulated clock by wall_s x speed (what the timer does each tick).
    void tick(double wall_s);

    std::shared_ptr<const SampleStore> store() const { return store_; }
    const LiveSim* sim() const { return sim_.get(); }
    StoreList stores() const override;  // the `sim` counter's, once a run started
    std::int64_t originNs() const override { return sim_ ? sim_->originNs() : 0; }
    std::int64_t nowNs() const override { return sim_ ? sim_->nowNs() : 0; }
    RunLayout layout() const override;  // the settings' (the busy window included)
    // Simulated time the idle power or its noise last changed (the run's start at first): the
    // idle noise measured before it describes other settings.
    std::int64_t idleChangedNs() const { return idle_changed_ns_; }
    int restarts() const { return restarts_; }

signals:
    void idleChanged(qint64 t_ns);  // idle W or noise sd moved at this simulated time

private:
    void onTimer();
    void restart();

    LiveSimSettings settings_;
    std::uint64_t seed_ = 1;
    double speed_ = 1.0;
    std::unique_ptr<LiveSim> sim_;
    std::shared_ptr<SampleStore> store_;
    std::int64_t idle_changed_ns_ = 0;
    int restarts_ = 0;
    QTimer timer_;
    QElapsedTimer wall_;
};

}  // namespace jb
