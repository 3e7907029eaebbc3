#pragma once
// Per-phase energy of a record's rounds: the pure arithmetic of stats/Phases.h over a counter's
// samples, with the counter's limits (stats/CounterResolution's phaseLimit: a phase shorter
// than kPhaseUpdates counter updates, or short against an averaging window, gets its reason in
// too_short and no figure). The session fills a finished run's rounds with it, `verify`
// recomputes it from the record's samples, `summary` and the Inspector show it.
#include <jb/record/Record.h>
#include <jb/record/Verify.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace jb {

// Round `round`'s phases on counter `spec` from that counter's samples (time-sorted, contiguous;
// at least those covering the round's marks). idle_w: the round's idle brackets on the counter.
std::vector<PhaseFigure> phaseEnergy(const Record& r, std::size_t round, const std::string& spec,
                                     std::span<const Interval> samples);

// Every round with marks gets its phase_energy, one entry per counter that has samples here
// (in `samples` order). Rounds without marks are left as they are.
void fillPhaseEnergy(Record& r, const std::vector<std::pair<std::string, std::vector<Interval>>>& samples);

// verify's part for phases: each round's phase_energy recomputed from the record's samples and
// compared by path ($.rounds[2].phase_energy.rapl[0].marginal_j), and the phase_summary from the
// stored figures. Adds to rep (its figures_checked and disagreements); a record without marks
// is left alone.
void verifyPhaseEnergy(const Record& r, VerifyReport& rep);

// verifyRecord and verifyPhaseEnergy together: what `verify` and the Inspector report.
VerifyReport verifyRecordWithPhases(const Record& r);

}  // namespace jb
