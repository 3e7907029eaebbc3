#include <jb/record/RecordJson.h>

#include <jb/record/RecordLoad.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace jb {

namespace {

// ---------------------------------------------------------------- writing

ojson pair64(std::int64_t a, std::int64_t b)
{
    return ojson::array({a, b});
}

ojson triple(const std::array<double, 3>& v)
{
    return ojson::array({v[0], v[1], v[2]});
}

ojson gpuTimeToJson(const GpuTime& g)
{
    ojson o = ojson::object();
    o["child_ns"] = g.child_ns;
    o["all_clients_ns"] = g.all_clients_ns;
    o["share"] = g.share ? ojson(*g.share) : ojson(nullptr);
    o["vanished"] = g.vanished;
    return o;
}

// ---------------------------------------------------------------- reading

// The typed reads (asInt, need, ...) and their wording: base/JsonReader.h.
using namespace jsonread;

std::array<double, 3> asTriple(const ojson& v, const std::string& path)
{
    if (!v.is_array() || v.size() != 3)
        wrongType(v, path, "an array of 3 numbers");
    return {asNumber(v[0], jsonPathIndex(path, 0)), asNumber(v[1], jsonPathIndex(path, 1)),
            asNumber(v[2], jsonPathIndex(path, 2))};
}

// [t0_ns, t1_ns] with t1_ns >= t0_ns.
std::array<std::int64_t, 2> asSpan(const ojson& v, const std::string& path)
{
    if (!v.is_array() || v.size() != 2)
        wrongType(v, path, "an array [t0_ns, t1_ns] of 2 integers");
    const std::array<std::int64_t, 2> s{asInt(v[0], jsonPathIndex(path, 0)),
                                        asInt(v[1], jsonPathIndex(path, 1))};
    if (s[1] < s[0])
        jsonFail(path, "ends (" + std::to_string(s[1]) + ") before it starts (" + std::to_string(s[0]) + ")");
    return s;
}

std::optional<Bracket> readBracket(const ojson& v, const std::string& path)
{
    if (v.is_null())
        return std::nullopt;
    if (!v.is_object())
        wrongType(v, path, "an object or null");
    Bracket b;
    b.intervals = asSmallInt(need(v, path, "intervals", "an integer"), jsonPathKey(path, "intervals"));
    b.advanced = asSmallInt(need(v, path, "advanced", "an integer"), jsonPathKey(path, "advanced"));
    b.longest_run = asSmallInt(need(v, path, "longest_run", "an integer"), jsonPathKey(path, "longest_run"));
    b.span_ns = asInt(need(v, path, "span_ns", "an integer"), jsonPathKey(path, "span_ns"));
    b.mean_w = asNumber(need(v, path, "mean_w", "a number"), jsonPathKey(path, "mean_w"));
    b.sd_w = asNumber(need(v, path, "sd_w", "a number"), jsonPathKey(path, "sd_w"));
    return b;
}

CounterRound readCounterRound(const ojson& v, const std::string& path)
{
    asObject(v, path);
    CounterRound c;
    c.busy = readBracket(need(v, path, "busy", "an object or null"), jsonPathKey(path, "busy"));
    c.idle_before = readBracket(need(v, path, "idle_before", "an object or null"),
                                jsonPathKey(path, "idle_before"));
    c.idle_after = readBracket(need(v, path, "idle_after", "an object or null"),
                               jsonPathKey(path, "idle_after"));
    const ojson& wnj = need(v, path, "window_nj", "an integer");
    // The reference sums nJ as the counter gives them; a rail counted in pJ gives a fraction.
    // The record keeps whole nanojoules.
    if (wnj.is_number_float() && std::isfinite(wnj.get<double>()) && std::abs(wnj.get<double>()) < 9e18)
        c.window_nj = std::llround(wnj.get<double>());
    else
        c.window_nj = asInt(wnj, jsonPathKey(path, "window_nj"));
    c.covered_ns = asInt(need(v, path, "covered_ns", "an integer"), jsonPathKey(path, "covered_ns"));
    if (v.contains("marginal_nj")) {
        c.has_marginal = true;
        c.marginal_nj = asNumber(v["marginal_nj"], jsonPathKey(path, "marginal_nj"));
        c.ratio = asNumberOrNull(need(v, path, "ratio", "a number or null, written with marginal_nj"),
                                 jsonPathKey(path, "ratio"));
        const std::string vp = jsonPathKey(path, "verdict");
        const std::optional<std::string> word =
            asStringOrNull(need(v, path, "verdict", "a string or null, written with marginal_nj"), vp);
        if (word) {
            c.verdict = parseVerdict(*word);
            if (!c.verdict)
                wrongType(v["verdict"], vp, kVerdictExpected);
        }
    } else {
        for (const char* k : {"ratio", "verdict"})
            if (v.contains(k))
                jsonFail(jsonPathKey(path, k),
                     "present without \"marginal_nj\" (the three are written together)");
    }
    return c;
}

GpuTime readGpuTime(const ojson& v, const std::string& path)
{
    asObject(v, path);
    GpuTime g;
    g.child_ns = asInt(need(v, path, "child_ns", "an integer"), jsonPathKey(path, "child_ns"));
    g.all_clients_ns = asInt(need(v, path, "all_clients_ns", "an integer"),
                             jsonPathKey(path, "all_clients_ns"));
    g.share = asNumberOrNull(need(v, path, "share", "a number or null"), jsonPathKey(path, "share"));
    const std::string vp = jsonPathKey(path, "vanished");
    const ojson& van = need(v, path, "vanished", "an array of pids");
    if (!van.is_array())
        wrongType(van, vp, "an array of pids");
    for (std::size_t i = 0; i < van.size(); ++i)
        g.vanished.push_back(asInt(van[i], jsonPathIndex(vp, i)));
    return g;
}

std::vector<MarkSpan> readMarks(const ojson& v, const std::string& path)
{
    asArray(v, path, "an array of marks {\"name\", \"t0_ns\", \"t1_ns\"}");
    std::vector<MarkSpan> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string p = jsonPathIndex(path, i);
        const ojson& m = asObject(v[i], p);
        MarkSpan s;
        s.name = asString(need(m, p, "name", "a phase name"), jsonPathKey(p, "name"), true);
        s.t0_ns = asInt(need(m, p, "t0_ns", "an integer"), jsonPathKey(p, "t0_ns"));
        s.t1_ns = asInt(need(m, p, "t1_ns", "an integer"), jsonPathKey(p, "t1_ns"));
        if (s.t1_ns < s.t0_ns)
            jsonFail(p, "ends (" + std::to_string(s.t1_ns) + ") before it starts (" + std::to_string(s.t0_ns) + ")");
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<PhaseFigure> readPhaseFigures(const ojson& v, const std::string& path)
{
    asArray(v, path, "an array of phases");
    std::vector<PhaseFigure> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string p = jsonPathIndex(path, i);
        const ojson& m = asObject(v[i], p);
        PhaseFigure f;
        f.name = asString(need(m, p, "name", "a phase name"), jsonPathKey(p, "name"), true);
        f.passes = asSmallInt(need(m, p, "passes", "an integer"), jsonPathKey(p, "passes"));
        f.span_s = asNumberAtLeast(need(m, p, "span_s", "a number"), jsonPathKey(p, "span_s"), 0.0);
        f.energy_j = asNumberOrNull(need(m, p, "energy_j", "a number or null"), jsonPathKey(p, "energy_j"));
        f.marginal_j = asNumberOrNull(need(m, p, "marginal_j", "a number or null"), jsonPathKey(p, "marginal_j"));
        f.updates = asNumberOrNull(need(m, p, "updates", "a number or null"), jsonPathKey(p, "updates"));
        f.too_short = asStringOrNull(need(m, p, "too_short", "a string or null"), jsonPathKey(p, "too_short"));
        if (f.too_short && (f.energy_j || f.marginal_j))
            jsonFail(p, "a phase that is too short has no figure (energy_j and marginal_j are null)");
        out.push_back(std::move(f));
    }
    return out;
}

bool isKnownRoundKey(const std::string& k)
{
    static const std::set<std::string> kKnown{"load_avg_before", "decodes", "child_wall_ns", "window_ns",
                                              "child_note",      "task",    "gpu_time",      "load_avg_after",
                                              "window",          "brackets", "marks",        "phase_energy"};
    return kKnown.count(k) > 0;
}

Round readRound(const ojson& v, const std::vector<std::string>& counters, const std::string& path)
{
    asObject(v, path);
    Round r;
    r.load_avg_before = asTriple(need(v, path, "load_avg_before", "an array of 3 numbers"),
                                 jsonPathKey(path, "load_avg_before"));
    r.decodes = asInt(need(v, path, "decodes", "an integer"), jsonPathKey(path, "decodes"));
    r.child_wall_ns = asInt(need(v, path, "child_wall_ns", "an integer"), jsonPathKey(path, "child_wall_ns"));
    r.window_ns = asInt(need(v, path, "window_ns", "an integer"), jsonPathKey(path, "window_ns"));
    if (v.contains("child_note"))
        r.child_note = asString(v["child_note"], jsonPathKey(path, "child_note"));
    if (v.contains("task"))
        r.task = asObject(v["task"], jsonPathKey(path, "task"));
    if (v.contains("gpu_time"))
        r.gpu_time = readGpuTime(v["gpu_time"], jsonPathKey(path, "gpu_time"));
    r.load_avg_after = asTriple(need(v, path, "load_avg_after", "an array of 3 numbers"),
                                jsonPathKey(path, "load_avg_after"));
    if (v.contains("window"))
        r.window = asSpan(v["window"], jsonPathKey(path, "window"));
    if (v.contains("brackets")) {
        const std::string bp = jsonPathKey(path, "brackets");
        const ojson& b = v["brackets"];
        if (!b.is_array() || b.size() != 2)
            wrongType(b, bp, "an array of 2 brackets [t0_ns, t1_ns] (idle before, idle after)");
        r.brackets = std::array<std::array<std::int64_t, 2>, 2>{asSpan(b[0], jsonPathIndex(bp, 0)),
                                                                asSpan(b[1], jsonPathIndex(bp, 1))};
    }
    if (v.contains("marks"))
        r.marks = readMarks(v["marks"], jsonPathKey(path, "marks"));
    if (v.contains("phase_energy")) {
        const std::string pp = jsonPathKey(path, "phase_energy");
        for (const auto& [spec, f] : asObject(v["phase_energy"], pp).items())
            r.phase_energy.emplace_back(spec, readPhaseFigures(f, jsonPathKey(pp, spec)));
    }
    for (const auto& [k, val] : v.items()) {
        if (isKnownRoundKey(k))
            continue;
        const bool named = std::find(counters.begin(), counters.end(), k) != counters.end();
        // A counter missing from "counters" still shows by its shape.
        const bool shaped = val.is_object() && val.contains("window_nj") && val.contains("busy");
        if (named || shaped)
            r.counters.emplace_back(k, readCounterRound(val, jsonPathKey(path, k)));
        else
            r.extra[k] = val;
    }
    return r;
}

std::vector<Interval> readIntervals(const ojson& v, const std::string& path)
{
    asObject(v, path);
    const char* cols[3] = {"t0_ns", "t1_ns", "nj"};
    for (const char* c : cols) {
        const ojson& col = need(v, path, c, "an array of integers");
        if (!col.is_array())
            wrongType(col, jsonPathKey(path, c), "an array of integers");
    }
    const ojson& t0 = v["t0_ns"];
    const ojson& t1 = v["t1_ns"];
    const ojson& nj = v["nj"];
    if (t0.size() != t1.size() || t0.size() != nj.size())
        jsonFail(path,
             "the columns differ in length (t0_ns " + std::to_string(t0.size()) + ", t1_ns " +
                 std::to_string(t1.size()) + ", nj " + std::to_string(nj.size()) + ")");
    std::vector<Interval> out(t0.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].t0_ns = asInt(t0[i], jsonPathIndex(jsonPathKey(path, "t0_ns"), i));
        out[i].t1_ns = asInt(t1[i], jsonPathIndex(jsonPathKey(path, "t1_ns"), i));
        out[i].nj = asInt(nj[i], jsonPathIndex(jsonPathKey(path, "nj"), i));
    }
    if (Status st = checkIntervals(out, path); !st)
        throw JsonReadError{st.error()};
    return out;
}

