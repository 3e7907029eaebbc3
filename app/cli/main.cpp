// joulebench-cli: the headless front end. Dispatches to one subcommand.
#include "CliCommon.h"
#include "Commands.h"
#include <jb/base/Version.h>

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace {

struct Subcommand {
    const char* name;
    int (*run)(const QStringList&);
    const char* help;
};

constexpr Subcommand kSubcommands[] = {
    {"measure", jbcli::cmdMeasure, "run a decoder child in rounds and measure its energy"},
    {"counters", jbcli::cmdCounters, "list every energy counter and whether it is readable"},
    {"verify", jbcli::cmdVerify, "recompute a record's figures from its raw samples"},
    {"summary", jbcli::cmdSummary, "print a table of one or more records"},
    {"compare", jbcli::cmdCompare, "compare the energy per decode of two records"},
    {"recover", jbcli::cmdRecover, "rebuild an aborted record from a run's journal"},
    {"plan", jbcli::cmdPlan, "plan idle seconds, k and rounds from a record's noise"},
    {"jobs", jbcli::cmdJobs, "run or inspect a queue of GPU jobs"},
    {"library", jbcli::cmdLibrary, "index records; list, trend, gate (check) and export them"},
    {"characterize", jbcli::cmdCharacterize, "measure a counter's update period, step response and burst coverage"},
};

void usage(FILE* to)
{
    std::fprintf(to, "usage: joulebench-cli <command> [options]\n\ncommands:\n");
    int width = 0;  // the longest name's: "characterize" lined up with the rest
    for (const Subcommand& s : kSubcommands)
        width = std::max(width, int(std::strlen(s.name)));
    for (const Subcommand& s : kSubcommands)
        std::fprintf(to, "  %-*s %s\n", width, s.name, s.help);
    std::fprintf(to, "\n'joulebench-cli <command> --help' describes a command's options.\n");
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("joulebench-cli"));
    QCoreApplication::setApplicationVersion(QString::fromUtf8(jb::kToolVersion.data(), qsizetype(jb::kToolVersion.size())));
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        usage(stderr);
        return jbcli::kUsage;
    }
    const QString cmd = args.at(1);
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") || cmd == QLatin1String("help")) {
        usage(stdout);
        return jbcli::kOk;
    }
    if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        std::printf("joulebench-cli %s\n", JB_VERSION);
        return jbcli::kOk;
    }
    for (const Subcommand& s : kSubcommands) {
        if (cmd == QLatin1String(s.name)) {
            args.removeAt(1);
            args[0] = QStringLiteral("joulebench-cli ") + cmd;
            return jbcli::exitCheckingStdout(args[0], s.run(args));  // a lost stdout write fails the command
        }
    }
    std::fprintf(stderr, "joulebench-cli: unknown command '%s'\n\n", qPrintable(cmd));
    usage(stderr);
    return jbcli::kUsage;
}
