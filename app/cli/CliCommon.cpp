#include "CliCommon.h"
#include "Commands.h"

#include <jb/base/QtText.h>

#include <cmath>

#include <QCoreApplication>
#include <QIODevice>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace jbcli {

QTextStream& out()
{
    static QTextStream s(stdout);
    return s;
}

QTextStream& err()
{
    static QTextStream s(stderr);
    return s;
}

QString stdoutFailure()
{
    QTextStream& s = out();
    s.flush();
    QString why;
    if (s.status() != QTextStream::Ok)
        why = s.device() ? s.device()->errorString() : QStringLiteral("a write failed");
    errno = 0;
    if (std::fflush(stdout) != 0 && why.isEmpty())
        why = QString::fromLocal8Bit(std::strerror(errno));
    if (std::ferror(stdout) && why.isEmpty())
        why = QStringLiteral("a write failed");
    return why;
}

int exitCheckingStdout(const QString& command, int code, const QString& kept)
{
    const QString why = stdoutFailure();
    if (why.isEmpty())
        return code;
    err() << command << ": cannot write to standard output: " << why
          << (kept.isEmpty() ? QString() : QStringLiteral(" (") + kept + QStringLiteral(")")) << Qt::endl;
    return code == kOk ? 1 : code;
}

int usageError(const QString& command, const QString& message)
{
    err() << command << ": " << message << Qt::endl;
    return 2;
}

int parseArgs(QCommandLineParser& p, const QStringList& args)
{
    if (!p.parse(args))
        return usageError(args.value(0), p.errorText());
    if (p.isSet(QStringLiteral("help"))) {
        // Qt names the program by its path; the user typed "joulebench-cli <command>".
        QString help = p.helpText();
        const QString program = QCoreApplication::arguments().value(0);
        if (const auto at = program.isEmpty() ? -1 : help.indexOf(program); at >= 0)
            help.replace(at, program.size(), args.value(0));
        out() << help;
        out().flush();
        return 0;
    }
    return -1;
}

QString toQ(const std::string& s)
{
    return jb::qtext(s);
}

QString num(double v, int precision)
{
    return QString::number(v, 'g', precision);
}

std::string toStd(const QString& s)
{
    return jb::stdtext(s);
}

