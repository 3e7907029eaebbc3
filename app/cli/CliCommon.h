#pragma once
// What the subcommands share: output streams, the counter flags, reading records.
#include "base/Result.h"
#include "counters/CounterRegistry.h"

#include <QCommandLineParser>
#include <QString>
#include <QTextStream>

#include <cstdint>

namespace jbcli {

QTextStream& out();  // standard output (records, tables)
QTextStream& err();  // standard error (progress lines, messages)

// "joulebench-cli measure: <message>" on stderr; returns kUsage (2).
int usageError(const QString& command, const QString& message);

// Parses a subcommand's arguments (args[0] is "joulebench-cli <command>"). Returns kOk after
// printing --help, kUsage after printing the parse error, or -1 when the command should go on.
int parseArgs(QCommandLineParser& p, const QStringList& args);

// The flags that say where counters are read: --rapl-zone, --powercap-root, --proc-root,
// --nvml-library, --sim-idle-w, --sim-noise-w, --sim-core-w, --sim-seed.
void addCounterOptions(QCommandLineParser& p);
jb::Result<jb::CounterOptions> counterOptionsFrom(const QCommandLineParser& p);

// The bootstrap flags of `compare` and `library check`: --resamples N (1 to 10,000,000,
// default 10000) and --seed N (default 1). The error names the flag and what it takes.
struct BootstrapFlags {
    int resamples = 10000;
    std::uint64_t seed = 1;
};
void addBootstrapOptions(QCommandLineParser& p);
jb::Result<BootstrapFlags> bootstrapFlagsFrom(const QCommandLineParser& p);

QString toQ(const std::string& s);
std::string toStd(const QString& s);

}  // namespace jbcli
