#pragma once
// The run whose noise the Noise lab shows, as values: a live one (fed by a SimSource's or a
// RunController's signals) or a record's counter. Its samples, phases and rounds, the moment
// the idle noise last changed, and what the page draws from them. No widgets: tested alone.
#include "chart/PowerChart.h"
#include "common/RunTimeline.h"
#include "noise/IdleNoise.h"
#include "noise/NoiseCharts.h"
#include "noise/RecordNoise.h"
#include "record/Record.h"
#include "session/Session.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class SampleStore;

class NoiseRun {
public:
    // A lecture makes many rounds; the page keeps the newest.
    static constexpr std::size_t kKeepRounds = 500;

    void beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store, std::string spec,
                   double period_s);
    // A record's counter: its samples (where kept), brackets and windows, rounds. period_s: the
    // counter's sample period.
    void showRecord(const Record& r, std::string spec, double period_s);

    void apply(const PhaseEvent& e);
    void addRound(int index, const Round& r);
    // The idle power or its noise changed at t_ns: brackets before it describe other settings.
    void setNoiseSince(std::int64_t t_ns) { noise_since_ns_ = t_ns; }

    // The idle noise of the newest max_brackets live brackets since the last change (the open
    // one included); none before a bracket holds two intervals.
    std::optional<RecordNoise> liveNoise(int max_brackets) const;
    // Median marginal W of the newest last_n rounds with one.
    std::optional<double> medianMarginalW(int last_n) const;
    double medianWindowS() const;  // 0 without rounds
    // The newest last_n rounds' verdicts (none: no ratio), oldest first.
    std::vector<std::optional<std::string>> verdicts(int last_n) const;
    // The newest last_n rounds with a marginal power, numbered from 1 as people count.
    std::vector<RoundPoint> roundPoints(int last_n) const;
    std::vector<ChartShade> shades() const;
    std::vector<ChartBand> bands(std::int64_t newest_ns) const;

    const std::string& spec() const { return spec_; }
    double periodS() const { return period_s_; }
    std::int64_t originNs() const { return origin_ns_; }
    const std::shared_ptr<const SampleStore>& store() const { return store_; }
    const std::vector<Round>& rounds() const { return rounds_; }
    int roundNumber(std::size_t i) const { return first_round_index_ + int(i) + 1; }
    const std::optional<PhaseEvent>& lastPhase() const { return last_phase_; }
    std::int64_t noiseSinceNs() const { return noise_since_ns_; }
    const std::vector<IdleSpan>& idleSpans() const { return idle_spans_; }

private:
    std::string spec_;
    double period_s_ = 0.1;
    std::shared_ptr<const SampleStore> store_;
    std::int64_t origin_ns_ = 0;
    RunTimeline timeline_;
    std::vector<IdleSpan> idle_spans_;
    std::vector<Round> rounds_;
    int first_round_index_ = 0;  // rounds_[0]'s index in the run
    std::int64_t noise_since_ns_ = 0;
    std::optional<PhaseEvent> last_phase_;
};

}  // namespace jb