void addCounterOptions(QCommandLineParser& p)
{
    const jb::CounterOptions d;
    p.addOption({QStringLiteral("rapl-zone"),
                 QStringLiteral("Powercap zone folder for the plain 'rapl' counter (default "
                                "/sys/class/powercap/intel-rapl:0)."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("powercap-root"),
                 QStringLiteral("Folder where 'rapl:NAME' zones are looked up (default %1).")
                     .arg(toQ(d.powercap_root)),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("hwmon-root"),
                 QStringLiteral("Folder where 'hwmon:CHIP:LABEL' channels are looked up (default %1).")
                     .arg(toQ(d.hwmon_root)),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("proc-root"),
                 QStringLiteral("The /proc folder to read CPU time from (default %1).").arg(toQ(d.proc_root)),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("nvml-library"),
                 QStringLiteral("NVML library to load for 'nvml' counters (default %1).").arg(toQ(d.nvml_library)),
                 QStringLiteral("PATH")});
    // macOS's libraries (system paths there); tests and a Mac with them elsewhere point these.
    const auto libOption = [&](const char* name, const char* what, const std::string& def) {
        p.addOption({QString::fromLatin1(name),
                     QStringLiteral("%1 (default %2).")
                         .arg(QString::fromLatin1(what), def.empty() ? QStringLiteral("none on this system") : toQ(def)),
                     QStringLiteral("PATH")});
    };
    libOption("corefoundation-library", "CoreFoundation to load for 'ioreport' counters", d.apple.corefoundation);
    libOption("ioreport-library", "libIOReport to load for 'ioreport' counters", d.apple.ioreport);
    libOption("libproc-library", "libproc to load for the 'task' counter's proc_pid_rusage", d.apple.libproc);
    libOption("libsystem-library", "libSystem to load for mach_timebase_info", d.apple.libsystem);
    libOption("ioreg", "ioreg program for ioreport-gpu's GPU-time share", d.ioreg_program);
    p.addOption({QStringLiteral("sim-idle-w"),
                 QStringLiteral("sim counter: idle power in W (default %1).").arg(d.sim.idle_w),
                 QStringLiteral("W")});
    p.addOption({QStringLiteral("sim-noise-w"),
                 QStringLiteral("sim counter: sd of the Gaussian power noise in W (default %1).").arg(d.sim.noise_sd_w),
                 QStringLiteral("W")});
    p.addOption({QStringLiteral("sim-core-w"),
                 QStringLiteral("sim counter: W per fully busy core of the child (default %1).").arg(d.sim.w_per_core),
                 QStringLiteral("W")});
    p.addOption({QStringLiteral("sim-seed"),
                 QStringLiteral("sim counter: seed of the noise (default %1).").arg(d.sim.seed),
                 QStringLiteral("N")});
}

jb::Result<jb::CounterOptions> counterOptionsFrom(const QCommandLineParser& p)
{
    jb::CounterOptions o;
    if (p.isSet(QStringLiteral("rapl-zone")))
        o.rapl_zone = toStd(p.value(QStringLiteral("rapl-zone")));
    if (p.isSet(QStringLiteral("powercap-root")))
        o.powercap_root = toStd(p.value(QStringLiteral("powercap-root")));
    if (p.isSet(QStringLiteral("hwmon-root")))
        o.hwmon_root = toStd(p.value(QStringLiteral("hwmon-root")));
    if (p.isSet(QStringLiteral("proc-root")))
        o.proc_root = toStd(p.value(QStringLiteral("proc-root")));
    if (p.isSet(QStringLiteral("nvml-library")))
        o.nvml_library = toStd(p.value(QStringLiteral("nvml-library")));
    for (const auto& [name, into] : {std::pair{"corefoundation-library", &o.apple.corefoundation},
                                     std::pair{"ioreport-library", &o.apple.ioreport},
                                     std::pair{"libproc-library", &o.apple.libproc},
                                     std::pair{"libsystem-library", &o.apple.libsystem},
                                     std::pair{"ioreg", &o.ioreg_program}})
        if (p.isSet(QString::fromLatin1(name)))
            *into = toStd(p.value(QString::fromLatin1(name)));
    NumberFlags f(p);
    for (const auto& [name, into] : {std::pair{"sim-idle-w", &o.sim.idle_w}, std::pair{"sim-noise-w", &o.sim.noise_sd_w},
                                     std::pair{"sim-core-w", &o.sim.w_per_core}})
        if (const auto v = f.number(name, 0))
            *into = *v;
    if (const auto s = f.seed("sim-seed"))
        o.sim.seed = *s;
    if (!f.error.isEmpty())
        return jb::Error{toStd(f.error)};
    return o;
}

void addBootstrapOptions(QCommandLineParser& p)
{
    p.addOption({QStringLiteral("resamples"), QStringLiteral("Bootstrap resamples (default 10000)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the bootstrap (default 1)."), QStringLiteral("N")});
}

jb::Result<BootstrapFlags> bootstrapFlagsFrom(const QCommandLineParser& p)
{
    BootstrapFlags f;
    NumberFlags flags(p);
    if (const auto n = flags.integer("resamples", 1, 10'000'000))
        f.resamples = int(*n);
    if (const auto s = flags.seed("seed"))
        f.seed = *s;
    if (!flags.error.isEmpty())
        return jb::Error{toStd(flags.error)};
    return f;
}

namespace {

QString boundText(double v)
{
    return QString::number(v, 'g', 10);
}

}  // namespace

std::optional<double> NumberFlags::number(const char* name, double min, double max, bool min_open)
{
    const QString n = QString::fromLatin1(name);
    if (!p_.isSet(n) || !error.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double v = p_.value(n).toDouble(&ok);
    if (ok && std::isfinite(v) && (min_open ? v > min : v >= min) && v <= max)
        return v;
    QString range;
    if (std::isfinite(min))
        range += (min_open ? QStringLiteral(" > ") : QStringLiteral(" >= ")) + boundText(min);
    if (std::isfinite(max))
        range += (range.isEmpty() ? QStringLiteral(" <= ") : QStringLiteral(" and <= ")) + boundText(max);
    error = QStringLiteral("--%1 takes a number%2, not '%3'").arg(n, range, p_.value(n));
    return std::nullopt;
}

std::optional<std::int64_t> NumberFlags::integer(const char* name, std::int64_t min, std::int64_t max)
{
    const QString n = QString::fromLatin1(name);
    if (!p_.isSet(n) || !error.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qlonglong v = p_.value(n).toLongLong(&ok);
    if (ok && v >= min && v <= max)
        return std::int64_t(v);
    const bool whole_range = min == std::numeric_limits<int>::min() && max == std::numeric_limits<int>::max();
    error = whole_range ? QStringLiteral("--%1 takes an integer, not '%2'").arg(n, p_.value(n))
                        : QStringLiteral("--%1 takes an integer from %2 to %3, not '%4'").arg(n).arg(min).arg(max).arg(p_.value(n));
    return std::nullopt;
}

std::optional<std::uint64_t> NumberFlags::seed(const char* name)
{
    const QString n = QString::fromLatin1(name);
    if (!p_.isSet(n) || !error.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qulonglong v = p_.value(n).toULongLong(&ok);
    if (ok)
        return std::uint64_t(v);
    error = QStringLiteral("--%1 takes a non-negative integer, not '%2'").arg(n, p_.value(n));
    return std::nullopt;
}

}  // namespace jbcli
