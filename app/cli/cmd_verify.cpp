// `joulebench-cli verify RECORD`: recompute a record's round figures from its raw samples.
// Exit 0: every recomputed figure agrees with the stored one. 1: some disagree (each printed
// with its JSON path). 2: usage, an unreadable or foreign file, or a record that cannot be
// verified (no samples, or no round windows), with the reason on stderr.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/record/RecordJson.h>
#include <jb/record/Verify.h>
#include <jb/stats/PhaseEnergy.h>

#include <QCommandLineParser>

namespace jbcli {

int cmdVerify(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Recomputes every round's figures (busy and idle brackets, window energy, marginal energy, ratio, "
        "verdict, idle drift, each phase's energy) from the raw samples a record holds, with the code the live run uses, and lists each stored "
        "figure that disagrees by its JSON path. Records written with --samples can be verified.\n"
        "Exit status: 0 all agree, 1 some disagree, 2 bad file or nothing to verify."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("RECORD"), QStringLiteral("The record (JSON) to check."));
    p.addOption({QStringLiteral("quiet"), QStringLiteral("Print only the disagreements and the last line.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList files = p.positionalArguments();
    if (files.size() != 1)
        return usageError(args.value(0), QStringLiteral("takes one record file, got %1").arg(files.size()));
    const std::string path = toStd(files.at(0));

    const jb::Result<jb::Record> r = jb::loadRecord(path);
    if (!r)
        return usageError(args.value(0), toQ(r.error()));
    const jb::VerifyReport rep = jb::verifyRecordWithPhases(*r);
    if (!rep.verifiable) {
        for (const std::string& n : rep.notes)
            err() << "note: " << toQ(n) << '\n';
        return usageError(args.value(0), toQ(path + " cannot be verified: " + rep.why_not));
    }
    for (const jb::Disagreement& d : rep.disagreements)
        out() << toQ(d.path) << ": stored " << toQ(d.stored) << ", recomputed " << toQ(d.recomputed) << '\n';
    if (!p.isSet(QStringLiteral("quiet")))
        for (const std::string& n : rep.notes)
            out() << "note: " << toQ(n) << '\n';
    out() << toQ(path) << ": " << rep.counters_checked << " counter round(s) in " << rep.rounds_checked
          << " round(s) recomputed, " << rep.figures_checked << " figures compared: ";
    if (rep.disagreements.empty())
        out() << "all agree" << Qt::endl;
    else
        out() << rep.disagreements.size() << " disagree" << Qt::endl;
    return rep.disagreements.empty() ? kOk : kAborted;
}

}  // namespace jbcli
