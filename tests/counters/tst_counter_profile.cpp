// The counter profile as a value: JSON both ways, errors naming `$.path`, the kinds a spec and
// a counter's info name, and the documented defaults per kind.
#include <jb/counters/CounterProfile.h>

#include <QtTest>

using namespace jb;

class TstCounterProfile : public QObject {
    Q_OBJECT
private slots:
    void roundTripMeasured()
    {
        CounterProfile p = defaultProfile("nvml:0");
        p.measured = true;
        p.host = "gpu-host";
        p.measured_at = "2026-12-04T17:00:00Z";
        p.note = "";
        p.update_period_ms = 99.9;
        p.update_jitter_ms = 0.7;
        p.step_up = {30, 220};
        p.step_down = {15, 110};
        p.coverage = {0.98, 0.45, 40, 17, std::nullopt};
        p.seconds_taken = 52.5;
        const auto j = p.toJson();
        QCOMPARE(QString::fromStdString(j["source"]["origin"].get<std::string>()), QStringLiteral("measured"));
        QVERIFY(j["burst_coverage"]["sensed_fraction"].is_null());
        auto back = CounterProfile::fromJson(nlohmann::json::parse(j.dump()));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(*back == p);
    }

    void roundTripEveryDefault()
    {
        for (const char* spec : {"rapl", "rapl:psys", "hwmon:amdgpu:PPT", "task", "sim",
                                 "ioreport:CPU Energy", "ioreport-gpu", "nvml:1", "nvml-power:0"}) {
            const CounterProfile p = defaultProfile(std::string(spec));
            QCOMPARE(QString::fromStdString(p.spec), QLatin1String(spec));
            QVERIFY(!p.measured);
            QVERIFY2(!p.note.empty(), spec);
            auto back = CounterProfile::fromJson(nlohmann::json::parse(p.toJson().dump()));
            QVERIFY2(back.ok(), back.ok() ? spec : back.error().c_str());
            QVERIFY2(*back == p, spec);
            QCOMPARE(QString::fromStdString(p.toJson()["source"]["origin"].get<std::string>()),
                     QStringLiteral("default"));
        }
    }

    void documentedDefaults()
    {
        const auto rapl = defaultProfile(CounterKind::Rapl);
        QCOMPARE(rapl.update_period_ms, 1.0);
        QVERIFY(!rapl.averages() && !rapl.samples());
        const auto e = defaultProfile(CounterKind::NvmlEnergy);
        QCOMPARE(e.update_period_ms, 100.0);
        QCOMPARE(*e.coverage.sensed_fraction, 0.25);
        QVERIFY(e.samples() && !e.averages());
        QCOMPARE(e.resolutionNj(), 1e6);
        QCOMPARE(e.updatesIn(30), 0.3);
        const auto avg = defaultProfile(CounterKind::NvmlPowerAverage);
        QCOMPARE(avg.averaging_window_ms, 1000.0);
        QCOMPARE(avg.update_period_ms, 100.0);
        QVERIFY(avg.averages());
        QCOMPARE(avg.resolutionNj(), 0.0);
        QCOMPARE(defaultProfile(CounterKind::NvmlPowerInstant).update_period_ms, 100.0);
        QVERIFY(!defaultProfile(CounterKind::NvmlPowerInstant).averages());
        QCOMPARE(defaultProfile(CounterKind::IOReportEnergy).update_period_ms, 1050.0);
        QVERIFY(defaultProfile(CounterKind::HwmonPower).averages());
        const auto sim = defaultProfile(CounterKind::Sim);
        QCOMPARE(sim.update_period_ms, 0.0);
        QCOMPARE(sim.coverage.mean, 1.0);
        QCOMPARE(sim.coverage.sd, 0.0);
        QVERIFY(sim.updatesIn(1) > 1e9);
    }

