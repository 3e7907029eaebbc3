// `joulebench-cli library <add|list|trend|check|export|refresh|rebuild>`: the index of every
// record (core/library). Every subcommand takes --library FILE|postgresql://... (default
// $JOULEBENCH_LIBRARY, else the user's library file). Exit 0; 1 where `check` finds a
// regression or `add` could not index a file it was given; 2 for usage and library errors.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/library/Library.h>
#include <jb/library/LibraryReport.h>
#include <jb/record/RecordJson.h>
#include <jb/record/RecordLoad.h>

#include <QCommandLineParser>
#include <QCryptographicHash>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>

namespace jbcli {

namespace {

void addLibraryOption(QCommandLineParser& p)
{
    p.addHelpOption();
    p.addOption({QStringLiteral("library"),
                 QStringLiteral("The library: a SQLite file or postgresql://USER@HOST:PORT/DB (default "
                                "$JOULEBENCH_LIBRARY, else %1).")
                     .arg(toQ(jb::defaultLibraryPath())),
                 QStringLiteral("FILE|URL")});
}

// The subcommands that only read the library take --create: without it a library that is not
// there is an error (a misspelt --library must not gate against a new, empty one).
void addCreateOption(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("create"),
                 QStringLiteral("Start an empty library where there is none (default: that is an error).")});
}

// add and rebuild make the library by design; the others only with --create.
std::unique_ptr<jb::Library> openLibrary(const QCommandLineParser& p, const QString& cmd, int& rc)
{
    const bool makes = cmd.endsWith(QLatin1String(" add")) || cmd.endsWith(QLatin1String(" rebuild"));
    const bool create = makes || p.isSet(QStringLiteral("create"));  // the others define --create
    auto lib = jb::Library::open(jb::librarySpec(toStd(p.value(QStringLiteral("library")))), create);
    if (!lib) {
        rc = usageError(cmd, toQ(lib.error()));
        return nullptr;
    }
    return std::move(*lib);
}

// The filter flags of `list` and `export`, plus key=value terms as positionals.
void addFilterOptions(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("label"), QStringLiteral("Only records with this label."), QStringLiteral("L")});
    p.addOption({QStringLiteral("meta"), QStringLiteral("Only records whose meta KEY is VALUE (repeatable)."),
                 QStringLiteral("KEY=VALUE")});
    p.addOption({QStringLiteral("host"), QStringLiteral("Only records of this host (name, system or machine)."),
                 QStringLiteral("H")});
    p.addOption({QStringLiteral("counter"), QStringLiteral("Only this whole-device counter."), QStringLiteral("C")});
    p.addOption({QStringLiteral("since"), QStringLiteral("Only records started at or after DATE (UTC)."),
                 QStringLiteral("DATE")});
    p.addOption({QStringLiteral("until"), QStringLiteral("Only records started at or before DATE (UTC)."),
                 QStringLiteral("DATE")});
    p.addOption({QStringLiteral("commit"), QStringLiteral("Only records of commits starting with this hash."),
                 QStringLiteral("HASH")});
    p.addOption({QStringLiteral("include-missing"), QStringLiteral("Also records whose file is gone.")});
}

jb::Result<jb::LibraryQuery> queryFrom(const QCommandLineParser& p)
{
    jb::LibraryQuery q;
    std::vector<std::string> terms;
    for (const char* k : {"label", "host", "counter", "since", "until", "commit"})
        if (p.isSet(QString::fromLatin1(k)))
            terms.push_back(std::string(k) + "=" + toStd(p.value(QString::fromLatin1(k))));
    for (const QString& m : p.values(QStringLiteral("meta")))
        terms.push_back("meta." + toStd(m));
    for (const QString& t : p.positionalArguments())
        terms.push_back(toStd(t));
    for (const std::string& t : terms)
        if (jb::Status st = jb::addQueryTerm(q, t); !st)
            return jb::Error{st.error()};
    q.include_missing = p.isSet(QStringLiteral("include-missing"));
    return q;
}

