#include <jb/record/Interleaved.h>

#include <jb/base/JsonReader.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Csv.h>
#include <jb/record/JsonText.h>
#include <jb/record/RecordExtras.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/Paired.h>

#include <QDir>
#include <QString>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace jb {

namespace {

constexpr double kSignificance = 0.05;

ojson num(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson pairedJson(const PairedComparison& c, const char* difference_unit)
{
    ojson o = ojson::object();
    o["blocks"] = c.pairs;
    o["median_baseline"] = num(c.median_base);
    o["median"] = num(c.median_other);
    o["ratio"] = num(c.ratio);
    o["ratio_ci95"] = c.ratio_ci_low ? ojson::array({*c.ratio_ci_low, *c.ratio_ci_high}) : ojson(nullptr);
    o[std::string("difference_") + difference_unit] = num(c.difference);
    o[std::string("difference_ci95_") + difference_unit] =
        c.difference_ci_low ? ojson::array({*c.difference_ci_low, *c.difference_ci_high}) : ojson(nullptr);
    o["p_value"] = num(c.test.p_two_sided);
    o["test"] = c.test.exact ? "wilcoxon signed-rank, exact" : "wilcoxon signed-rank, normal approximation";
    o["effect_size_rank_biserial"] = num(c.test.rank_biserial);
    o["significant"] = c.test.p_two_sided ? ojson(*c.test.p_two_sided < kSignificance) : ojson(nullptr);
    if (!c.problem.empty())
        o["problem"] = c.problem;
    return o;
}

// The blocks both children measured (the k-th measured round of each is block k).
void paired(const std::vector<std::optional<double>>& a, const std::vector<std::optional<double>>& b,
            std::vector<double>& pa, std::vector<double>& pb)
{
    for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
        if (a[k] && b[k]) {
            pa.push_back(*a[k]);
            pb.push_back(*b[k]);
        }
}

std::optional<double> medianOf(const std::vector<std::optional<double>>& v)
{
    std::vector<double> x;
    for (const auto& e : v)
        if (e)
            x.push_back(*e);
    if (x.empty())
        return std::nullopt;
    return median(x);
}

std::string fmt(const ojson& v, const char* f)
{
    if (!v.is_number())
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v.get<double>());
    return buf;
}

std::string ci(const ojson& v, const char* f)
{
    if (!v.is_array() || v.size() != 2)
        return "-";
    return fmt(v[0], f) + " - " + fmt(v[1], f);
}

std::string pText(const ojson& v)
{
    if (!v.is_number())
        return "-";
    const double p = v.get<double>();
    char buf[32];
    if (p < 0.001)
        std::snprintf(buf, sizeof buf, "%.1e", p);
    else
        std::snprintf(buf, sizeof buf, "%.3f", p);
    return buf;
}

}  // namespace

BlockFigures blockFigures(const Record& r, const std::string& counter)
{
    BlockFigures f;
    for (const Round& round : r.rounds) {
        const CounterRound* c = round.counter(counter);
        const bool has = round.decodes > 0;
        f.j_per_decode.push_back(has && c && c->has_marginal
                                     ? std::optional<double>(c->marginal_nj / 1e9 / double(round.decodes))
                                     : std::nullopt);
        f.s_per_decode.push_back(has ? std::optional<double>(double(round.child_wall_ns) / 1e9 / double(round.decodes))
                                     : std::nullopt);
    }
    return f;
}

