#pragma once
// jbtest::runProgram: a program run to its end, for the tests that drive a binary (the CLI, the
// GPU workload, the Slurm cluster script): exit code (-1 for a crash or a timeout), stdout and
// stderr. An environment may be given; otherwise the test's own is inherited.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace jbtest {

struct Ran {
    int code = -1;
    QString out, err;
};

inline Ran runProgram(const QString& program, const QStringList& args,
                      const std::optional<QProcessEnvironment>& env = std::nullopt, int timeout_ms = 60000)
{
    QProcess p;
    if (env)
        p.setProcessEnvironment(*env);
    p.start(program, args);
    Ran r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace jbtest
