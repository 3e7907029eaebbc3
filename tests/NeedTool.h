#pragma once
// JB_NEED_TOOL("program", "debian-package"): a test that runs a program checks for it first.
// Missing, the test skips with the package to install, or fails where ./dev has installed every
// tool (JB_REQUIRE_TOOLS=1, set by ./dev test on Debian). tests/packaging/check_build_inputs.sh
// reads these calls to know which programs the tests run and checks that ./dev installs them.
#include <QStandardPaths>
#include <QTest>

#define JB_NEED_TOOL(program, package)                                                                   \
    do {                                                                                                 \
        if (QStandardPaths::findExecutable(QStringLiteral(program)).isEmpty()) {                         \
            const QByteArray why_ = QByteArrayLiteral(program " is not installed (Debian package " package \
                                                      "; ./dev deps installs it)");                     \
            if (qEnvironmentVariable("JB_REQUIRE_TOOLS") == QLatin1String("1"))                          \
                QFAIL(why_.constData());                                                                 \
            QSKIP(why_.constData());                                                                     \
        }                                                                                                \
    } while (false)
