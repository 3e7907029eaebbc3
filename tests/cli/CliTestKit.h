#pragma once
// What the CLI tests share: running joulebench-cli, and a fake powercap zone (tests/clients/
// fakezone) whose power rises by busy_w while the fake child's flag file exists.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>

#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

namespace jbclitest {

inline QString bin(const char* name)
{
    return QStringLiteral(JB_BIN_DIR "/") + QString::fromLatin1(name);
}
inline QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

// A run of joulebench-cli under conditions a user meets: standard output into a file (/dev/full),
// a working folder, and a setup done in the child before exec (a file-size limit, another user).
struct CliSetup {
    QString stdout_file;
    QString workdir;
    std::function<void()> in_child;  // async-signal-safe calls only (after fork, before exec)
};

inline Run cli(const QStringList& args, const CliSetup& setup, int timeout_ms = 120000)
{
    QProcess p;
    if (!setup.stdout_file.isEmpty())
        p.setStandardOutputFile(setup.stdout_file);
    if (!setup.workdir.isEmpty())
        p.setWorkingDirectory(setup.workdir);
    if (setup.in_child)
        p.setChildProcessModifier(setup.in_child);
    p.start(bin("joulebench-cli"), args);
    Run r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline Run cli(const QStringList& args, int timeout_ms = 120000)
{
    return cli(args, CliSetup{}, timeout_ms);
}

// In the child: files grow to at most `bytes` (a full disk as writes see it: EFBIG, no signal).
inline std::function<void()> fileSizeLimit(rlim_t bytes)
{
    return [bytes] {
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit r{bytes, bytes};
        ::setrlimit(RLIMIT_FSIZE, &r);
    };
}

// In the child: an ordinary user (nobody) where the test runs as root, who ignores permissions.
inline void asOrdinaryUser()
{
    if (::geteuid() != 0)
        return;
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
        ::_exit(126);
}

class FakeZone {
public:
    explicit FakeZone(const QString& root, const QString& busy_w = QStringLiteral("15"))
        : zone(root + QStringLiteral("/intel-rapl:0")), flag(root + QStringLiteral("/busy.flag"))
    {
        QDir().mkpath(zone);
        proc.start(testBin("fakezone"),
                   {zone, QStringLiteral("--idle-w"), QStringLiteral("20"), QStringLiteral("--busy-w"),
                    busy_w, QStringLiteral("--flag"), flag, QStringLiteral("--tick-ms"), QStringLiteral("1"),
                    QStringLiteral("--seconds"), QStringLiteral("200")});
        proc.waitForStarted();
    }
    ~FakeZone()
    {
        proc.kill();
        proc.waitForFinished();
    }
    bool ready() const { return QFile::exists(zone + QStringLiteral("/energy_uj")); }
    QString zone, flag;
    QProcess proc;
};

}  // namespace jbclitest
