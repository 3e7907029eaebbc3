// The macOS glue against the fake Apple libraries: every Energy Model channel as a counter in
// Apple's units, exact injected energies, the CF ownership rules (a leak or a double release
// fails the test), the faults (unknown unit, missing symbol, missing group or library,
// proc_pid_rusage failing) and the overlap rules.
#include "FakeApple.h"
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/IOReportGpu.h>
#include <jb/counters/TaskCounter.h>

#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <cerrno>
#include <ctime>

using namespace jb;
using namespace jbtest;

namespace {

// A chip as macmon and powermetrics describe them: totals, clusters and the other rails, in
// the units Apple uses; no power, so only injected energy moves them.
const QByteArray kStill = "channel mJ 0 0 CPU Energy\n"
                          "channel mJ 0 0 EACC_CPU\n"
                          "channel mJ 0 0 PACC0_CPU\n"
                          "channel nJ 0 0 GPU Energy\n"
                          "channel mJ 0 0 ANE\n"
                          "channel mJ 0 0 DRAM\n"
                          "channel uJ 0 0 GPU SRAM\n";

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

const CounterStatus* find(const std::vector<CounterStatus>& list, const std::string& spec)
{
    for (const CounterStatus& s : list)
        if (s.spec == spec)
            return &s;
    return nullptr;
}

double threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

}  // namespace

