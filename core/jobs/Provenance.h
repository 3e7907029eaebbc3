#pragma once
// What the runs were made from: the source folder's git commit (refused when tracked files
// have uncommitted changes and a clean source is required), hashes of named files, of data
// trees and of an environment listing such as `pip freeze`.
#include <jb/base/Result.h>
#include <jb/jobs/JobFile.h>

#include <nlohmann/json.hpp>

#include <string>

namespace jb {

Result<std::string> sha256File(const std::string& path);
std::string sha256Text(const std::string& text);

// As the reference's hash_tree: the files under path (symlinked folders are not entered,
// symlinked files are read), sorted by their path relative to path; the digest is over each
// relative path, a NUL byte, then the file's bytes. {path (real), sha256, num_files, bytes}.
Result<nlohmann::json> hashTree(const std::string& path);

// The `source` object of every manifest. hash_contents false (dry runs) checks the git state
// only. The error says why the run is refused (dirty source, a file that cannot be hashed, a
// failing environment command).
Result<nlohmann::json> sourceReport(const ProvenanceSettings& p, bool hash_contents = true);

}  // namespace jb
