#pragma once
// ReplaySource: a saved jb::Record played back as a live run, at a chosen speed. One counter's
// samples go into a store as the replayed clock passes their end, the phases come from the
// rounds' brackets and windows (JouleBench additions), and each round's figures come out when a
// session would emit them: two sample periods after its idle bracket after (without brackets:
// at its window's end, else at the end of the samples). At the end, finished(record).
//
// tick() is public: tests advance the clock without waiting.
#include <jb/base/Result.h>
#include <jb/live/RunSource.h>
#include <jb/sampling/SampleStore.h>

#include <QElapsedTimer>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jb {

class ReplaySource : public RunSource {
    Q_OBJECT
public:
    static constexpr int kTickMs = 50;

    explicit ReplaySource(QObject* parent = nullptr);

    // The record and the counter replayed (empty: its first whole-device counter with samples).
    // An error names the counter where the record has no samples of it.
    Status load(const Record& r, const std::string& spec = {});
    double speed() const { return speed_; }
    void setSpeed(double speed);  // replayed seconds per wall second (> 0)

    void start();  // from the record's start, on the timer
    void stop() override;
    bool running() const override { return timer_.isActive(); }
    bool done() const { return done_; }

    // Advances the replayed clock by wall_s x speed (what the timer does each tick).
    void tick(double wall_s);

    const std::string& spec() const { return spec_; }
    const Record& record() const { return record_; }
    StoreList stores() const override;
    std::int64_t originNs() const override { return origin_ns_; }
    std::int64_t nowNs() const override { return now_ns_; }
    std::int64_t endNs() const { return end_ns_; }
    RunLayout layout() const override;

private:
    struct Event {
        std::int64_t t_ns = 0;
        bool is_round = false;
        PhaseEvent phase;
        int round = -1;
    };
    void onTimer();

    Record record_;
    std::string spec_;
    std::vector<Interval> samples_;
    std::vector<Event> events_;  // in time order
    std::shared_ptr<SampleStore> store_;
    std::size_t next_sample_ = 0, next_event_ = 0;
    std::int64_t origin_ns_ = 0, now_ns_ = 0, end_ns_ = 0;
    double speed_ = 1.0;
    bool done_ = false;
    QTimer timer_;
    QElapsedTimer wall_;
};

}  // namespace jb
