#include "RecordExtras.h"

#include <jb/base/JsonReader.h>
#include <jb/record/RecordJson.h>

namespace jb {

namespace {

constexpr const char* kStartedAt = "started_at";
constexpr const char* kWarnings = "warnings";
constexpr const char* kAlignedCuts = "aligned_cuts";
constexpr const char* kInterleaved = "interleaved";
constexpr const char* kWarmupRounds = "warmup_rounds";
constexpr const char* kIntegrity = "integrity";

using namespace jsonread;

InterleavedInfo readInterleaved(const ojson& j, const std::string& path)
{
    asObject(j, path);
    InterleavedInfo in;
    in.name = asString(need(j, path, "name", "the child's name"), jsonPathKey(path, "name"));
    in.index = asSmallInt(need(j, path, "index", "the child's index"), jsonPathKey(path, "index"));
    in.children = asStrings(need(j, path, "children", "the children's names"), jsonPathKey(path, "children"));
    if (const ojson* w = member(j, "warmup_blocks"))
        in.warmup_blocks = asSmallInt(*w, jsonPathKey(path, "warmup_blocks"));
    if (const ojson* s = member(j, "order_seed"))
        in.order_seed = std::uint64_t(asIntAtLeast(*s, jsonPathKey(path, "order_seed"), 0));
    if (const ojson* d = member(j, "dropped")) {
        const std::string dp = jsonPathKey(path, "dropped");
        asObject(*d, dp);
        in.dropped = DroppedChild{asSmallInt(need(*d, dp, "block", "the block it was dropped at"), jsonPathKey(dp, "block")),
                                  asString(need(*d, dp, "reason", "why it was dropped"), jsonPathKey(dp, "reason"))};
    }
    return in;
}

ojson interleavedJson(const InterleavedInfo& in)
{
    ojson j;
    j["name"] = in.name;
    j["index"] = in.index;
    j["children"] = in.children;
    j["warmup_blocks"] = in.warmup_blocks;
    j["order_seed"] = in.order_seed;
    if (in.dropped)
        j["dropped"] = {{"block", in.dropped->block}, {"reason", in.dropped->reason}};
    return j;
}

IdleDrift readDrift(const ojson& j, const std::string& path)
{
    asObject(j, path);
    IdleDrift d;
    d.flagged = asBool(need(j, path, "idle_drift", "whether the idle power drifted"), jsonPathKey(path, "idle_drift"));
    d.drift_w = asNumber(need(j, path, "drift_w", "the drift in W"), jsonPathKey(path, "drift_w"));
    d.noise_w = asNumber(need(j, path, "noise_w", "the idle noise in W"), jsonPathKey(path, "noise_w"));
    return d;
}

}  // namespace

Result<RecordExtras> readExtras(const Record& r)
{
    return readJson({}, [&] {
        RecordExtras x;
        const ojson& e = r.extra;
        if (!e.is_object())
            return x;
        if (const ojson* s = member(e, kStartedAt))
            x.started_at = asString(*s, jsonPathKey("$", kStartedAt));
        if (const ojson* w = member(e, kWarnings))
            x.warnings = asStrings(*w, jsonPathKey("$", kWarnings));
        if (const ojson* a = member(e, kAlignedCuts))
            x.aligned_cuts = asStrings(*a, jsonPathKey("$", kAlignedCuts));
        if (const ojson* in = member(e, kInterleaved))
            x.interleaved = readInterleaved(*in, jsonPathKey("$", kInterleaved));
        if (const ojson* w = member(e, kWarmupRounds)) {
            const std::string path = jsonPathKey("$", kWarmupRounds);
            std::vector<Round> rounds;
            std::size_t i = 0;
            for (const ojson& rj : asArray(*w, path, "an array of rounds")) {
                auto round = roundFromJson(rj, r.counters, jsonPathIndex(path, i++));
                if (!round)
                    throw JsonReadError{round.error()};
                rounds.push_back(std::move(round.value()));
            }
            x.warmup_rounds = std::move(rounds);
        }
        return x;
    });
}

void setStartedAt(Record& r, const std::string& iso)
{
    r.extra[kStartedAt] = iso;
}

void setWarnings(Record& r, const std::vector<std::string>& warnings)
{
    if (warnings.empty())
        r.extra.erase(kWarnings);
    else
        r.extra[kWarnings] = warnings;
}

void setAlignedCuts(Record& r, const std::vector<std::string>& specs)
{
    if (specs.empty())
        r.extra.erase(kAlignedCuts);
    else
        r.extra[kAlignedCuts] = specs;
}

void setInterleaved(Record& r, const InterleavedInfo& info)
{
    r.extra[kInterleaved] = interleavedJson(info);
}

void setWarmupRounds(Record& r, const std::vector<Round>& rounds)
{
    ojson a = ojson::array();
    for (const Round& w : rounds)
        a.push_back(roundToJson(w));
    r.extra[kWarmupRounds] = std::move(a);
}

Result<RoundIntegrity> readIntegrity(const Round& round, const std::string& path)
{
    return readJson({}, [&] {
        RoundIntegrity out;
        const ojson* i = round.extra.is_object() ? member(round.extra, kIntegrity) : nullptr;
        if (!i)
            return out;
        const std::string ip = jsonPathKey(path, kIntegrity);
        for (const auto& [spec, d] : asObject(*i, ip).items())
            out.emplace_back(spec, readDrift(d, jsonPathKey(ip, spec)));
        return out;
    });
}

void setIntegrity(Round& round, const std::string& spec, const IdleDrift& drift)
{
    if (!round.extra.contains(kIntegrity))
        round.extra[kIntegrity] = ojson::object();
    round.extra[kIntegrity][spec] = idleDriftJson(drift);
}

bool hasIntegrity(const Round& round)
{
    return round.extra.is_object() && round.extra.contains(kIntegrity);
}

}  // namespace jb