    void kinds()
    {
        QCOMPARE(counterKindOfSpec("rapl:package-0"), CounterKind::Rapl);
        QCOMPARE(counterKindOfSpec("nvml"), CounterKind::NvmlEnergy);
        QCOMPARE(counterKindOfSpec("nvml-power:3"), CounterKind::NvmlPowerInstant);
        QCOMPARE(counterKindOfSpec("ioreport:GPU0"), CounterKind::IOReportEnergy);
        QCOMPARE(counterKindOfSpec("what"), CounterKind::Unknown);
        nlohmann::ordered_json info;
        info["kind"] = "nvml-power";
        info["reading"] = "instant";
        QCOMPARE(counterKindOf("nvml-power:0", info), CounterKind::NvmlPowerInstant);
        info["reading"] = "average";
        QCOMPARE(counterKindOf("nvml-power:0", info), CounterKind::NvmlPowerAverage);
        info.erase("reading");  // a record from before the reader named its reading
        QCOMPARE(counterKindOf("nvml-power:0", info), CounterKind::NvmlPowerAverage);
        nlohmann::ordered_json hw;
        hw["kind"] = "hwmon-power";
        QCOMPARE(counterKindOf("hwmon:amdgpu:PPT", hw), CounterKind::HwmonPower);
        for (int k = 0; k <= int(CounterKind::Unknown); ++k)
            QCOMPARE(*counterKindFromName(counterKindName(CounterKind(k))), CounterKind(k));
    }

    void errorsNamePaths_data()
    {
        QTest::addColumn<QByteArray>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("period") << QByteArray("/update_period_ms")
                                << QByteArray("\"x\"")
                                << QByteArray("prof.json: $.update_period_ms: expected");
        QTest::newRow("negative") << QByteArray("/update_jitter_ms")
                                  << QByteArray("-1")
                                  << QByteArray("$.update_jitter_ms: expected");
        QTest::newRow("kind") << QByteArray("/kind")
                              << QByteArray("\"gpu\"")
                              << QByteArray("$.kind: expected a counter kind");
        QTest::newRow("origin") << QByteArray("/source/origin")
                                << QByteArray("\"guess\"")
                                << QByteArray("$.source.origin: expected \"measured\"");
        QTest::newRow("step") << QByteArray("/step_response/down/settle_ms")
                              << QByteArray("null")
                              << QByteArray("$.step_response.down.settle_ms");
        QTest::newRow("sensed") << QByteArray("/burst_coverage/sensed_fraction")
                                << QByteArray("1.5")
                                << QByteArray("$.burst_coverage.sensed_fraction");
        QTest::newRow("bursts") << QByteArray("/burst_coverage/bursts")
                                << QByteArray("2.5")
                                << QByteArray("$.burst_coverage.bursts");
        QTest::newRow("version") << QByteArray("/profile_version")
                                 << QByteArray("99")
                                 << QByteArray("$.profile_version: expected at most 1");
        QTest::newRow("extra") << QByteArray("/frobs")
                               << QByteArray("1")
                               << QByteArray("$");
    }
    void errorsNamePaths()
    {
        QFETCH(QByteArray, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, expected);
        nlohmann::json j = nlohmann::json::parse(defaultProfile("nvml:0").toJson().dump());
        j[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
        auto r = CounterProfile::fromJson(j, "prof.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find(expected.toStdString()) != std::string::npos, r.error().c_str());
        QVERIFY2(r.error().rfind("prof.json: ", 0) == 0, r.error().c_str());
    }

    void missingKeyNamed()
    {
        nlohmann::json j = nlohmann::json::parse(defaultProfile("rapl").toJson().dump());
        j.erase("burst_coverage");
        auto r = CounterProfile::fromJson(j);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).contains(QLatin1String("burst_coverage")), r.error().c_str());
        nlohmann::json m = nlohmann::json::parse(defaultProfile("rapl").toJson().dump());
        m["source"]["origin"] = "measured";
        auto r2 = CounterProfile::fromJson(m);
        QVERIFY(!r2.ok());
        QVERIFY2(QString::fromStdString(r2.error()).contains(QLatin1String("$.source.host")), r2.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TstCounterProfile)
#include "tst_counter_profile.moc"