class TestAppleGlue : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    FakeCF cf_;
    FakeIOReport io_;

    QString config() const { return dir_.filePath(QStringLiteral("ioreport.conf")); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY2(cf_.loaded(), "the fake CoreFoundation's test functions");
        QVERIFY2(io_.loaded(), "the fake libIOReport's test functions");
    }

    void init()
    {
        cf_.reset();
        QVERIFY(configureFakeIOReport(config(), kStill));
    }

    // Every test leaves every CF object released exactly once.
    void cleanup()
    {
        const std::string p = cf_.problems();
        QVERIFY2(p.empty(), p.c_str());
    }

    void listsTheChannelsTheMachineReports()
    {
        auto chans = ioreportEnergyChannels(fakeAppleLibraries());
        QVERIFY2(chans.ok(), chans.ok() ? "" : chans.error().c_str());
        std::vector<std::string> names;
        for (const IOReportChannel& c : *chans)
            names.push_back(c.name);
        QCOMPARE(names, (std::vector<std::string>{"CPU Energy", "EACC_CPU", "PACC0_CPU", "GPU Energy", "ANE", "DRAM",
                                                  "GPU SRAM"}));
        QCOMPARE((*chans)[6].unit, std::string("uJ"));

        CounterOptions o;
        o.powercap_root = dir_.filePath(QStringLiteral("no-powercap")).toStdString();
        o.nvml_library = "/nonexistent/libnvidia-ml.so.1";
        o.apple = fakeAppleLibraries();
        const auto list = listCounters(o);
        for (const char* spec : {"ioreport-gpu", "ioreport:CPU Energy", "ioreport:EACC_CPU", "ioreport:PACC0_CPU",
                                 "ioreport:GPU Energy", "ioreport:ANE", "ioreport:DRAM", "ioreport:GPU SRAM"}) {
            const CounterStatus* s = find(list, spec);
            QVERIFY2(s, spec);
            QVERIFY2(s->available, s->reason.c_str());
            QVERIFY(s->whole_device && isWholeDeviceSpec(spec));
        }
        QVERIFY(has(find(list, "ioreport:GPU SRAM")->description, "(uJ)"));
        QVERIFY2(has(find(list, "task")->description, "proc_pid_rusage"), find(list, "task")->description.c_str());
        QVERIFY(find(list, "task")->available);
    }

    void injectedEnergyInEachUnit_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("channel");
        QTest::addColumn<double>("joules");
        QTest::newRow("nJ") << QStringLiteral("ioreport:GPU Energy") << QStringLiteral("GPU Energy") << 1.25;
        QTest::newRow("uJ") << QStringLiteral("ioreport:GPU SRAM") << QStringLiteral("GPU SRAM") << 0.0375;
        QTest::newRow("mJ") << QStringLiteral("ioreport:CPU Energy") << QStringLiteral("CPU Energy") << 2.5;
        QTest::newRow("alias") << QStringLiteral("ioreport-gpu") << QStringLiteral("GPU Energy") << 0.5;
    }
    void injectedEnergyInEachUnit()
    {
        QFETCH(QString, spec);
        QFETCH(QString, channel);
        QFETCH(double, joules);
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        {
            auto c = openCounter(spec.toStdString(), o);
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            QCOMPARE(c.value()->spec(), spec.toStdString());
            const auto t0 = c.value()->readNj();
            QVERIFY(t0.ok());
            QVERIFY(io_.inject(channel.toUtf8().constData(), joules));
            QVERIFY(io_.inject("DRAM", 7.0));  // another channel moves: not this counter's
            const auto t1 = c.value()->readNj();
            QVERIFY2(t1.ok(), t1.ok() ? "" : t1.error().c_str());
            QCOMPARE(*t1 - *t0, std::int64_t(std::llround(joules * 1e9)));
            const auto info = c.value()->info();
            QCOMPARE(info["channel"].get<std::string>(), channel.toStdString());
            QCOMPARE(info["group"].get<std::string>(), std::string("Energy Model"));
        }
        // The counter is gone: so is every CF object it made (checked in cleanup()).
    }

    void channelWithAnUnknownUnitIsNamed()
    {
        QVERIFY(configureFakeIOReport(config(), kStill + "channel kWh 0 0 Mystery Rail\n"));
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        auto c = openCounter("ioreport:Mystery Rail", o);
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "counter ioreport:Mystery Rail: IOReport's 'Energy Model' channel 'Mystery Rail': "
                                "the unit label 'kWh' is not one of nJ, uJ, mJ, J, pJ"),
                 c.error().c_str());
        const auto list = ioreportStatuses(o.apple);
        const CounterStatus* bad = find(list, "ioreport:Mystery Rail");
        QVERIFY(bad && !bad->available);
        QVERIFY2(has(bad->reason, "'kWh'"), bad->reason.c_str());
        QVERIFY(find(list, "ioreport:GPU Energy")->available);
        QVERIFY(find(list, "ioreport-gpu")->available);
    }

    void missingChannelIsNamed()
    {
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        auto c = openCounter("ioreport:NPU Energy", o);
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "has no 'NPU Energy' channel"), c.error().c_str());
        QVERIFY(configureFakeIOReport(config(), "channel mJ 0 0 CPU Energy\n"));
        const CounterStatus gpu = ioreportGpuStatus(o.apple);
        QVERIFY(!gpu.available);
        QVERIFY2(has(gpu.reason, "no 'GPU Energy' channel"), gpu.reason.c_str());
    }

    void missingGroupIsNamed()
    {
        QVERIFY(configureFakeIOReport(config(), "nogroup\n"));
        auto c = openIOReportGpuCounter(fakeAppleLibraries());
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "no 'Energy Model' channel group"), c.error().c_str());
    }

    void libraryMissingASymbol()
    {
        AppleLibraries libs = fakeAppleLibraries();
        libs.ioreport = JB_FAKE_IOREPORT_NODELTA_LIB;
        auto c = openIOReportGpuCounter(libs);
        QVERIFY(!c.ok());
        QCOMPARE(c.error(), libs.ioreport + " has no IOReportCreateSamplesDelta (not the library IOReport needs?)");
        // CoreFoundation given where libproc belongs.
        auto t = openRusageTaskReader(JB_FAKE_CF_LIB, JB_FAKE_LIBPROC_LIB);
        QVERIFY(!t.ok());
        QCOMPARE(t.error(), std::string("task counter: ") + JB_FAKE_CF_LIB + " has no proc_pid_rusage");
        auto s = openRusageTaskReader(JB_FAKE_LIBPROC_LIB, JB_FAKE_CF_LIB);
        QVERIFY(!s.ok());
        QVERIFY2(has(s.error(), "has no mach_timebase_info"), s.error().c_str());
    }

    void missingLibraryIsNamed()
    {
        AppleLibraries libs = fakeAppleLibraries();
        libs.ioreport = dir_.filePath(QStringLiteral("libIOReport.dylib")).toStdString();
        CounterOptions o;
        o.apple = libs;
        auto c = openCounter("ioreport:ANE", o);
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "counter ioreport:ANE: cannot load libIOReport (" + libs.ioreport + ")"),
                 c.error().c_str());
        auto t = openRusageTaskReader("/nonexistent/libproc.dylib", JB_FAKE_LIBPROC_LIB);
        QVERIFY(!t.ok());
        QVERIFY2(has(t.error(), "cannot load libproc (/nonexistent/libproc.dylib)"), t.error().c_str());
    }

    void noLibrariesMeansItNeedsMac()
    {
        CounterOptions o;
        o.apple = AppleLibraries{};
        auto c = openCounter("ioreport:CPU Energy", o);
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "ioreport:CPU Energy needs macOS (IOReport)"), c.error().c_str());
        const auto list = ioreportStatuses(o.apple);
        QCOMPARE(list.size(), std::size_t(2));  // no channels where nothing reports any
        QCOMPARE(list[0].spec, std::string("ioreport-gpu"));
        QCOMPARE(list[1].spec, std::string(kIOReportCpuSpec));
        QVERIFY2(has(list[1].reason, "ioreport:cpu needs macOS (IOReport)"), list[1].reason.c_str());
    }

    // The ledger itself: a CF object made and not released, then released twice, is reported.
    void leakAndDoubleReleaseAreReported()
    {
        auto create = fakeSymbol<const void* (*)(const void*, const char*, std::uint32_t)>(
            JB_FAKE_CF_LIB, "CFStringCreateWithCString");
        auto release = fakeSymbol<void (*)(const void*)>(JB_FAKE_CF_LIB, "CFRelease");
        QVERIFY(create && release);
        const void* s = create(nullptr, "forgotten", 0x08000100);
        QCOMPARE(cf_.live(), 1L);
        QVERIFY2(has(cf_.problems(), "leaked: CFString 'forgotten' (1 reference(s) left)"), cf_.report().c_str());
        release(s);
        QVERIFY(cf_.problems().empty());
        release(s);
        QCOMPARE(cf_.bad(), 1L);
        QVERIFY2(has(cf_.problems(), "misuse: CFRelease on a released CFString 'forgotten'"), cf_.report().c_str());
        cf_.reset();
    }

    void rusageEnergyAndCpuTime()
    {
        FakeLibproc proc;
        QVERIFY(proc.loaded());
        proc.setWatts(10.0);
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        auto reader = openTaskReader(o);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().c_str());
        const auto a = reader.value()->read(::getpid());
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().c_str());
        const double t0 = threadCpuNs();
        volatile std::uint64_t x = 0;
        while (threadCpuNs() - t0 < 20e6)
            x = x + 1;
        const auto b = reader.value()->read(::getpid());
        QVERIFY(b.ok());
        QVERIFY(a->energy_nj && b->energy_nj && b->billed_nj && b->serviced_nj);
        const double cpu = b->cpu_ns - a->cpu_ns;
        const double energy = *b->energy_nj - *a->energy_nj;
        QVERIFY2(cpu >= 20e6, qPrintable(QString::number(cpu)));
        // 10 W of the CPU time, up to the 125/3 ns tick the times are counted in.
        QVERIFY2(std::abs(energy - 10.0 * cpu) < 10.0 * 2 * 125.0 / 3.0 + 1.0,
                 qPrintable(QStringLiteral("%1 nJ for %2 ns").arg(energy).arg(cpu)));
        QCOMPARE(*b->billed_nj, *b->energy_nj);
        QCOMPARE(*b->serviced_nj, std::floor(*b->energy_nj / 4));
        const auto delta = taskDelta(*a, *b);
        QCOMPARE(delta.begin().key(), std::string("energy_nj"));
    }

    void rusageFailureIsNamed()
    {
        FakeLibproc proc;
        auto reader = openRusageTaskReader(JB_FAKE_LIBPROC_LIB, JB_FAKE_LIBPROC_LIB);
        QVERIFY(reader.ok());
        proc.fail(EPERM);
        const auto r = reader.value()->read(4242);
        proc.fail(0);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), std::string("task counter: proc_pid_rusage(4242, RUSAGE_INFO_V6) failed: ") +
                                std::strerror(EPERM));
        const auto gone = reader.value()->read(999'999'999);
        QVERIFY(!gone.ok());
        QVERIFY2(has(gone.error(), std::strerror(ESRCH)), gone.error().c_str());
    }

    void overlapRules_data()
    {
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QString>("error");  // empty: accepted
        QTest::newRow("rails side by side") << QStringList{QStringLiteral("ioreport:CPU Energy"), QStringLiteral("ioreport:GPU Energy"), QStringLiteral("ioreport:ANE"),
                                                           QStringLiteral("ioreport:DRAM"), QStringLiteral("ioreport:GPU SRAM"), QStringLiteral("rapl"), QStringLiteral("task")}
                                            << QString();
        QTest::newRow("clusters side by side") << QStringList{QStringLiteral("ioreport:EACC_CPU"), QStringLiteral("ioreport:PACC0_CPU"), QStringLiteral("ioreport:PACC1_CPU")}
                                               << QString();
        QTest::newRow("same spec twice") << QStringList{QStringLiteral("ioreport-gpu"), QStringLiteral("ioreport-gpu")} << QString();
        QTest::newRow("alias and channel")
            << QStringList{QStringLiteral("ioreport-gpu"), QStringLiteral("ioreport:GPU Energy")}
            << QStringLiteral("--counter ioreport-gpu and --counter ioreport:GPU Energy read the same IOReport channel "
                              "'GPU Energy'; keep one of them");
        QTest::newRow("total and cluster")
            << QStringList{QStringLiteral("ioreport:PACC0_CPU"), QStringLiteral("ioreport:CPU Energy")}
            << QStringLiteral("--counter ioreport:CPU Energy and --counter ioreport:PACC0_CPU overlap: IOReport's 'CPU "
                              "Energy' is a total that includes 'PACC0_CPU', so their energies would be counted twice; "
                              "keep ioreport:CPU Energy for the total, or ioreport:PACC0_CPU (with its sibling channels) "
                              "for the parts");
        QTest::newRow("die total and its cluster")
            << QStringList{QStringLiteral("ioreport:DIE_1_CPU Energy"), QStringLiteral("ioreport:DIE_1_EACC_CPU")}
            << QStringLiteral("'DIE_1_CPU Energy' is a total that includes 'DIE_1_EACC_CPU'");
        QTest::newRow("two dies") << QStringList{QStringLiteral("ioreport:DIE_0_CPU Energy"), QStringLiteral("ioreport:DIE_1_CPU Energy")} << QString();
        QTest::newRow("whole CPU and a die")
            << QStringList{QStringLiteral("ioreport:DIE_0_CPU Energy"), QStringLiteral("ioreport:CPU Energy")}
            << QStringLiteral("'CPU Energy' is a total that includes 'DIE_0_CPU Energy'");
        QTest::newRow("cluster and its core")
            << QStringList{QStringLiteral("ioreport:EACC_CPU"), QStringLiteral("ioreport:EACC_CPU3")}
            << QStringLiteral("'EACC_CPU' is a total that includes 'EACC_CPU3'");
    }
    void overlapRules()
    {
        QFETCH(QStringList, specs);
        QFETCH(QString, error);
        std::vector<std::string> v;
        for (const QString& s : specs)
            v.push_back(s.toStdString());
        const Status st = checkIOReportOverlap(v);
        if (error.isEmpty()) {
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().c_str());
        } else {
            QVERIFY(!st.ok());
            QVERIFY2(has(st.error(), error.toStdString()), st.error().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestAppleGlue)
#include "tst_apple_glue.moc"
