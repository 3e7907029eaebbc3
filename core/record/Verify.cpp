#include <jb/record/Verify.h>

#include <jb/record/RecordExtras.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/RoundTimes.h>
#include <jb/stats/SessionChecks.h>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {

std::string text(const ojson* v)
{
    if (!v)
        return "missing";
    std::string s = dumpJson(*v, -1);
    if (s.size() > 80)
        s = s.substr(0, 77) + "...";
    return s;
}

bool closeEnough(double a, double b)
{
    if (a == b)
        return true;
    if (!std::isfinite(a) || !std::isfinite(b))
        return false;
    return std::abs(a - b) <= kVerifyRelTolerance * std::max(std::abs(a), std::abs(b));
}

bool leafAgrees(const ojson& s, const ojson& c)
{
    if (s.is_number() && c.is_number()) {
        if (s.is_number_integer() && c.is_number_integer())
            return s == c;  // signed and unsigned alike (a parsed 5 is unsigned)
        return closeEnough(s.get<double>(), c.get<double>());
    }
    return s == c;
}

// Walks the recomputed value and the stored one side by side; every leaf counts as a figure.
void compareJson(const std::string& path, const ojson* stored, const ojson* recomputed, VerifyReport& rep)
{
    auto flag = [&] { rep.disagreements.push_back({path, text(stored), text(recomputed)}); };
    if (!stored || !recomputed) {
        ++rep.figures_checked;
        flag();
        return;
    }
    if (stored->is_object() && recomputed->is_object()) {
        for (const auto& [k, v] : recomputed->items()) {
            const auto it = stored->find(k);
            compareJson(jsonPathKey(path, k), it == stored->end() ? nullptr : &*it, &v, rep);
        }
        for (const auto& [k, v] : stored->items())
            if (!recomputed->contains(k))
                compareJson(jsonPathKey(path, k), &v, nullptr, rep);
        return;
    }
    if (stored->is_array() && recomputed->is_array() && stored->size() == recomputed->size()) {
        for (std::size_t i = 0; i < stored->size(); ++i)
            compareJson(jsonPathIndex(path, i), &(*stored)[i], &(*recomputed)[i], rep);
        return;
    }
    ++rep.figures_checked;
    if (stored->is_structured() || recomputed->is_structured() || !leafAgrees(*stored, *recomputed))
        flag();
}

std::string roundList(const std::vector<std::size_t>& rounds)
{
    std::string s;
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        if (i == 10) {
            s += ", ... (" + std::to_string(rounds.size()) + " in all)";
            break;
        }
        s += (i ? ", " : "") + std::to_string(rounds[i]);
    }
    return s;
}

}  // namespace

std::int64_t bracketTailNs(const Record& r, const std::string& spec)
{
    const auto ab = r.extra.find("averaged_brackets");
    if (ab == r.extra.end() || !ab->is_object())
        return 0;
    const auto c = ab->find(spec);
    if (c == ab->end() || !c->is_object())
        return 0;
    const auto t = c->find("tail_ms");
    if (t == c->end() || !t->is_number())
        return 0;
    const double ms = t->get<double>();
    return std::isfinite(ms) && ms > 0 ? std::int64_t(std::llround(ms * 1e6)) : 0;
}

void compareFigures(const std::string& path, const ojson* stored, const ojson* recomputed, VerifyReport& rep)
{
    compareJson(path, stored, recomputed, rep);
}

