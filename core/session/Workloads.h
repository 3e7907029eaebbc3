#pragma once
// Several workloads in one interleaved run (measure -- A ::: B): the children's command lines,
// split at ":::", expanded by parameter lists and scans ({NAME} in an argv takes each value;
// several parameters give their product), and named (--name, or the argv itself).
#include <jb/base/Result.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

struct Workload {
    std::string name;
    std::vector<std::string> argv;
    std::map<std::string, std::string> parameters;  // the values substituted into this one
};

struct ParameterAxis {
    std::string name;
    std::vector<std::string> values;
};

// The command lines between ":::" separators. An empty one (":::" first, last or doubled) is
// an error naming its position.
Result<std::vector<std::vector<std::string>>> splitCommands(const std::vector<std::string>& argv);

// --parameter-list NAME V1,V2,...: empty values and an empty list are errors.
Result<ParameterAxis> parameterList(const std::string& name, const std::string& csv);
// --parameter-scan NAME MIN MAX [--parameter-step S] (default step 1): MIN, MIN+S, ... up to MAX
// (inclusive, with a tolerance of 1e-9 S). Integers print as integers; other values with the
// fewest decimals that tell them apart (at most 12). More than kMaxScanValues values is an error.
inline constexpr int kMaxScanValues = 1000;
Result<ParameterAxis> parameterScan(const std::string& name, const std::string& min, const std::string& max,
                                    const std::optional<std::string>& step);

// The workloads: every command crossed with every combination of the axes' values (the first
// axis varies slowest). names: none (each is named by its argv, joined by spaces), or one per
// command, in which {NAME} is substituted too (a name without a placeholder that expands into
// several gets " NAME=V" appended). A {NAME} with no such parameter, a parameter used by no
// command, and two workloads with one name are errors.
Result<std::vector<Workload>> expandWorkloads(const std::vector<std::vector<std::string>>& commands,
                                              const std::vector<ParameterAxis>& axes,
                                              const std::vector<std::string>& names);

}  // namespace jb
