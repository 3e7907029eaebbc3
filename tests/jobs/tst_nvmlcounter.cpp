// The nvml:N counter and the NVML wrapper, read through the fake NVML library.
#include <jb/counters/CounterProfile.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/NvmlCounter.h>
#include <jb/counters/NvmlLibrary.h>

#include "JobsTestSupport.h"

#include <QElapsedTimer>
#include <QTest>

#include <unistd.h>

#include <algorithm>
#include <vector>

class TestNvmlCounter : public QObject {
    Q_OBJECT

private:
    static jb::CounterOptions fake(const char* lib = JB_FAKE_NVML_LIB)
    {
        jb::CounterOptions o;
        o.nvml_library = lib;
        return o;
    }

private Q_SLOTS:
    void listsEveryGpu()
    {
        jbtest::FakeGpuMachine m;
        const auto list = jb::listNvmlCounters(fake());
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[0].spec, std::string("nvml:0"));
        QCOMPARE(list[1].spec, std::string("nvml:1"));
        QVERIFY(list[0].available && list[1].available);
        QVERIFY(list[0].whole_device);
        QVERIFY2(list[1].description.find("Fake H200") != std::string::npos, list[1].description.c_str());
    }

    void readsEnergyInNanojoules()
    {
        jbtest::FakeGpuMachine m;
        auto c = jb::openNvmlCounter("nvml:1", fake());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE((*c)->spec(), std::string("nvml:1"));
        const auto info = (*c)->info();
        QCOMPARE(info.at("kind").get<std::string>(), std::string("nvml"));
        QCOMPARE(info.at("name").get<std::string>(), std::string("Fake H200"));
        QCOMPARE(info.at("uuid").get<std::string>(), std::string("GPU-11111111-fake-one"));
        QCOMPARE(info.at("unit").get<std::string>(), std::string("mJ"));
        QCOMPARE(info.at("index").get<int>(), 1);

        auto a = (*c)->readNj();
        QVERIFY(a.ok());
        QElapsedTimer t;
        t.start();
        QTest::qWait(200);
        auto b = (*c)->readNj();
        const double s = double(t.nsecsElapsed()) / 1e9;
        QVERIFY(b.ok());
        QCOMPARE(*b % 1'000'000, std::int64_t(0));  // whole millijoules
        // GPU 1 idles at 60 W in the script.
        const double w = double(*b - *a) / 1e9 / s;
        QVERIFY2(w > 50 && w < 70, qPrintable(QString::number(w)));
    }

    void powerIntegration()
    {
        jbtest::FakeGpuMachine m;
        const auto list = jb::listNvmlPowerCounters(fake());
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[1].spec, std::string("nvml-power:1"));
        QVERIFY(list[0].available && list[1].available);
        QVERIFY(jb::isWholeDeviceSpec("nvml-power:1"));
        // Beside nvml:N in the registry's list; none where NVML does not load.
        const auto all = jb::listCounters(fake());
        QVERIFY(std::any_of(all.begin(), all.end(), [](const jb::CounterStatus& s) { return s.spec == "nvml-power:0"; }));
        QVERIFY(jb::listNvmlPowerCounters(fake("/nonexistent/libnvidia-ml.so.1")).empty());

        auto c = jb::openCounter("nvml-power:1", fake());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE((*c)->spec(), std::string("nvml-power:1"));
        QCOMPARE((*c)->info().at("kind").get<std::string>(), std::string("nvml-power"));
        QCOMPARE((*c)->info().at("source").get<std::string>(),
                 std::string("nvmlDeviceGetFieldValues(NVML_FI_DEV_POWER_INSTANT)"));
        QCOMPARE((*c)->info().at("reading").get<std::string>(), std::string("instant"));
        QElapsedTimer t;
        t.start();
        auto a = (*c)->readNj();
        QVERIFY(a.ok());
        QTest::qWait(200);
        auto b = (*c)->readNj();
        const double s = double(t.nsecsElapsed()) / 1e9;
        QVERIFY(b.ok());
        // GPU 1 idles at 60 W in the script; busy (a registered process) it draws 200 W.
        const double w = double(*b - *a) / 1e9 / s;
        QVERIFY2(w > 50 && w < 70, qPrintable(QString::number(w)));
        jbtest::writeText(m.procs, "1 " + std::to_string(getpid()) + " 1048576\n");
        auto d = (*c)->readNj();  // the trapezoid ends at the new power
        QTest::qWait(200);
        auto e = (*c)->readNj();
        QVERIFY(d.ok() && e.ok());
        QVERIFY2(*e - *d > std::int64_t(0.19 * 200e9), qPrintable(QString::number(double(*e - *d) / 1e9)));

        auto plain = jb::openNvmlCounter("nvml-power", fake());
        QVERIFY(plain.ok());
        QCOMPARE((*plain)->info().at("index").get<int>(), 0);
        auto bad = jb::openNvmlCounter("nvml-power:x", fake());
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("expected nvml-power:N") != std::string::npos, bad.error().c_str());
        auto none = jb::openNvmlCounter("nvml-power:7", fake());
        QVERIFY(!none.ok());
        QVERIFY2(none.error().find("so no GPU 7") != std::string::npos, none.error().c_str());
    }

    void powerReadsTheInstantField()
    {
        // The averaged reading a 200 ms boxcar updated every 20 ms; the instant one exact.
        jbtest::FakeGpuMachine m("average_mode 1 boxcar 20 200 0\n");
        auto c = jb::openCounter("nvml-power:1", fake());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        const auto info = (*c)->info();
        QCOMPARE(info.at("reading").get<std::string>(), std::string("instant"));
        QCOMPARE(info.at("field_id").get<int>(), 186);
        QVERIFY(info.at("averaging_window_ms").is_null());
        QCOMPARE(jb::counterKindOf("nvml-power:1", info), jb::CounterKind::NvmlPowerInstant);

        auto lib = jb::NvmlLibrary::load(JB_FAKE_NVML_LIB);
        QVERIFY(lib.ok());
        QVERIFY((*lib)->hasFieldValues());
        auto dev = (*lib)->deviceByIndex(1);
        QVERIFY(dev.ok());
        QTest::qWait(60);
        QCOMPARE(*(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerInstant), std::uint64_t(60000));
        const auto avg_idle = *(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerAverage);
        QVERIFY2(avg_idle > 59000 && avg_idle < 61000, qPrintable(QString::number(avg_idle)));
        QCOMPARE(std::uint64_t(*(*lib)->powerUsageMw(*dev)), avg_idle);  // GetPowerUsage is field 185
        QVERIFY(!(*lib)->powerFieldMw(*dev, 42).ok());                    // a field the fake lacks

        jbtest::writeText(m.procs, "1 " + std::to_string(getpid()) + " 1048576\n");
        QCOMPARE(*(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerInstant), std::uint64_t(200000));
        // The average climbs over its 200 ms window, then holds the busy power.
        QElapsedTimer t;
        t.start();
        std::uint64_t mid = 0;
        while (t.elapsed() < 2000) {
            for (int i = 0; i < 20; ++i) {  // keep the fake's true power sampled often
                (void)(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerInstant);
                QTest::qWait(2);
            }
            const auto a = *(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerAverage);
            if (a > 70000 && a < 190000)
                mid = a;
            if (a >= 199000)
                break;
        }
        QVERIFY2(mid > 0, "the average never read between idle and busy");
        QVERIFY2(t.elapsed() >= 150, qPrintable(QString::number(t.elapsed())));
        QVERIFY(*(*lib)->powerFieldMw(*dev, jb::NvmlLibrary::kFieldPowerAverage) >= 199000);
    }

    void powerFallsBackToTheAverageWhereNoInstantField()
    {
        {
            jbtest::FakeGpuMachine m("no_instant 1\n");
            auto c = jb::openCounter("nvml-power:1", fake());
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            const auto info = (*c)->info();
            QCOMPARE(info.at("reading").get<std::string>(), std::string("average"));
            QCOMPARE(info.at("source").get<std::string>(), std::string("nvmlDeviceGetPowerUsage"));
            QCOMPARE(info.at("averaging_window_ms").get<int>(), 1000);
            QVERIFY2(info.at("instant_unavailable").get<std::string>().find("Not Supported") != std::string::npos,
                     info.dump().c_str());
            QCOMPARE(jb::counterKindOf("nvml-power:1", info), jb::CounterKind::NvmlPowerAverage);
            QVERIFY((*c)->readNj().ok());
        }
        {
            // A driver without nvmlDeviceGetFieldValues at all.
            jbtest::FakeGpuMachine m;
            auto c = jb::openCounter("nvml-power:0", fake(JB_FAKE_NVML_OLD_LIB));
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            const auto info = (*c)->info();
            QCOMPARE(info.at("reading").get<std::string>(), std::string("average"));
            QVERIFY2(info.at("instant_unavailable").get<std::string>().find("lacks nvmlDeviceGetFieldValues") !=
                         std::string::npos,
                     info.dump().c_str());
        }
    }

    void energyCounterSamplesInItsMode()
    {
        // A new value every 20 ms, each the power of its last 5 ms x 20 ms.
        jbtest::FakeGpuMachine m("energy_mode 1 sampled 20 5 0\n");
        auto lib = jb::NvmlLibrary::load(JB_FAKE_NVML_LIB);
        QVERIFY(lib.ok());
        auto dev = (*lib)->deviceByIndex(1);
        QVERIFY(dev.ok());
        std::uint64_t last = *(*lib)->totalEnergyMj(*dev);
        int changes = 0;
        std::vector<std::uint64_t> steps;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 400) {
            const std::uint64_t v = *(*lib)->totalEnergyMj(*dev);
            if (v != last) {
                ++changes;
                steps.push_back(v - last);
                last = v;
            }
            QTest::qWait(1);
        }
        // About 20 updates in 400 ms (a loaded machine may merge a few), each 60 W x 20 ms.
        QVERIFY2(changes >= 12 && changes <= 21, qPrintable(QString::number(changes)));
        const std::uint64_t least = *std::min_element(steps.begin(), steps.end());
        QVERIFY2(least >= 1190 && least <= 1210, qPrintable(QString::number(least)));
    }

    void openedThroughTheRegistry()
    {
        jbtest::FakeGpuMachine m;
        auto c = jb::openCounter("nvml:0", fake());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE((*c)->spec(), std::string("nvml:0"));
        auto plain = jb::openNvmlCounter("nvml", fake());  // GPU 0
        QVERIFY(plain.ok());
        QCOMPARE((*plain)->info().at("index").get<int>(), 0);
    }

    void errorsSayWhatAndWhy_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("extra");  // added to the fake NVML script
        QTest::addColumn<QString>("expected");
        QTest::newRow("no such gpu") << QStringLiteral("nvml:5") << QStringLiteral(JB_FAKE_NVML_LIB)
                                     << QString() << QStringLiteral("NVML reports 2 GPU(s), so no GPU 5");
        QTest::newRow("bad spec") << QStringLiteral("nvml:x") << QStringLiteral(JB_FAKE_NVML_LIB) << QString()
                                  << QStringLiteral("expected nvml:N");
        QTest::newRow("no library") << QStringLiteral("nvml:0")
                                    << QStringLiteral("/nonexistent/libnvidia-ml.so.1") << QString()
                                    << QStringLiteral(
                                           "cannot load NVML library '/nonexistent/libnvidia-ml.so.1'");
        QTest::newRow("old driver") << QStringLiteral("nvml:0") << QStringLiteral(JB_FAKE_NVML_OLD_LIB)
                                    << QString()
                                    << QStringLiteral("lacks nvmlDeviceGetTotalEnergyConsumption");
        QTest::newRow("not supported") << QStringLiteral("nvml:0") << QStringLiteral(JB_FAKE_NVML_LIB)
                                       << QStringLiteral("no_energy 0\n") << QStringLiteral("Not Supported");
        QTest::newRow("driver not loaded")
            << QStringLiteral("nvml:0") << QStringLiteral(JB_FAKE_NVML_LIB)
            << QStringLiteral("init_error 9\n") << QStringLiteral("Driver Not Loaded");
    }

    void errorsSayWhatAndWhy()
    {
        QFETCH(QString, spec);
        QFETCH(QString, library);
        QFETCH(QString, extra);
        QFETCH(QString, expected);
        jbtest::FakeGpuMachine m(extra.toStdString());
        const std::string lib = library.toStdString();
        auto c = jb::openNvmlCounter(spec.toStdString(), fake(lib.c_str()));
        QVERIFY(!c.ok());
        QVERIFY2(c.error().find(expected.toStdString()) != std::string::npos, c.error().c_str());
        if (spec == QLatin1String("nvml:0")) {
            // The listing gives the same reason for the counter it cannot offer.
            const auto list = jb::listNvmlCounters(fake(lib.c_str()));
            QVERIFY(!list.empty());
            QVERIFY(!list[0].available);
            QVERIFY2(list[0].reason.find(expected.toStdString()) != std::string::npos,
                     list[0].reason.c_str());
        }
    }

    void processesAndAccounting()
    {
        jbtest::FakeGpuMachine m("accounting 0 1\n");
        jbtest::writeText(m.procs, "0 " + std::to_string(getpid()) + " 536870912\n");
        auto lib = jb::NvmlLibrary::load(JB_FAKE_NVML_LIB);
        QVERIFY(lib.ok());
        QCOMPARE((*lib)->processApiVersion(), 3);
        auto dev = (*lib)->deviceByIndex(0);
        QVERIFY(dev.ok());
        auto procs = (*lib)->computeProcesses(*dev);
        QVERIFY(procs.ok());
        QCOMPARE(procs->size(), std::size_t(1));
        QCOMPARE(procs->front().pid, std::int64_t(getpid()));
        QCOMPARE(procs->front().used_bytes, std::optional<std::uint64_t>(536870912));
        QCOMPARE(*(*lib)->accountingMode(*dev), true);
        auto acc = (*lib)->accountingStats(*dev, getpid());
        QVERIFY(acc.ok());
        QCOMPARE(acc->max_memory_bytes, std::uint64_t(536870912));
        auto none = (*lib)->accountingStats(*dev, 1);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().find("Not Found") != std::string::npos, none.error().c_str());
        QCOMPARE(*(*lib)->powerUsageMw(*dev), std::uint32_t(300000));  // busy: this process is registered
        QCOMPARE(*(*lib)->totalMemoryBytes(*dev), std::uint64_t(143771) * 1024 * 1024);
    }

    void olderProcessCall()
    {
        jbtest::FakeGpuMachine m;
        jbtest::writeText(m.procs, "1 " + std::to_string(getpid()) + " 1048576\n");
        auto lib = jb::NvmlLibrary::load(JB_FAKE_NVML_OLD_LIB);
        QVERIFY(lib.ok());
        QCOMPARE((*lib)->processApiVersion(), 1);  // neither _v3 nor _v2
        QVERIFY(!(*lib)->hasEnergy());
        QVERIFY(!(*lib)->hasAccounting());
        auto procs = (*lib)->computeProcesses(*(*lib)->deviceByIndex(1));
        QVERIFY(procs.ok());
        QCOMPARE(procs->size(), std::size_t(1));
        QCOMPARE(procs->front().used_bytes, std::optional<std::uint64_t>(1048576));
    }
};

QTEST_GUILESS_MAIN(TestNvmlCounter)
#include "tst_nvmlcounter.moc"