SamplerFigures readSampler(const ojson& v, const std::string& path)
{
    asObject(v, path);
    SamplerFigures s;
    auto i64 = [&](const char* k) { return asInt(need(v, path, k, "an integer"), jsonPathKey(path, k)); };
    s.period_s = asNumber(need(v, path, "period_s", "a number"), jsonPathKey(path, "period_s"));
    s.intervals = i64("intervals");
    s.lateness_p50_ns = i64("lateness_p50_ns");
    s.lateness_p99_ns = i64("lateness_p99_ns");
    s.lateness_max_ns = i64("lateness_max_ns");
    s.missed_deadlines = i64("missed_deadlines");
    s.read_errors = i64("read_errors");
    if (v.contains("last_error"))
        s.last_error = asStringOrNull(v["last_error"], jsonPathKey(path, "last_error"));
    if (v.contains("update_cadence_ms"))
        s.update_cadence_ms = asNumberOrNull(v["update_cadence_ms"], jsonPathKey(path, "update_cadence_ms"));
    return s;
}

std::string keyList(const ojson& obj)
{
    std::string s;
    int n = 0;
    for (const auto& [k, _] : obj.items()) {
        if (n == 8) {
            s += ", ...";
            break;
        }
        s += (n++ ? ", " : "") + k;
    }
    return s.empty() ? "none" : s;
}

