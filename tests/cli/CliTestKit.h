#pragma once
// What the CLI tests share: running joulebench-cli, and a fake powercap zone (tests/clients/
// fakezone) whose power rises by busy_w while the fake child's flag file exists.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

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

inline Run cli(const QStringList& args, int timeout_ms = 120000)
{
    QProcess p;
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

class FakeZone {
public:
    explicit FakeZone(const QString& root, const QString& busy_w = QStringLiteral("15"))
        : zone(root + QStringLiteral("/intel-rapl:0"))
        , flag(root + QStringLiteral("/busy.flag"))
    {
        QDir().mkpath(zone);
        proc.start(testBin("fakezone"), {zone, QStringLiteral("--idle-w"), QStringLiteral("20"), QStringLiteral("--busy-w"),
                                         busy_w, QStringLiteral("--flag"), flag, QStringLiteral("--tick-ms"),
                                         QStringLiteral("1"), QStringLiteral("--seconds"), QStringLiteral("200")});
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
