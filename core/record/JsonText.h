#pragma once
// JSON text both ways, for every JSON file JouleBench writes or reads: the layout of Python's
// json.dump (so a reference record read and written again is the same bytes), parsing with
// errors by line and column, and reading a file whole. What the values mean is the schema's
// business (record/RecordJson.h, jobs/JobFile.h); typed reads of a parsed tree are
// base/JsonReader.h's.
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace jb {

using ojson = nlohmann::ordered_json;

// The layout of Python's json.dump(obj, f, indent=1): one item per line, non-ASCII escaped,
// floats in the shortest form that reads back as the same double, positional up to 1e16 as
// repr writes them (1000000000000000.0, then 1e+16). So a reference record read and written
// again is the same bytes (the one exception: where two shortest forms are equally close,
// Python and this writer may pick different last digits; the value is the same).
// No trailing newline. Negative indent: all on one line, no spaces.
std::string dumpJson(const ojson& j, int indent = 1);

// Parses JSON text; a syntax error names its line and column (1-based, columns in bytes).
Result<ojson> parseJsonText(std::string_view text);

// Reads a whole file; the error names the path and the system's reason.
Result<std::string> readWholeFile(const std::string& path);

}  // namespace jb
