#pragma once
// The JSON record as values: every key the reference harness writes (same order, meaning,
// units and types) plus JouleBench's additions, which are only ever new keys.
// RecordJson.h turns it into JSON and back (errors name the JSON path).
#include <jb/base/Interval.h>
#include <jb/stats/Phases.h>
#include <jb/stats/Statistics.h>

#include <nlohmann/json.hpp>

#include <QMetaType>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

using ojson = nlohmann::ordered_json;

// Per-round GPU-time share of the child (ioreport-gpu), as the reference.
struct GpuTime {
    std::int64_t child_ns = 0;
    std::int64_t all_clients_ns = 0;
    std::optional<double> share;
    std::vector<std::int64_t> vanished;  // pids present before the round and gone after
};

struct Round {
    std::array<double, 3> load_avg_before{};
    std::int64_t decodes = 0;
    std::int64_t child_wall_ns = 0;
    std::int64_t window_ns = 0;
    std::optional<std::string> child_note;
    std::array<double, 3> load_avg_after{};
    // `task`: per-round deltas of the child's own counters, keys as the reference
    // (energy_nj, cpu_ns, billed_nj, serviced_nj on macOS; cpu_ns alone on Linux).
    std::optional<ojson> task;
    std::optional<GpuTime> gpu_time;
    // One entry per whole-device counter, in the order of the record's `counters`.
    std::vector<std::pair<std::string, CounterRound>> counters;

    // JouleBench additions.
    std::optional<std::array<std::int64_t, 2>> window;                   // [t0_ns, t1_ns] of the busy window
    std::optional<std::array<std::array<std::int64_t, 2>, 2>> brackets;  // idle before, after
    // Phases (the child's `mark` lines, child/Protocol.h): the busy window's spans as marked,
    // and per whole-device counter each phase's figures (stats/PhaseEnergy.h). Empty for a child
    // that sent no marks: the round is written as before.
    std::vector<MarkSpan> marks;
    std::vector<std::pair<std::string, std::vector<PhaseFigure>>> phase_energy;

    // Round keys beyond the fields above, kept as they were (written last): JouleBench's own
    // integrity check (read and set through record/RecordExtras) and keys nobody here knows.
    ojson extra = ojson::object();

    const CounterRound* counter(const std::string& spec) const
    {
        for (const auto& [k, v] : counters)
            if (k == spec)
                return &v;
        return nullptr;
    }
};

struct Host {
    std::string system;
    std::string machine;
    std::int64_t node_cpu = 0;
    // The reference writes null where os.cpu_count() could not tell; kept so it reads back null.
    bool node_cpu_unknown = false;
    ojson extra = ojson::object();  // host keys the reference does not write, kept as they were
};

// The sampler's own figures for one counter over the run.
struct SamplerFigures {
    double period_s = 0;
    std::int64_t intervals = 0;
    std::int64_t lateness_p50_ns = 0;
    std::int64_t lateness_p99_ns = 0;
    std::int64_t lateness_max_ns = 0;
    std::int64_t missed_deadlines = 0;  // reads that came after the next one was due
    std::int64_t read_errors = 0;
    std::optional<std::string> last_error;
    std::optional<double> update_cadence_ms;  // median time between counter changes
};

struct Record {
    // Reference keys, in the reference's order.
    std::optional<std::string> label;  // null where no --label was given
    ojson meta = ojson::object();
    std::vector<Round> rounds;
    std::int64_t jobs = 0;
    std::int64_t k = 1;
    std::vector<std::string> counters;  // every --counter as given, task included
    double idle_s = 5.0;
    double sample_s = 0.1;
    Host host;
    std::vector<std::string> child;

    // JouleBench additions (absent in the reference's records).
    std::optional<std::pair<std::string, std::string>> tool;  // name, version
    std::optional<std::string> status;                        // "complete" or "aborted"
    std::optional<std::string> error;                         // why it aborted
    std::vector<std::pair<std::string, ojson>> counter_info;  // spec -> counter's own facts
    std::vector<std::pair<std::string, SamplerFigures>> sampler;
    std::vector<std::pair<std::string, std::vector<Interval>>> samples;  // raw intervals

    // Top-level keys beyond the fields above, kept in their place: JouleBench's own (start time,
    // warnings, interleaving, warm-up rounds: read and set through record/RecordExtras; the
    // counters' profiles, phases and exec) and keys nobody here knows.
    ojson extra = ojson::object();

    // The `summary` key as it was read from a file. Never written back (toJson computes the
    // summary afresh with summaryOf); `verify` compares the two.
    std::optional<ojson> loaded_summary;
    // The same for `phase_summary` (written where a round has marks).
    std::optional<ojson> loaded_phase_summary;

    // The whole-device counters that have per-round figures (rounds' counter keys).
    std::vector<std::string> wholeDeviceCounters() const;
    const std::vector<Interval>* samplesOf(const std::string& spec) const;
    bool isAborted() const { return status && *status == "aborted"; }
    bool hasPhases() const;  // some round has marks
};

// Summary of one counter over the record's rounds (computed, never stored as truth).
CounterSummary summaryOf(const Record& r, const std::string& spec);
// One counter's phases over the record's rounds (their stored phase_energy figures).
std::vector<PhaseSummary> phaseSummaryOf(const Record& r, const std::string& spec);
// The same per workload of an interleaved run: workload_of_round[i] is round i's workload (a
// round past its end, or marked -1, belongs to none); one summary per workload, 0..workloads-1.
std::vector<CounterSummary> summariesByWorkload(const Record& r, const std::string& spec,
                                                const std::vector<int>& workload_of_round, int workloads);

}  // namespace jb

// Rounds and records cross threads in queued signals (Session, RunSource).
Q_DECLARE_METATYPE(jb::Round)
Q_DECLARE_METATYPE(jb::Record)
Q_DECLARE_METATYPE(std::vector<jb::Record>)
