// ioreport-gpu's portable parts: IOReport unit labels, and accumulatedGPUTime per pid from
// canned ioreg text (values checked against the reference's regexes), run through a fake ioreg.
#include "FakeZone.h"
#include <jb/counters/GpuTime.h>
#include <jb/counters/IOReportGpu.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace jb;

namespace {

QByteArray fixture(const char* name)
{
    QFile f(QStringLiteral(JB_FIXTURES "/counters/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::string_view view(const QByteArray& b) { return {b.constData(), std::size_t(b.size())}; }

// An executable script in dir that prints the fixture when called with ioreg's arguments.
QString fakeIoreg(const QTemporaryDir& dir, const QByteArray& body)
{
    const QString path = dir.filePath(QStringLiteral("ioreg"));
    if (!jbtest::writeText(path, "#!/bin/sh\n" + body))
        return {};
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

}  // namespace

class TestGpuTime : public QObject {
    Q_OBJECT
private slots:
    void unitLabels_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<double>("nj");
        QTest::newRow("nJ") << QStringLiteral("nJ") << 1.0;
        QTest::newRow("uJ") << QStringLiteral("uJ") << 1e3;
        QTest::newRow("mJ") << QStringLiteral("mJ") << 1e6;
        QTest::newRow("J") << QStringLiteral("J") << 1e9;
        QTest::newRow("pJ") << QStringLiteral("pJ") << 1e-3;
        QTest::newRow("padded mJ") << QStringLiteral(" mJ  ") << 1e6;
    }
    void unitLabels()
    {
        QFETCH(QString, label);
        QFETCH(double, nj);
        const auto f = ioreportUnitToNj(label.toStdString());
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        QCOMPARE(*f, nj);
    }

    void unknownUnitIsNamed()
    {
        for (const char* bad : {"kWh", "", "mj", "J/s"}) {
            const auto f = ioreportUnitToNj(bad);
            QVERIFY(!f.ok());
            QVERIFY2(f.error().find("'" + std::string(bad) + "'") != std::string::npos, f.error().c_str());
        }
    }

    void ioregPerPid()
    {
        const QByteArray text = fixture("ioreg-accelerator.txt");
        QVERIFY(!text.isEmpty());
        const GpuTimes t = parseIoregGpuTimes(view(text));
        // What the reference's gpu_times() gives for the same text.
        const GpuTimes expected{{412, 88243906291}, {733, 0}, {5120, 3000000000}, {9001, 7}};
        QCOMPARE(t, expected);
    }

    // Shaped like a real M1's `ioreg -l` (macOS 11): keys sorted, so AppUsage precedes
    // IOUserClientCreator and lastSubmittedTime precedes accumulatedGPUTime; `()` for an empty
    // list; Metal and GL/CL entries; process names cut to 16 characters; one pid on several nodes.
    void ioregShapedLikeARealM1()
    {
        QFile f(QStringLiteral(JB_FIXTURES "/apple/ioreg-m1-agx.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const GpuTimes t = parseIoregGpuTimes(view(text));
        const GpuTimes expected{{357, 249658696208 + 5914750 + 5902000},
                                {542, 0},
                                {942, 0},
                                {950, 0},
                                {1204, 61250000 + 3750000},
                                {2231, 1875000 + 125000},
                                {9083, 224600041}};
        QCOMPARE(t, expected);
    }

    // The Intel-Mac shape: accumulatedGPUTime as the client node's own top-level property.
    void ioregTopLevelProperty()
    {
        QFile f(QStringLiteral(JB_FIXTURES "/apple/ioreg-intel-toplevel.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const GpuTimes expected{{311, 45250000000}, {4410, 812500000 + 187500000}, {502, 0}};
        QCOMPARE(parseIoregGpuTimes(view(text)), expected);
        // A node with AppUsage entries is read from them alone, never from both.
        const QByteArray both = "+-o C  <class AGXDeviceUserClient>\n"
                                "  |     \"AppUsage\" = ({\"API\"=\"Metal\",\"accumulatedGPUTime\"=40})\n"
                                "  |     \"IOUserClientCreator\" = \"pid 7, x\"\n"
                                "  |     \"accumulatedGPUTime\" = 1000\n";
        QCOMPARE(parseIoregGpuTimes(view(both)), (GpuTimes{{7, 40}}));
    }

    void ioregWithoutClients()
    {
        QVERIFY(parseIoregGpuTimes(view(fixture("ioreg-no-clients.txt"))).empty());
        QVERIFY(parseIoregGpuTimes("").empty());
    }

    void ioregSumsSaturateInsteadOfOverflowing()
    {
        // Found by fuzzing: two times near the int64 limit in one node (and across two nodes of
        // one pid) overflowed the sum, undefined behaviour; they now stop at the limit.
        const std::string big = "9223372036854775000";
        const std::string text = "+-o A  <class A>\n"
                                 "    \"IOUserClientCreator\" = \"pid 7, a\"\n"
                                 "    \"AppUsage\" = ({\"accumulatedGPUTime\"=" + big + "},{\"accumulatedGPUTime\"=" + big + "})\n"
                                 "  +-o B  <class B>\n"
                                 "    \"IOUserClientCreator\" = \"pid 7, a\"\n"
                                 "    \"AppUsage\" = ({\"accumulatedGPUTime\"=" + big + "})\n";
        const GpuTimes expected{{7, INT64_MAX}};
        QCOMPARE(parseIoregGpuTimes(text), expected);
    }

    void ioregOddNodes()
    {
        // A creator without the comma the reference's regex needs does not count; a node's
        // second creator line is ignored (first one wins); a negative time is not a number.
        const std::string text = "+-o A  <class A>\n"
                                 "    \"IOUserClientCreator\" = \"pid 12 x\"\n"
                                 "    \"AppUsage\" = ({\"accumulatedGPUTime\"=5})\n"
                                 "  +-o B  <class B>\n"
                                 "    \"IOUserClientCreator\" = \"pid 13, b\"\n"
                                 "    \"IOUserClientCreator\" = \"pid 14, c\"\n"
                                 "    \"AppUsage\" = ({\"accumulatedGPUTime\"=-5},{\"accumulatedGPUTime\"=6})\n";
        const GpuTimes expected{{13, 6}};
        QCOMPARE(parseIoregGpuTimes(text), expected);
    }

    void readRunsTheProgram()
    {
        QTemporaryDir dir;
        const QString prog = fakeIoreg(
            dir, "[ \"$*\" = \"-r -c IOAccelerator -l -w0\" ] || { echo \"bad arguments: $*\" >&2; exit 3; }\n"
                 "cat '" JB_FIXTURES "/counters/ioreg-accelerator.txt'\n");
        QVERIFY(!prog.isEmpty());
        const auto t = readGpuTimes(prog.toStdString());
        QVERIFY2(t.ok(), t.ok() ? "" : t.error().c_str());
        QCOMPARE(t->at(5120), std::int64_t(3000000000));
        QCOMPARE(t->size(), std::size_t(4));
    }

    void readReportsAFailingProgram()
    {
        QTemporaryDir dir;
        const QString prog = fakeIoreg(dir, "echo 'ioreg: no registry' >&2\nexit 3\n");
        const auto t = readGpuTimes(prog.toStdString());
        QVERIFY(!t.ok());
        QVERIFY2(t.error().find("status 3") != std::string::npos &&
                     t.error().find("ioreg: no registry") != std::string::npos,
                 t.error().c_str());
    }

    void readReportsAMissingProgram()
    {
        const std::string missing = JB_FIXTURES "/counters/no-such-ioreg";
        const auto t = readGpuTimes(missing);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().find(missing) != std::string::npos, t.error().c_str());
    }

#ifdef Q_OS_LINUX
    void ioreportNeedsMac()
    {
        const auto c = openIOReportGpuCounter();
        QVERIFY(!c.ok());
        QCOMPARE(c.error(), std::string("ioreport-gpu needs macOS (IOReport); this machine runs Linux"));
        const CounterStatus s = ioreportGpuStatus();
        QCOMPARE(s.spec, std::string("ioreport-gpu"));
        QVERIFY(!s.available && s.whole_device);
        QCOMPARE(s.reason, c.error());
    }
#endif
};

QTEST_GUILESS_MAIN(TestGpuTime)
#include "tst_gpu_time.moc"
