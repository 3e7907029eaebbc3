#include <jb/jobs/LogTail.h>

#include <algorithm>
#include <fstream>

namespace jb {

namespace {
constexpr std::size_t kMaxLogLine = 4096;
}

void LogTail::poll(JobObserver& obs, bool flush)
{
    std::ifstream in(path_, std::ios::binary);
    if (in) {
        in.seekg(std::streamoff(offset_));
        char buf[65536];
        while (in.read(buf, sizeof buf) || in.gcount() > 0) {
            const auto n = std::size_t(in.gcount());
            offset_ += n;
            partial_.append(buf, n);
            std::size_t at;
            while ((at = partial_.find('\n')) != std::string::npos) {
                obs.logLine(stream_, partial_.substr(0, std::min(at, kMaxLogLine)));
                partial_.erase(0, at + 1);
            }
            if (partial_.size() > kMaxLogLine) {
                obs.logLine(stream_, partial_.substr(0, kMaxLogLine));
                partial_.clear();
            }
        }
    }
    if (flush && !partial_.empty()) {
        obs.logLine(stream_, partial_);
        partial_.clear();
    }
}

}  // namespace jb
