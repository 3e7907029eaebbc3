// joulebench-cli measure: the reference harness's command line, verbatim, plus JouleBench's
// flags. Per-round lines on stderr, the record on stdout (or --out, written atomically).
#include "CliCommon.h"
#include "Commands.h"
#include <jb/base/StopSignals.h>
#include <jb/jobs/Provenance.h>
#include <jb/library/Library.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Interleaved.h>
#include <jb/record/Journal.h>
#include <jb/record/JsonText.h>
#include <jb/record/RecordJson.h>
#include <jb/session/RoundLine.h>
#include <jb/session/Session.h>
#include <jb/session/Workloads.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <array>
#include <cstdio>
#include <optional>

#include <unistd.h>

namespace jbcli {

namespace {

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value))
                 : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}

// The flags QCommandLineParser cannot take (several values each), taken out of the arguments
// before '--': --parameter-list NAME VALUES, --parameter-scan NAME MIN MAX, --parameter-step S.
struct ParameterFlags {
    std::vector<jb::ParameterAxis> axes;
    std::vector<std::array<std::string, 3>> scans;  // name, min, max: the step may come later
    std::optional<std::string> step;
};

jb::Result<ParameterFlags> takeParameterFlags(QStringList& args)
{
    ParameterFlags f;
    std::vector<std::pair<std::string, std::string>> lists;
    const int sep = int(args.indexOf(QStringLiteral("--")));
    const int end = sep < 0 ? int(args.size()) : sep;
    QStringList kept;
    for (int i = 0; i < int(args.size()); ++i) {
        const QString a = args[i];
        auto values = [&](int n, const char* usage) -> jb::Result<std::vector<std::string>> {
            if (i + n >= end)
                return jb::Error{std::string(usage)};
            std::vector<std::string> v;
            for (int k = 1; k <= n; ++k)
                v.push_back(toStd(args[i + k]));
            i += n;
            return v;
        };
        if (i < end && a == QStringLiteral("--parameter-list")) {
            auto v = values(2, "--parameter-list takes NAME and VALUES (comma-separated), e.g. --parameter-list q 3,6,9");
            if (!v)
                return jb::Error{v.error()};
            lists.emplace_back((*v)[0], (*v)[1]);
        } else if (i < end && a == QStringLiteral("--parameter-scan")) {
            auto v = values(3, "--parameter-scan takes NAME MIN MAX, e.g. --parameter-scan q 1 6");
            if (!v)
                return jb::Error{v.error()};
            f.scans.push_back({(*v)[0], (*v)[1], (*v)[2]});
        } else if (i < end && a == QStringLiteral("--parameter-step")) {
            auto v = values(1, "--parameter-step takes a number");
            if (!v)
                return jb::Error{v.error()};
            if (f.step)
                return jb::Error{"--parameter-step was given twice"};
            f.step = (*v)[0];
        } else {
            kept << a;
        }
    }
    if (f.step && f.scans.empty())
        return jb::Error{"--parameter-step goes with --parameter-scan"};
    for (const auto& [name, csv] : lists) {
        auto axis = jb::parameterList(name, csv);
        if (!axis)
            return jb::Error{axis.error()};
        f.axes.push_back(std::move(axis.value()));
    }
    for (const auto& sc : f.scans) {
        auto axis = jb::parameterScan(sc[0], sc[1], sc[2], f.step);
        if (!axis)
            return jb::Error{axis.error()};
        f.axes.push_back(std::move(axis.value()));
    }
    args = kept;
    return f;
}

// A record that could go nowhere it was meant to (--out and standard output both failed) is
// written to a file of its own, in the current folder or else the temporary one; its path, or
// empty when neither takes it.
QString keepUnsavedRecord(const std::string& json)
{
    const QString name = QStringLiteral("joulebench-unsaved-%1-%2.json")
                             .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")))
                             .arg(qint64(::getpid()));
    for (const QString& dir : {QDir::currentPath(), QDir::tempPath()}) {
        const QString path = QDir(dir).absoluteFilePath(name);
        if (!QFileInfo::exists(path) && jb::writeFileAtomic(toStd(path), json))
            return path;
    }
    return {};
}

}  // namespace

