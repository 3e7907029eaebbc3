// The Mac check (packaging/macos/mac_check.sh, the one command of docs/MACOS.md) end to end
// against the fake Apple libraries, configured as two real chips from their published channel
// lists: an M1 Ultra (no plain CPU Energy: ioreport:cpu adds the dies' totals; its mJ channels
// publish about every 1.05 s) and an M5 Max on macOS 27 (CPU Energy reads 0). The record must
// name the channels it read and how each published, and its warnings must name each case.
#include "../NeedTool.h"
#include "../RunProgram.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace jbtest;

class TestAppleMacCheck : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    struct Check {
        Ran ran;
        QJsonObject record;
        QString warnings;  // every warning, one a line
    };

    Check runCheck(const char* chip, const QByteArray& more)
    {
        Check c;
        const QString conf = dir_.filePath(QStringLiteral("%1.conf").arg(QLatin1String(chip)));
        QFile f(conf);
        if (!f.open(QIODevice::WriteOnly))
            return c;
        f.write("channels " JB_FIXTURES "/apple/ioreport-" + QByteArray(chip) + ".txt\n" + more);
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FAKE_IOREPORT_CONFIG"), conf);
        const QString out = dir_.filePath(QStringLiteral("%1.json").arg(QLatin1String(chip)));
        c.ran = runProgram(QStringLiteral("bash"),
                           {QStringLiteral(JB_SOURCE_DIR "/packaging/macos/mac_check.sh"),
                            QStringLiteral("--bin"), QStringLiteral(JB_BIN_DIR), QStringLiteral("--out"), out,
                            QStringLiteral("--"), QStringLiteral("--corefoundation-library"),
                            QStringLiteral(JB_FAKE_CF_LIB), QStringLiteral("--ioreport-library"),
                            QStringLiteral(JB_FAKE_IOREPORT_LIB), QStringLiteral("--libproc-library"),
                            QStringLiteral(JB_FAKE_LIBPROC_LIB), QStringLiteral("--libsystem-library"),
                            QStringLiteral(JB_FAKE_LIBPROC_LIB), QStringLiteral("--ioreg"),
                            dir_.filePath(QStringLiteral("ioreg"))},
                           env, 150000);
        QFile r(out);
        if (r.open(QIODevice::ReadOnly))
            c.record = QJsonDocument::fromJson(r.readAll()).object();
        for (const QJsonValue& w : c.record.value(QStringLiteral("warnings")).toArray())
            c.warnings += w.toString() + QLatin1Char('\n');
        return c;
    }

    static QJsonObject info(const Check& c, const char* spec)
    {
        return c.record.value(QStringLiteral("counter_info"))
            .toObject()
            .value(QLatin1String(spec))
            .toObject();
    }
    static QString publication(const Check& c, const char* spec)
    {
        return info(c, spec)
            .value(QStringLiteral("publication"))
            .toObject()
            .value(QStringLiteral("state"))
            .toString();
    }

private slots:
    void initTestCase()
    {
        JB_NEED_TOOL("bash", "bash");
        QVERIFY(dir_.isValid());
        // ioreg: the AGX clients of a real M1's shape.
        const QString ioreg = dir_.filePath(QStringLiteral("ioreg"));
        QFile f(ioreg);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\ncat '" JB_FIXTURES "/apple/ioreg-m1-agx.txt'\n");
        f.close();
        QFile::setPermissions(ioreg, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void m1Ultra()
    {
        const Check c = runCheck("m1-ultra",
                                 "power 2 0 DIE_0_CPU Energy\npower 1.5 0 DIE_1_CPU Energy\n"
                                 "power 4 0 GPU Energy\npublish 1050 unit:mJ\n");
        const QString all = c.ran.out + c.ran.err;
        QVERIFY2(c.ran.code == 0, qPrintable(all));
        QVERIFY2(QRegularExpression(
                     QStringLiteral("\\nioreport:cpu +yes +Apple CPU energy, the whole CPU "
                                    "\\(IOReport Energy Model\\): the sum of 'DIE_0_CPU Energy' \\+ "
                                    "'DIE_1_CPU Energy'"))
                     .match(all)
                     .hasMatch(),
                 qPrintable(all));
        QCOMPARE(c.record.value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        const QJsonObject cpu = info(c, "ioreport:cpu");
        QCOMPARE(cpu.value(QStringLiteral("channel")).toString(),
                 QStringLiteral("DIE_0_CPU Energy + DIE_1_CPU Energy"));
        QCOMPARE(cpu.value(QStringLiteral("parts")).toArray().size(), 2);
        QCOMPARE(publication(c, "ioreport:cpu"), QStringLiteral("periodic"));
        QCOMPARE(publication(c, "ioreport-gpu"), QStringLiteral("every-read"));
        QVERIFY2(c.warnings.contains(
                     QStringLiteral("ioreport:cpu: the sampling period (100 ms) is shorter than the "
                                    "counter's update cadence")),
                 qPrintable(c.warnings));
        QVERIFY2(!c.warnings.contains(QStringLiteral("ioreport-gpu:")), qPrintable(c.warnings));
        // The script printed the record's counter_info for the report.
        QVERIFY2(all.contains(QStringLiteral("\"publication\"")), qPrintable(all));
    }

    void m5MaxOnMacOS27()
    {
        const Check c = runCheck("m5-max", "power 4 0 GPU Energy\nzero CPU Energy\n");
        const QString all = c.ran.out + c.ran.err;
        QVERIFY2(c.ran.code == 0, qPrintable(all));
        QCOMPARE(c.record.value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        QCOMPARE(info(c, "ioreport:cpu").value(QStringLiteral("channel")).toString(),
                 QStringLiteral("CPU Energy"));
        QCOMPARE(publication(c, "ioreport:cpu"), QStringLiteral("zero"));
        QCOMPARE(publication(c, "ioreport-gpu"), QStringLiteral("every-read"));
        QVERIFY2(c.warnings.contains(QStringLiteral("ioreport:cpu: the counter never advanced")) &&
                     c.warnings.contains(QStringLiteral("'CPU Energy' read 0 at every read")),
                 qPrintable(c.warnings));
        QVERIFY2(!c.warnings.contains(QStringLiteral("ioreport-gpu:")), qPrintable(c.warnings));
    }
};

QTEST_GUILESS_MAIN(TestAppleMacCheck)
#include "tst_apple_mac_check.moc"