Record readRecord(const ojson& j)
{
    if (!j.is_object())
        throw JsonReadError{"not a record: the top level is " + describe(j) + ", not a JSON object"};
    if (!j.contains("rounds") || !j.contains("counters"))
        throw JsonReadError{
            "not a record of JouleBench or of the reference harness: the top-level object has no "
            "\"rounds\" and \"counters\" keys (its keys: " +
            keyList(j) + ")"};
    const std::string root = "$";
    Record r;
    r.label = asStringOrNull(need(j, root, "label", "a string or null"), "$.label");
    r.meta = need(j, root, "meta", "any JSON value");
    r.counters = asStrings(j["counters"], "$.counters");
    const ojson& rounds = j["rounds"];
    if (!rounds.is_array())
        wrongType(rounds, "$.rounds", "an array of rounds");
    r.rounds.reserve(rounds.size());
    for (std::size_t i = 0; i < rounds.size(); ++i)
        r.rounds.push_back(readRound(rounds[i], r.counters, jsonPathIndex("$.rounds", i)));
    r.jobs = asInt(need(j, root, "jobs", "an integer"), "$.jobs");
    r.k = asInt(need(j, root, "k", "an integer"), "$.k");
    r.idle_s = asNumber(need(j, root, "idle_s", "a number"), "$.idle_s");
    r.sample_s = asNumber(need(j, root, "sample_s", "a number"), "$.sample_s");
    const ojson& host = asObject(need(j, root, "host", "an object"), "$.host");
    r.host.system = asString(need(host, "$.host", "system", "a string"), "$.host.system");
    r.host.machine = asString(need(host, "$.host", "machine", "a string"), "$.host.machine");
    const ojson& ncpu = need(host, "$.host", "node_cpu", "an integer or null");
    if (ncpu.is_null())
        r.host.node_cpu_unknown = true;
    else if (ncpu.is_number_integer())
        r.host.node_cpu = asInt(ncpu, "$.host.node_cpu");
    else
        wrongType(ncpu, "$.host.node_cpu", "an integer or null");
    for (const auto& [k, v] : host.items())
        if (k != "system" && k != "machine" && k != "node_cpu")
            r.host.extra[k] = v;
    r.child = asStrings(need(j, root, "child", "an array of strings"), "$.child");

    // JouleBench's additions.
    if (j.contains("tool")) {
        const ojson& t = asObject(j["tool"], "$.tool");
        r.tool = std::pair{asString(need(t, "$.tool", "name", "a string"), "$.tool.name"),
                           asString(need(t, "$.tool", "version", "a string"), "$.tool.version")};
    }
    if (j.contains("status"))
        r.status = asString(j["status"], "$.status");
    if (j.contains("error"))
        r.error = asString(j["error"], "$.error");
    if (j.contains("counter_info"))
        for (const auto& [k, v] : asObject(j["counter_info"], "$.counter_info").items())
            r.counter_info.emplace_back(k, v);
    if (j.contains("sampler"))
        for (const auto& [k, v] : asObject(j["sampler"], "$.sampler").items())
            r.sampler.emplace_back(k, readSampler(v, jsonPathKey("$.sampler", k)));
    if (j.contains("summary"))
        r.loaded_summary = asObject(j["summary"], "$.summary");
    if (j.contains("phase_summary"))
        r.loaded_phase_summary = asObject(j["phase_summary"], "$.phase_summary");
    if (j.contains("samples"))
        for (const auto& [k, v] : asObject(j["samples"], "$.samples").items())
            r.samples.emplace_back(k, readIntervals(v, jsonPathKey("$.samples", k)));

    static const std::set<std::string> kKnown{"label",    "meta",   "rounds",   "jobs",         "k",
                                              "counters", "idle_s", "sample_s", "host",         "child",
                                              "tool",     "status", "error",    "counter_info", "sampler",
                                              "summary",  "samples", "phase_summary"};
    for (const auto& [k, v] : j.items())
        if (!kKnown.count(k))
            r.extra[k] = v;
    return r;
}

}  // namespace