ojson interleavedComparison(const InterleavedInput& in)
{
    std::string counter = in.counter;
    if (counter.empty() && !in.records.empty() && !in.records.front().counter_info.empty())
        counter = in.records.front().counter_info.front().first;
    if (counter == "task")
        counter.clear();
    std::vector<BlockFigures> figures;
    for (const Record& r : in.records)
        figures.push_back(blockFigures(r, counter));

    ojson o = ojson::object();
    o["kind"] = "joulebench-interleaved-comparison";
    o["version"] = 1;
    o["counter"] = counter;
    o["baseline"] = in.names.at(std::size_t(in.baseline));
    o["significance_level"] = kSignificance;
    o["resamples"] = in.resamples;
    o["seed"] = in.seed;
    o["warmup_blocks"] = in.warmup_blocks;
    o["order_seed"] = in.order_seed;
    ojson order = ojson::array();
    for (const auto& block : in.order) {
        ojson names = ojson::array();
        for (int c : block)
            names.push_back(in.names.at(std::size_t(c)));
        order.push_back(std::move(names));
    }
    o["order"] = std::move(order);
    ojson children = ojson::array();
    for (std::size_t i = 0; i < in.records.size(); ++i) {
        ojson c = ojson::object();
        c["name"] = in.names[i];
        c["argv"] = in.records[i].child;
        c["record"] = i < in.files.size() && !in.files[i].empty() ? ojson(in.files[i]) : ojson(nullptr);
        c["status"] = in.records[i].status ? ojson(*in.records[i].status) : ojson(nullptr);
        c["rounds"] = in.records[i].rounds.size();
        c["median_j_per_decode"] = num(medianOf(figures[i].j_per_decode));
        c["median_s_per_decode"] = num(medianOf(figures[i].s_per_decode));
        // Dropped by --keep-going: its rounds are those of the blocks before (a child's rounds are
        // always the first blocks', so the pairs below hold the blocks both children measured).
        if (const auto x = readExtras(in.records[i]); x && x->interleaved && x->interleaved->dropped)
            c["dropped"] = {{"block", x->interleaved->dropped->block}, {"reason", x->interleaved->dropped->reason}};
        children.push_back(std::move(c));
    }
    o["children"] = std::move(children);
    ojson pairs = ojson::array();
    const BlockFigures& base = figures.at(std::size_t(in.baseline));
    for (std::size_t i = 0; i < in.records.size(); ++i) {
        if (int(i) == in.baseline)
            continue;
        ojson p = ojson::object();
        p["name"] = in.names[i];
        p["against"] = in.names[std::size_t(in.baseline)];
        std::vector<double> eb, eo, tb, to;
        paired(base.j_per_decode, figures[i].j_per_decode, eb, eo);
        paired(base.s_per_decode, figures[i].s_per_decode, tb, to);
        p["energy"] = pairedJson(comparePaired(eb, eo, in.resamples, in.seed), "j");
        p["time"] = pairedJson(comparePaired(tb, to, in.resamples, in.seed), "s");
        pairs.push_back(std::move(p));
    }
    o["pairs"] = std::move(pairs);
    return o;
}

