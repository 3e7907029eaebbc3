// joulebench-cli measure: the reference harness's command line, verbatim, plus JouleBench's
// flags. Per-round lines on stderr, the record on stdout (or --out, written atomically).
#include "CliCommon.h"
#include "Commands.h"
#include "base/StopSignals.h"
#include "jobs/Provenance.h"
#include "library/Library.h"
#include "record/AtomicWrite.h"
#include "record/RecordJson.h"
#include "session/RoundLine.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>


namespace jbcli {

namespace {

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value))
                 : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}

}  // namespace

int cmdMeasure(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs a decoder child in timed rounds and reads energy counters around them.\n"
        "The child prints 'ready <n>', answers 'go <k>' with 'done <decodes> <wall-ns> [note]',\n"
        "and exits on 'exit'. The record (JSON) goes to stdout, one line per round to stderr.\n"
        "Exit status: 0 complete, 1 aborted (the record is still written), 2 usage."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("-- CHILD [ARGS...]"),
                            QStringLiteral("The decoder's command line, started without a shell."));
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
    auto integer = [&](const char* name, int& into) -> bool {
        const QString n = QString::fromLatin1(name);
        if (!p.isSet(n))
            return true;
        bool ok = false;
        into = p.value(n).toInt(&ok);
        if (!ok)
            usageError(cmd, QStringLiteral("--%1 takes an integer, not '%2'").arg(n, p.value(n)));
        return ok;
    };
    auto number = [&](const char* name, double& into) -> bool {
        const QString n = QString::fromLatin1(name);
        if (!p.isSet(n))
            return true;
        bool ok = false;
        into = p.value(n).toDouble(&ok);
        if (!ok)
            usageError(cmd, QStringLiteral("--%1 takes a number, not '%2'").arg(n, p.value(n)));
        return ok;
    };
    if (p.isSet(QStringLiteral("label")))
        plan.label = toStd(p.value(QStringLiteral("label")));
    if (!integer("rounds", plan.rounds) || !integer("k", plan.k) || !number("idle-s", plan.idle_s) ||
        !number("sample-ms", plan.sample_ms) || !number("ready-timeout", plan.ready_timeout_s))
        return kUsage;
    if (p.isSet(QStringLiteral("round-timeout"))) {
        double t = 0;
        if (!number("round-timeout", t))
            return kUsage;
        plan.round_timeout_s = t;
    }
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
    for (const QString& a : p.positionalArguments())
        plan.child.push_back(toStd(a));
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
        err() << toQ(jb::roundLine(plan, index, r)) << Qt::endl;
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
        if (!written) {
            out() << QString::fromStdString(json);
            out().flush();
        }
        if (written && !plan.journal_path.empty())
            QFile::remove(toQ(plan.journal_path));  // the record is safe: the journal has done its job
        if (written && toLibrary) {  // a library that cannot take it costs a warning, never the record
            auto lib = jb::Library::open(librarySpec);
            auto added = lib ? (*lib)->addFile(toStd(outPath)) : jb::Result<jb::AddResult>(jb::Error{lib.error()});
            if (!added)
                err() << cmd << ": warning: the record was not added to the library: " << toQ(added.error())
                      << Qt::endl;
        }
        exitCode = (rec.isAborted() || (!outPath.isEmpty() && !written)) ? kAborted : kOk;
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
