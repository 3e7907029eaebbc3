#pragma once
// Recompute a saved record's per-round figures from its raw samples, with the very code the
// live session uses (jb::counterRound over the slices jb::between / jb::covering choose), and
// list every stored figure that disagrees, by JSON path.
//
// With the figures, each round's idle drift (its integrity.<spec>: stats/SessionChecks' idleDrift
// of the recomputed brackets) where the record keeps it. The mirrored-counter check is not
// recomputed: it reads the counters back to back before the first round, and the record keeps
// those reads nowhere (a run it refused writes no rounds).
//
// Only JouleBench records written with samples can be checked: a round needs its `window`
// and `brackets` (the times its slices were cut at) and the counter its `samples`. A record
// without them gets a report that says it cannot be verified and why; that is not an error.
#include <jb/record/Record.h>

#include <string>
#include <vector>

namespace jb {

struct Disagreement {
    std::string path;        // e.g. $.rounds[2].rapl.busy.mean_w
    std::string stored;      // JSON text of the stored value, "missing" where the key is absent
    std::string recomputed;  // JSON text of the recomputed value, "missing" likewise
};

struct VerifyReport {
    bool verifiable = false;
    std::string why_not;             // set when !verifiable
    std::vector<std::string> notes;  // parts that could not be checked, and why
    int rounds_checked = 0;          // rounds with at least one counter recomputed
    int counters_checked = 0;        // (round, counter) pairs recomputed
    int figures_checked = 0;         // leaf values compared
    std::vector<Disagreement> disagreements;

    bool agrees() const { return verifiable && disagreements.empty(); }
};

// Floats agree within this relative difference, integers, strings and nulls exactly.
inline constexpr double kVerifyRelTolerance = 1e-9;

VerifyReport verifyRecord(const Record& r);

// Compares a stored JSON value with its recomputation leaf by leaf (floats within
// kVerifyRelTolerance), adding to rep's figures_checked and disagreements by path; null
// pointers stand for a missing key. For checks that live outside this library
// (stats/PhaseEnergy's verifyPhaseEnergy).
void compareFigures(const std::string& path, const ojson* stored, const ojson* recomputed, VerifyReport& rep);

// The tail an averaged counter's brackets waited out (the record's
// averaged_brackets.<spec>.tail_ms, in ns); 0 where none is named. Verify cuts with it
// (stats/RoundTimes), as the session did.
std::int64_t bracketTailNs(const Record& r, const std::string& spec);

}  // namespace jb
