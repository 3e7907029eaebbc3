#include <jb/counters/CpuTime.h>

#include <jb/counters/ProcStat.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace jb {

namespace {

Result<std::int64_t> clockCpuNs(std::int64_t pid)
{
    clockid_t id{};
    // clock_getcpuclockid returns the error number instead of setting errno.
    if (const int e = clock_getcpuclockid(pid_t(pid), &id); e != 0)
        return Error{"clock_getcpuclockid(" + std::to_string(pid) + "): " + std::strerror(e)};
    timespec ts{};
    if (clock_gettime(id, &ts) != 0)
        return Error{"clock_gettime(CPU clock of pid " + std::to_string(pid) + "): " + std::strerror(errno)};
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

Result<std::int64_t> parseProcStatCpuTicks(std::string_view line)
{
    auto f = splitProcStat(line);
    if (!f)
        return Error{f.error()};
    if (f->count() < 15)
        return Error{"only " + std::to_string(f->count()) + " fields, utime and stime are fields 14 and 15"};
    std::int64_t ticks = 0;
    for (std::size_t n : {14, 15}) {
        const std::string_view tok = f->field(n);
        std::int64_t v = 0;
        const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (r.ec != std::errc{} || r.ptr != tok.data() + tok.size() || v < 0)
            return Error{"field " + std::to_string(n) + " is '" + std::string(tok) + "', not a tick count"};
        ticks += v;
    }
    return ticks;
}

Result<std::int64_t> procStatCpuNs(std::int64_t pid, const std::string& proc_root)
{
    auto text = readProcStat(proc_root, pid);
    if (!text)
        return Error{text.error()};
    const std::string path = proc_root + "/" + std::to_string(pid) + "/stat";
    auto ticks = parseProcStatCpuTicks(*text);
    if (!ticks)
        return Error{path + ": " + ticks.error()};
    const long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0)
        return Error{"sysconf(_SC_CLK_TCK) failed, cannot convert " + path + " ticks to ns"};
    return *ticks * (1'000'000'000 / hz);
}

Result<std::int64_t> processCpuNs(std::int64_t pid, const std::string& proc_root)
{
    if (pid <= 0)
        return Error{"no process (pid " + std::to_string(pid) + ")"};
    auto ns = clockCpuNs(pid);
    if (ns)
        return ns;
    auto fallback = procStatCpuNs(pid, proc_root);
    if (fallback)
        return fallback;
    return Error{ns.error() + "; " + fallback.error()};
}

CpuTimeSource systemCpuTimeSource(const std::string& proc_root)
{
    return [proc_root](std::int64_t pid) { return processCpuNs(pid, proc_root); };
}

}  // namespace jb
