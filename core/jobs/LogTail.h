#pragma once
// A job's log file followed as it grows: each poll hands its new complete lines (cut at 4 KiB)
// to the observer. The local executor tails the logs it writes; the Slurm executor tails the
// ones the node writes into the shared run folder.
#include <jb/jobs/JobExecutor.h>

#include <cstdint>
#include <string>

namespace jb {

class LogTail {
public:
    LogTail(std::string path, std::string stream) : path_(std::move(path)), stream_(std::move(stream)) {}
    // flush: the last line too, where it has no newline yet.
    void poll(JobObserver& obs, bool flush);

private:
    std::string path_, stream_;
    std::uint64_t offset_ = 0;
    std::string partial_;
};

}  // namespace jb
