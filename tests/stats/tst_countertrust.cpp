// Which counter's marginal energy to trust in absolute terms (core/stats/CounterTrust): an
// energy register is absolute, a power reading integrated between reads is relative only (an
// averaged one under-counts), and of two counters of one GPU the energy register is the one to
// trust. The H200 case of issue 36: nvml:0 188.7 J per decode against nvml-power:0's 114.8.
#include <jb/record/Record.h>
#include <jb/stats/CounterTrust.h>

#include <QtTest>

using namespace jb;

class TestCounterTrust : public QObject {
    Q_OBJECT
private slots:
    void energyRegistersAreAbsolute()
    {
        for (const char* spec : {"nvml:0", "rapl", "rapl:package-0", "hwmon:coretemp:energy"}) {
            const CounterTrust t = counterTrust(spec);
            QVERIFY2(t.absolute, spec);
            QVERIFY2(t.reason.find("energy register") != std::string::npos, t.reason.c_str());
            QVERIFY(!t.prefer);
            QCOMPARE(t.text(), t.reason);
        }
    }

    void simIsExactButNoDevice()
    {
        const CounterTrust t = counterTrust("sim", {"sim", "nvml:0"});
        QVERIFY(t.absolute);
        QCOMPARE(t.kind, CounterKind::Sim);
        QVERIFY2(t.reason.find("simulated") != std::string::npos, t.reason.c_str());
        QVERIFY(!t.prefer);  // nothing preferred over it, nvml:0 reads another device
    }

    void averagedPowerReadingIsRelativeAndNamesTheEnergyRegister()
    {
        const CounterTrust t = counterTrust("nvml-power:0", CounterKind::NvmlPowerAverage, 1000.0,
                                            {"rapl", "nvml:1", "nvml:0", "nvml-power:0"});
        QVERIFY(!t.absolute);
        QCOMPARE(t.prefer, std::optional<std::string>("nvml:0"));  // GPU 0's, not GPU 1's
        QCOMPARE(t.text(), std::string("averaged power reading (1 s window): marginal energy under-counted, "
                                       "good for relative comparisons only; prefer nvml:0"));
        // Without its energy register beside it: the reason alone.
        const CounterTrust alone = counterTrust("nvml-power:1", CounterKind::NvmlPowerAverage, 250.0,
                                                {"nvml:0", "nvml-power:1"});
        QVERIFY(!alone.absolute);
        QVERIFY(!alone.prefer);
        QVERIFY2(alone.text().find("(250 ms window)") != std::string::npos, alone.text().c_str());
    }

    void instantPowerReadingIsRelative()
    {
        const CounterTrust t = counterTrust("nvml-power:0", CounterKind::NvmlPowerInstant, 0, {"nvml:0"});
        QVERIFY(!t.absolute);
        QVERIFY2(t.reason.find("instantaneous power reading") != std::string::npos, t.reason.c_str());
        QCOMPARE(t.prefer, std::optional<std::string>("nvml:0"));
    }

    void recordReadsCounterInfoAndProfile()
    {
        Record r;
        r.counters = {"nvml:0", "nvml-power:0"};
        r.counter_info.emplace_back("nvml-power:0", ojson{{"reading", "instant"}});
        QCOMPARE(counterTrust(r, "nvml-power:0").kind, CounterKind::NvmlPowerInstant);
        // A record from before the reader named its reading: the averaged one, its profile's window.
        r.counter_info.clear();
        CounterProfile p = defaultProfile(CounterKind::NvmlPowerAverage);
        p.spec = "nvml-power:0";
        p.averaging_window_ms = 2000.0;
        r.extra["counter_profiles"]["nvml-power:0"] = p.toJson();
        const CounterTrust t = counterTrust(r, "nvml-power:0");
        QCOMPARE(t.kind, CounterKind::NvmlPowerAverage);
        QVERIFY2(t.text().find("(2 s window)") != std::string::npos, t.text().c_str());
        QCOMPARE(t.prefer, std::optional<std::string>("nvml:0"));
        QVERIFY(counterTrust(r, "nvml:0").absolute);
    }

    void whichOfTwoToTrust()
    {
        const CounterTrust energy = counterTrust("nvml:0", {"nvml:0", "nvml-power:0"});
        const CounterTrust power = counterTrust("nvml-power:0", {"nvml:0", "nvml-power:0"});
        for (const auto& [a, b] : {std::pair(energy, power), std::pair(power, energy)}) {
            const auto c = preferredCounter(a, b);
            QVERIFY(c);
            QCOMPARE(c->trusted, std::string("nvml:0"));
            QVERIFY2(c->text.find("trust nvml:0") == 0, c->text.c_str());
            QVERIFY2(c->text.find("nvml-power:0: averaged power reading") != std::string::npos, c->text.c_str());
        }
        // Different devices, or both absolute: no choice.
        QVERIFY(!preferredCounter(counterTrust("nvml:1"), power));
        QVERIFY(!preferredCounter(counterTrust("rapl"), counterTrust("rapl:package-0")));
        QCOMPARE(counterDevice("nvml"), std::string("gpu 0"));
        QCOMPARE(counterDevice("nvml-power:3"), std::string("gpu 3"));
        QCOMPARE(counterDevice("rapl:psys"), std::string("cpu"));
    }

    void taskAndUnknownAreNotAbsolute()
    {
        QVERIFY(!counterTrust("task").absolute);
        QCOMPARE(counterTrust("task").reason, std::string("CPU time, not energy"));
        QVERIFY(!counterTrust("frobnicator:1").absolute);
    }
};

QTEST_APPLESS_MAIN(TestCounterTrust)
#include "tst_countertrust.moc"
