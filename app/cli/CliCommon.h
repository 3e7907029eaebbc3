#pragma once
// What the subcommands share: output streams, the counter flags, reading records.
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>

#include <QCommandLineParser>
#include <QString>
#include <QTextStream>

#include <cstdint>
#include <limits>
#include <optional>

namespace jbcli {

QTextStream& out();  // standard output (records, tables)
QTextStream& err();  // standard error (progress lines, messages)

// Standard output checked: flushes out() and says whether everything every command wrote to it
// reached it. Empty when it did; else why not ("No space left on device"): a full disk, /dev/full.
QString stdoutFailure();
// What main() returns for every command: the command's exit code, or 1 when standard output
// lost some of what the command wrote to it, said on stderr ("joulebench-cli recover: cannot
// write to standard output: No space left on device"). `kept` says where the data still is.
int exitCheckingStdout(const QString& command, int code, const QString& kept = {});

// "joulebench-cli measure: <message>" on stderr; returns kUsage (2).
int usageError(const QString& command, const QString& message);

// Parses a subcommand's arguments (args[0] is "joulebench-cli <command>"). Returns kOk after
// printing --help, kUsage after printing the parse error, or -1 when the command should go on.
int parseArgs(QCommandLineParser& p, const QStringList& args);

// The flags that say where counters are read: --rapl-zone, --powercap-root, --proc-root,
// --nvml-library, --sim-idle-w, --sim-noise-w, --sim-core-w, --sim-seed.
void addCounterOptions(QCommandLineParser& p);
jb::Result<jb::CounterOptions> counterOptionsFrom(const QCommandLineParser& p);

// The one number-flag parser of every command. Each call reads one flag (none when it is not
// set) and checks it against a range; the first bad value is kept in `error`, worded one way:
//   --NAME takes a number [>= MIN | > MIN] [and <= MAX], not 'VALUE'
//   --NAME takes an integer [from MIN to MAX], not 'VALUE'
// so a command makes its calls, then: if (!flags.error.isEmpty()) return usageError(cmd, flags.error).
class NumberFlags {
public:
    explicit NumberFlags(const QCommandLineParser& p) : p_(p) {}
    std::optional<double> number(const char* name, double min = -std::numeric_limits<double>::infinity(),
                                 double max = std::numeric_limits<double>::infinity(), bool min_open = false);
    std::optional<std::int64_t> integer(const char* name, std::int64_t min = std::numeric_limits<int>::min(),
                                        std::int64_t max = std::numeric_limits<int>::max());
    std::optional<std::uint64_t> seed(const char* name);  // any non-negative 64-bit integer
    QString error;

private:
    const QCommandLineParser& p_;
};

// The bootstrap flags of `compare` and `library check`: --resamples N (1 to 10,000,000,
// default 10000) and --seed N (default 1). The error names the flag and what it takes.
struct BootstrapFlags {
    int resamples = 10000;
    std::uint64_t seed = 1;
};
void addBootstrapOptions(QCommandLineParser& p);
jb::Result<BootstrapFlags> bootstrapFlagsFrom(const QCommandLineParser& p);

QString toQ(const std::string& s);
// A figure as the CLI prints it: %g with `precision` significant digits (4 unless told).
QString num(double v, int precision = 4);
std::string toStd(const QString& s);

}  // namespace jbcli
