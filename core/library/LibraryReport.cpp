#include <jb/library/LibraryReport.h>

#include <jb/base/Text.h>

#include <jb/record/Csv.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/CounterTrust.h>
#include <jb/stats/Statistics.h>

#include <QDateTime>
#include <QString>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

namespace jb {

namespace {

std::vector<double> valuesOf(const std::vector<RoundJ>& r)
{
    std::vector<double> v;
    v.reserve(r.size());
    for (const RoundJ& x : r)
        v.push_back(x.j_per_decode);
    return v;
}

ojson num(const std::optional<double>& v)
{
    return v ? ojson(*v) : ojson(nullptr);
}

std::string g4(const std::optional<double>& v)
{
    if (!v)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", *v);
    return buf;
}

std::string pct(double ratio)
{
    return formatted("%+.1f %%", (ratio - 1.0) * 100.0);
}

}  // namespace

std::string isoTimeMs(std::int64_t ms)
{
    // By hand (civil calendar, UTC), as Qt::ISODate writes it: `library list` formats one per row.
    using namespace std::chrono;
    const sys_time<milliseconds> t{milliseconds(ms)};
    const sys_days day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss<seconds> hms{floor<seconds>(t - day)};
    const int y = int(ymd.year());
    if (y < 0 || y > 9999)
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", y, unsigned(ymd.month()), unsigned(ymd.day()),
                  int(hms.hours().count()), int(hms.minutes().count()), int(hms.seconds().count()));
    return buf;
}

MedianInterval medianInterval(const std::vector<double>& values, int resamples, std::uint64_t seed)
{
    MedianInterval m;
    if (values.empty())
        return m;
    m.median = median(values);
    const BootstrapRatios b = bootstrapRatioOfMedians(values, {1.0}, resamples, seed);
    if (!b.ratios.empty()) {
        m.low = quantile(b.ratios, 0.025);
        m.high = quantile(b.ratios, 0.975);
    }
    return m;
}

GateResult energyGate(const Record& record, const std::vector<LibraryEntry>& baseline, const std::string& counter,
                      double max_increase_pct, int resamples, std::uint64_t seed, const std::string& record_sha256)
{
    GateResult g;
    g.max_increase_pct = max_increase_pct;
    std::vector<RoundJ> pooled;
    for (const LibraryEntry& e : baseline)
        if (const CounterFigures* f = e.figuresOf(counter); f && !f->rounds.empty()) {
            if (e.missing) {
                g.left_out.push_back(e.path);
                continue;
            }
            if (!record_sha256.empty() && e.sha256 == record_sha256) {
                ++g.copies;
                continue;
            }
            ++g.baseline_records;
            pooled.insert(pooled.end(), f->rounds.begin(), f->rounds.end());
        }
    g.comparison = compareRoundSets(jPerDecode(record, counter), pooled, counter, resamples, seed);
    g.comparison.summary_a = summaryOf(record, counter);
    const Comparison& c = g.comparison;
    std::string leftOut = g.left_out.empty()
        ? std::string()
        : "; " + std::to_string(g.left_out.size()) + " record(s) of the query left out, their file gone or unreadable "
              "('library list --include-missing' shows them)";
    if (g.copies > 0)
        leftOut += "; " + std::to_string(g.copies) + " record(s) of the query left out as the checked record's own "
            "bytes (itself or a copy)";
    if (g.baseline_records == 0) {
        g.reason = (g.copies > 0 && g.left_out.empty()
                        ? "no baseline: every record of the query with rounds on counter '" + counter +
                            "' is the checked record itself or a byte-identical copy; nothing to gate on"
                        : "no baseline: no record of the query has rounds on counter '" + counter +
                            "'; nothing to gate on") +
            leftOut;
        return g;
    }
    if (!c.ratio) {
        g.reason = "no comparison: " + c.problem + leftOut;
        return g;
    }
    g.compared = true;
    const double limit = 1.0 + max_increase_pct / 100.0;
    char buf[400];
    if (c.ci_low && c.ci_high) {
        g.regression = *c.ratio > limit && *c.ci_low > 1.0;
        std::snprintf(buf, sizeof buf,
                      "%s J per decode on %s: median %.4g J against %.4g J of %d baseline record(s) (%zu rounds): "
                      "%s, 95%% interval [%s, %s]; %s (allowed: %+.1f %%)",
                      g.regression ? "REGRESSION:" : "ok:", counter.c_str(), *c.median_a, *c.median_b,
                      g.baseline_records, c.b.size(), pct(*c.ratio).c_str(), pct(*c.ci_low).c_str(),
                      pct(*c.ci_high).c_str(),
                      g.regression ? "above the allowed increase, and significantly above no change"
                      : *c.ratio > limit ? "above the allowed increase, but the interval reaches no change"
                                         : "within the allowed increase",
                      max_increase_pct);
    } else {
        std::snprintf(buf, sizeof buf, "ok: ratio %s but no interval (%s), so no significant increase",
                      pct(*c.ratio).c_str(), c.problem.c_str());
    }
    g.reason = buf + leftOut;
    return g;
}