int cmdAdd(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Adds record files to the library: files, or folders (every *.json below them). Reference harness "
        "records are read too. A file already there with the same bytes is left as it is; a changed one is "
        "re-indexed; one whose bytes match an entry whose file is gone is recorded as moved.\n"
        "Exit 1 if a file named on the command line could not be indexed (other JSON files found in folders "
        "that are not records are skipped and counted)."));
    addLibraryOption(p);
    p.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Record files or folders."), QStringLiteral("PATH..."));
    p.addOption({QStringLiteral("quiet"), QStringLiteral("Print only the totals and the problems.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    if (p.positionalArguments().isEmpty())
        return usageError(cmd, QStringLiteral("give record files or folders to add"));
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    int counts[4] = {0, 0, 0, 0}, skipped = 0, failed = 0;
    const bool quiet = p.isSet(QStringLiteral("quiet"));
    for (const QString& arg : p.positionalArguments()) {
        const bool folder = QFileInfo(arg).isDir();
        if (!folder && !QFileInfo::exists(arg)) {
            err() << cmd << ": " << arg << ": no such file or folder" << Qt::endl;
            ++failed;
            continue;
        }
        for (const std::string& f : jb::recordFilesUnder(toStd(arg))) {
            auto a = lib->add(f);  // a record, a comparison record (its records) or a job manifest
            if (!a) {
                err() << cmd << ": " << (folder ? "skipped " : "") << toQ(a.error()) << Qt::endl;
                ++(folder ? skipped : failed);
                continue;
            }
            auto count = [&](const std::string& path, const jb::AddResult& r, const char* kind) {
                ++counts[int(r.outcome)];
                if (!quiet && r.outcome != jb::AddOutcome::Unchanged)
                    out() << jb::addOutcomeName(r.outcome) << "  " << toQ(path) << kind
                          << (r.moved_from.empty() ? QString() : QStringLiteral(" (from %1)").arg(toQ(r.moved_from)))
                          << '\n';
            };
            if (a->result)
                count(f, *a->result, a->kind == jb::LibraryFileKind::Manifest ? " (job manifest)" : "");
            for (const jb::AddedMember& m : a->members) {
                if (m.result) {
                    count(m.path, *m.result, "");
                } else {
                    err() << cmd << ": " << toQ(f) << ": " << toQ(m.error) << Qt::endl;
                    ++(folder ? skipped : failed);
                }
            }
        }
    }
    out() << "library " << toQ(lib->location().display) << ": " << counts[int(jb::AddOutcome::Added)] << " added, "
          << counts[int(jb::AddOutcome::Reindexed)] << " re-indexed, " << counts[int(jb::AddOutcome::Moved)]
          << " moved, " << counts[int(jb::AddOutcome::Unchanged)] << " unchanged, " << skipped
          << " skipped, " << failed << " failed" << Qt::endl;
    return failed ? kAborted : kOk;
}

int cmdList(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Lists the library's records, oldest first, one line per record and counter: start time, label, "
        "host, counter, status, verdict counts, median J per decode [min, max], time per decode, commit, file.\n"
        "Filters are flags or key=value terms (label=, meta.KEY=, host=, counter=, commit=, branch=, "
        "status=, since=, until=); all must hold."));
    addLibraryOption(p);
    addCreateOption(p);
    addFilterOptions(p);
    p.addPositionalArgument(QStringLiteral("TERM"), QStringLiteral("key=value filter terms."), QStringLiteral("[TERM...]"));
    p.addOption({QStringLiteral("json"), QStringLiteral("Print the entries as JSON.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    auto q = queryFrom(p);
    if (!q)
        return usageError(cmd, toQ(q.error()));
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    const bool json = p.isSet(QStringLiteral("json"));
    auto entries = lib->list(*q, false, json);
    if (!entries)
        return usageError(cmd, toQ(entries.error()));
    // The text as it is (UTF-8), straight to stdout: no round trip through QString.
    std::string text = json ? jb::dumpJson(jb::entriesToJson(*entries), 1) + "\n" : jb::libraryTable(*entries);
    out().flush();
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return kOk;
}

// The counter to use: the flag, else the first whole-device counter of the first entry.
std::string pickCounter(const QCommandLineParser& p, const std::vector<jb::LibraryEntry>& entries)
{
    if (p.isSet(QStringLiteral("counter")))
        return toStd(p.value(QStringLiteral("counter")));
    for (const jb::LibraryEntry& e : entries)
        if (!e.figures.empty())
            return e.figures.front().counter;
    return {};
}

int cmdTrend(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "J per decode of one label over time: one point per record (--by date) or per commit (--by commit, "
        "the rounds of a commit's records pooled), each with the 95% percentile bootstrap interval of its "
        "median; a point whose ratio to the one before lies wholly above 1 is marked REGRESSION."));
    addLibraryOption(p);
    addCreateOption(p);
    p.addPositionalArgument(QStringLiteral("LABEL"), QStringLiteral("The label."));
    p.addPositionalArgument(QStringLiteral("TERM"), QStringLiteral("More key=value filter terms."), QStringLiteral("[TERM...]"));
    p.addOption({QStringLiteral("counter"), QStringLiteral("Whole-device counter (default: the first one)."),
                 QStringLiteral("C")});
    p.addOption({QStringLiteral("by"), QStringLiteral("date (default) or commit."), QStringLiteral("date|commit")});
    p.addOption({QStringLiteral("json"), QStringLiteral("Print the trend as JSON.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList pos = p.positionalArguments();
    if (pos.isEmpty())
        return usageError(cmd, QStringLiteral("give the label whose trend to show"));
    const QString by = p.value(QStringLiteral("by"));
    if (!by.isEmpty() && by != QLatin1String("date") && by != QLatin1String("commit"))
        return usageError(cmd, QStringLiteral("--by takes date or commit, not '%1'").arg(by));
    jb::LibraryQuery q;
    q.label = toStd(pos.at(0));
    for (qsizetype i = 1; i < pos.size(); ++i)
        if (jb::Status st = jb::addQueryTerm(q, toStd(pos.at(i))); !st)
            return usageError(cmd, toQ(st.error()));
    if (p.isSet(QStringLiteral("counter")))
        q.counter = toStd(p.value(QStringLiteral("counter")));
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    auto entries = lib->list(q, true);
    if (!entries)
        return usageError(cmd, toQ(entries.error()));
    const std::string counter = pickCounter(p, *entries);
    if (counter.empty())
        return usageError(cmd, QStringLiteral("the library has no record labelled '%1' with rounds").arg(pos.at(0)));
    const auto trend = jb::trendOf(*entries, counter, by == QLatin1String("commit"));
    if (p.isSet(QStringLiteral("json"))) {
        out() << toQ(jb::dumpJson(jb::trendToJson(trend, *q.label, counter), 1)) << Qt::endl;
        return kOk;
    }
    out() << "label " << pos.at(0) << ", counter " << toQ(counter) << ", " << trend.size() << " point(s)\n";
    for (const jb::TrendPoint& t : trend) {
        auto n = [](const std::optional<double>& v) { return v ? QString::number(*v, 'g', 4) : QStringLiteral("-"); };
        out() << toQ(t.key.substr(0, by == QLatin1String("commit") ? 12 : 20)) << "  " << n(t.j_per_decode.median)
              << " J/decode [" << n(t.j_per_decode.low) << ", " << n(t.j_per_decode.high) << "]  " << t.records
              << " record(s), " << t.rounds << " round(s)"
              << (t.ratio_to_previous ? QStringLiteral("  x%1 vs previous").arg(*t.ratio_to_previous, 0, 'f', 3)
                                      : QString())
              << (t.regression ? QStringLiteral("  REGRESSION") : QString()) << '\n';
    }
    out().flush();
    return kOk;
}

int cmdCheck(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "The energy gate for CI: compares RECORD's J per decode with the rounds of the library's records "
        "that match QUERY (pooled; RECORD's own bytes excluded), with the statistics of 'compare' (ratio of "
        "medians, 95% percentile bootstrap over rounds). Exit 1 when the ratio is above 1 + PCT/100 and its "
        "whole interval lies above 1: more than the allowed increase, and significantly more than no change. "
        "Exit 0 otherwise, also with no "
        "baseline yet (the first run of a gate). The reason is printed either way."));
    addLibraryOption(p);
    addCreateOption(p);
    p.addPositionalArgument(QStringLiteral("RECORD"), QStringLiteral("The record to check."));
    p.addOption({QStringLiteral("against"),
                 QStringLiteral("The baseline: key=value terms as 'list' takes them, e.g. \"label=gate meta.q=3\"; a "
                               "value with spaces in quotes: \"label='nightly run'\"."),
                 QStringLiteral("QUERY")});
    p.addOption({QStringLiteral("max-increase"),
                 QStringLiteral("Allowed increase of J per decode in percent (default 5)."), QStringLiteral("PCT")});
    p.addOption({QStringLiteral("counter"), QStringLiteral("Whole-device counter (default: the record's first)."),
                 QStringLiteral("C")});
    p.addOption({QStringLiteral("add"), QStringLiteral("Add RECORD to the library after the check.")});
    p.addOption({QStringLiteral("json"), QStringLiteral("Print the result as JSON.")});
    addBootstrapOptions(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    if (p.positionalArguments().size() != 1)
        return usageError(cmd, QStringLiteral("takes one record file, got %1").arg(p.positionalArguments().size()));
    if (!p.isSet(QStringLiteral("against")))
        return usageError(cmd, QStringLiteral("give the baseline with --against QUERY (e.g. --against label=gate)"));
    auto q = jb::parseQuery(toStd(p.value(QStringLiteral("against"))));
    if (!q)
        return usageError(cmd, QStringLiteral("--against: %1").arg(toQ(q.error())));
    if (q->empty())
        return usageError(cmd, QStringLiteral("--against needs at least one term (e.g. label=gate)"));
    NumberFlags flags(p);
    const double maxIncrease = flags.number("max-increase", 0, 1e6).value_or(5);
    if (!flags.error.isEmpty())
        return usageError(cmd, flags.error);
    const jb::Result<BootstrapFlags> boot = bootstrapFlagsFrom(p);
    if (!boot)
        return usageError(cmd, toQ(boot.error()));
    const int resamples = boot->resamples;
    const std::uint64_t seed = boot->seed;
    const QString file = p.positionalArguments().at(0);
    const jb::LoadedFile loaded = jb::loadRecordFile(toStd(file));
    const jb::Result<jb::Record>& rec = loaded.record;
    const std::string& bytes = loaded.bytes;
    if (!rec)
        return usageError(cmd, toQ(rec.error()));
    const std::vector<std::string> counters = rec->wholeDeviceCounters();
    std::string counter = toStd(p.value(QStringLiteral("counter")));
    if (counter.empty() && !counters.empty())
        counter = counters.front();
    if (counter.empty() || std::find(counters.begin(), counters.end(), counter) == counters.end())
        return usageError(cmd, QStringLiteral("%1 has no rounds on counter '%2'").arg(file, toQ(counter)));
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    q->counter = counter;
    q->include_missing = true;  // the gate leaves those out itself, and says how many
    // The record's own bytes (itself, copies of it) are left out by the gate, which counts them.
    const std::string sha = toStd(QString::fromLatin1(
        QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256)
            .toHex()));
    auto baseline = lib->list(*q, true);
    if (!baseline)
        return usageError(cmd, toQ(baseline.error()));
    const jb::GateResult g = jb::energyGate(*rec, *baseline, counter, maxIncrease, resamples, seed, sha);
    if (p.isSet(QStringLiteral("json"))) {
        jb::ojson j = jb::gateToJson(g);
        j["record"] = toStd(file);
        j["against"] = toStd(p.value(QStringLiteral("against")));
        out() << toQ(jb::dumpJson(j, 1)) << Qt::endl;
    } else {
        out() << file << ": " << toQ(g.reason) << Qt::endl;
    }
    if (p.isSet(QStringLiteral("add")))
        if (auto a = lib->addFile(toStd(file)); !a)
            err() << cmd << ": could not add the record: " << toQ(a.error()) << Qt::endl;
    return g.regression ? kAborted : kOk;
}

int cmdExport(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Exports the matching records: --format bmf prints Bencher's metric format (the newest record of each "
        "label and counter: joules-per-decode with its 95% interval, seconds-per-decode), --format csv one "
        "row per record and counter."));
    addLibraryOption(p);
    addCreateOption(p);
    addFilterOptions(p);
    p.addPositionalArgument(QStringLiteral("TERM"), QStringLiteral("key=value filter terms."), QStringLiteral("[TERM...]"));
    p.addOption({QStringLiteral("format"), QStringLiteral("bmf or csv (default bmf)."), QStringLiteral("bmf|csv")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QString format = p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")) : QStringLiteral("bmf");
    if (format != QLatin1String("bmf") && format != QLatin1String("csv"))
        return usageError(cmd, QStringLiteral("--format takes bmf or csv, not '%1'").arg(format));
    auto q = queryFrom(p);
    if (!q)
        return usageError(cmd, toQ(q.error()));
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    auto entries = lib->list(*q, format == QLatin1String("bmf"));
    if (!entries)
        return usageError(cmd, toQ(entries.error()));
    if (format == QLatin1String("bmf"))
        out() << toQ(jb::dumpJson(jb::bencherMetricFormat(*entries), 1)) << Qt::endl;
    else
        out() << toQ(jb::libraryCsv(*entries)) << Qt::flush;
    return kOk;
}

int cmdRefresh(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Hashes every indexed file again: changed files are re-indexed, gone ones marked missing (list "
        "--include-missing shows them), files that came back are unmarked."));
    addLibraryOption(p);
    addCreateOption(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    int rc = 0;
    auto lib = openLibrary(p, cmd, rc);
    if (!lib)
        return rc;
    auto r = lib->refresh();
    if (!r)
        return usageError(cmd, toQ(r.error()));
    for (const std::string& n : r->notes)
        out() << toQ(n) << '\n';
    out() << r->unchanged << " unchanged, " << r->reindexed << " re-indexed, " << r->returned << " back, "
          << r->missing << " missing" << Qt::endl;
    return kOk;
}

int cmdRebuild(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Rebuilds the library from the record files: those it lists (as far as it can still be read) and "
        "the files and folders given. A SQLite file is moved aside to FILE.broken-TIME first, so a corrupt "
        "or newer-schema library is kept; on PostgreSQL the jb_ tables are made again."));
    addLibraryOption(p);
    p.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("More record files or folders."), QStringLiteral("[PATH...]"));
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    std::vector<std::string> paths;
    for (const QString& a : p.positionalArguments())
        paths.push_back(toStd(a));
    auto r = jb::rebuildLibrary(jb::librarySpec(toStd(p.value(QStringLiteral("library")))), paths);
    if (!r)
        return usageError(cmd, toQ(r.error()));
    for (const std::string& l : *r)
        out() << toQ(l) << '\n';
    out().flush();
    return kOk;
}

