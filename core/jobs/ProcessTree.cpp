#include <jb/jobs/ProcessTree.h>

#include <jb/base/Numbers.h>
#include <jb/counters/ProcStat.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <map>

namespace jb {

namespace {

// Reads a small /proc file whole (an environment: NUL-separated, capped at `limit`).
bool readSmallFile(const std::string& path, std::string& out, std::size_t limit = 1 << 20)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    out.clear();
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            ::close(fd);
            return false;
        }
        if (n == 0 || out.size() > limit)
            break;
        out.append(buf, std::size_t(n));
    }
    ::close(fd);
    return true;
}

}  // namespace

Result<ProcEntry> parseProcStat(std::string_view line)
{
    auto f = splitProcStat(line);
    if (!f)
        return Error{"not a /proc/PID/stat line: '" + std::string(line.substr(0, 80)) + "'"};
    ProcEntry e;
    if (!parseWhole(f->pid, e.pid))
        return Error{"/proc/PID/stat: bad pid '" + std::string(f->pid) + "'"};
    // 3 state, 4 ppid, 5 pgrp, 6 session, ... 22 starttime.
    if (f->count() < 22 || f->field(3).size() != 1)
        return Error{"/proc/" + std::to_string(e.pid) + "/stat: " + std::to_string(f->count()) +
                     " fields, expected at least 22"};
    e.state = f->field(3)[0];
    if (!parseWhole(f->field(4), e.ppid) || !parseWhole(f->field(5), e.pgrp) ||
        !parseWhole(f->field(6), e.session) || !parseWhole(f->field(22), e.start_ticks))
        return Error{"/proc/" + std::to_string(e.pid) +
                     "/stat: ppid, pgrp, session or starttime is not a number"};
    return e;
}

Result<ProcEntry> readProcEntry(const std::string& proc_root, std::int64_t pid)
{
    auto text = readProcStat(proc_root, pid);
    if (!text)
        return Error{text.error()};
    return parseProcStat(*text);
}

std::vector<ProcEntry> scanProcesses(const std::string& proc_root)
{
    std::vector<ProcEntry> out;
    DIR* dir = ::opendir(proc_root.c_str());
    if (!dir)
        return out;
    while (const dirent* d = ::readdir(dir)) {
        std::int64_t pid = 0;
        if (!parseWhole(std::string_view(d->d_name), pid))
            continue;
        if (auto e = readProcEntry(proc_root, pid))  // a process gone meanwhile is skipped
            out.push_back(*e);
    }
    ::closedir(dir);
    return out;
}

bool environHas(const std::string& proc_root, std::int64_t pid, const std::string& entry)
{
    std::string env;
    if (!readSmallFile(proc_root + "/" + std::to_string(pid) + "/environ", env, 4 << 20))
        return false;
    std::size_t at = 0;
    while (at < env.size()) {
        const std::size_t end = env.find('\0', at);
        const std::size_t len = (end == std::string::npos ? env.size() : end) - at;
        if (len == entry.size() && env.compare(at, len, entry) == 0)
            return true;
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return false;
}

std::set<std::int64_t> jobProcesses(const std::vector<ProcEntry>& all, std::int64_t sid,
                                    const std::set<std::int64_t>& roots,
                                    const std::function<bool(std::int64_t)>& hasMarker)
{
    std::set<std::int64_t> found;
    std::multimap<std::int64_t, std::int64_t> children;  // ppid -> pid, live processes only
    for (const ProcEntry& e : all) {
        if (e.dead())
            continue;
        children.emplace(e.ppid, e.pid);
        if ((sid > 0 && e.session == sid) || roots.count(e.pid) || (hasMarker && hasMarker(e.pid)))
            found.insert(e.pid);
    }
    std::vector<std::int64_t> frontier(found.begin(), found.end());
    while (!frontier.empty()) {
        const std::int64_t parent = frontier.back();
        frontier.pop_back();
        auto [b, e] = children.equal_range(parent);
        for (auto it = b; it != e; ++it)
            if (found.insert(it->second).second)
                frontier.push_back(it->second);
    }
    return found;
}

std::set<std::int64_t> findJobProcesses(const std::string& proc_root, std::int64_t sid,
                                        const std::set<std::int64_t>& roots, const std::string& marker)
{
    const auto all = scanProcesses(proc_root);
    const std::int64_t self = ::getpid();
    std::function<bool(std::int64_t)> hasMarker;
    if (!marker.empty())
        hasMarker = [&](std::int64_t pid) { return pid != self && environHas(proc_root, pid, marker); };
    return jobProcesses(all, sid, roots, hasMarker);
}

}  // namespace jb
