#pragma once
// characterize's live feed (Characterize.h: CharacterizeFeed) folded for a view: every read,
// pulse and burst coverage so far, the latest figures, and what the Noise lab's sensor view
// draws of them while the measurement runs (as core/noise/SensorFigures, the shape a saved
// profile is drawn in): the reading's apparent power around the first long load, as a share of
// the step, against the load's edges; each measured burst's coverage at its phase (the time
// since the counter's last new value before it); the figures so far in words. Widget-free;
// the view only paints.
#include <jb/noise/SensorFigures.h>
#include <jb/profile/Characterize.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jb {

class CharacterizeLive {
public:
    void add(const CharacterizeFeed& f);
    void clear() { *this = CharacterizeLive{}; }

    CharacterizePhase phase() const { return figures_.phase; }
    const std::vector<std::pair<std::int64_t, std::int64_t>>& reads() const { return reads_; }
    const std::vector<Pulse>& steps() const { return steps_; }
    const std::vector<Pulse>& bursts() const { return bursts_; }
    const std::vector<std::pair<int, double>>& coverage() const { return coverage_; }
    // The latest figures (its reads, pulses and coverage lists are empty).
    const CharacterizeFeed& figures() const { return figures_; }
    int feeds() const { return feeds_; }

    // The sensor view's charts and lines so far. Its reading is empty until the first long
    // load has ended; its bursts until the first burst is measured.
    SensorFigures sensorFigures(const std::string& spec) const;
    // The figures so far in words, one a line (the phase first).
    std::vector<std::string> lines() const;

private:
    std::vector<std::pair<std::int64_t, std::int64_t>> reads_;
    std::vector<Pulse> steps_, bursts_;
    std::vector<std::pair<int, double>> coverage_;
    CharacterizeFeed figures_;
    int feeds_ = 0;
};

}  // namespace jb