// ---------------------------------------------------------------- writing

ojson bracketToJson(const std::optional<Bracket>& b)
{
    if (!b)
        return nullptr;
    ojson o = ojson::object();
    o["intervals"] = b->intervals;
    o["advanced"] = b->advanced;
    o["longest_run"] = b->longest_run;
    o["span_ns"] = b->span_ns;
    o["mean_w"] = b->mean_w;
    o["sd_w"] = b->sd_w;
    return o;
}

ojson counterRoundToJson(const CounterRound& c)
{
    ojson o = ojson::object();
    o["busy"] = bracketToJson(c.busy);
    o["idle_before"] = bracketToJson(c.idle_before);
    o["idle_after"] = bracketToJson(c.idle_after);
    o["window_nj"] = c.window_nj;
    o["covered_ns"] = c.covered_ns;
    if (c.has_marginal) {
        o["marginal_nj"] = c.marginal_nj;
        o["ratio"] = c.ratio ? ojson(*c.ratio) : ojson(nullptr);
        o["verdict"] = c.verdict ? ojson(verdictName(*c.verdict)) : ojson(nullptr);
    }
    return o;
}

ojson roundToJson(const Round& r)
{
    ojson o = ojson::object();
    o["load_avg_before"] = triple(r.load_avg_before);
    o["decodes"] = r.decodes;
    o["child_wall_ns"] = r.child_wall_ns;
    o["window_ns"] = r.window_ns;
    if (r.child_note)
        o["child_note"] = *r.child_note;
    if (r.task)
        o["task"] = *r.task;
    if (r.gpu_time)
        o["gpu_time"] = gpuTimeToJson(*r.gpu_time);
    o["load_avg_after"] = triple(r.load_avg_after);
    for (const auto& [spec, c] : r.counters)
        if (!o.contains(spec))
            o[spec] = counterRoundToJson(c);
    if (r.window)
        o["window"] = pair64((*r.window)[0], (*r.window)[1]);
    if (r.brackets) {
        const auto& b = *r.brackets;
        o["brackets"] = ojson::array({pair64(b[0][0], b[0][1]), pair64(b[1][0], b[1][1])});
    }
    if (!r.marks.empty())
        o["marks"] = marksToJson(r.marks);
    if (!r.phase_energy.empty()) {
        ojson pe = ojson::object();
        for (const auto& [spec, f] : r.phase_energy)
            pe[spec] = phaseFiguresToJson(f);
        o["phase_energy"] = std::move(pe);
    }
    if (r.extra.is_object())
        for (const auto& [k, v] : r.extra.items())
            if (!o.contains(k))
                o[k] = v;
    return o;
}

