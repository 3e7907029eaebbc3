#pragma once
// The run commands' flags mapped onto core/run's options, one flag to one field: `measure`'s
// onto jb::MeasureRunOptions, `jobs run|exec`'s onto jb::JobRunOptions. Apart from the commands
// so that tests/run can map the same flags and compare with the dashboard's mapping.
#include "CliCommon.h"
#include <jb/run/JobRun.h>
#include <jb/run/MeasureRun.h>
#include <jb/session/Workloads.h>

#include <QCommandLineParser>
#include <QStringList>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace jbcli {

// The flags QCommandLineParser cannot take (several values each), taken out of the arguments
// before '--': --parameter-list NAME VALUES, --parameter-scan NAME MIN MAX, --parameter-step S.
struct ParameterFlags {
    std::vector<jb::ParameterAxis> axes;
    std::vector<std::array<std::string, 3>> scans;  // name, min, max: the step may come later
    std::optional<std::string> step;
};
jb::Result<ParameterFlags> takeParameterFlags(QStringList& args);

// measure's own flags (the counter flags: addCounterOptions).
void addMeasureOptions(QCommandLineParser& p);

struct MeasureCli {
    jb::MeasureRunOptions run;
    bool several = false;  // several children (-- A ::: B, a parameter list)
    QString export_markdown, export_csv;
};
// measure's parsed flags (args: as parsed, '--' and the child after it). The error is the usage
// message; folders are probed and --out-dir created, so that nothing is run that could not be
// written.
jb::Result<MeasureCli> measureOptionsFrom(const QCommandLineParser& p, const QStringList& args,
                                          const ParameterFlags& params);

// `jobs`: the options every action starts from (Slurm nodes run this program), and those of
// run and exec's flags.
jb::JobRunOptions cliJobRunOptions();
jb::Result<jb::JobRunOptions> jobRunOptionsFrom(const QCommandLineParser& p);

}  // namespace jbcli
