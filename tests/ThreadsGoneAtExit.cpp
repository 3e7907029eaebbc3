// Linked into every test (jb_add_test). In an AddressSanitizer build only, the test process waits
// at exit, after main() has returned, until its other threads are gone, so that LeakSanitizer's
// check at exit sees no thread half-way through ending.
//
// Why: a QThread's QThreadData is freed by whichever lets go of it last: the QThread object, or the
// thread itself in its thread-exit destructors, which run after QThread::wait() has returned. QtTest's
// watchdog thread and QtGui's painting pool (QThreadPool workers that QRasterPaintEngine and
// QImage conversions start) end when main() ends. A thread that loses the CPU inside those
// destructors on a busy machine still owns its QThreadData, and nothing else points to it. The
// check then reports that memory as leaked. That happened once in a fresh-clone CI run, on 2 cores
// with ctest -j: tst_jobspage, "Direct leak of 152 byte(s) in 1 object(s)" allocated in libQt6Core
// at the `new QThreadData` of QThreadPrivate's constructor (0x98 bytes, libQt6Core.so.6.4.2
// +0x1f3478).
//
// A leak the code under test makes is still reported: waiting frees nothing, it only lets ended
// threads finish ending. The wait is bounded (a thread that never ends, such as a test's own
// leftover worker, delays exit by at most kMaxWait).

#include "Sanitized.h"

#if JB_ADDRESS_SANITIZED

#include <dirent.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

constexpr std::chrono::milliseconds kMaxWait{3000};

// Threads of this process: the entries of /proc/self/task (0 where it cannot be read).
int threadCount()
{
    DIR* d = opendir("/proc/self/task");
    if (!d)
        return 0;
    int n = 0;
    while (const dirent* e = readdir(d))
        if (e->d_name[0] != '.')
            ++n;
    closedir(d);
    return n;
}

void waitForEndedThreads()
{
    const auto deadline = std::chrono::steady_clock::now() + kMaxWait;
    while (threadCount() > 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Registered before main() runs, so it runs after every exit handler that main() and Qt register
// later (the C library runs them in reverse order), just before the sanitizer's own check.
[[maybe_unused]] const bool registered = std::atexit(waitForEndedThreads) == 0;

}  // namespace

#endif