struct Sub {
    const char* name;
    int (*run)(const QStringList&);
    const char* help;
};
constexpr Sub kSubs[] = {
    {"add", cmdAdd, "index record files or folders"},
    {"list", cmdList, "list records, with filters"},
    {"trend", cmdTrend, "J per decode of a label over dates or commits"},
    {"check", cmdCheck, "gate a record against baseline records (exit 1 on a regression)"},
    {"export", cmdExport, "Bencher metric format (BMF JSON) or CSV"},
    {"refresh", cmdRefresh, "re-hash every file: re-index changed ones, mark gone ones"},
    {"rebuild", cmdRebuild, "rebuild the library from the record files"},
};

}  // namespace

int cmdLibrary(const QStringList& args)
{
    const QString sub = args.value(1);
    for (const Sub& s : kSubs)
        if (sub == QLatin1String(s.name)) {
            QStringList rest = args;
            rest.removeAt(1);
            rest[0] = args.value(0) + QLatin1Char(' ') + sub;
            return s.run(rest);
        }
    QTextStream& to = (sub == QLatin1String("--help") || sub == QLatin1String("-h")) ? out() : err();
    if (!sub.isEmpty() && &to == &err())
        to << args.value(0) << ": unknown subcommand '" << sub << "'\n\n";
    to << "usage: " << args.value(0) << " <subcommand> [options]\n\nsubcommands:\n";
    for (const Sub& s : kSubs)
        to << "  " << QString::fromLatin1(s.name).leftJustified(8) << ' ' << s.help << '\n';
    to << "\n'" << args.value(0) << " <subcommand> --help' describes its options." << Qt::endl;
    return &to == &out() ? kOk : kUsage;
}

}  // namespace jbcli