VerifyReport verifyRecord(const Record& r)
{
    VerifyReport rep;
    if (r.samples.empty()) {
        rep.why_not =
            "the record holds no raw samples (it was written without --samples, or by the reference "
            "harness), so there is nothing to recompute its figures from";
        return rep;
    }

    std::vector<std::string> specs;  // counters whose samples can be sliced
    for (const auto& [spec, iv] : r.samples) {
        if (Status ok = checkIntervals(iv, jsonPathKey("$.samples", spec)); !ok) {
            rep.notes.push_back(spec + ": samples not usable, not checked: " + ok.error());
            continue;
        }
        specs.push_back(spec);
    }

    std::vector<std::string> aligned_cuts;
    if (auto x = readExtras(r))
        aligned_cuts = x->aligned_cuts;
    else
        rep.disagreements.push_back({"$", x.error(), "a record whose extras can be read"});
    std::vector<std::size_t> without_times;
    std::vector<std::string> without_samples;
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const Round& round = r.rounds[i];
        const std::string rp = jsonPathIndex("$.rounds", i);
        for (const auto& [spec, _] : round.counters)
            if (!r.samplesOf(spec) &&
                std::find(without_samples.begin(), without_samples.end(), spec) == without_samples.end())
                without_samples.push_back(spec);
        if (!round.window || !round.brackets) {
            without_times.push_back(i);
            continue;
        }
        const auto [t0, t1] = *round.window;
        const auto& br = *round.brackets;
        const ojson storedWindowNs = round.window_ns;
        const ojson windowNs = t1 - t0;
        compareJson(jsonPathKey(rp, "window_ns"), &storedWindowNs, &windowNs, rep);
        bool any = false;
        for (const std::string& spec : specs) {
            const std::vector<Interval>& all = *r.samplesOf(spec);
            const std::span<const Interval> s(all);
            // An averaged counter's brackets wait out its window (the record's averaged_brackets).
            const RoundTimes tt = roundTimes(t0, t1, br[0][0], br[0][1], br[1][0], br[1][1],
                                             bracketTailNs(r, spec));
            // A coarse counter's rounds were cut on its updates (the record's aligned_cuts).
            const bool aligned = std::find(aligned_cuts.begin(), aligned_cuts.end(), spec) != aligned_cuts.end();
            const CounterRound cr = roundFigures(s, tt, aligned);
            const ojson recomputed = counterRoundToJson(cr);
            const CounterRound* stored = round.counter(spec);
            const ojson storedJson = stored ? counterRoundToJson(*stored) : ojson();
            compareJson(jsonPathKey(rp, spec), stored ? &storedJson : nullptr, &recomputed, rep);
            // Idle drift (the round's integrity.<spec>), from the recomputed brackets, where the
            // record keeps the session's integrity figures (records from before it do not).
            if (hasIntegrity(round)) {
                const std::string ip = jsonPathKey(jsonPathKey(rp, "integrity"), spec);
                const ojson drift = cr.idle_before && cr.idle_after
                                        ? idleDriftJson(idleDrift(*cr.idle_before, *cr.idle_after))
                                        : ojson();
                const auto stored = readIntegrity(round, rp);
                if (!stored) {  // a check the record keeps but nobody can read: it disagrees
                    rep.disagreements.push_back({ip, stored.error(), text(drift.is_null() ? nullptr : &drift)});
                } else {
                    const IdleDrift* mine = nullptr;
                    for (const auto& [s, d] : *stored)
                        if (s == spec)
                            mine = &d;
                    const ojson st = mine ? idleDriftJson(*mine) : ojson();
                    if (mine || !drift.is_null())
                        compareJson(ip, mine ? &st : nullptr, drift.is_null() ? nullptr : &drift, rep);
                }
            }
            ++rep.counters_checked;
            any = true;
        }
        if (any)
            ++rep.rounds_checked;
    }
    if (!without_times.empty())
        rep.notes.push_back("round" + std::string(without_times.size() > 1 ? "s " : " ") +
                            roundList(without_times) +
                            " (0-based): no window or brackets stored, not checked");
    for (const std::string& spec : without_samples)
        rep.notes.push_back(spec + ": no samples in the record, its round figures were not checked");

    if (rep.counters_checked == 0) {
        rep.why_not = specs.empty() ? "none of the record's samples can be used"
            : r.rounds.empty()      ? "the record has no rounds"
                               : "no round stores the window and brackets its figures were cut at (a record "
                                 "written before JouleBench kept them, or by the reference harness)";
        return rep;
    }
    rep.verifiable = true;

    // The summary is derived from the round figures: check it too where the file had one.
    if (r.loaded_summary) {
        ojson recomputed = ojson::object();
        for (const std::string& spec : r.wholeDeviceCounters())
            recomputed[spec] = summaryToJson(summaryOf(r, spec));
        compareJson("$.summary", &*r.loaded_summary, &recomputed, rep);
    }
    return rep;
}

}  // namespace jb
