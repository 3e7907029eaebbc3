// joulebench-gpu-load: the no-driver paths (exit 1 and a message that names the library or the
// failing call), bad flags (exit 2), and the child protocol end to end through a measure
// session against the fake CUDA driver, whose launch log shows the work each `go k` asked for.
#include "JobsTestSupport.h"
#include "../RunProgram.h"

#include <jb/base/Clock.h>

#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <vector>

using nlohmann::json;
using namespace jbtest;

using Run = jbtest::Ran;

namespace {

Run start(const QString& program, const QStringList& args, const QProcessEnvironment& env)
{
    return jbtest::runProgram(program, args, env);
}

const QString kLoad = QStringLiteral(JB_BIN_DIR "/joulebench-gpu-load");
const QString kFakeCuda = QStringLiteral(JB_FAKE_CUDA_LIB);

QProcessEnvironment cleanEnv()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* v : {"JB_CUDA_LIBRARY", "JB_FAKE_CUDA_INIT_ERROR", "JB_FAKE_CUDA_LAUNCH_LOG", "JB_FAKE_GPU_PROCS",
                          "CUDA_VISIBLE_DEVICES"})
        env.remove(QString::fromLatin1(v));
    return env;
}

int lines(const std::string& text)
{
    return int(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

class TestGpuLoad : public QObject {
    Q_OBJECT

private slots:
    void missingDriverSaysSoAndExits1()
    {
        QTemporaryDir dir;
        const QString missing = dir.path() + QStringLiteral("/no/libcuda.so.1");
        const Run r = start(kLoad, {QStringLiteral("serve"), QStringLiteral("--cuda-library"), missing}, cleanEnv());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("cannot load the NVIDIA driver library ") + missing), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("Install the NVIDIA driver")), qPrintable(r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("ready")), qPrintable(r.out));

        // The environment variable is the same override.
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("JB_CUDA_LIBRARY"), missing);
        const Run e = start(kLoad, {QStringLiteral("run"), QStringLiteral("--seconds"), QStringLiteral("1")}, env);
        QCOMPARE(e.code, 1);
        QVERIFY2(e.err.contains(missing), qPrintable(e.err));
    }

    void libraryWithoutCudaIsRefused()
    {
        // A library that loads but is no CUDA driver (the fake NVML): the missing entry points are named.
        const Run r = start(kLoad, {QStringLiteral("serve"), QStringLiteral("--cuda-library"), QStringLiteral(JB_FAKE_NVML_LIB)},
                            cleanEnv());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("lacks the CUDA driver entry points cuInit")), qPrintable(r.err));
    }

    void driverWithoutGpuSaysSo()
    {
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("JB_FAKE_CUDA_INIT_ERROR"), QStringLiteral("100"));
        const Run r = start(kLoad, {QStringLiteral("serve"), QStringLiteral("--cuda-library"), kFakeCuda}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("cuInit failed with CUDA error 100 (no CUDA-capable device is detected)")),
                 qPrintable(r.err));
    }

    void badFlagsAreUsageErrors()
    {
        const QList<QStringList> bad = {
            {},
            {QStringLiteral("dance")},
            {QStringLiteral("serve"), QStringLiteral("--buffer-mib"), QStringLiteral("0")},
            {QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("x")},
            {QStringLiteral("serve"), QStringLiteral("--hold-mib"), QStringLiteral("-5")},
            {QStringLiteral("run")},
            {QStringLiteral("serve"), QStringLiteral("--no-such-flag")},
        };
        for (const QStringList& args : bad) {
            const Run r = start(kLoad, args + QStringList{QStringLiteral("--cuda-library"), kFakeCuda}, cleanEnv());
            QVERIFY2(r.code == 2, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": exit ") + QString::number(r.code)));
            QVERIFY2(r.err.startsWith(QStringLiteral("joulebench-gpu-load: ")), qPrintable(r.err));
        }
    }

    void wrongDeviceIsNamed()
    {
        const Run r = start(kLoad, {QStringLiteral("serve"), QStringLiteral("--device"), QStringLiteral("3"),
                                    QStringLiteral("--cuda-library"), kFakeCuda},
                            cleanEnv());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--device 3: the driver shows 1 GPU(s)")), qPrintable(r.err));
    }

    void protocolThroughAMeasureSession()
    {
        QTemporaryDir dir;
        const std::string launches = str(dir.path()) + "/launches.txt";
        const std::string procs = str(dir.path()) + "/procs.txt";
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("JB_CUDA_LIBRARY"), kFakeCuda);
        env.insert(QStringLiteral("JB_FAKE_CUDA_LAUNCH_LOG"), QString::fromStdString(launches));
        env.insert(QStringLiteral("JB_FAKE_GPU_PROCS"), QString::fromStdString(procs));
        const Run r = start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"),
                            {QStringLiteral("measure"), QStringLiteral("--label"), QStringLiteral("gpu"),
                             QStringLiteral("--rounds"), QStringLiteral("2"), QStringLiteral("--k"), QStringLiteral("3"),
                             QStringLiteral("--idle-s"), QStringLiteral("0.2"), QStringLiteral("--counter"),
                             QStringLiteral("sim"), QStringLiteral("--"), kLoad, QStringLiteral("serve"),
                             QStringLiteral("--jobs"), QStringLiteral("2"), QStringLiteral("--buffer-mib"),
                             QStringLiteral("1"), QStringLiteral("--iterations"), QStringLiteral("7"),
                             QStringLiteral("--hold-mib"), QStringLiteral("3")},
                            env);
        QVERIFY2(r.code == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        const json rec = json::parse(r.out.toStdString());
        QCOMPARE(rec.at("rounds").size(), std::size_t(2));
        std::int64_t decodes = 0;
        for (const json& round : rec.at("rounds")) {
            QCOMPARE(round.at("decodes").get<std::int64_t>(), std::int64_t(3 * 2));  // k passes of --jobs launches
            decodes += round.at("decodes").get<std::int64_t>();
        }
        QVERIFY2(r.err.contains(QStringLiteral("gpu round 2/2: 6 decodes")), qPrintable(r.err));

        // Every decode is one launch over the 1 MiB buffer (262144 floats, 1024 blocks of 256),
        // plus the warm-up launch before `ready`.
        const std::string log = readText(launches);
        QCOMPARE(lines(log), int(decodes) + 1);
        QVERIFY2(log.rfind("1024 256 262144 7\n", 0) == 0, log.c_str());
        QCOMPARE(lines(log), int(std::count(log.begin(), log.end(), '7')));

        // Memory registered after each allocation, the process's total: the 1 MiB buffer, then
        // with the 3 MiB held.
        std::istringstream mem(readText(procs));
        std::string gpu;
        long long pid = 0, bytes = 0;
        std::vector<long long> in_use;
        while (mem >> gpu >> pid >> bytes) {
            QCOMPARE(gpu, std::string("0"));
            in_use.push_back(bytes);
        }
        QCOMPARE(in_use, (std::vector<long long>{1024 * 1024, 4 * 1024 * 1024}));
    }

    void badLineFromTheParentEndsTheChild()
    {
        QProcess p;
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("JB_CUDA_LIBRARY"), kFakeCuda);
        p.setProcessEnvironment(env);
        const std::int64_t before = jb::monotonicNs();
        p.start(kLoad, {QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("3")});
        QVERIFY(p.waitForStarted());
        p.write("go 2\ngo x\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        const std::int64_t after = jb::monotonicNs();
        QCOMPARE(p.exitCode(), 4);
        const QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(out.size(), 2);
        QCOMPARE(out[0], QStringLiteral("ready 3"));
        QVERIFY2(out[1].startsWith(QStringLiteral("done 6 ")) && out[1].endsWith(QStringLiteral(" gpu=Fake_H200")),
                 qPrintable(out[1]));
        // When the work ran, by this machine's monotonic clock: within the exchange, and no
        // longer than the wall time the child measured around it.
        const QStringList w = out[1].split(QLatin1Char(' '));
        QCOMPARE(w.size(), 5);
        QVERIFY2(w[3].startsWith(QStringLiteral("ran=")), qPrintable(out[1]));
        const QStringList ran = w[3].mid(4).split(QLatin1Char(','));
        QCOMPARE(ran.size(), 2);
        const std::int64_t t0 = ran[0].toLongLong(), t1 = ran[1].toLongLong(), wall = w[2].toLongLong();
        QVERIFY2(before < t0 && t0 < t1 && t1 < after, qPrintable(out[1]));
        QVERIFY2(t1 - t0 <= wall, qPrintable(out[1]));
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("expected 'go <k>'")));
    }
};

QTEST_GUILESS_MAIN(TestGpuLoad)
#include "tst_gpuload.moc"
