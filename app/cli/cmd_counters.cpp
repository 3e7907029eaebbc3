// `joulebench-cli counters`: every counter this machine could have, readable or why not.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/counters/CounterRegistry.h>
#include <jb/sampling/Sampler.h>

#include <nlohmann/json.hpp>

#include <QCommandLineParser>

#include <algorithm>
#include <chrono>
#include <thread>

namespace jbcli {

int cmdCounters(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Lists every energy counter JouleBench knows, whether this machine can read it "
                       "(or why not, with the fix) and what it measures."));
    p.addHelpOption();
    p.addOption({QStringLiteral("json"), QStringLiteral("Print a JSON array instead of a table.")});
    p.addOption(
        {QStringLiteral("best"),
         QStringLiteral("Print only the best whole-device counter this machine can read (rapl, else sim).")});
    p.addOption({QStringLiteral("probe"),
                 QStringLiteral("Also read each readable whole-device counter twice, a second apart, and print "
                                "its power (what to paste into a bug report).")});
    addCounterOptions(p);
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    if (!p.positionalArguments().isEmpty())
        return usageError(args.value(0),
                          QStringLiteral("takes no arguments, got '%1'")
                              .arg(p.positionalArguments().join(QLatin1Char(' '))));
    auto opt = counterOptionsFrom(p);
    if (!opt)
        return usageError(args.value(0), toQ(opt.error()));

    if (p.isSet(QStringLiteral("best"))) {
        out() << toQ(jb::defaultCounterSpec(*opt)) << Qt::endl;
        return kOk;
    }

    const std::vector<jb::CounterStatus> list = jb::listCounters(*opt);
    if (p.isSet(QStringLiteral("json"))) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const jb::CounterStatus& s : list) {
            const jb::CounterDetails d = jb::counterDetails(s.spec, *opt);
            a.push_back({{"spec", s.spec},
                         {"whole_device", s.whole_device},
                         {"available", s.available},
                         {"reason", s.reason},
                         {"description", s.description},
                         {"scope", d.scope},
                         {"unit", d.unit},
                         {"source", d.source},
                         {"wrap_range", d.wrap_range > 0 ? nlohmann::ordered_json(d.wrap_range)
                                                         : nlohmann::ordered_json(nullptr)}});
        }
        out() << QString::fromStdString(a.dump(1)) << Qt::endl;
        return kOk;
    }

    // A table for people: the reason (often long: the fix) goes on its own line under the row.
    qsizetype width = qsizetype(std::char_traits<char>::length("COUNTER"));
    for (const jb::CounterStatus& s : list)
        width = std::max(width, qsizetype(s.spec.size()));
    const auto row = [&](const QString& spec, const QString& readable, const QString& what) {
        out() << spec.leftJustified(width + 2) << readable.leftJustified(10) << what << '\n';
    };
    row(QStringLiteral("COUNTER"), QStringLiteral("READABLE"), QStringLiteral("WHAT IT MEASURES"));
    for (const jb::CounterStatus& s : list) {
        row(toQ(s.spec), s.available ? QStringLiteral("yes") : QStringLiteral("no"), toQ(s.description));
        if (const jb::CounterDetails d = jb::counterDetails(s.spec, *opt); !d.scope.empty())
            out() << QString(width + 2, QLatin1Char(' ')) << "scope: " << toQ(d.scope)
                  << (d.unit.empty() ? QString() : QStringLiteral("; unit ") + toQ(d.unit))
                  << (d.wrap_range > 0 ? QStringLiteral("; wraps at %1").arg(d.wrap_range) : QString()) << '\n';
        if (!s.available)
            out() << QString(width + 2, QLatin1Char(' ')) << "why: " << toQ(s.reason) << '\n';
    }
    out() << "\nbest whole-device counter here: " << toQ(jb::defaultCounterSpec(*opt)) << Qt::endl;
    if (p.isSet(QStringLiteral("probe"))) {
        out() << "\nprobe (1 s each):\n";
        for (const jb::CounterStatus& s : list) {
            if (!s.available || !s.whole_device)
                continue;
            const auto w = jb::probeWatts(s.spec, *opt);
            out() << toQ(s.spec).leftJustified(width + 2)
                  << (w ? QStringLiteral("%1 W").arg(*w, 0, 'f', 3) : QStringLiteral("error: ") + toQ(w.error()));
            // sysfs counters only: their cadence is what a period must respect (and a second
            // each keeps the probe short where a machine lists dozens of channels).
            const bool sysfs = s.spec == "rapl" || s.spec.rfind("rapl:", 0) == 0 || s.spec.rfind("hwmon:", 0) == 0;
            if (auto c = sysfs && w ? jb::openCounter(s.spec, *opt) : jb::Result<std::unique_ptr<jb::EnergyCounter>>(
                                                                          jb::Error{"not probed"});
                c) {
                jb::Sampler sampler(std::move(c.value()), 10'000'000);
                if (sampler.start()) {
                    std::this_thread::sleep_for(std::chrono::seconds(1));
                    sampler.stop();
                    const auto in = sampler.integrity();
                    const auto num = [](const nlohmann::ordered_json& v, const char* unit) {
                        return v.is_null() ? QStringLiteral("unknown") : QStringLiteral("%1 %2").arg(v.get<double>()).arg(QLatin1String(unit));
                    };
                    out() << '\n' << QString(width + 2, QLatin1Char(' ')) << "cadence "
                          << num(in["update_cadence_ms"], "ms") << ", resolution " << num(in["resolution_nj"], "nJ")
                          << ", least step " << num(in["least_step_nj"], "nJ");
                    for (const std::string& warning : sampler.integrityWarnings())
                        out() << "\n" << QString(width + 2, QLatin1Char(' ')) << "warning: " << toQ(warning);
                }
            }
            out() << '\n';
        }
        out() << Qt::flush;
    }
    return kOk;
}

}  // namespace jbcli
