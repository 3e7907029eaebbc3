#include <jb/child/ExecServer.h>

#include <jb/child/ChildServer.h>
#include <jb/child/Protocol.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ostream>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace jb {
namespace {

// What a signal handler may touch: the command's pid and the FIFO's paths (fixed buffers).
volatile sig_atomic_t g_child_pid = 0;
char g_fifo_path[512] = {};
char g_fifo_dir[512] = {};
int g_wake[2] = {-1, -1};  // SIGCHLD's self-pipe: the wait loop polls its read end

void onChild(int)
{
    const int saved = errno;
    if (g_wake[1] >= 0) {
        const char c = 0;
        [[maybe_unused]] const auto n = ::write(g_wake[1], &c, 1);
    }
    errno = saved;
}

// SIGTERM, SIGINT, SIGHUP: the command goes with the shim, and the FIFO is removed.
void onStop(int sig)
{
    if (g_child_pid > 0)
        ::kill(pid_t(g_child_pid), SIGTERM);
    if (g_fifo_path[0])
        ::unlink(g_fifo_path);
    if (g_fifo_dir[0])
        ::rmdir(g_fifo_dir);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

std::string commandText(const std::vector<std::string>& argv)
{
    std::string s;
    for (const std::string& a : argv) {
        if (!s.empty())
            s += ' ';
        s += a;
    }
    return quoteLine(s);
}

void setNonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

// The private FIFO: a folder of its own under $TMPDIR, removed with it.
class MarkFifo {
public:
    Status open()
    {
        const char* tmp = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/joulebench-exec-XXXXXX";
        if (tmpl.size() + 8 >= sizeof g_fifo_dir)
            return Error{"the temporary folder's path is too long: " + tmpl};
        if (!::mkdtemp(tmpl.data()))
            return Error{"cannot make a temporary folder " + tmpl + ": " + std::strerror(errno)};
        std::strcpy(g_fifo_dir, tmpl.c_str());
        dir_ = tmpl;
        path_ = dir_ + "/marks";
        if (::mkfifo(path_.c_str(), 0600) != 0)
            return Error{"cannot make the marker FIFO " + path_ + ": " + std::strerror(errno)};
        std::strcpy(g_fifo_path, path_.c_str());
        read_fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (read_fd_ < 0)
            return Error{"cannot open the marker FIFO " + path_ + ": " + std::strerror(errno)};
        // Our own writer keeps the FIFO from hanging up each time a command closes it.
        keep_fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (keep_fd_ < 0)
            return Error{"cannot open the marker FIFO " + path_ + ": " + std::strerror(errno)};
        return Ok{};
    }
    ~MarkFifo()
    {
        if (read_fd_ >= 0)
            ::close(read_fd_);
        if (keep_fd_ >= 0)
            ::close(keep_fd_);
        if (!path_.empty())
            ::unlink(path_.c_str());
        if (!dir_.empty())
            ::rmdir(dir_.c_str());
        g_fifo_path[0] = 0;
        g_fifo_dir[0] = 0;
    }
    int fd() const { return read_fd_; }
    const std::string& path() const { return path_; }

    // Reads what is there; each whole line becomes a marker on out. An error quotes a bad line.
    Status drain(std::ostream& out, bool final)
    {
        char buf[4096];
        for (;;) {
            const ssize_t n = ::read(read_fd_, buf, sizeof buf);
            if (n > 0) {
                pending_.append(buf, std::size_t(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        std::size_t nl;
        while ((nl = pending_.find('\n')) != std::string::npos) {
            const std::string line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            if (Status st = forward(line, out); !st)
                return st;
        }
        if (final && !pending_.empty()) {
            const std::string line = std::move(pending_);
            pending_.clear();
            return forward(line, out);
        }
        if (pending_.size() > 4096)
            return Error{"JOULEBENCH_MARK_FILE: a line longer than 4096 characters: " + quoteLine(pending_)};
        return Ok{};
    }

private:
    static Status forward(const std::string& line, std::ostream& out)
    {
        if (line.empty() || line == "\r")
            return Ok{};
        auto mark = parseMarkLine(line);
        if (!mark)
            return Error{"JOULEBENCH_MARK_FILE: " + mark.error()};
        out << *mark << '\n' << std::flush;
        return Ok{};
    }

    std::string dir_, path_, pending_;
    int read_fd_ = -1, keep_fd_ = -1;
};

// The command's environment: JOULEBENCH_MARK_FILE set to the FIFO (or removed), and
// JOULEBENCH_MARKS removed, so that a helper inside it writes its markers to the file.
std::vector<std::string> commandEnvironment(const std::string& mark_file)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view v(*e);
        if (v.rfind("JOULEBENCH_MARK_FILE=", 0) == 0 || v.rfind("JOULEBENCH_MARKS=", 0) == 0)
            continue;
        env.emplace_back(v);
    }
    if (!mark_file.empty())
        env.push_back("JOULEBENCH_MARK_FILE=" + mark_file);
    return env;
}

std::string endedText(int status)
{
    if (WIFEXITED(status))
        return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               ::strsignal(WTERMSIG(status)) + ")";
    return "ended with wait status " + std::to_string(status);
}

// One run of the command, markers forwarded while it runs.
Status runOnce(const ExecOptions& o, const std::vector<std::string>& env, MarkFifo* fifo, std::ostream& out)
{
    std::vector<char*> argv;
    for (const std::string& a : o.command)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);  // its stdout onto our stderr
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return Error{"the command " + commandText(o.command) + " cannot start: " + std::strerror(rc)};
    g_child_pid = pid;

    Status marks = Ok{};
    int status = 0;
    for (;;) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            g_child_pid = 0;
            return Error{"waiting for the command " + commandText(o.command) + ": " + std::strerror(errno)};
        }
        pollfd fds[2] = {{g_wake[0], POLLIN, 0}, {fifo ? fifo->fd() : -1, POLLIN, 0}};
        ::poll(fds, 2, 1000);  // SIGCHLD wakes it; the timeout only guards a lost wake-up
        if (fds[0].revents & POLLIN) {
            char sink[64];
            while (::read(g_wake[0], sink, sizeof sink) > 0) {
            }
        }
        if (fifo && marks)
            marks = fifo->drain(out, false);
        if (!marks) {
            ::kill(pid, SIGTERM);  // a bad marker ends the batch: the command goes too
        }
    }
    g_child_pid = 0;
    if (fifo && marks)
        marks = fifo->drain(out, true);
    if (!marks)
        return marks;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return Error{"the command " + commandText(o.command) + " " + endedText(status)};
    return Ok{};
}

}  // namespace

