#pragma once
// RunState: a run as values, folded from a RunSource's events (or read from a record): its
// phases on the time axis (idle brackets, busy windows), its rounds, the idle noise measured
// since the last change, and the figures a page draws from them. No widgets, no chart types:
// a page turns the spans and bands into its own shading (ui/common/RunShading).
#include <jb/live/RunSource.h>
#include <jb/noise/IdleNoise.h>
#include <jb/noise/RecordNoise.h>
#include <jb/record/Record.h>
#include <jb/session/PhaseEvent.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class SampleStore;

// One phase of the run on its time axis.
struct RunSpan {
    enum Kind { Idle, Busy };
    Kind kind = Idle;
    // Busy: its round (0-based). Idle: the round it follows (-1: the bracket before round 0).
    int round = -1;
    std::int64_t t0_ns = 0;
    std::optional<std::int64_t> t1_ns;  // none while it lasts
};

// An idle bracket's mean power and sd over [t0, t1] (t1: the newest sample while it lasts).
struct IdleBand {
    std::int64_t t0_ns = 0, t1_ns = 0;
    double mean_w = 0, sd_w = 0;
};

// One span of a phase the child marked (`mark NAME`, Round::marks) on the run's time axis.
struct PhaseSpan {
    int round = 0;  // 0-based
    std::string name;
    std::int64_t t0_ns = 0;
    std::optional<std::int64_t> t1_ns;  // none while it lasts
};

// A round's marginal power, numbered as people count (from 1).
struct RoundPoint {
    int round = 0;
    double marginal_w = 0;
    std::optional<Verdict> verdict;
};

class RunState {
public:
    // A lecture makes many rounds; the figures keep the newest.
    static constexpr std::size_t kKeepRounds = 500;

    void clear() { *this = RunState{}; }
    // A live run of one counter (the one the noise figures are about).
    void beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store, std::string spec,
                   double period_s);
    // A record's counter: its samples (where kept), brackets and windows, rounds. period_s: the
    // counter's sample period.
    void showRecord(const Record& r, std::string spec, double period_s);
    // Spans from the rounds' `brackets` and `window` (JouleBench additions; a reference record
    // has none, and then no spans), and the rounds.
    static RunState fromRecord(const Record& r);

    // The events, as a RunSource emits them.
    void apply(const PhaseEvent& e);
    void addRound(int index, const Round& r);
    // A round's final figures (the session's record): for the spans only, not the kept rounds.
    void setRound(int index, const Round& r);
    // The child marked a phase boundary in round `round` at t_ns (RunSource::phaseMarked): the
    // open phase ends there and `name` opens (empty: `mark -`, none opens). The end of the busy
    // window ends the open one too; a round's final figures (setRound) bring its marks as the
    // session recorded them, which replace the live ones.
    void applyMark(int round, const std::string& name, std::int64_t t_ns);
    const std::vector<PhaseSpan>& phaseSpans() const { return phase_spans_; }
    // The phases' names in order of first appearance (what gives each its colour).
    std::vector<std::string> phaseNames() const;

    // The idle power or its noise changed at t_ns: brackets before it describe other settings.
    void setNoiseSince(std::int64_t t_ns) { noise_since_ns_ = t_ns; }

    const std::vector<RunSpan>& spans() const { return spans_; }
    std::optional<std::int64_t> firstNs() const;
    const Round* roundAt(int index) const;  // from the spans' rounds (every round so far)

    // Idle mean +/- sd per idle bracket for one counter: the rounds' own figures where the round
    // is done, else `compute(t0_ns, t1_ns)` over the samples (t1 INT64_MAX while it lasts).
    using BracketFn = std::function<std::optional<Bracket>(std::int64_t, std::int64_t)>;
    std::vector<IdleBand> idleBands(const std::string& spec, std::int64_t newest_ns,
                                    const BracketFn& compute) const;
    // The same for this run's counter, computed over its store.
    std::vector<IdleBand> idleBands(std::int64_t newest_ns) const;

    // The idle noise of the newest max_brackets live brackets since the last change (the open
    // one included); none before a bracket holds two intervals.
    std::optional<RecordNoise> liveNoise(int max_brackets) const;
    // Median marginal W of the newest last_n rounds with one.
    std::optional<double> medianMarginalW(int last_n) const;
    double medianWindowS() const;  // 0 without rounds
    // The newest last_n rounds' verdicts (none: no ratio), oldest first.
    std::vector<std::optional<Verdict>> verdicts(int last_n) const;
    // The newest last_n rounds with a marginal power.
    std::vector<RoundPoint> roundPoints(int last_n) const;

    const std::string& spec() const { return spec_; }
    double periodS() const { return period_s_; }
    std::int64_t originNs() const { return origin_ns_; }
    const std::shared_ptr<const SampleStore>& store() const { return store_; }
    const std::vector<Round>& rounds() const { return rounds_; }  // the newest kKeepRounds
    int roundNumber(std::size_t i) const { return first_round_index_ + int(i) + 1; }
    const std::optional<PhaseEvent>& lastPhase() const { return last_phase_; }
    std::int64_t noiseSinceNs() const { return noise_since_ns_; }
    const std::vector<IdleSpan>& idleSpans() const { return idle_spans_; }

    // Several workloads in one run (interleaved): their names and, per round of the run, the
    // workload it ran (LiveComparison::childOfRound). Kept until clear().
    void setWorkloads(std::vector<std::string> names, std::vector<int> workload_of_round);
    int workloadOfRound(int round) const;  // -1: one workload, or past the plan
    const std::vector<std::string>& workloads() const { return workloads_; }

private:
    std::optional<Bracket> idleFigure(const std::string& spec, int follows_round) const;

    std::string spec_;
    double period_s_ = 0.1;
    std::shared_ptr<const SampleStore> store_;
    std::int64_t origin_ns_ = 0;
    std::vector<RunSpan> spans_;
    std::vector<PhaseSpan> phase_spans_;
    void setMarks(int round, const std::vector<MarkSpan>& marks);
    std::map<int, Round> span_rounds_;  // every round, for the spans' figures
    std::vector<IdleSpan> idle_spans_;
    std::vector<Round> rounds_;
    int first_round_index_ = 0;  // rounds_[0]'s index in the run
    std::int64_t noise_since_ns_ = 0;
    std::optional<PhaseEvent> last_phase_;
    std::vector<std::string> workloads_;
    std::vector<int> workload_of_round_;
};

}  // namespace jb
