// `joulebench-cli recover JOURNAL [--out FILE]`: rebuild the record of a run that did not
// finish from its journal: every complete round, status "aborted". The record goes to stdout,
// or to FILE written atomically (never over an existing file unless --force).
// Exit 0 recovered, 1 standard output could not take the record (the journal is left as it was),
// 2 usage, an unreadable or foreign journal, or a file that cannot be written.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/record/AtomicWrite.h>
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>

#include <QCommandLineParser>
#include <QFileInfo>

#include <cstdio>

namespace jbcli {

int cmdRecover(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Rebuilds the record of a run that stopped before it finished (killed, crashed, power cut) from the "
        "journal it kept (measure --journal): every complete round with its samples; status \"aborted\"."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("JOURNAL"), QStringLiteral("The run's journal file."));
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("Write the record to FILE (atomically) instead of stdout."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("force"), QStringLiteral("Let --out replace an existing file.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList files = p.positionalArguments();
    if (files.size() != 1)
        return usageError(args.value(0), QStringLiteral("takes one journal file, got %1").arg(files.size()));
    const QString outFile = p.value(QStringLiteral("out"));
    if (p.isSet(QStringLiteral("out")) && outFile.isEmpty())
        return usageError(args.value(0), QStringLiteral("--out needs a file name"));
    if (!outFile.isEmpty() && !p.isSet(QStringLiteral("force")) && QFileInfo::exists(outFile))
        return usageError(args.value(0),
                          QStringLiteral("%1 exists; pass --force to replace it").arg(outFile));

    const jb::Result<jb::Record> r = jb::recoverJournal(toStd(files.at(0)));
    if (!r)
        return usageError(args.value(0), toQ(r.error()));
    const std::string text = jb::dumpRecord(*r);
    if (outFile.isEmpty()) {
        out() << toQ(text);
        if (const QString why = stdoutFailure(); !why.isEmpty()) {
            err() << args.value(0) << ": cannot write the record to standard output: " << why << " (the journal "
                  << files.at(0) << " is left as it was; 'recover --out FILE' writes the record to a file)"
                  << Qt::endl;
            out().resetStatus();
            std::clearerr(stdout);
            return kAborted;
        }
    } else if (jb::Status st = jb::writeFileAtomic(toStd(outFile), text); !st) {
        return usageError(args.value(0), toQ(st.error()));
    }
    err() << args.value(0) << ": recovered " << r->rounds.size() << " round(s) from " << files.at(0)
          << (outFile.isEmpty() ? QString() : QStringLiteral(" into ") + outFile) << Qt::endl;
    return kOk;
}

}  // namespace jbcli
