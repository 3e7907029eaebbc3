#pragma once
// One thread per whole-device counter, reading it on absolute deadlines: the k-th read is due
// at start + k x period, so the mean interval equals the period over any run length. Each
// interval goes to the sample store; the sampler keeps its own lateness, missed deadlines,
// read errors and the counter's observed update cadence. A read error is recorded and
// reported (onError), never a silent stop. On a simulated TimeSource (base/TimeSource.h) the
// reads run on that source's timers instead, on the thread that advances it, with the same
// deadlines and figures.
#include <jb/base/TimeSource.h>
#include <jb/counters/EnergyCounter.h>
#include <jb/record/Record.h>
#include <jb/sampling/SampleStore.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace jb {

class Sampler {
public:
    // period_ns > 0. The counter is owned by the sampler and read only on its thread (or, on
    // a simulated time source, inside that source's advance).
    Sampler(std::unique_ptr<EnergyCounter> counter, std::int64_t period_ns, TimeSource& time = realTime());
    ~Sampler();  // stops and joins
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    // Called on the sampler thread after a failed read (message names the file), at most once
    // per distinct message in a row. Set before start().
    void setErrorHandler(std::function<void(const std::string&)> onError);

    // Takes the first read now and starts the thread; an error if the first read fails.
    Status start();
    void stop();  // returns within one period
    bool running() const { return running_.load(); }

    const std::string& spec() const { return spec_; }
    EnergyCounter& counter() { return *counter_; }  // setWorkloadPid, info (thread-safe ones)
    nlohmann::ordered_json counterInfo() const;     // counter's info + observed cadence + integrity
    // The integrity checks over the run so far: read faults (a jump above the counter's
    // plausible ceiling, a step backwards without a wrap range), stalls (no advance for many
    // times the observed cadence after advancing), the counter's resolution (`resolution_nj`:
    // one unit of what it counts, 1 mJ for NVML energy; null for a power reading), the least
    // step seen (`least_step_nj`: the smallest advance, e.g. 80 W x 100 ms on an H200), and the
    // cadence warning where the period is shorter than the counter's update cadence.
    nlohmann::ordered_json integrity() const;
    // The least step of a record's integrity object: `least_step_nj`, or in a record written
    // before that key existed, `resolution_nj` (which then meant the least step). None where
    // neither is a number.
    static std::optional<double> leastStepNj(const nlohmann::ordered_json& integrity);
    // One unit of what the counter counts, in nJ, from its info (`resolution_nj` where the
    // counter names it, else its energy `unit`: nJ, uJ, mJ, J); none for a power reading.
    static std::optional<double> unitResolutionNj(const nlohmann::ordered_json& counter_info);
    // The same checks as sentences for the record's warnings (empty where all is well).
    std::vector<std::string> integrityWarnings() const;
    std::shared_ptr<const SampleStore> store() const { return store_; }
    std::int64_t periodNs() const { return period_ns_; }
    SamplerFigures figures() const;

private:
    void loop();
    // The k-th read (due at start_ns_ + k x period); advances k_ past deadlines missed.
    void readDue();

    TimeSource& time_;
    std::unique_ptr<OneShot> sim_timer_;  // a simulated source's reads
    // The read loop's state (its thread's, or the simulated timer's).
    std::int64_t prev_nj_ = 0, tp_ = 0, start_ns_ = 0, k_ = 0;
    std::string previous_error_;

    std::unique_ptr<EnergyCounter> counter_;
    std::string spec_;
    std::int64_t period_ns_;
    std::shared_ptr<SampleStore> store_;
    std::function<void(const std::string&)> on_error_;
    std::thread thread_;
    std::atomic<bool> running_{false};
    std::atomic<bool> stop_{false};
    std::mutex wake_mutex_;  // with wake_cv_: stop() wakes the thread at once
    std::condition_variable wake_cv_;

    mutable std::mutex fig_mutex_;  // guards the figures below
    std::vector<std::int64_t> lateness_ns_;
    std::int64_t missed_ = 0;
    std::int64_t read_errors_ = 0;
    std::string last_error_;
    std::vector<std::int64_t> change_times_ns_;  // when the counter's value changed
    std::int64_t read_faults_ = 0;               // reads excluded as impossible
    std::string last_fault_;
    std::int64_t min_advance_nj_ = 0;  // smallest positive advance (0: none yet)
    std::int64_t last_read_ns_ = 0;

    struct StallFigures {
        std::optional<double> cadence_ms;
        int stalls = 0;
        double longest_stall_ms = 0;
        bool stalled_at_end = false;
        double threshold_ms = 0;
    };
    StallFigures stallFigures() const;  // under fig_mutex_
    // A counter that never advanced over at least 10 intervals and 2 s (frozen, dead, or
    // publishing less often than the run lasts): the span in ms, else 0. Under fig_mutex_.
    double neverAdvancedMs() const;
};

}  // namespace jb
