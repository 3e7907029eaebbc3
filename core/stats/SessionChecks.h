#pragma once
// Two of the session's side rules as pure functions, so the live Session and `verify`
// (core/record/Verify) apply the same arithmetic:
//  - idle drift: a round's two idle brackets differ by more than their noise allows;
//  - mirrored counters: two counters read back to back over the first idle bracket advance
//    identically (one counter read twice), so their energies would be counted twice.
#include <jb/stats/Statistics.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// The brackets' mean powers differ (after minus before) by drift_w; noise_w is the standard
// error of that difference, sqrt(sd_b^2 / n_b + sd_a^2 / n_a). Flagged where |drift| exceeds
// 4 noise_w and 1 % of the larger idle power.
struct IdleDrift {
    double drift_w = 0.0;
    double noise_w = 0.0;
    bool flagged = false;
};
IdleDrift idleDrift(const Bracket& before, const Bracket& after);
// The round's integrity.<spec> object: {"idle_drift": flagged, "drift_w": ..., "noise_w": ...}.
nlohmann::ordered_json idleDriftJson(const IdleDrift& d);
// The warning for a flagged round (round as people count, from 1).
std::string idleDriftWarning(int round, const std::string& spec, const IdleDrift& d);

// Back-to-back reads of several counters: reads[t][c] is counter c's nJ at probe time t (every
// row as long as the first). Two counters are one counter read twice where at least 5 of the
// steps move either of them and 80 % of those steps advance both by the same nJ. Needs at least
// 6 rows; the first such pair (in column order), or none.
struct MirroredPair {
    std::size_t a = 0, b = 0;  // columns, a < b
    std::size_t same = 0;      // steps that advanced both alike
    std::size_t moved = 0;     // steps that advanced either
};
std::optional<MirroredPair> findMirroredPair(const std::vector<std::vector<std::int64_t>>& reads);

// What the session refuses the run with. spec_*: the counters read; owner_*: the --counter
// each was read for (the same owner: two zones of one sum, such as rapl:packages).
std::string mirroredCountersText(const MirroredPair& m, const std::string& spec_a, const std::string& owner_a,
                                 const std::string& spec_b, const std::string& owner_b);

}  // namespace jb
