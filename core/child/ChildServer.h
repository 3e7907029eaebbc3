#pragma once
// The child's side of the protocol (Protocol.h), for the workloads JouleBench ships (the demo
// decoder, the GPU load): prints `ready <jobs>`, then answers each `go <k>` by running the
// work and printing `done <decodes> <wall-ns> [note]`, until `exit` or end of input.
#include <jb/base/Result.h>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace jb {

// What one `go k` did: the decodes (work units) and an optional note (e.g. "checksum=...").
struct ChildBatch {
    std::int64_t decodes = 0;
    std::string note;
};

// `go <k>`, k a non-negative integer; the error quotes the line.
Result<int> parseGo(std::string_view line);

// The serving loop. The wall time of each batch is measured around `work`. Returns the exit
// status: 0 after `exit` or end of input; 4 for a line that is neither `go <k>` nor `exit`;
// 5 when `work` fails. Messages go to `err`, prefixed by `program`.
int serveChild(std::string_view program, std::int64_t jobs, const std::function<Result<ChildBatch>(int k)>& work,
               std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace jb