namespace {

struct Row {
    std::string name, j, e_ratio, e_ci, e_p, s, t_ratio, t_ci, t_p;
};

std::vector<Row> rows(const ojson& c)
{
    std::vector<Row> out;
    for (const ojson& child : c.at("children")) {
        Row r;
        r.name = child.at("name").get<std::string>();
        r.j = fmt(child.at("median_j_per_decode"), "%.6g");
        r.s = fmt(child.at("median_s_per_decode"), "%.6g");
        r.e_ratio = r.t_ratio = "1 (baseline)";
        r.e_ci = r.e_p = r.t_ci = r.t_p = "";
        for (const ojson& p : c.at("pairs")) {
            if (p.at("name") != child.at("name"))
                continue;
            const ojson& e = p.at("energy");
            const ojson& t = p.at("time");
            r.e_ratio = fmt(e.at("ratio"), "%.4f");
            r.e_ci = ci(e.at("ratio_ci95"), "%.4f");
            r.e_p = pText(e.at("p_value")) + (e.at("significant") == true ? " *" : "");
            r.t_ratio = fmt(t.at("ratio"), "%.4f");
            r.t_ci = ci(t.at("ratio_ci95"), "%.4f");
            r.t_p = pText(t.at("p_value")) + (t.at("significant") == true ? " *" : "");
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

namespace {

// The blocks the comparison paired (the most any child shares with the baseline, energy or
// time: a side without figures, e.g. no marginal energy, pairs none; fewer than planned when
// the run ended early).
int pairedBlocks(const ojson& c)
{
    int n = 0;
    for (const ojson& p : c.at("pairs"))
        for (const char* side : {"energy", "time"})
            n = std::max(n, p.at(side).at("blocks").get<int>());
    return n;
}

std::string blocksText(int n)
{
    return std::to_string(n) + (n == 1 ? " block" : " blocks");
}

}  // namespace

std::string pairedOverText(int blocks)
{
    return "paired over " + blocksText(blocks);
}

std::string comparisonMarkdown(const ojson& c)
{
    std::string s = "| child | J/decode | energy ratio | 95% CI | p | s/decode | time ratio | 95% CI | p |\n"
                    "|---|---:|---:|---|---:|---:|---:|---|---:|\n";
    for (const Row& r : rows(c))
        s += "| " + r.name + " | " + r.j + " | " + r.e_ratio + " | " + r.e_ci + " | " + r.e_p + " | " + r.s + " | " +
             r.t_ratio + " | " + r.t_ci + " | " + r.t_p + " |\n";
    s += "\nBaseline: " + c.at("baseline").get<std::string>() + "; counter " + c.at("counter").get<std::string>() +
         "; " + pairedOverText(pairedBlocks(c)) +
         " (Wilcoxon signed-rank; * p < 0.05; intervals: block bootstrap, " +
         std::to_string(c.at("resamples").get<int>()) + " resamples).\n";
    // Why a figure is missing, and a run too short for any p below 0.05.
    int fewest = -1;
    for (const ojson& p : c.at("pairs")) {
        for (const char* side : {"energy", "time"}) {
            const ojson& x = p.at(side);
            if (x.contains("problem"))
                s += std::string(side) + ", " + p.at("name").get<std::string>() + ": " +
                     x.at("problem").get<std::string>() + "\n";
            const int n = x.at("blocks").get<int>();
            if (n > 0 && (fewest < 0 || n < fewest))
                fewest = n;
        }
    }
    for (const ojson& child : c.at("children"))
        if (child.contains("dropped") && child["dropped"].is_object())
            s += child.at("name").get<std::string>() + " was dropped at block " +
                 std::to_string(child["dropped"].value("block", 0)) + " (--keep-going): " +
                 child["dropped"].value("reason", std::string()) + "; its pairs hold the blocks before.\n";
    if (fewest > 0 && fewest < 6)
        s += "With " + std::to_string(fewest) + (fewest == 1 ? " paired block" : " paired blocks") + " the smallest p the signed-rank test can give is " +
             pText(ojson(2.0 / std::pow(2.0, fewest))) + ": run at least 6 blocks for p < 0.05.\n";
    return s;
}

std::string comparisonCsv(const ojson& c)
{
    std::string s = csvRow({"child", "median_j_per_decode", "energy_ratio", "energy_ratio_ci_low", "energy_ratio_ci_high",
                            "energy_p", "median_s_per_decode", "time_ratio", "time_ratio_ci_low", "time_ratio_ci_high",
                            "time_p"});
    auto n = [](const ojson& v) { return v.is_number() ? csvNumber(v.get<double>()) : std::string(); };
    for (const ojson& child : c.at("children")) {
        std::vector<std::string> cells{csvCell(child.at("name").get<std::string>()), n(child.at("median_j_per_decode"))};
        const ojson* pair = nullptr;
        for (const ojson& p : c.at("pairs"))
            if (p.at("name") == child.at("name"))
                pair = &p;
        auto side = [&](const char* key) {
            if (!pair) {
                cells.insert(cells.end(), {"1", "", "", ""});
                return;
            }
            const ojson& x = pair->at(key);
            const ojson& ci95 = x.at("ratio_ci95");
            cells.push_back(n(x.at("ratio")));
            cells.push_back(ci95.is_array() ? n(ci95[0]) : "");
            cells.push_back(ci95.is_array() ? n(ci95[1]) : "");
            cells.push_back(n(x.at("p_value")));
        };
        side("energy");
        cells.push_back(n(child.at("median_s_per_decode")));
        side("time");
        s += csvRow(cells);
    }
    return s;
}

namespace {

constexpr const char* kKind = "joulebench-interleaved-comparison";

using namespace jsonread;

std::optional<double> optNumber(const ojson& o, const std::string& path, const char* key)
{
    const ojson* v = member(o, key);
    return v ? asNumberOrNull(*v, jsonPathKey(path, key)) : std::nullopt;
}

// [low, high] or null.
void optInterval(const ojson& o, const std::string& path, const char* key, std::optional<double>& low,
                 std::optional<double>& high)
{
    const ojson* v = member(o, key);
    if (!v || v->is_null())
        return;
    const std::string p = jsonPathKey(path, key);
    const ojson& a = asArray(*v, p, "[low, high] or null");
    if (a.size() != 2)
        jsonFail(p, "expected [low, high], found an array of " + std::to_string(a.size()));
    low = asNumber(a[0], jsonPathIndex(p, 0));
    high = asNumber(a[1], jsonPathIndex(p, 1));
}

ComparisonSide readSide(const ojson& v, const std::string& path, const char* unit)
{
    const ojson& o = asObject(v, path);
    ComparisonSide s;
    s.blocks = int(asIntAtLeast(need(o, path, "blocks", "the paired blocks"), jsonPathKey(path, "blocks"), 0));
    s.median_baseline = optNumber(o, path, "median_baseline");
    s.median = optNumber(o, path, "median");
    s.ratio = optNumber(o, path, "ratio");
    optInterval(o, path, "ratio_ci95", s.ratio_low, s.ratio_high);
    s.difference = optNumber(o, path, (std::string("difference_") + unit).c_str());
    optInterval(o, path, (std::string("difference_ci95_") + unit).c_str(), s.difference_low, s.difference_high);
    s.p_value = optNumber(o, path, "p_value");
    s.effect_size = optNumber(o, path, "effect_size_rank_biserial");
    if (const ojson* x = member(o, "significant"); x && !x->is_null())
        s.significant = asBool(*x, jsonPathKey(path, "significant"));
    if (const ojson* x = member(o, "test"))
        s.test = asString(*x, jsonPathKey(path, "test"));
    if (const ojson* x = member(o, "problem"))
        s.problem = asString(*x, jsonPathKey(path, "problem"));
    return s;
}

ComparisonRecord readTree(const ojson& j)
{
    const ojson& o = asObject(j, "$");
    const std::string kind = asString(need(o, "$", "kind", kKind), "$.kind");
    if (kind != kKind)
        jsonFail("$.kind", "expected \"" + std::string(kKind) + "\", found \"" + kind + "\" (not a comparison record)");
    if (const std::int64_t v = asInt(need(o, "$", "version", "1"), "$.version"); v != 1)
        jsonFail("$.version", "expected 1, found " + std::to_string(v) + " (written by a newer JouleBench?)");
    ComparisonRecord c;
    c.counter = asString(need(o, "$", "counter", "a counter"), "$.counter");
    c.baseline = asString(need(o, "$", "baseline", "the baseline's name"), "$.baseline", true);
    if (const ojson* v = member(o, "significance_level"))
        c.significance_level = asNumberAtLeast(*v, "$.significance_level", 0, true);
    if (const ojson* v = member(o, "resamples"))
        c.resamples = asSmallInt(*v, "$.resamples");
    if (const ojson* v = member(o, "warmup_blocks"))
        c.warmup_blocks = asSmallInt(*v, "$.warmup_blocks");
    if (const ojson* v = member(o, "order")) {
        const ojson& a = asArray(*v, "$.order", "an array of blocks");
        for (std::size_t b = 0; b < a.size(); ++b)
            c.order.push_back(asStrings(a[b], jsonPathIndex("$.order", b)));
    }
    const ojson& children = asArray(need(o, "$", "children", "an array"), "$.children");
    if (children.empty())
        jsonFail("$.children", "expected at least one child, found an empty array");
    for (std::size_t i = 0; i < children.size(); ++i) {
        const std::string p = jsonPathIndex("$.children", i);
        const ojson& x = asObject(children[i], p);
        ComparisonChild ch;
        ch.name = asString(need(x, p, "name", "a name"), jsonPathKey(p, "name"), true);
        if (const ojson* v = member(x, "argv"))
            ch.argv = asStrings(*v, jsonPathKey(p, "argv"));
        if (const ojson* v = member(x, "record"))
            ch.record = asStringOrNull(*v, jsonPathKey(p, "record"));
        if (const ojson* v = member(x, "status"))
            ch.status = asStringOrNull(*v, jsonPathKey(p, "status"));
        if (const ojson* v = member(x, "rounds"))
            ch.rounds = int(asIntAtLeast(*v, jsonPathKey(p, "rounds"), 0));
        ch.median_j_per_decode = optNumber(x, p, "median_j_per_decode");
        ch.median_s_per_decode = optNumber(x, p, "median_s_per_decode");
        if (const ojson* v = member(x, "dropped"); v && !v->is_null()) {
            const std::string dp = jsonPathKey(p, "dropped");
            const ojson& d = asObject(*v, dp);
            ch.dropped_block = int(asIntAtLeast(need(d, dp, "block", "a block number"), jsonPathKey(dp, "block"), 0));
            if (const ojson* r = member(d, "reason"))
                ch.dropped_reason = asString(*r, jsonPathKey(dp, "reason"));
        }
        ch.baseline = ch.name == c.baseline;
        for (const ComparisonChild& other : c.children)
            if (other.name == ch.name)
                jsonFail(jsonPathKey(p, "name"), "\"" + ch.name + "\" names two children");
        c.children.push_back(std::move(ch));
    }
    if (std::none_of(c.children.begin(), c.children.end(), [](const ComparisonChild& ch) { return ch.baseline; }))
        jsonFail("$.baseline", "\"" + c.baseline + "\" is none of the children");
    if (const ojson* v = member(o, "pairs")) {
        const ojson& pairs = asArray(*v, "$.pairs");
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const std::string p = jsonPathIndex("$.pairs", i);
            const ojson& x = asObject(pairs[i], p);
            const std::string name = asString(need(x, p, "name", "a child's name"), jsonPathKey(p, "name"));
            auto it = std::find_if(c.children.begin(), c.children.end(),
                                   [&](const ComparisonChild& ch) { return ch.name == name; });
            if (it == c.children.end())
                jsonFail(jsonPathKey(p, "name"), "\"" + name + "\" is none of the children");
            if (it->baseline)
                jsonFail(jsonPathKey(p, "name"), "\"" + name + "\" is the baseline, which has no pair");
            it->energy = readSide(need(x, p, "energy", "the energy figures"), jsonPathKey(p, "energy"), "j");
            it->time = readSide(need(x, p, "time", "the time figures"), jsonPathKey(p, "time"), "s");
        }
    }
    return c;
}

}  // namespace

Result<ComparisonRecord> readComparison(const ojson& j, const std::string& origin)
{
    return readJson(origin, [&] { return readTree(j); });
}

Result<ComparisonRecord> loadComparisonFile(const std::string& path)
{
    auto text = readWholeFile(path);
    if (!text)
        return Error{text.error()};
    auto tree = parseJsonText(*text);
    if (!tree)
        return Error{path + ": " + tree.error()};
    return readComparison(*tree, path);
}

bool looksLikeComparisonFile(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    std::string head(512, '\0');
    f.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(f.gcount()));
    std::size_t i = 0;
    auto skip = [&] {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
    };
    auto take = [&](std::string_view s) {
        skip();
        if (head.compare(i, s.size(), s) != 0)
            return false;
        i += s.size();
        return true;
    };
    return take("{") && take("\"kind\"") && take(":") && take("\"" + std::string(kKind) + "\"");
}

std::string comparisonChildPath(const std::string& comparison_path, const std::string& record)
{
    const std::filesystem::path r(record);
    if (r.is_absolute())
        return record;
    return (std::filesystem::path(comparison_path).parent_path() / r).lexically_normal().string();
}

std::string interleavedRecordFileName(const std::string& name, std::vector<std::string>& taken)
{
    QString base;
    for (const QChar c : QString::fromStdString(name).left(80))
        base += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('.') || c == QLatin1Char('-')
                    ? c
                    : QLatin1Char('_');
    if (base.isEmpty() || base.startsWith(QLatin1Char('.')))
        base.prepend(QStringLiteral("child"));
    auto used = [&](const QString& f) {
        return f == QStringLiteral("comparison.json") ||
               std::find(taken.begin(), taken.end(), f.toStdString()) != taken.end();
    };
    QString file = base + QStringLiteral(".json");
    for (int n = 2; used(file); ++n)
        file = base + QStringLiteral("-%1.json").arg(n);
    taken.push_back(file.toStdString());
    return taken.back();
}

InterleavedWrite writeInterleavedRun(const std::string& dir, InterleavedInput in)
{
    InterleavedWrite w;
    const QDir folder(QString::fromStdString(dir));
    std::vector<std::string> taken;
    in.files.clear();
    for (std::size_t i = 0; i < in.records.size(); ++i) {
        const std::string file = interleavedRecordFileName(in.names.at(i), taken);
        const std::string path = folder.filePath(QString::fromStdString(file)).toStdString();
        if (Status st = writeFileAtomic(path, dumpRecord(in.records[i])); !st) {
            w.errors.push_back("could not write " + path + ": " + st.error());
            w.paths.push_back("");
            in.files.push_back("");
        } else {
            w.paths.push_back(path);
            in.files.push_back(file);
        }
    }
    w.comparison = interleavedComparison(in);
    const std::string cpath = folder.filePath(QStringLiteral("comparison.json")).toStdString();
    if (Status st = writeFileAtomic(cpath, w.comparison.dump(2) + "\n"); !st)
        w.errors.push_back("could not write " + cpath + ": " + st.error());
    else
        w.comparison_path = cpath;
    return w;
}

}  // namespace jb
