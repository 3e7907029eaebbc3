#pragma once
// Included by the tests whose fake counters (tests/clients/fakezone, the fake IOReport) write
// their files about once a millisecond: it points TMPDIR at /dev/shm before main runs, so every
// QTemporaryDir of the test (and of the programs it starts) lives on a tmpfs.
//
// Why: on a disk file system a zone that renames its counter file a thousand times a second
// waits on the journal whenever another process syncs (the CI runs tests in parallel, and the
// record writer fsyncs). A zone that waits 200 ms books that time at the power it sees when it
// wakes, so a busy window loses energy and a test of the measurement fails for the fake's sake.
// On a tmpfs the write never waits on a disk.
//
// Used only where /dev/shm is a writable folder that allows running programs (some tests run
// scripts from their temporary folder); elsewhere (macOS, a noexec /dev/shm) TMPDIR is left
// as it is. JB_TEST_TMPDIR, when set, wins over both.
#include <QByteArray>
#include <QtGlobal>

#include <sys/statvfs.h>
#include <unistd.h>

namespace jbtest {

inline bool pointTmpAtTmpfs()
{
    const QByteArray chosen = qgetenv("JB_TEST_TMPDIR");
    if (!chosen.isEmpty())
        return qputenv("TMPDIR", chosen);
    struct statvfs fs {};
    if (::statvfs("/dev/shm", &fs) != 0 || (fs.f_flag & ST_NOEXEC) || (fs.f_flag & ST_RDONLY) ||
        ::access("/dev/shm", W_OK | X_OK) != 0)
        return false;
    return qputenv("TMPDIR", QByteArrayLiteral("/dev/shm"));
}

// Runs before the test's main (and so before QDir::tempPath is first asked).
[[maybe_unused]] inline const bool tmpOnTmpfs = pointTmpAtTmpfs();

}  // namespace jbtest
