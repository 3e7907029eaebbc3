#pragma once
// The CLI's subcommands: flags in, core's values out. Each takes its arguments with the
// program name first ("joulebench-cli measure", ...) and returns the process exit code.
#include <QStringList>

namespace jbcli {

enum Exit : int { kOk = 0, kAborted = 1, kUsage = 2 };

int cmdMeasure(const QStringList& args);   // cmd_measure.cpp
int cmdCounters(const QStringList& args);  // cmd_counters.cpp
int cmdVerify(const QStringList& args);    // cmd_verify.cpp
int cmdSummary(const QStringList& args);   // cmd_summary.cpp
int cmdCompare(const QStringList& args);   // cmd_compare.cpp
int cmdRecover(const QStringList& args);   // cmd_recover.cpp
int cmdJobs(const QStringList& args);      // cmd_jobs.cpp
int cmdPlan(const QStringList& args);      // cmd_plan.cpp
int cmdLibrary(const QStringList& args);   // cmd_library.cpp
int cmdCharacterize(const QStringList& args);  // cmd_characterize.cpp

}  // namespace jbcli
