#include <jb/stats/SessionChecks.h>

#include <algorithm>
#include <cmath>

namespace jb {

IdleDrift idleDrift(const Bracket& before, const Bracket& after)
{
    const Bracket& b = before;
    const Bracket& a = after;
    IdleDrift d;
    d.drift_w = a.mean_w - b.mean_w;
    d.noise_w = std::sqrt(b.sd_w * b.sd_w / std::max(b.intervals, 1) +
                          a.sd_w * a.sd_w / std::max(a.intervals, 1));
    d.flagged = std::abs(d.drift_w) > 4.0 * d.noise_w &&
        std::abs(d.drift_w) > 0.01 * std::max(std::abs(a.mean_w), std::abs(b.mean_w));
    return d;
}

nlohmann::ordered_json idleDriftJson(const IdleDrift& d)
{
    nlohmann::ordered_json j;
    j["idle_drift"] = d.flagged;
    j["drift_w"] = d.drift_w;
    j["noise_w"] = d.noise_w;
    return j;
}

std::string idleDriftWarning(int round, const std::string& spec, const IdleDrift& d)
{
    return "round " + std::to_string(round) + ": " + spec +
        ": idle drift: the idle power after the round differs from before by " + std::to_string(d.drift_w) +
        " W, more than the brackets' noise (" + std::to_string(d.noise_w) +
        " W) allows (a thermal or background change); its marginal energy is suspect";
}

std::optional<MirroredPair> findMirroredPair(const std::vector<std::vector<std::int64_t>>& reads)
{
    if (reads.size() < 6)
        return std::nullopt;
    const std::size_t n = reads.front().size();
    for (const auto& row : reads)
        if (row.size() != n)
            return std::nullopt;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            // Read microseconds apart, a mirror's advances agree to the microjoule; distinct
            // channels do not (their powers differ, and so does their noise).
            std::size_t moved = 0, same = 0;
            for (std::size_t k = 1; k < reads.size(); ++k) {
                const std::int64_t da = reads[k][i] - reads[k - 1][i];
                const std::int64_t db = reads[k][j] - reads[k - 1][j];
                if (da == 0 && db == 0)
                    continue;
                ++moved;
                same += da == db ? 1 : 0;
            }
            if (moved < 5 || double(same) < 0.8 * double(moved))
                continue;
            return MirroredPair{i, j, same, moved};
        }
    }
    return std::nullopt;
}

std::string mirroredCountersText(const MirroredPair& m, const std::string& spec_a, const std::string& owner_a,
                                 const std::string& spec_b, const std::string& owner_b)
{
    const std::string how = " advanced identically over the first idle bracket (" + std::to_string(m.same) +
        " of " + std::to_string(m.moved) + " back-to-back reads the same)";
    if (owner_a == owner_b)
        return "--counter " + owner_a + " sums " + spec_a + " and " + spec_b + ", which" + how +
            ": they are one counter read twice (a per-die mirror), so the sum would count its energy "
            "twice; measure --counter " +
            spec_a + " instead";
    return "--counter " + owner_a + " and --counter " + owner_b + how +
        ": they read one counter twice (a mirrored channel), so their energies would be counted twice; "
        "keep " +
        owner_a + " and drop " + owner_b;
}

}  // namespace jb
