// joulebench-cli measure: the reference harness's command line, verbatim, plus JouleBench's
// flags. Per-round lines on stderr, the record on stdout (or --out, written atomically).
// An adapter over core/run's MeasureRun: the flags become MeasureRunOptions (RunOptions.cpp),
// the run writes the files; this prints what it did.
#include "CliCommon.h"
#include "Commands.h"
#include "RunOptions.h"
#include "ServeCli.h"
#include <jb/base/StopSignals.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Interleaved.h>
#include <jb/record/RecordJson.h>
#include <jb/remote/RunServer.h>
#include <jb/run/MeasureRun.h>
#include <jb/session/RoundLine.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

#include <unistd.h>

namespace jbcli {

namespace {

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

// One round's line on stderr ("[name] warm-up round ..." for an interleaved run).
void printRound(const jb::MeasureRun& run, int index, const jb::Round& r)
{
    const jb::Plan& plan = run.options().plan;
    const jb::Session* session = run.session();
    if (plan.children.size() < 2 || !session) {
        err() << toQ(jb::roundLine(plan, index, r)) << Qt::endl;
        return;
    }
    const int block = session->roundBlock(index);
    const bool warm = session->isWarmupRound(index);
    jb::Plan shown = plan;
    shown.rounds = plan.rounds + plan.warmup;
    err() << "[" << toQ(plan.children[std::size_t(session->roundChild(index))].name) << "] "
          << (warm ? "warm-up " : "") << toQ(jb::roundLine(shown, block, r)) << Qt::endl;
}

// One child's end: the record's file, or stdout (and a file of its own if stdout fails too).
int printRecordOutcome(const QString& cmd, const jb::MeasureRun& run, const jb::MeasureOutcome& o)
{
    const jb::MeasureRunOptions& opts = run.options();
    const jb::Record& rec = o.records.front();
    if (rec.isAborted())
        err() << cmd << ": aborted: " << toQ(rec.error.value_or("")) << " (the record keeps " << rec.rounds.size()
              << " finished round" << (rec.rounds.size() == 1 ? "" : "s") << ")" << Qt::endl;
    const bool written = !o.paths.front().empty();
    if (!opts.out_path.empty() && !written)
        err() << cmd << ": could not write the record: " << toQ(o.errors.empty() ? std::string() : o.errors.front())
              << "; it goes to stdout instead" << Qt::endl;
    bool lost = false;
    if (!written) {
        const std::string json = jb::dumpRecord(rec);
        out() << QString::fromStdString(json);
        if (const QString why = stdoutFailure(); !why.isEmpty()) {
            // Standard output lost it (a full disk, /dev/full): the record goes to a file of
            // its own, said aloud; the journal, if any, stays as well.
            const QString kept = keepUnsavedRecord(json);
            err() << cmd << ": cannot write the record to standard output: " << why << "; "
                  << (kept.isEmpty() ? QStringLiteral("no folder took it either")
                                     : QStringLiteral("it was written to %1").arg(kept))
                  << (opts.plan.journal_path.empty()
                          ? QString()
                          : QStringLiteral(" (the journal %1 is kept)").arg(toQ(opts.plan.journal_path)))
                  << Qt::endl;
            lost = true;
            out().resetStatus();
            std::clearerr(stdout);
        }
    }
    for (const auto& [path, why] : o.library_errors)
        err() << cmd << ": warning: the record was not added to the library: " << toQ(why) << Qt::endl;
    return (rec.isAborted() || lost || (!opts.out_path.empty() && !written)) ? kAborted : kOk;
}

// Several children's end: drops, the files written, the comparison table and its exports.
int printSetOutcome(const QString& cmd, const MeasureCli& m, const jb::MeasureOutcome& o)
{
    const jb::Plan& plan = m.run.plan;
    const jb::Record* runError = nullptr;
    for (std::size_t i = 0; i < o.records.size(); ++i) {
        const std::optional<jb::ChildDrop>& drop = i < o.drops.size() ? o.drops[i] : std::nullopt;
        if (drop)
            err() << cmd << ": " << toQ(plan.children[i].name) << " was dropped at block " << drop->block << ": "
                  << toQ(drop->reason) << " (its record keeps its " << o.records[i].rounds.size()
                  << " finished round" << (o.records[i].rounds.size() == 1 ? "" : "s") << ")" << Qt::endl;
        else if (o.records[i].isAborted() && !runError)
            runError = &o.records[i];
    }
    if (runError)
        err() << cmd << ": aborted: " << toQ(runError->error.value_or("")) << " (each record keeps its "
              << "finished rounds)" << Qt::endl;
    bool failed_write = false;
    for (const std::string& e : o.errors) {
        err() << cmd << ": " << toQ(e) << Qt::endl;
        failed_write = true;
    }
    for (const auto& [path, why] : o.library_errors)
        err() << cmd << ": warning: " << toQ(path) << " was not added to the library: " << toQ(why) << Qt::endl;
    const std::string table = jb::comparisonMarkdown(o.comparison);
    out() << QString::fromStdString(table);
    out().flush();
    for (const auto& [flag, path, text] :
         {std::tuple{QStringLiteral("export-markdown"), m.export_markdown, table},
          std::tuple{QStringLiteral("export-csv"), m.export_csv, jb::comparisonCsv(o.comparison)}}) {
        if (path.isEmpty())
            continue;
        if (jb::Status st = jb::writeFileAtomic(toStd(path), text); !st) {
            err() << cmd << ": --" << flag << ": " << toQ(st.error()) << Qt::endl;
            failed_write = true;
        }
    }
    return o.aborted || failed_write ? kAborted : kOk;
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
    addMeasureOptions(p);
    addCounterOptions(p);
    // Everything after "--" is the child: QCommandLineParser hands it over as positionals.
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    auto m = measureOptionsFrom(p, args, *params);
    if (!m)
        return usageError(cmd, toQ(m.error()));

    jb::MeasureRun run;
    int exitCode = kAborted;
    QObject::connect(&run, &jb::MeasureRun::roundFinished,
                     [&run](int index, const jb::Round& r) { printRound(run, index, r); });
    QObject::connect(&run, &jb::MeasureRun::finished, [&](const jb::MeasureOutcome& o) {
        exitCode = m->several ? printSetOutcome(cmd, *m, o) : printRecordOutcome(cmd, run, o);
        if (run.server())
            run.server()->flush(kServeFlushMs);  // the watchers get the end before the server goes
        QCoreApplication::exit(exitCode);
    });
    if (jb::Status st = run.start(m->run); !st)
        return usageError(cmd, toQ(st.error()));
    announceServer(cmd, run.server());
    QObject::connect(run.session(), &jb::Session::warning,
                     [&](const QString& w) { err() << cmd << ": warning: " << w << Qt::endl; });

    // Ctrl-C, SIGTERM and SIGHUP end the child and write the partial record.
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, &run, [&run](int signo) {
        run.abort(QStringLiteral("interrupted by a signal (%1)").arg(jb::StopSignals::name(signo)));
    });
    QCoreApplication::exec();
    return exitCode;
}

}  // namespace jbcli