ojson marksToJson(const std::vector<MarkSpan>& marks)
{
    ojson a = ojson::array();
    for (const MarkSpan& m : marks) {
        ojson o = ojson::object();
        o["name"] = m.name;
        o["t0_ns"] = m.t0_ns;
        o["t1_ns"] = m.t1_ns;
        a.push_back(std::move(o));
    }
    return a;
}

ojson phaseFiguresToJson(const std::vector<PhaseFigure>& figures)
{
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); };
    ojson a = ojson::array();
    for (const PhaseFigure& f : figures) {
        ojson o = ojson::object();
        o["name"] = f.name;
        o["passes"] = f.passes;
        o["span_s"] = f.span_s;
        o["energy_j"] = num(f.energy_j);
        o["marginal_j"] = num(f.marginal_j);
        o["updates"] = num(f.updates);
        o["too_short"] = f.too_short ? ojson(*f.too_short) : ojson(nullptr);
        a.push_back(std::move(o));
    }
    return a;
}

ojson phaseSummaryToJson(const Record& r)
{
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); };
    ojson o = ojson::object();
    o["spread"] = kPhaseSpreadName;
    for (const std::string& spec : r.wholeDeviceCounters()) {
        ojson a = ojson::array();
        for (const PhaseSummary& s : phaseSummaryOf(r, spec)) {
            ojson p = ojson::object();
            p["name"] = s.name;
            p["rounds"] = s.rounds;
            p["too_short_rounds"] = s.too_short_rounds;
            p["median_marginal_j"] = num(s.median_marginal_j);
            p["mad_marginal_j"] = num(s.mad_marginal_j);
            p["median_energy_j"] = num(s.median_energy_j);
            p["median_span_s"] = s.median_span_s;
            p["share"] = num(s.share);
            a.push_back(std::move(p));
        }
        if (!a.empty())
            o[spec] = std::move(a);
    }
    return o;
}

