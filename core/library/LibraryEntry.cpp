#include <jb/library/LibraryEntry.h>

#include <jb/record/RecordExtras.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/Statistics.h>

#include <jb/jobs/Manifest.h>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QString>

#include <cmath>

namespace jb {

const CounterFigures* LibraryEntry::figuresOf(const std::string& counter) const
{
    for (const CounterFigures& f : figures)
        if (f.counter == counter)
            return &f;
    return nullptr;
}

std::string metaValueText(const ojson& v)
{
    return v.is_string() ? v.get<std::string>() : dumpJson(v, -1);
}

namespace {

const ojson* member(const ojson& o, const char* key)
{
    if (!o.is_object())
        return nullptr;
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

std::optional<std::string> stringMember(const ojson& o, const char* key)
{
    const ojson* v = member(o, key);
    return v && v->is_string() && !v->get<std::string>().empty() ? std::optional(v->get<std::string>())
                                                                  : std::nullopt;
}

}  // namespace

LibraryEntry entryFromRecord(const Record& r, const std::string& path, const std::string& sha256,
                             std::int64_t size_bytes, std::int64_t file_time_ms)
{
    LibraryEntry e;
    e.path = path;
    e.sha256 = sha256;
    e.size_bytes = size_bytes;
    e.label = r.label;
    e.meta = r.meta;
    e.host_system = r.host.system;
    e.host_machine = r.host.machine;
    if (auto h = stringMember(r.host.extra, "hostname"))
        e.host = *h;
    else if (auto n = stringMember(r.host.extra, "node"))
        e.host = *n;
    else
        e.host = r.host.system + "/" + r.host.machine;
    e.counters = r.counters;
    e.status = r.status.value_or("reference");
    e.tool = r.tool ? r.tool->first + " " + r.tool->second : std::string();
    e.started_ms = file_time_ms;
    if (const auto x = readExtras(r); x && x->started_at) {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(*x->started_at), Qt::ISODateWithMs);
        if (t.isValid())
            e.started_ms = t.toMSecsSinceEpoch();
    }
    if (const ojson* src = member(r.extra, "source"); src && src->is_object()) {
        e.commit = stringMember(*src, "git_commit");
        e.branch = stringMember(*src, "git_branch");
        if (const ojson* d = member(*src, "git_dirty"); d && d->is_boolean())
            e.dirty = d->get<bool>();
    }
    for (const std::string& c : r.wholeDeviceCounters()) {
        CounterFigures f;
        f.counter = c;
        f.summary = summaryOf(r, c);
        f.rounds = jPerDecode(r, c);
        std::vector<double> spd;
        for (const Round& round : r.rounds)
            if (round.decodes > 0 && round.child_wall_ns > 0)
                spd.push_back(double(round.child_wall_ns) / 1e9 / double(round.decodes));
        if (!spd.empty())
            f.s_per_decode = median(spd);
        e.figures.push_back(std::move(f));
    }
    return e;
}

Result<LibraryEntry> entryFromManifest(const nlohmann::json& j, const std::string& path, const std::string& sha256,
                                       std::int64_t size_bytes, std::int64_t file_time_ms)
{
    auto m = JobManifest::fromJson(j, path);
    if (!m)
        return Error{m.error()};
    LibraryEntry e;
    e.path = path;
    e.sha256 = sha256;
    e.size_bytes = size_bytes;
    for (const char* key : {"name", "experiment_name"})  // ours, the reference driver's
        if (auto n = m->job.find(key); !e.label && n != m->job.end() && n->is_string() && !n->get<std::string>().empty())
            e.label = n->get<std::string>();
    e.meta = ojson::object();
    if (m->work.is_object() && !m->work.empty())
        e.meta = ojson::parse(m->work.dump(), nullptr, false);
    if (e.meta.is_discarded() || !e.meta.is_object())
        e.meta = ojson::object();
    e.host = "local";
    if (m->slurm && m->slurm->node && !m->slurm->node->empty())
        e.host = *m->slurm->node;
    e.host_machine = m->hardware.name;
    e.status = statusName(m->status);
    e.tool = m->joulebench_version.empty() ? std::string() : "joulebench " + m->joulebench_version;
    e.started_ms = m->started_unix_time > 0 ? std::int64_t(std::llround(m->started_unix_time * 1000.0)) : file_time_ms;
    if (m->source.is_object()) {
        auto text = [&](const char* k) -> std::optional<std::string> {
            auto it = m->source.find(k);
            return it != m->source.end() && it->is_string() && !it->get<std::string>().empty()
                ? std::optional(it->get<std::string>())
                : std::nullopt;
        };
        e.commit = text("git_commit");
        e.branch = text("git_branch");
        if (auto d = m->source.find("git_dirty"); d != m->source.end() && d->is_boolean())
            e.dirty = d->get<bool>();
    }
    if (m->energy) {
        for (const auto& [spec, c] : m->energy->counters) {
            e.counters.push_back(spec);
            if (!c.marginal_j || !std::isfinite(*c.marginal_j))
                continue;
            const double joules = *c.marginal_j;
            CounterFigures f;
            f.counter = spec;
            CounterSummary& s = f.summary;
            s.rounds = 1;
            s.add(c.verdict);
            s.median_j_per_decode = s.min_j_per_decode = s.max_j_per_decode = joules;
            f.rounds.push_back({0, joules});
            if (m->driver_wall_seconds > 0)
                f.s_per_decode = m->driver_wall_seconds;
            e.figures.push_back(std::move(f));
        }
    }
    return e;
}

const char* libraryFileKindName(LibraryFileKind k)
{
    switch (k) {
    case LibraryFileKind::Record: return "record";
    case LibraryFileKind::Comparison: return "comparison";
    case LibraryFileKind::Manifest: return "manifest";
    }
    return "record";
}

LibraryFileKind libraryFileKindOf(const nlohmann::json& top)
{
    if (!top.is_object())
        return LibraryFileKind::Record;
    if (auto k = top.find("kind"); k != top.end() && k->is_string() && *k == "joulebench-interleaved-comparison")
        return LibraryFileKind::Comparison;
    if (top.contains("status") && top.contains("driver_wall_seconds") && top.contains("hardware"))
        return LibraryFileKind::Manifest;
    return LibraryFileKind::Record;
}

Result<std::vector<std::string>> comparisonRecordPaths(const nlohmann::json& comparison, const std::string& path)
{
    auto children = comparison.find("children");
    if (children == comparison.end() || !children->is_array())
        return Error{path + ": a comparison record without a `children` array"};
    const QDir folder = QFileInfo(QString::fromStdString(path)).absoluteDir();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < children->size(); ++i) {
        const nlohmann::json& c = (*children)[i];
        if (!c.is_object())
            return Error{path + ": children[" + std::to_string(i) + "] is not an object"};
        auto r = c.find("record");
        if (r == c.end() || r->is_null())
            continue;  // a child whose record could not be written
        if (!r->is_string() || r->get<std::string>().empty())
            return Error{path + ": children[" + std::to_string(i) + "].record is not a file name"};
        out.push_back(QDir::cleanPath(folder.absoluteFilePath(QString::fromStdString(r->get<std::string>())))
                          .toStdString());
    }
    return out;
}

}  // namespace jb
