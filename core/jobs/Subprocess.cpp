#include <jb/jobs/Subprocess.h>

#include <jb/base/Clock.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace jb {

namespace {

constexpr std::size_t kCaptureLimit = std::size_t(64) << 20;

std::string errnoText(int e)
{
    return std::strerror(e);
}

// posix_spawn attributes both spawns share: a new session, an empty signal mask and default
// dispositions (the CLI may ignore SIGINT or SIGPIPE; a job must not inherit that).
struct SpawnAttr {
    posix_spawnattr_t attr;
    SpawnAttr()
    {
        posix_spawnattr_init(&attr);
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        sigdelset(&all, SIGKILL);
        sigdelset(&all, SIGSTOP);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &all);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
};

struct FileActions {
    posix_spawn_file_actions_t fa;
    FileActions() { posix_spawn_file_actions_init(&fa); }
    ~FileActions() { posix_spawn_file_actions_destroy(&fa); }
};

struct CArgs {
    std::vector<char*> ptrs;
    explicit CArgs(const std::vector<std::string>& v)
    {
        for (const std::string& s : v)
            ptrs.push_back(const_cast<char*>(s.c_str()));
        ptrs.push_back(nullptr);
    }
};

bool isExecutableFile(const std::string& p)
{
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

Result<std::string> resolveProgram(const std::string& program, const std::string& cwd,
                                   const std::optional<std::string>& path_env)
{
    if (program.empty())
        return Error{"the command is empty"};
    if (program.find('/') != std::string::npos) {
        std::filesystem::path p(program);
        if (p.is_relative() && !cwd.empty())
            p = std::filesystem::path(cwd) / p;
        const std::string s = p.lexically_normal().string();
        struct stat st {};
        if (::stat(s.c_str(), &st) != 0)
            return Error{"program '" + s + "' does not exist"};
        if (!S_ISREG(st.st_mode) || ::access(s.c_str(), X_OK) != 0)
            return Error{"program '" + s + "' is not an executable file"};
        return s;
    }
    std::string path;
    if (path_env)
        path = *path_env;
    else if (const char* p = std::getenv("PATH"))
        path = p;
    else
        path = "/usr/local/bin:/usr/bin:/bin";
    std::size_t at = 0;
    for (;;) {
        const std::size_t end = path.find(':', at);
        std::string dir = path.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (dir.empty())
            dir = ".";
        const std::string candidate = dir + "/" + program;
        if (isExecutableFile(candidate))
            return candidate;
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return Error{"program '" + program + "' was not found on PATH (" + path + ")"};
}

std::vector<std::string> mergedEnvironment(const std::map<std::string, std::optional<std::string>>& changes)
{
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const std::string name = entry.substr(0, entry.find('='));
        if (!changes.count(name))
            out.push_back(entry);
    }
    for (const auto& [name, value] : changes)
        if (value)
            out.push_back(name + "=" + *value);
    return out;
}

std::optional<std::string> environmentValue(const std::vector<std::string>& env, const std::string& name)
{
    for (const std::string& e : env)
        if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
            return e.substr(name.size() + 1);
    return std::nullopt;
}

Result<std::int64_t> spawnInSession(const SessionSpawn& s)
{
    if (s.argv.empty())
        return Error{"the command is empty"};
    struct stat st {};
    if (::stat(s.cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return Error{"working folder '" + s.cwd + "' does not exist"};
    auto program = resolveProgram(s.argv[0], s.cwd, environmentValue(s.env, "PATH"));
    if (!program)
        return Error{program.error()};
    const int out = ::open(s.stdout_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (out < 0)
        return Error{"cannot open log '" + s.stdout_path + "': " + errnoText(errno)};
    const int err = ::open(s.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err < 0) {
        const int e = errno;
        ::close(out);
        return Error{"cannot open log '" + s.stderr_path + "': " + errnoText(e)};
    }
    SpawnAttr attr;
    FileActions fa;
    posix_spawn_file_actions_addopen(&fa.fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa.fa, out, 1);
    posix_spawn_file_actions_adddup2(&fa.fa, err, 2);
    posix_spawn_file_actions_addclosefrom_np(&fa.fa, 3);
    posix_spawn_file_actions_addchdir_np(&fa.fa, s.cwd.c_str());
    CArgs argv(s.argv), envp(s.env);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, program->c_str(), &fa.fa, &attr.attr, argv.ptrs.data(),
                                 envp.ptrs.data());
    ::close(out);
    ::close(err);
    if (rc != 0)
        return Error{"cannot start '" + *program + "': " + errnoText(rc)};
    return std::int64_t(pid);
}

Result<Captured> runCapture(const std::vector<std::string>& argv, const std::string& cwd, int timeout_ms)
{
    if (argv.empty())
        return Error{"the command is empty"};
    auto program = resolveProgram(argv[0], cwd);
    if (!program)
        return Error{program.error()};
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0)
        return Error{"pipe: " + errnoText(errno)};
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        return Error{"pipe: " + errnoText(e)};
    }
    SpawnAttr attr;
    FileActions fa;
    posix_spawn_file_actions_addopen(&fa.fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa.fa, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&fa.fa, err_pipe[1], 2);
    posix_spawn_file_actions_addclosefrom_np(&fa.fa, 3);
    if (!cwd.empty())
        posix_spawn_file_actions_addchdir_np(&fa.fa, cwd.c_str());
    CArgs cargv(argv);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, program->c_str(), &fa.fa, &attr.attr, cargv.ptrs.data(), environ);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (rc != 0) {
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        return Error{"cannot start '" + *program + "': " + errnoText(rc)};
    }
    Captured c;
    const std::int64_t deadline = monotonicNs() + std::int64_t(timeout_ms) * 1'000'000;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&c.out, &c.err};
    int open_fds = 2;
    bool exited = false, timed_out = false;
    int status = 0;
    std::int64_t exited_at = 0;
    char buf[65536];
    while (open_fds > 0 || !exited) {
        const std::int64_t now = monotonicNs();
        if (now >= deadline) {
            timed_out = true;
            break;
        }
        // A grandchild may keep a pipe open after the program exits: drain briefly, then stop.
        if (exited && now - exited_at > 200'000'000)
            break;
        const int wait_ms = int(std::min<std::int64_t>((deadline - now) / 1'000'000 + 1, 20));
        const int n = ::poll(fds, 2, wait_ms);
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                if (sinks[i]->size() < kCaptureLimit)
                    sinks[i]->append(buf, std::size_t(got));
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
        if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            exited_at = monotonicNs();
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0)
            ::close(f.fd);
    if (!exited) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    if (timed_out && !exited)
        return Error{"'" + *program + "' did not finish within " + std::to_string(timeout_ms) + " ms"};
    c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return c;
}

std::string describeWaitStatus(int exit_code)
{
    if (exit_code >= 0)
        return "exit code " + std::to_string(exit_code);
    const char* name = ::strsignal(-exit_code);
    return "killed by signal " + std::to_string(-exit_code) + (name ? std::string(" (") + name + ")" : "");
}

}  // namespace jb