int cmdMeasure(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString cmd = args.value(0);
    auto params = takeParameterFlags(args);
    if (!params)
        return usageError(cmd, toQ(params.error()));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs a decoder child in timed rounds and reads energy counters around them.\n"
        "The child prints 'ready <n>', answers 'go <k>' with 'done <decodes> <wall-ns> [note]',\n"
        "and exits on 'exit'. The record (JSON) goes to stdout, one line per round to stderr.\n"
        "Exit status: 0 complete, 1 aborted (the record is still written), 2 usage."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("-- CHILD [ARGS...] [::: CHILD2 [ARGS...] ...]"),
                            QStringLiteral("The decoder's command line, started without a shell. Several, "
                                           "separated by ':::', run interleaved in balanced blocks and are "
                                           "compared (paired statistics); {NAME} in an argument takes each "
                                           "value of --parameter-list NAME V1,V2,... or --parameter-scan NAME "
                                           "MIN MAX [--parameter-step S]."));
    p.addOptions({
        opt("label", "Label of the run (the record's 'label').", "L"),
        opt("rounds", "Rounds to run (default 7).", "R"),
        opt("k", "Passes over the child's jobs per round: 'go <k>' (default 1).", "K"),
        opt("idle-s", "Seconds of each idle bracket (default 5).", "S"),
        opt("counter", "A counter (repeatable): rapl, rapl:NAME, task, ioreport-gpu, sim, nvml:N.", "C"),
        opt("sample-ms", "Period of the whole-device counters in ms (default 100).", "MS"),
        opt("meta", "A JSON object stored as the record's 'meta' (default {}).", "JSON"),
        opt("ready-timeout", "Seconds to wait for 'ready' (default 300).", "S"),
        opt("round-timeout", "Seconds to wait for 'done' in a round (default: no limit).", "S"),
        opt("workdir", "Working folder of the child (default: the current one).", "DIR"),
        opt("samples", "Put the raw intervals of every counter into the record."),
        opt("out", "Write the record to FILE (atomically) instead of stdout.", "FILE"),
        opt("journal", "Journal each finished round to FILE, so 'joulebench-cli recover FILE' rebuilds "
                       "the record after a crash (default with --out: FILE.journal).", "FILE"),
        opt("source", "Record the git commit, branch and dirty state of the code in DIR (the record's "
                      "'source'), so the library keys the run by the commit it measured.", "DIR"),
        opt("require-clean", "With --source: refuse to run when tracked files have uncommitted changes."),
        opt("library", "Add the record written with --out to this library (default $JOULEBENCH_LIBRARY, else "
                       "the user's library file).", "FILE|URL"),
        opt("no-library", "Do not add the record to a library."),
        opt("name", "Several children: the name of each, in order (repeatable; {NAME} is substituted; default: "
                    "the child's command line).", "NAME"),
        opt("warmup", "Several children: blocks run first, recorded, and kept out of the statistics (default 0).", "N"),
        opt("baseline", "Several children: the child the others are compared with (default: the first).", "NAME"),
        opt("order-seed", "Several children: the seed of the blocks' balanced order (default 1).", "N"),
        opt("phase-seed", "The seed of the rounds' random phase offsets (default 1; the record's 'phases').",
            "N"),
        opt("fixed-phase", "Start every round right after its idle bracket, without a random phase offset."),
        opt("profile", "A counter's measured profile (characterize --out FILE; repeatable): the record "
                       "carries it instead of the kind's default; rounds name its limits.", "FILE"),
        opt("keep-going", "Several children: a child that fails or times out is dropped (its record is written, "
                          "aborted, with its rounds and the reason; comparison.json marks it) and the others go on "
                          "(default: the failure ends the run). The exit status is still 1."),
        opt("out-dir", "Several children: write each child's record and comparison.json into DIR (needed).", "DIR"),
        opt("export-markdown", "Several children: write the comparison table as Markdown to FILE.", "FILE"),
        opt("export-csv", "Several children: write the comparison table as CSV to FILE.", "FILE"),
    });
    addCounterOptions(p);
    // Everything after "--" is the child: QCommandLineParser hands it over as positionals.
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const int sep = int(args.indexOf(QStringLiteral("--")));
    if (sep < 0)
        return usageError(cmd, QStringLiteral("give the child's command line after '--' "
                                              "(e.g. -- joulebench-demo-decoder serve)"));
    if (p.positionalArguments().size() != args.size() - sep - 1)
        return usageError(cmd, QStringLiteral("unexpected argument '%1' before '--'").arg(p.positionalArguments().value(0)));

    jb::Plan plan;
    NumberFlags flags(p);
    auto integer = [&](const char* name, int& into) {
        if (const auto v = flags.integer(name))
            into = int(*v);
    };
    auto number = [&](const char* name, double& into) {
        if (const auto v = flags.number(name))
            into = *v;
    };
    if (p.isSet(QStringLiteral("label")))
        plan.label = toStd(p.value(QStringLiteral("label")));
    integer("rounds", plan.rounds);
    integer("k", plan.k);
    integer("warmup", plan.warmup);
    number("idle-s", plan.idle_s);
    number("sample-ms", plan.sample_ms);
    number("ready-timeout", plan.ready_timeout_s);
    plan.round_timeout_s = flags.number("round-timeout");
    if (const auto s = flags.seed("order-seed"))
        plan.order_seed = *s;
    if (const auto s = flags.seed("phase-seed"))
        plan.phase_seed = *s;
    plan.random_phase = !p.isSet(QStringLiteral("fixed-phase"));
    for (const QString& f : p.values(QStringLiteral("profile"))) {
        auto text = jb::readWholeFile(toStd(f));
        if (!text)
            return usageError(cmd, QStringLiteral("--profile: %1").arg(toQ(text.error())));
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(*text);
        } catch (const nlohmann::json::parse_error& e) {
            return usageError(
                cmd, QStringLiteral("--profile %1: not JSON: %2").arg(f, QString::fromUtf8(e.what())));
        }
        auto prof = jb::CounterProfile::fromJson(j, toStd(f));
        if (!prof)
            return usageError(cmd, QStringLiteral("--profile: %1").arg(toQ(prof.error())));
        plan.profiles.push_back(std::move(*prof));
    }
    if (!flags.error.isEmpty())
        return usageError(cmd, flags.error);
    for (const QString& c : p.values(QStringLiteral("counter")))
        plan.counters.push_back(toStd(c));
    if (p.isSet(QStringLiteral("meta"))) {
        const std::string text = toStd(p.value(QStringLiteral("meta")));
        try {
            plan.meta = nlohmann::ordered_json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            return usageError(cmd, QStringLiteral("--meta is not JSON: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    plan.workdir = toStd(p.value(QStringLiteral("workdir")));
    plan.with_samples = p.isSet(QStringLiteral("samples"));
    plan.keep_going = p.isSet(QStringLiteral("keep-going"));
    std::vector<std::string> childArgs;
    for (const QString& a : p.positionalArguments())
        childArgs.push_back(toStd(a));
    auto commands = jb::splitCommands(childArgs);
    if (!commands)
        return usageError(cmd, toQ(commands.error()));
    std::vector<std::string> names;
    for (const QString& n : p.values(QStringLiteral("name")))
        names.push_back(toStd(n));
    auto workloads = jb::expandWorkloads(*commands, params->axes, names);
    if (!workloads)
        return usageError(cmd, toQ(workloads.error()));
    const bool several = workloads->size() > 1;
    if (several) {
        for (const jb::Workload& w : *workloads)
            plan.children.push_back({w.name, w.argv, {}});
        plan.child = workloads->front().argv;
    } else {
        plan.child = workloads->front().argv;
    }
    for (const char* only : {"warmup", "baseline", "order-seed", "keep-going", "out-dir", "export-markdown", "export-csv"})
        if (!several && p.isSet(QString::fromLatin1(only)))
            return usageError(cmd, QStringLiteral("--%1 is for several children (-- A ::: B, or a parameter list)")
                                       .arg(QString::fromLatin1(only)));
    if (!several && p.isSet(QStringLiteral("name")))
        return usageError(cmd, QStringLiteral("--name is for several children (-- A ::: B); a single run has --label"));
    int baseline = 0;
    if (p.isSet(QStringLiteral("baseline"))) {
        const std::string b = toStd(p.value(QStringLiteral("baseline")));
        baseline = -1;
        for (std::size_t i = 0; i < plan.children.size(); ++i)
            if (plan.children[i].name == b)
                baseline = int(i);
        if (baseline < 0) {
            QStringList known;
            for (const jb::PlanChild& c : plan.children)
                known << toQ(c.name);
            return usageError(cmd, QStringLiteral("--baseline %1: no child has that name (the children: %2)")
                                       .arg(toQ(b), known.join(QStringLiteral(", "))));
        }
    }
    const QString outDir = p.value(QStringLiteral("out-dir"));
    if (several) {
        if (outDir.isEmpty())
            return usageError(cmd, QStringLiteral("several children write several records: give --out-dir DIR"));
        if (p.isSet(QStringLiteral("out")) || p.isSet(QStringLiteral("journal")))
            return usageError(cmd, QStringLiteral("several children: --out and --journal are for one child; "
                                                  "--out-dir DIR takes every record"));
        if (!QDir().mkpath(outDir))
            return usageError(cmd, QStringLiteral("--out-dir %1: cannot create the folder").arg(outDir));
        // Every record goes there at the end: a folder that takes no file is refused now, before
        // the first round, not after the run (when its measurements would have nowhere to go).
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(outDir)); !st)
            return usageError(cmd, QStringLiteral("--out-dir: %1; nothing was run").arg(toQ(st.error())));
        for (const char* flag : {"export-markdown", "export-csv"}) {
            const QString f = p.value(QString::fromLatin1(flag));
            if (f.isEmpty())
                continue;
            if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(f).absolutePath())); !st)
                return usageError(cmd, QStringLiteral("--%1 %2: %3; nothing was run")
                                           .arg(QString::fromLatin1(flag), f, toQ(st.error())));
        }
    }
    auto copts = counterOptionsFrom(p);
    if (!copts)
        return usageError(cmd, toQ(copts.error()));
    plan.counter_options = copts.value();
    if (jb::Status v = jb::validatePlan(plan); !v)
        return usageError(cmd, toQ(v.error()));
    const QString outPath = p.value(QStringLiteral("out"));
    if (!outPath.isEmpty() && !QFileInfo(outPath).absoluteDir().exists())
        return usageError(cmd, QStringLiteral("--out %1: the folder %2 does not exist")
                                   .arg(outPath, QFileInfo(outPath).absolutePath()));
    plan.journal_path = toStd(p.isSet(QStringLiteral("journal")) ? p.value(QStringLiteral("journal"))
                              : outPath.isEmpty()                  ? QString()
                                                                   : outPath + QStringLiteral(".journal"));
    if (!outPath.isEmpty())
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(outPath).absolutePath())); !st)
            return usageError(cmd, QStringLiteral("--out %1: %2; nothing was run").arg(outPath, toQ(st.error())));
    // The journal is a file this run creates, never one that is there: an existing one may hold
    // a killed run's rounds, which only `recover` may turn into a record.
    if (!plan.journal_path.empty()) {
        const QString journal = toQ(plan.journal_path);
        const QString flag = p.isSet(QStringLiteral("journal")) ? QStringLiteral("--journal") : QStringLiteral("--out");
        if (QFileInfo(journal).exists() || QFileInfo(journal).isSymLink())
            return usageError(cmd, QStringLiteral("%1: the journal %2 exists (it may hold a run that did not finish: "
                                                  "'joulebench-cli recover %2' rebuilds its record; remove it to "
                                                  "start anew); nothing was run")
                                       .arg(flag, journal));
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(journal).absolutePath())); !st)
            return usageError(cmd, QStringLiteral("%1: cannot keep the journal %2: %3; nothing was run")
                                       .arg(flag, journal, toQ(st.error())));
    }

    if (p.isSet(QStringLiteral("require-clean")) && !p.isSet(QStringLiteral("source")))
        return usageError(cmd, QStringLiteral("--require-clean needs --source DIR (the tree that must be clean)"));
    if (p.isSet(QStringLiteral("library")) && p.isSet(QStringLiteral("no-library")))
        return usageError(cmd, QStringLiteral("--library and --no-library exclude each other"));
    // The code's provenance, as the job queue records it (git state only: nothing is hashed).
    jb::ojson source;
    if (p.isSet(QStringLiteral("source"))) {
        jb::ProvenanceSettings prov;
        prov.source = toStd(QFileInfo(p.value(QStringLiteral("source"))).absoluteFilePath());
        prov.require_clean = p.isSet(QStringLiteral("require-clean"));
        auto report = jb::sourceReport(prov, false);
        if (!report)
            return usageError(cmd, QStringLiteral("--source: %1").arg(toQ(report.error())));
        source = jb::ojson::parse(report->dump());
    }
    const bool toLibrary = !outPath.isEmpty() && !p.isSet(QStringLiteral("no-library"));
    const std::string librarySpec = jb::librarySpec(toStd(p.value(QStringLiteral("library"))));

    jb::Session session(plan);
    int exitCode = kAborted;
    QObject::connect(&session, &jb::Session::roundFinished, [&](int index, const jb::Round& r) {
        if (!several) {
            err() << toQ(jb::roundLine(plan, index, r)) << Qt::endl;
            return;
        }
        const int block = session.roundBlock(index);
        const bool warm = session.isWarmupRound(index);
        jb::Plan shown = plan;
        shown.rounds = plan.rounds + plan.warmup;
        err() << "[" << toQ(plan.children[std::size_t(session.roundChild(index))].name) << "] "
              << (warm ? "warm-up " : "") << toQ(jb::roundLine(shown, block, r)) << Qt::endl;
    });
    QObject::connect(&session, &jb::Session::finishedSet, [&](const std::vector<jb::Record>& records) {
        bool aborted = false, failed_write = false;
        jb::InterleavedInput in;
        for (std::size_t i = 0; i < records.size(); ++i) {
            jb::Record rec = records[i];
            if (!source.is_null())
                rec.extra["source"] = source;
            aborted = aborted || rec.isAborted();
            in.records.push_back(std::move(rec));
            in.names.push_back(plan.children[i].name);
        }
        // A dropped child (--keep-going) is aborted alone; the run aborted when a kept one is.
        const auto& drops = session.drops();
        const jb::Record* runError = nullptr;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (drops[i])
                err() << cmd << ": " << toQ(plan.children[i].name) << " was dropped at block " << drops[i]->block
                      << ": " << toQ(drops[i]->reason) << " (its record keeps its " << records[i].rounds.size()
                      << " finished round" << (records[i].rounds.size() == 1 ? "" : "s") << ")" << Qt::endl;
            else if (records[i].isAborted() && !runError)
                runError = &records[i];
        }
        if (runError)
            err() << cmd << ": aborted: " << toQ(runError->error.value_or("")) << " (each record keeps its "
                  << "finished rounds)" << Qt::endl;
        in.order = session.order();
        in.warmup_blocks = plan.warmup;
        in.order_seed = plan.order_seed;
        in.baseline = baseline;
        const jb::InterleavedWrite written = jb::writeInterleavedRun(toStd(outDir), std::move(in));
        for (const std::string& e : written.errors) {
            err() << cmd << ": " << toQ(e) << Qt::endl;
            failed_write = true;
        }
        if (!p.isSet(QStringLiteral("no-library")))
            for (const std::string& path : written.paths) {
                if (path.empty())
                    continue;
                auto lib = jb::Library::open(librarySpec);
                auto added = lib ? (*lib)->addFile(path) : jb::Result<jb::AddResult>(jb::Error{lib.error()});
                if (!added)
                    err() << cmd << ": warning: " << toQ(path) << " was not added to the library: "
                          << toQ(added.error()) << Qt::endl;
            }
        const jb::ojson& comparison = written.comparison;
        const std::string table = jb::comparisonMarkdown(comparison);
        out() << QString::fromStdString(table);
        out().flush();
        for (const auto& [flag, text] : {std::pair{QStringLiteral("export-markdown"), table},
                                         std::pair{QStringLiteral("export-csv"), jb::comparisonCsv(comparison)}}) {
            if (!p.isSet(flag))
                continue;
            if (jb::Status st = jb::writeFileAtomic(toStd(p.value(flag)), text); !st) {
                err() << cmd << ": --" << flag << ": " << toQ(st.error()) << Qt::endl;
                failed_write = true;
            }
        }
        exitCode = aborted || failed_write ? kAborted : kOk;
        QCoreApplication::exit(exitCode);
    });
    QObject::connect(&session, &jb::Session::warning, [&](const QString& w) {
        err() << cmd << ": warning: " << w << Qt::endl;
    });
    QObject::connect(&session, &jb::Session::finished, [&](const jb::Record& finished) {
        jb::Record rec = finished;
        if (!source.is_null())
            rec.extra["source"] = source;
        const std::string json = jb::dumpRecord(rec);
        if (rec.isAborted())
            err() << cmd << ": aborted: " << toQ(rec.error.value_or("")) << " (the record keeps "
                  << rec.rounds.size() << " finished round" << (rec.rounds.size() == 1 ? "" : "s") << ")"
                  << Qt::endl;
        bool written = false;
        if (!outPath.isEmpty()) {
            jb::Status st = jb::writeFileAtomic(toStd(outPath), json);
            if (st)
                written = true;
            else
                err() << cmd << ": could not write the record: " << toQ(st.error())
                      << "; it goes to stdout instead" << Qt::endl;
        }
        bool lost = false;
        if (!written) {
            out() << QString::fromStdString(json);
            if (const QString why = stdoutFailure(); !why.isEmpty()) {
                // Standard output lost it (a full disk, /dev/full): the record goes to a file of
                // its own, said aloud; the journal, if any, stays as well.
                const QString kept = keepUnsavedRecord(json);
                err() << cmd << ": cannot write the record to standard output: " << why << "; "
                      << (kept.isEmpty() ? QStringLiteral("no folder took it either")
                                         : QStringLiteral("it was written to %1").arg(kept))
                      << (plan.journal_path.empty() ? QString()
                                                    : QStringLiteral(" (the journal %1 is kept)").arg(toQ(plan.journal_path)))
                      << Qt::endl;
                lost = true;
                out().resetStatus();
                std::clearerr(stdout);
            }
        }
        if (written && !plan.journal_path.empty())
            jb::removeOwnJournal(plan.journal_path);  // the record is safe: the journal has done its job
        if (written && toLibrary) {  // a library that cannot take it costs a warning, never the record
            auto lib = jb::Library::open(librarySpec);
            auto added = lib ? (*lib)->addFile(toStd(outPath)) : jb::Result<jb::AddResult>(jb::Error{lib.error()});
            if (!added)
                err() << cmd << ": warning: the record was not added to the library: " << toQ(added.error())
                      << Qt::endl;
        }
        exitCode = (rec.isAborted() || lost || (!outPath.isEmpty() && !written)) ? kAborted : kOk;
        QCoreApplication::exit(exitCode);
    });

    // Ctrl-C, SIGTERM and SIGHUP end the child and write the partial record.
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, &session, [&session](int signo) {
        session.abort(QStringLiteral("interrupted by a signal (%1)").arg(jb::StopSignals::name(signo)));
    });
    QMetaObject::invokeMethod(&session, &jb::Session::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

}  // namespace jbcli
