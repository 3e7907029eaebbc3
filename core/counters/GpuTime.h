#pragma once
// accumulatedGPUTime per process from the I/O Registry (`ioreg -r -c IOAccelerator -l -w0`),
// for the ioreport-gpu counter's per-round GPU-time share. Parsing is portable and tested on
// Linux with canned text; ioreg exists only on macOS
// (the program path is a parameter, so tests run a fake).
#include <jb/base/Result.h>
#include <jb/counters/AppleLibraries.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace jb {

using GpuTimes = std::map<std::int64_t, std::int64_t>;  // pid -> accumulated GPU time (ns)

// Each client node's AppUsage accumulatedGPUTime values summed to the pid its
// IOUserClientCreator names, as the reference. A node with no AppUsage entry but a top-level
// `"accumulatedGPUTime" = N` property (the Intel-Mac shape, not verified on a Mac) counts N.
GpuTimes parseIoregGpuTimes(std::string_view text);

// Runs the ioreg program (a path, for tests) and parses its output.
Result<GpuTimes> readGpuTimes(const std::string& ioreg_program = kDefaultIoregProgram);

}  // namespace jb