bool validMarkName(std::string_view name)
{
    if (name == "-")
        return true;
    if (name.empty() || name.size() > 64)
        return false;
    for (const char c : name) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '.' || c == ':' || c == '/' || c == '+' || c == '-';
        if (!ok)
            return false;
    }
    return true;
}

Result<std::string> parseMarkLine(std::string_view line)
{
    std::string_view l = line;
    if (!l.empty() && l.back() == '\r')
        l.remove_suffix(1);
    const std::string_view head = "mark ";
    if (l.substr(0, head.size()) == head && validMarkName(l.substr(head.size())))
        return std::string(l);
    return Error{"expected 'mark NAME' (NAME: 1 to 64 of A-Z a-z 0-9 _ . : / + -, or '-'), got " + quoteLine(line)};
}

Status checkCommand(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv.front().empty())
        return Error{"no command given"};
    const std::string& prog = argv.front();
    auto executable = [](const std::string& p) {
        struct stat st {};
        return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
    };
    if (prog.find('/') != std::string::npos) {
        if (executable(prog))
            return Ok{};
        return Error{"the command " + quoteLine(prog) + " is not an executable file"};
    }
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/bin:/bin";
    while (true) {
        const auto colon = rest.find(':');
        std::string dir(rest.substr(0, colon));
        if (dir.empty())
            dir = ".";
        if (executable(dir + "/" + prog))
            return Ok{};
        if (colon == std::string_view::npos)
            break;
        rest.remove_prefix(colon + 1);
    }
    return Error{"the command " + quoteLine(prog) + " is not on PATH"};
}

int serveExec(const ExecOptions& options, std::istream& in, std::ostream& out, std::ostream& err)
{
    constexpr std::string_view program = "joulebench-exec";
    if (Status st = checkCommand(options.command); !st) {
        err << program << ": " << st.error() << '\n' << std::flush;
        return 2;
    }
    if (::pipe(g_wake) != 0) {
        err << program << ": cannot make a pipe: " << std::strerror(errno) << '\n' << std::flush;
        return 5;
    }
    setNonBlocking(g_wake[0]);
    setNonBlocking(g_wake[1]);
    struct sigaction sa {};
    sa.sa_handler = onChild;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    ::sigaction(SIGCHLD, &sa, nullptr);
    struct sigaction stop {};
    stop.sa_handler = onStop;
    sigemptyset(&stop.sa_mask);
    for (const int s : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(s, &stop, nullptr);

    int code = 0;
    {
        MarkFifo fifo;
        MarkFifo* marks = nullptr;
        if (options.marks) {
            if (Status st = fifo.open(); !st) {
                err << program << ": " << st.error() << '\n' << std::flush;
                code = 5;
            }
            marks = &fifo;
        }
        if (code == 0) {
            const std::vector<std::string> env = commandEnvironment(marks ? fifo.path() : std::string());
            code = serveChild(program, 1,
                              [&](int k) -> Result<ChildBatch> {
                                  for (int i = 0; i < k; ++i)
                                      if (Status st = runOnce(options, env, marks, out); !st)
                                          return Error{st.error()};
                                  return ChildBatch{k, "exec=1"};
                              },
                              in, out, err);
        }
    }
    ::signal(SIGCHLD, SIG_DFL);
    ::close(g_wake[0]);
    ::close(g_wake[1]);
    g_wake[0] = g_wake[1] = -1;
    return code;
}

}  // namespace jb
