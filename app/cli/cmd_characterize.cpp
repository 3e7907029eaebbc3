// `joulebench-cli characterize --counter SPEC`: measures how a counter behaves on this machine
// (update period and jitter, step response, averaging window, burst coverage) by driving it
// with a built-in load, and prints (or writes with --out) the counter's profile JSON
// (docs/COUNTERS.md). The measurement is core/profile; this file reads flags and prints.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/counters/CounterProfile.h>
#include <jb/profile/Characterize.h>
#include <jb/profile/CharacterizeRun.h>
#include <jb/profile/LoadDriver.h>
#include <jb/record/AtomicWrite.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSysInfo>

namespace jbcli {

namespace {

QString nvmlIndex(const std::string& spec)
{
    const auto colon = spec.find(':');
    return colon == std::string::npos ? QStringLiteral("0") : toQ(spec.substr(colon + 1));
}

}  // namespace

int cmdCharacterize(const QStringList& args)
{
    const QString cmd = QStringLiteral("characterize");
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Measures a counter's update period and jitter, step response (delay, settle, averaging window) "
        "and burst coverage on this machine, driving it with a built-in load, and prints its profile JSON."));
    p.addOption({QStringLiteral("counter"), QStringLiteral("The counter to measure (rapl, nvml:0, nvml-power:0, ...)."),
                 QStringLiteral("SPEC")});
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the profile JSON here (default: standard output)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("seconds"), QStringLiteral("About how long to measure (default 60, at least 5)."),
                 QStringLiteral("S")});
    p.addOption({QStringLiteral("load"),
                 QStringLiteral("auto (default), cpu (burn threads), gpu (joulebench-gpu-load), or file:PATH (a file that "
                                "exists while the load is on: the test fakes)."),
                 QStringLiteral("LOAD")});
    p.addOption({QStringLiteral("gpu-load"),
                 QStringLiteral("The joulebench-gpu-load program (default: beside this program)."),
                 QStringLiteral("PATH")});
    p.addOption({QStringLiteral("cuda-library"), QStringLiteral("Passed to joulebench-gpu-load."), QStringLiteral("PATH")});
    p.addOption({QStringLiteral("threads"), QStringLiteral("CPU burn threads (default: all cores but one)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("bursts"), QStringLiteral("At most this many short bursts (default 40)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("burst-ms"),
                 QStringLiteral("Each burst's length (default: a fifth of the update period, 2 to 20 ms)."),
                 QStringLiteral("MS")});
    p.addOption({QStringLiteral("poll-ms"), QStringLiteral("Between reads of the counter (default 0.5)."),
                 QStringLiteral("MS")});
    p.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the bursts' random phases (default: the clock)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("host"), QStringLiteral("The host named in the profile (default: this machine's name)."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("library"),
                 QStringLiteral("Keep the profile in this record library, per host and counter (default: "
                                "$JOULEBENCH_LIBRARY, else the user's library)."),
                 QStringLiteral("SPEC")});
    p.addOption({QStringLiteral("no-library"), QStringLiteral("Do not keep the profile in the record library.")});
    addCounterOptions(p);
    p.addHelpOption();
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    if (!p.isSet(QStringLiteral("counter")))
        return usageError(cmd, QStringLiteral("--counter SPEC is required (joulebench-cli counters lists them)"));
    const std::string spec = toStd(p.value(QStringLiteral("counter")));
    NumberFlags flags(p);
    const double seconds = flags.number("seconds", 5, 3600).value_or(60);
    const auto threads = flags.integer("threads", 1, 1024);
    const auto bursts = flags.integer("bursts", 3, 10000);
    const auto burst_ms = flags.number("burst-ms", 0, 10000, true);
    const double poll_ms = flags.number("poll-ms", 0.05, 1000).value_or(0.5);
    const auto seed = flags.seed("seed");
    if (!flags.error.isEmpty())
        return usageError(cmd, flags.error);
    if (spec == "task")
        return usageError(cmd, QStringLiteral("task is read around rounds, not sampled: it has no update period to "
                                              "measure (characterize a whole-device counter)"));
    auto opt = counterOptionsFrom(p);
    if (!opt)
        return usageError(cmd, toQ(opt.error()));
    auto counter = jb::openCounter(spec, *opt);
    if (!counter) {
        err() << "joulebench-cli characterize: " << toQ(counter.error()) << '\n';
        return kAborted;
    }
    const jb::CounterKind kind = jb::counterKindOf(spec, (*counter)->info());

    QString load = p.value(QStringLiteral("load"));
    if (load.isEmpty() || load == QLatin1String("auto"))
        load = toQ(jb::autoLoadFor(spec, kind));
    std::unique_ptr<jb::LoadDriver> driver;
    if (load == QLatin1String("cpu")) {
        driver = jb::cpuBurnLoad(threads ? int(*threads) : 0);
        if (spec == "sim")
            (*counter)->setWorkloadPid(QCoreApplication::applicationPid());  // the sim turns our CPU into power
    } else if (load == QLatin1String("gpu")) {
        QString program = p.value(QStringLiteral("gpu-load"));
        if (program.isEmpty())
            program = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("joulebench-gpu-load"));
        // One launch a pass, so that a burst can be short; the GPU by its NVML index (run with
        // CUDA_DEVICE_ORDER=PCI_BUS_ID, as nvidia-smi numbers them).
        // A pass of about 2.5 ms on an H200 (256 MiB, 1024 FMAs an element), drawing several
        // hundred W.
        std::vector<std::string> gargs{"--jobs", "1", "--buffer-mib", "256", "--iterations", "1024"};
        if (kind == jb::CounterKind::NvmlEnergy || kind == jb::CounterKind::NvmlPowerInstant ||
            kind == jb::CounterKind::NvmlPowerAverage)
            gargs.insert(gargs.end(), {"--device", toStd(nvmlIndex(spec))});
        if (p.isSet(QStringLiteral("cuda-library")))
            gargs.insert(gargs.end(), {"--cuda-library", toStd(p.value(QStringLiteral("cuda-library")))});
        driver = jb::gpuProgramLoad(toStd(program), gargs);
    } else if (load.startsWith(QLatin1String("file:")) && load.size() > 5) {
        driver = jb::flagFileLoad(toStd(load.mid(5)));
    } else {
        return usageError(cmd, QStringLiteral("--load takes auto, cpu, gpu or file:PATH, not '%1'").arg(load));
    }
    if (auto st = driver->start(); !st) {
        err() << "joulebench-cli characterize: " << toQ(st.error()) << '\n';
        return kAborted;
    }

    jb::CharacterizeOptions co;
    co.seconds = seconds;
    co.poll_ms = poll_ms;
    if (bursts)
        co.bursts = int(*bursts);
    if (burst_ms)
        co.burst_ms = *burst_ms;
    if (seed)
        co.seed = *seed;
    co.host = p.isSet(QStringLiteral("host")) ? toStd(p.value(QStringLiteral("host")))
                                              : toStd(QSysInfo::machineHostName());
    co.progress = [&](const std::string& line) {
        err() << "characterize " << toQ(spec) << ": " << toQ(line) << '\n';
        err().flush();
    };
    err() << "characterize " << toQ(spec) << ": load " << toQ(driver->describe()) << ", about " << seconds << " s\n";
    err().flush();
    auto profile = jb::characterize(**counter, *driver, co);
    if (!profile) {
        err() << "joulebench-cli characterize: " << toQ(profile.error()) << '\n';
        return kAborted;
    }
    const std::string text = profile->toJson().dump(2) + "\n";
    if (p.isSet(QStringLiteral("out"))) {
        const std::string path = toStd(p.value(QStringLiteral("out")));
        if (auto st = jb::writeFileAtomic(path, text); !st) {
            err() << "joulebench-cli characterize: " << toQ(st.error()) << '\n';
            return kAborted;
        }
        err() << "characterize " << toQ(spec) << ": profile written to " << toQ(path) << '\n';
    } else {
        out() << toQ(text);
        out().flush();
    }
    if (!p.isSet(QStringLiteral("no-library"))) {
        // A library that cannot be opened costs a warning, never the profile.
        auto kept = jb::keepProfile(*profile, toStd(p.value(QStringLiteral("library"))));
        if (kept)
            err() << "characterize " << toQ(spec) << ": kept in the library " << toQ(*kept) << " for host "
                  << toQ(profile->host) << '\n';
        else
            err() << "characterize " << toQ(spec) << ": warning: not kept in the library: " << toQ(kept.error()) << '\n';
    }
    const auto& pr = *profile;
    err() << "characterize " << toQ(spec) << ": a new value every " << QString::number(pr.update_period_ms, 'f', 1)
          << " ms (jitter " << QString::number(pr.update_jitter_ms, 'f', 1) << "), settles in "
          << QString::number(pr.step_up.settle_ms, 'f', 0) << " ms up / " << QString::number(pr.step_down.settle_ms, 'f', 0)
          << " ms down, averaging window " << QString::number(pr.averaging_window_ms, 'f', 0) << " ms, "
          << pr.coverage.bursts << " bursts of " << QString::number(pr.coverage.burst_ms, 'f', 1) << " ms seen "
          << QString::number(pr.coverage.mean, 'f', 2) << " +- " << QString::number(pr.coverage.sd, 'f', 2)
          << (pr.coverage.sensed_fraction
                  ? QStringLiteral(" (sensed about %1% of each period)").arg(*pr.coverage.sensed_fraction * 100, 0, 'f', 0)
                  : QString())
          << ", in " << QString::number(pr.seconds_taken, 'f', 1) << " s\n";
    if (const std::string caveat = jb::characterizeCaveat(kind); !caveat.empty())
        err() << "characterize " << toQ(spec) << ": note: " << toQ(caveat) << '\n';
    return kOk;
}

}  // namespace jbcli