ojson samplerToJson(const SamplerFigures& s)
{
    ojson o = ojson::object();
    o["period_s"] = s.period_s;
    o["intervals"] = s.intervals;
    o["lateness_p50_ns"] = s.lateness_p50_ns;
    o["lateness_p99_ns"] = s.lateness_p99_ns;
    o["lateness_max_ns"] = s.lateness_max_ns;
    o["missed_deadlines"] = s.missed_deadlines;
    o["read_errors"] = s.read_errors;
    if (s.last_error)
        o["last_error"] = *s.last_error;
    o["update_cadence_ms"] = s.update_cadence_ms ? ojson(*s.update_cadence_ms) : ojson(nullptr);
    return o;
}

ojson summaryToJson(const CounterSummary& s)
{
    auto num = [](const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); };
    ojson o = ojson::object();
    o["rounds"] = s.rounds;
    ojson v = ojson::object();
    v[verdictName(Verdict::Clean)] = s.clean;
    v[verdictName(Verdict::RelativeOnly)] = s.relative_only;
    v[verdictName(Verdict::Noisy)] = s.noisy;
    v[verdictName(Verdict::Unusable)] = s.unusable;
    v["none"] = s.no_verdict;
    o["verdicts"] = v;
    o["median_j_per_decode"] = num(s.median_j_per_decode);
    o["min_j_per_decode"] = num(s.min_j_per_decode);
    o["max_j_per_decode"] = num(s.max_j_per_decode);
    o["outlier_rounds"] = s.outlier_rounds;
    return o;
}

ojson intervalsToJson(std::span<const Interval> iv)
{
    ojson t0 = ojson::array(), t1 = ojson::array(), nj = ojson::array();
    for (const Interval& i : iv) {
        t0.push_back(i.t0_ns);
        t1.push_back(i.t1_ns);
        nj.push_back(i.nj);
    }
    ojson o = ojson::object();
    o["t0_ns"] = std::move(t0);
    o["t1_ns"] = std::move(t1);
    o["nj"] = std::move(nj);
    return o;
}

