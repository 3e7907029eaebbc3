// `joulebench-cli compare A B [--counter SPEC] [--json]`: the ratio of A's median energy per
// decode to B's with a 95% percentile bootstrap interval over rounds, verdict counts and the
// per-round figures of both. Exit 0 with a ratio; 2 for usage, an unreadable or foreign file,
// a counter the records lack, or records that give no ratio (the reason on stderr).
#include "CliCommon.h"
#include "Commands.h"

#include <jb/record/Compare.h>
#include <jb/record/RecordJson.h>

#include <QCommandLineParser>

#include <algorithm>

namespace jbcli {

namespace {

void printSide(const QString& name, const QString& file, const jb::Record& r,
               const std::vector<jb::RoundJ>& rounds, const std::optional<double>& med,
               const jb::CounterSummary& s)
{
    out() << name << "  " << file << " (label " << (r.label ? toQ(*r.label) : QStringLiteral("-")) << ")\n";
    out() << "   " << rounds.size() << " round(s) with J per decode, median "
          << (med ? num(*med) + QStringLiteral(" J") : QStringLiteral("-")) << "; verdicts: clean " << s.clean
          << ", relative-only " << s.relative_only << ", noisy " << s.noisy << ", unusable " << s.unusable
          << ", none " << s.no_verdict << '\n';
    QStringList per;
    for (const jb::RoundJ& x : rounds)
        per << QStringLiteral("%1:%2").arg(x.round + 1).arg(num(x.j_per_decode));
    out() << "   per round (1-based): " << (per.isEmpty() ? QStringLiteral("-") : per.join(QLatin1Char(' ')))
          << '\n';
}

}  // namespace

int cmdCompare(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Compares the energy per decode of two records on one whole-device counter: the ratio of A's median "
        "J per decode to B's, with a 95% percentile bootstrap interval (the rounds of each record resampled "
        "independently, with replacement), the verdict counts and every round's J per decode."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("A"), QStringLiteral("First record (numerator)."));
    p.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Second record (denominator)."));
    p.addOption({QStringLiteral("counter"),
                 QStringLiteral("Whole-device counter to compare on (default: the first both records have)."),
                 QStringLiteral("SPEC")});
    p.addOption({QStringLiteral("json"), QStringLiteral("Print the comparison as JSON.")});
    addBootstrapOptions(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList files = p.positionalArguments();
    if (files.size() != 2)
        return usageError(args.value(0), QStringLiteral("takes two record files, got %1").arg(files.size()));
    const jb::Result<BootstrapFlags> boot = bootstrapFlagsFrom(p);
    if (!boot)
        return usageError(args.value(0), toQ(boot.error()));
    const int resamples = boot->resamples;
    const std::uint64_t seed = boot->seed;

    const jb::Result<jb::Record> a = jb::loadRecord(toStd(files.at(0)));
    if (!a)
        return usageError(args.value(0), toQ(a.error()));
    const jb::Result<jb::Record> b = jb::loadRecord(toStd(files.at(1)));
    if (!b)
        return usageError(args.value(0), toQ(b.error()));

    const std::vector<std::string> ca = a->wholeDeviceCounters(), cb = b->wholeDeviceCounters();
    auto has = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    auto list = [](const std::vector<std::string>& v) {
        QStringList l;
        for (const std::string& s : v)
            l << toQ(s);
        return l.isEmpty() ? QStringLiteral("none") : l.join(QStringLiteral(", "));
    };
    std::string counter = toStd(p.value(QStringLiteral("counter")));
    if (counter.empty()) {
        for (const std::string& s : ca)
            if (has(cb, s)) {
                counter = s;
                break;
            }
        if (counter.empty())
            return usageError(args.value(0),
                              QStringLiteral("the records have no whole-device counter in common "
                                             "(%1: %2; %3: %4)")
                                  .arg(files.at(0), list(ca), files.at(1), list(cb)));
    } else {
        for (int i = 0; i < 2; ++i) {
            const auto& c = i == 0 ? ca : cb;
            if (!has(c, counter))
                return usageError(args.value(0),
                                  QStringLiteral("%1 has no figures for counter '%2' (it has: %3)")
                                      .arg(files.at(i), toQ(counter), list(c)));
        }
    }

    const jb::Comparison c = jb::compareRecords(*a, *b, counter, resamples, seed);
    if (p.isSet(QStringLiteral("json"))) {
        jb::ojson j = jb::comparisonToJson(c);
        j["a"]["file"] = toStd(files.at(0));
        j["b"]["file"] = toStd(files.at(1));
        out() << toQ(jb::dumpJson(j, 1)) << Qt::endl;
    } else {
        out() << "counter " << toQ(counter) << '\n';
        printSide(QStringLiteral("A"), files.at(0), *a, c.a, c.median_a, c.summary_a);
        printSide(QStringLiteral("B"), files.at(1), *b, c.b, c.median_b, c.summary_b);
        if (c.ratio) {
            out() << "A/B ratio of median J per decode: " << num(*c.ratio);
            if (c.ci_low && c.ci_high)
                out() << ", 95% bootstrap interval [" << num(*c.ci_low) << ", " << num(*c.ci_high) << "] ("
                      << c.resamples << " resamples, seed " << c.seed << ")";
            else
                out() << ", no interval: " << toQ(c.problem);
            out() << Qt::endl;
        }
        out().flush();
    }
    if (!c.ratio)
        return usageError(args.value(0), QStringLiteral("no ratio: %1").arg(toQ(c.problem)));
    return kOk;
}

}  // namespace jbcli