ojson gateToJson(const GateResult& g)
{
    ojson o = comparisonToJson(g.comparison);
    o["baseline_records"] = g.baseline_records;
    o["left_out"] = g.left_out;
    o["copies"] = g.copies;
    o["max_increase_pct"] = g.max_increase_pct;
    o["compared"] = g.compared;
    o["regression"] = g.regression;
    o["reason"] = g.reason;
    return o;
}

std::vector<TrendPoint> trendOf(const std::vector<LibraryEntry>& entries, const std::string& counter, bool by_commit,
                                int resamples, std::uint64_t seed)
{
    std::vector<TrendPoint> points;
    std::vector<std::vector<RoundJ>> rounds;
    std::map<std::string, std::size_t> byCommit;
    for (const LibraryEntry& e : entries) {
        const CounterFigures* f = e.figuresOf(counter);
        if (!f || f->rounds.empty())
            continue;
        std::size_t at = points.size();
        if (by_commit && e.commit) {
            auto it = byCommit.find(*e.commit);
            if (it != byCommit.end())
                at = it->second;
            else
                byCommit[*e.commit] = at;
        }
        if (at == points.size()) {
            TrendPoint p;
            p.started_ms = e.started_ms;
            p.commit = e.commit;
            p.key = by_commit && e.commit ? *e.commit : isoTimeMs(e.started_ms);
            points.push_back(p);
            rounds.emplace_back();
        }
        ++points[at].records;
        rounds[at].insert(rounds[at].end(), f->rounds.begin(), f->rounds.end());
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i].rounds = int(rounds[i].size());
        points[i].j_per_decode = medianInterval(valuesOf(rounds[i]), resamples, seed);
        if (i > 0) {
            const Comparison c = compareRoundSets(rounds[i], rounds[i - 1], counter, resamples, seed);
            points[i].ratio_to_previous = c.ratio;
            points[i].regression = c.ci_low && *c.ci_low > 1.0;
        }
    }
    return points;
}

ojson trendToJson(const std::vector<TrendPoint>& t, const std::string& label, const std::string& counter)
{
    ojson o = ojson::object();
    o["label"] = label;
    o["counter"] = counter;
    ojson pts = ojson::array();
    for (const TrendPoint& p : t)
        pts.push_back(ojson{{"key", p.key},
                            {"started_at", isoTimeMs(p.started_ms)},
                            {"commit", p.commit ? ojson(*p.commit) : ojson(nullptr)},
                            {"records", p.records},
                            {"rounds", p.rounds},
                            {"median_j_per_decode", num(p.j_per_decode.median)},
                            {"ci_low", num(p.j_per_decode.low)},
                            {"ci_high", num(p.j_per_decode.high)},
                            {"ratio_to_previous", num(p.ratio_to_previous)},
                            {"regression", p.regression}});
    o["points"] = std::move(pts);
    return o;
}

ojson bencherMetricFormat(const std::vector<LibraryEntry>& entries)
{
    // Newest per benchmark: entries come oldest first, so later ones overwrite.
    std::map<std::string, std::pair<const LibraryEntry*, const CounterFigures*>> newest;
    for (const LibraryEntry& e : entries)
        for (const CounterFigures& f : e.figures)
            if (f.summary.median_j_per_decode)
                newest[e.label.value_or("(no label)") + "/" + f.counter] = {&e, &f};
    ojson o = ojson::object();
    for (const auto& [name, ef] : newest) {
        const CounterFigures& f = *ef.second;
        std::vector<double> v = valuesOf(f.rounds);
        const MedianInterval mi = medianInterval(v);
        ojson energy = ojson::object();
        energy["value"] = *f.summary.median_j_per_decode;
        if (mi.low && mi.high) {
            energy["lower_value"] = *mi.low;
            energy["upper_value"] = *mi.high;
        }
        o[name]["joules-per-decode"] = energy;
        if (f.s_per_decode)
            o[name]["seconds-per-decode"] = ojson{{"value", *f.s_per_decode}};
    }
    return o;
}

std::string libraryCsv(const std::vector<LibraryEntry>& entries)
{
    std::string out = csvRow({"id", "path", "sha256", "label", "host", "counter", "status", "started_at", "commit",
                              "branch", "dirty", "rounds", "clean", "relative_only", "noisy", "unusable", "none",
                              "median_j_per_decode", "min_j_per_decode", "max_j_per_decode", "s_per_decode",
                              "meta"});
    auto n = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    for (const LibraryEntry& e : entries)
        for (const CounterFigures& f : e.figures) {
            const CounterSummary& s = f.summary;
            out += csvRow({std::to_string(e.id), csvCell(e.path), e.sha256, csvCell(e.label.value_or("")),
                           csvCell(e.host), csvCell(f.counter), e.status, isoTimeMs(e.started_ms),
                           e.commit.value_or(""), csvCell(e.branch.value_or("")),
                           e.dirty ? (*e.dirty ? "true" : "false") : "", std::to_string(s.rounds),
                           std::to_string(s.clean), std::to_string(s.relative_only), std::to_string(s.noisy),
                           std::to_string(s.unusable), std::to_string(s.no_verdict), n(s.median_j_per_decode),
                           n(s.min_j_per_decode), n(s.max_j_per_decode), n(f.s_per_decode),
                           csvCell(dumpJson(e.meta, -1))});
        }
    return out;
}