ojson toJson(const Record& r)
{
    ojson o = ojson::object();
    o["label"] = r.label ? ojson(*r.label) : ojson(nullptr);
    o["meta"] = r.meta;
    ojson rounds = ojson::array();
    for (const Round& round : r.rounds)
        rounds.push_back(roundToJson(round));
    o["rounds"] = std::move(rounds);
    o["jobs"] = r.jobs;
    o["k"] = r.k;
    o["counters"] = r.counters;
    o["idle_s"] = r.idle_s;
    o["sample_s"] = r.sample_s;
    ojson host = ojson::object();
    host["system"] = r.host.system;
    host["machine"] = r.host.machine;
    host["node_cpu"] = r.host.node_cpu_unknown ? ojson(nullptr) : ojson(r.host.node_cpu);
    if (r.host.extra.is_object())
        for (const auto& [k, v] : r.host.extra.items())
            if (!host.contains(k))
                host[k] = v;
    o["host"] = std::move(host);
    o["child"] = r.child;

    // JouleBench's additions: new keys only, each written where it holds something.
    if (r.tool) {
        ojson t = ojson::object();
        t["name"] = r.tool->first;
        t["version"] = r.tool->second;
        o["tool"] = std::move(t);
    }
    if (r.status)
        o["status"] = *r.status;
    if (r.error)
        o["error"] = *r.error;
    if (!r.counter_info.empty()) {
        ojson ci = ojson::object();
        for (const auto& [spec, info] : r.counter_info)
            ci[spec] = info;
        o["counter_info"] = std::move(ci);
    }
    if (!r.sampler.empty()) {
        ojson s = ojson::object();
        for (const auto& [spec, fig] : r.sampler)
            s[spec] = samplerToJson(fig);
        o["sampler"] = std::move(s);
    }
    // A reference record has no summary and gets none, so it reads and writes back unchanged.
    if (r.tool || r.loaded_summary) {
        ojson s = ojson::object();
        for (const std::string& spec : r.wholeDeviceCounters())
            s[spec] = summaryToJson(summaryOf(r, spec));
        o["summary"] = std::move(s);
    }
    // Phases across rounds, only where a round has marks (a run without phases is written as before).
    if (r.hasPhases() || r.loaded_phase_summary)
        o["phase_summary"] = phaseSummaryToJson(r);
    if (!r.samples.empty()) {
        ojson s = ojson::object();
        for (const auto& [spec, iv] : r.samples)
            s[spec] = intervalsToJson(iv);
        o["samples"] = std::move(s);
    }
    if (r.extra.is_object())
        for (const auto& [k, v] : r.extra.items())
            if (!o.contains(k))
                o[k] = v;
    return o;
}

std::string dumpRecord(const Record& r)
{
    return dumpJson(toJson(r), 1) + "\n";
}

// ---------------------------------------------------------------- reading

Status checkIntervals(std::span<const Interval> iv, const std::string& path)
{
    for (std::size_t i = 0; i < iv.size(); ++i) {
        if (iv[i].t1_ns <= iv[i].t0_ns)
            return Error{jsonPathIndex(jsonPathKey(path, "t1_ns"), i) + ": " + std::to_string(iv[i].t1_ns) +
                         " is not after t0_ns[" + std::to_string(i) + "] " + std::to_string(iv[i].t0_ns) +
                         " (an interval must end after it starts)"};
        if (i > 0 && iv[i].t0_ns < iv[i - 1].t1_ns)
            return Error{jsonPathIndex(jsonPathKey(path, "t0_ns"), i) + ": " + std::to_string(iv[i].t0_ns) +
                         " is before the end of the interval before it (t1_ns[" + std::to_string(i - 1) +
                         "] " + std::to_string(iv[i - 1].t1_ns) + "): times must not go backwards"};
    }
    return Ok{};
}

Result<Record> recordFromJson(const ojson& j)
{
    try {
        return readRecord(j);
    } catch (const JsonReadError& f) {
        return Error{f.message};
    } catch (const std::exception& e) {
        // A type mismatch not caught above: still a message, never a crash.
        return Error{std::string("unreadable record: ") + e.what()};
    }
}

Result<Round> roundFromJson(const ojson& j, const std::vector<std::string>& counters, const std::string& path)
{
    try {
        return readRound(j, counters, path);
    } catch (const JsonReadError& f) {
        return Error{f.message};
    } catch (const std::exception& e) {
        return Error{path + ": unreadable round: " + e.what()};
    }
}

Result<std::vector<Interval>> intervalsFromJson(const ojson& j, const std::string& path)
{
    try {
        return readIntervals(j, path);
    } catch (const JsonReadError& f) {
        return Error{f.message};
    } catch (const std::exception& e) {
        return Error{path + ": unreadable samples: " + e.what()};
    }
}

Result<Record> parseRecordTree(std::string_view text)
{
    Result<ojson> j = parseJsonText(text);
    if (!j)
        return Error{j.error()};
    return recordFromJson(*j);
}

Result<Record> parseRecord(std::string_view text)
{
    if (std::optional<Record> fast = parseRecordFast(text))
        return std::move(*fast);
    return parseRecordTree(text);
}

Result<Record> loadRecord(const std::string& path)
{
    return std::move(loadRecordFile(path).record);
}

}  // namespace jb
