#include "library/LibraryEntry.h"

#include "record/RecordJson.h"
#include "stats/Statistics.h"

#include <QDateTime>
#include <QString>

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
    if (auto s = stringMember(r.extra, "started_at")) {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(*s), Qt::ISODateWithMs);
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

}  // namespace jb
