// `joulebench-cli summary RECORD...`: a table of records, one row per record and counter.
// Exit 0 when every file was read, 2 when some could not be (each named on stderr; the table
// still shows the others). Under the table, each coarse counter is named in the Inspector's
// words (jb::coarseCounter): an "unusable" round there is a fact about the counter.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/record/RecordJson.h>
#include <jb/record/SummaryTable.h>
#include <jb/stats/CounterResolution.h>
#include <jb/stats/CounterTrust.h>

#include <QCommandLineParser>

namespace jbcli {

int cmdSummary(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Prints one row per record and whole-device counter: label, status, rounds, verdict counts, the "
        "median energy per decode with its range over rounds, and the outlier rounds (1-based). Where the "
        "child marked phases, a table per counter: each phase's median marginal energy, its spread (MAD), span, "
        "share of the round and the rounds where it was too short for the counter. Reads "
        "JouleBench records and the reference harness's alike."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("RECORD..."), QStringLiteral("Record files (JSON)."));
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList files = p.positionalArguments();
    if (files.isEmpty())
        return usageError(args.value(0), QStringLiteral("takes one or more record files"));

    std::vector<std::pair<std::string, jb::Record>> records;
    int failed = 0;
    for (const QString& f : files) {
        jb::Result<jb::Record> r = jb::loadRecord(toStd(f));
        if (!r) {
            err() << args.value(0) << ": " << toQ(r.error()) << Qt::endl;
            ++failed;
            continue;
        }
        records.emplace_back(toStd(f), std::move(*r));
    }
    if (!records.empty()) {
        QTextStream& s = out();
        s << toQ(jb::summaryTable(records));
        // Phases (the child's marks): one table per record and counter.
        for (const auto& [file, rec] : records)
            for (const std::string& spec : rec.wholeDeviceCounters())
                if (const std::string t = jb::phaseTable(rec, spec); !t.empty())
                    s << "\n" << toQ(file) << ": " << toQ(t);
        for (const auto& [file, rec] : records)
            for (const std::string& spec : rec.wholeDeviceCounters())
                if (const jb::CoarseCounter c = jb::coarseCounter(rec, spec); c.coarse())
                    s << "\n" << toQ(file) << ": " << toQ(c.text()) << "\n";
        // A counter whose J per decode is relative only, and which to trust (jb::counterTrust,
        // the Inspector's and the Library's words).
        for (const auto& [file, rec] : records)
            for (const std::string& spec : rec.wholeDeviceCounters())
                if (const jb::CounterTrust t = jb::counterTrust(rec, spec); !t.absolute)
                    s << "\n" << toQ(file) << ": J per decode relative only (" << toQ(spec) << "): " << toQ(t.text())
                      << "\n";
        s << Qt::flush;
    }
    return failed ? kUsage : kOk;
}

}  // namespace jbcli
