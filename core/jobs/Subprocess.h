#pragma once
// Starting programs without QProcess, for the job worker threads: a job in its own session
// with its output in log files, and short helper programs (git, nvidia-smi, pip freeze) whose
// output is captured with a time limit. Both check the program before starting it, so the
// error says "not found" or "not executable" rather than a bare errno.
#include <jb/base/Result.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// The program argv[0] means: a path (relative ones from cwd) or a name looked up on PATH (the
// PATH of env when given, else this process's). The error says what was tried.
Result<std::string> resolveProgram(const std::string& program, const std::string& cwd,
                                   const std::optional<std::string>& path_env = std::nullopt);

// This process's environment with the changes applied (a null value removes the variable).
std::vector<std::string> mergedEnvironment(const std::map<std::string, std::optional<std::string>>& changes);
// The value of NAME in an environment of "NAME=VALUE" entries.
std::optional<std::string> environmentValue(const std::vector<std::string>& env, const std::string& name);

struct SessionSpawn {
    std::vector<std::string> argv;
    std::string cwd;
    std::vector<std::string> env;  // the whole environment, "NAME=VALUE"
    std::string stdout_path;       // appended to
    std::string stderr_path;
};

// Starts the program as the leader of a new session (setsid), stdin from /dev/null, default
// signal dispositions and an empty signal mask. Returns its pid (which is its session id).
Result<std::int64_t> spawnInSession(const SessionSpawn& s);

struct Captured {
    int exit_code = -1;  // -signal where a signal ended it
    std::string out;
    std::string err;
};

// Runs argv and waits at most timeout_ms (then SIGKILL and an error); output is kept up to
// 64 MiB per stream. cwd empty: this process's.
Result<Captured> runCapture(const std::vector<std::string>& argv, const std::string& cwd, int timeout_ms);

// "exit code 3", "killed by signal 9 (Killed)".
std::string describeWaitStatus(int exit_code);

}  // namespace jb
