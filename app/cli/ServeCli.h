#pragma once
// --serve at a run command's start: the server's line on stderr, one a script can parse
// ("CMD: serving on HOST:PORT token TOKEN"), a warning where it listens beyond this machine,
// and a line per watcher refused.
#include <QString>

namespace jb {
class RunServer;
}

namespace jbcli {

// How long a finished run's server waits for its watchers to take the end (ms).
inline constexpr int kServeFlushMs = 3000;

void announceServer(const QString& cmd, jb::RunServer* server);

}  // namespace jbcli