std::string libraryTable(const std::vector<LibraryEntry>& entries)
{
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"id", "started (UTC)", "label", "host", "counter", "status", "verdicts c/r/n/u",
                    "J/decode [min, max]", "s/decode", "commit", "file"});
    for (const LibraryEntry& e : entries) {
        std::string commit = e.commit ? e.commit->substr(0, 10) : "-";
        if (e.dirty && *e.dirty)
            commit += "+dirty";
        const std::string when = listTimeMs(e.started_ms);
        auto row = [&](const CounterFigures* f) {
            std::vector<std::string> r{std::to_string(e.id), when, e.label.value_or("-"), e.host,
                                       f ? f->counter : "-", e.unreadable ? "unreadable" : e.missing ? "missing" : e.status};
            if (f) {
                const CounterSummary& s = f->summary;
                r.push_back(std::to_string(s.clean) + "/" + std::to_string(s.relative_only) + "/" +
                            std::to_string(s.noisy) + "/" + std::to_string(s.unusable));
                r.push_back(g4(s.median_j_per_decode) + " [" + g4(s.min_j_per_decode) + ", " +
                            g4(s.max_j_per_decode) + "]");
                r.push_back(g4(f->s_per_decode));
            } else {
                r.insert(r.end(), {"-", "-", "-"});
            }
            r.push_back(commit);
            r.push_back(e.path);
            rows.push_back(std::move(r));
        };
        if (e.figures.empty())
            row(nullptr);
        for (const CounterFigures& f : e.figures)
            row(&f);
    }
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    std::string out;
    out.reserve(rows.size() * 160);
    for (const auto& r : rows) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            out += r[i];
            if (i + 1 < r.size())
                out.append(width[i] - r[i].size() + 2, ' ');
        }
        out += '\n';
    }
    // Counters whose J per decode is relative only (a power reading integrated), each once per
    // record, with the counter to trust instead where the record has one (core/stats/CounterTrust).
    bool first = true;
    for (const LibraryEntry& e : entries)
        for (const CounterFigures& f : e.figures)
            if (const CounterTrust t = counterTrust(f.counter, e.counters); !t.absolute) {
                if (first)
                    out += "\n";
                first = false;
                out += "note: id " + std::to_string(e.id) + " " + f.counter + ": " + t.text() + "\n";
            }
    return out;
}

ojson entriesToJson(const std::vector<LibraryEntry>& entries)
{
    ojson list = ojson::array();
    for (const LibraryEntry& e : entries) {
        ojson o = ojson::object();
        o["id"] = e.id;
        o["path"] = e.path;
        o["sha256"] = e.sha256;
        o["size_bytes"] = e.size_bytes;
        o["missing"] = e.missing;
        if (e.unreadable)
            o["unreadable"] = true;
        o["label"] = e.label ? ojson(*e.label) : ojson(nullptr);
        o["meta"] = e.meta;
        o["host"] = e.host;
        o["counters"] = e.counters;
        o["status"] = e.status;
        o["started_at"] = isoTimeMs(e.started_ms);
        o["tool"] = e.tool;
        o["commit"] = e.commit ? ojson(*e.commit) : ojson(nullptr);
        o["branch"] = e.branch ? ojson(*e.branch) : ojson(nullptr);
        o["dirty"] = e.dirty ? ojson(*e.dirty) : ojson(nullptr);
        ojson figs = ojson::object();
        for (const CounterFigures& f : e.figures) {
            ojson x = summaryToJson(f.summary);
            x["s_per_decode"] = num(f.s_per_decode);
            figs[f.counter] = std::move(x);
        }
        o["figures"] = std::move(figs);
        list.push_back(std::move(o));
    }
    return list;
}

std::string listTimeMs(std::int64_t ms)
{
    std::string when = isoTimeMs(ms);
    if (when.size() > 16)
        when.resize(16);
    return when;
}

std::string verdictCounts(const CounterSummary& s)
{
    std::string out;
    const auto add = [&](int n, const char* word) {
        if (n > 0)
            out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + word;
    };
    for (const Verdict v : kVerdicts)
        add(s.count(v), verdictName(v));
    add(s.no_verdict, "no verdict");
    return out.empty() ? "no verdicts" : out;
}

}  // namespace jb
