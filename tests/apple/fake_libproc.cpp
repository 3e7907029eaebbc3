// A stand-in libproc (and libSystem) for the `task` reader's tests: proc_pid_rusage of
// flavour 6 fills the RUSAGE_INFO_V6 bytes the reader decodes from the process's real CPU
// time on Linux: ri_user_time (byte 16, in mach ticks), ri_system_time (24, zero here),
// ri_billed_energy (264), ri_serviced_energy (272) and ri_energy_nj (336), the energies being
// the CPU time times an injected power (FAKE_LIBPROC_WATTS, default 10 W; fakeproc_set_watts).
// mach_timebase_info gives Apple silicon's 125/3 ns per tick. fakeproc_fail makes the next
// calls fail with an errno, as for a process that is gone or not the caller's.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/types.h>
#include <unistd.h>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr std::uint32_t kNumer = 125, kDenom = 3;

std::mutex g_m;
double g_watts = -1;  // -1: from the environment
int g_fail_errno = 0;
long g_calls = 0;

double watts()
{
    if (g_watts >= 0)
        return g_watts;
    const char* w = std::getenv("FAKE_LIBPROC_WATTS");
    return w ? std::atof(w) : 10.0;
}

// The process's CPU time in ns (all its threads), or -1 if there is no such process.
long double cpuNs(int pid)
{
    clockid_t cid{};
    timespec ts{};
    if (clock_getcpuclockid(pid_t(pid), &cid) == 0 && clock_gettime(cid, &ts) == 0)
        return (long double)ts.tv_sec * 1e9L + ts.tv_nsec;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return -1;
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string f;
    unsigned long long ut = 0, st = 0;
    for (int i = 3; i <= 15 && rest >> f; ++i) {
        if (i == 14)
            ut = std::strtoull(f.c_str(), nullptr, 10);
        if (i == 15)
            st = std::strtoull(f.c_str(), nullptr, 10);
    }
    return (long double)(ut + st) * 1e9L / (long double)sysconf(_SC_CLK_TCK);
}

void putLe64(unsigned char* b, std::size_t off, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        b[off + std::size_t(i)] = (unsigned char)(v >> (8 * i));
}

}  // namespace

struct FakeTimebase {
    std::uint32_t numer, denom;
};

FAKE_EXPORT int mach_timebase_info(FakeTimebase* tb)
{
    if (!tb)
        return 4;  // KERN_INVALID_ARGUMENT
    tb->numer = kNumer;
    tb->denom = kDenom;
    return 0;
}

FAKE_EXPORT int proc_pid_rusage(int pid, int flavor, void* buffer)
{
    std::lock_guard g(g_m);
    ++g_calls;
    if (g_fail_errno) {
        errno = g_fail_errno;
        return -1;
    }
    if (flavor != 6 || !buffer) {
        errno = EINVAL;
        return -1;
    }
    const long double ns = cpuNs(pid);
    if (ns < 0) {
        errno = ESRCH;
        return -1;
    }
    auto* b = static_cast<unsigned char*>(buffer);
    std::memset(b, 0, 344);  // sizeof(struct rusage_info_v6) reaches past ri_energy_nj
    putLe64(b, 16, std::uint64_t(ns * kDenom / kNumer));  // ri_user_time, mach ticks
    putLe64(b, 24, 0);                                     // ri_system_time
    const auto nj = std::uint64_t(ns * (long double)watts());
    putLe64(b, 264, nj);      // ri_billed_energy
    putLe64(b, 272, nj / 4);  // ri_serviced_energy
    putLe64(b, 336, nj);      // ri_energy_nj
    return 0;
}

// Tests only.
FAKE_EXPORT void fakeproc_set_watts(double w)
{
    std::lock_guard g(g_m);
    g_watts = w;
}
FAKE_EXPORT void fakeproc_fail(int err)
{
    std::lock_guard g(g_m);
    g_fail_errno = err;
}
FAKE_EXPORT long fakeproc_calls()
{
    std::lock_guard g(g_m);
    return g_calls;
}
