// `characterize` against the fake zone in each of its modes (tests/clients/CounterModes.h): it
// recovers the modelled update period, averaging window and sensed fraction within 10%, and an
// exact counter's full coverage of short bursts. Short modelled periods keep it fast.
#include <jb/counters/CounterRegistry.h>
#include <jb/profile/Characterize.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace jb;

namespace {

QStringList qsl(std::initializer_list<const char*> words)
{
    QStringList l;
    for (const char* w : words)
        l << QLatin1String(w);
    return l;
}

QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QLatin1String(name);
}

bool within(double got, double want, double rel)
{
    return std::abs(got - want) <= rel * want;
}

}  // namespace

class TstCharacterize : public QObject {
    Q_OBJECT
private slots:
    void recoversEachMode_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::addColumn<double>("period_ms");  // 0: not checked (exact: the zone's tick)
        QTest::addColumn<double>("window_ms");
        QTest::addColumn<double>("sensed");     // 0: none expected
        QTest::addColumn<double>("burst_ms");
        QTest::addColumn<bool>("coverage_one");  // the bursts' mean coverage within 10% of 1
        QTest::newRow("exact") << QStringList{} << 0.0 << 0.0 << 0.0 << 3.0 << true;
        // The H200's energy counter scaled down: 25% of each period sensed.
        QTest::newRow("sampled") << qsl({"--mode", "sampled", "--period-ms", "32", "--window-ms", "8"}) << 32.0
                                 << 0.0 << 0.25 << 2.0 << false;
        // nvmlDeviceGetPowerUsage scaled down: a boxcar of 10 updates.
        QTest::newRow("boxcar") << qsl({"--mode", "boxcar", "--period-ms", "20", "--window-ms", "200"}) << 20.0
                                << 200.0 << 0.0 << 4.0 << true;
        // Apple's late publication scaled down (a new value every P, D behind).
        QTest::newRow("late") << qsl({"--mode", "late", "--period-ms", "100", "--delay-ms", "50"}) << 100.0 << 0.0
                              << 0.0 << 10.0 << true;
    }
    void recoversEachMode()
    {
        QFETCH(QStringList, mode);
        QFETCH(double, period_ms);
        QFETCH(double, window_ms);
        QFETCH(double, sensed);
        QFETCH(double, burst_ms);
        QFETCH(bool, coverage_one);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString zone = dir.filePath(QStringLiteral("intel-rapl:0"));
        const QString flag = dir.filePath(QStringLiteral("load.flag"));
        QDir().mkpath(zone);
        QProcess fz;
        fz.start(testBin("fakezone"), QStringList{zone, QStringLiteral("--flag"), flag} +
                                          qsl({"--idle-w", "5", "--busy-w", "100", "--tick-ms", "1", "--seconds", "120"}) +
                                          mode);
        QVERIFY(fz.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(zone + QStringLiteral("/energy_uj")), 5000);

        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        auto c = openCounter("rapl", o);
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        auto load = flagFileLoad(flag.toStdString());
        QVERIFY(load->start().ok());
        CharacterizeOptions co;
        co.seconds = 10;
        co.burst_ms = burst_ms;
        co.seed = 7;
        co.host = "test-host";
        CharacterizeTrace trace;
        auto p = characterize(**c, *load, co, &trace);
        fz.kill();
        fz.waitForFinished();
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
        const std::string j = p->toJson().dump();
        QVERIFY(p->measured);
        QCOMPARE(QString::fromStdString(p->host), QStringLiteral("test-host"));
        QCOMPARE(p->kind, CounterKind::Rapl);
        QVERIFY2(within(trace.busy_w - trace.idle_w, 100, 0.05), j.c_str());
        if (period_ms > 0)
            QVERIFY2(within(p->update_period_ms, period_ms, 0.10), j.c_str());
        else
            QVERIFY2(p->update_period_ms < 5, j.c_str());
        if (window_ms > 0)
            QVERIFY2(within(p->averaging_window_ms, window_ms, 0.10), j.c_str());
        else
            QVERIFY2(p->averaging_window_ms == 0, j.c_str());
        if (sensed > 0) {
            QVERIFY2(p->coverage.sensed_fraction && within(*p->coverage.sensed_fraction, sensed, 0.10), j.c_str());
            QVERIFY2(p->coverage.sd > 0.5, j.c_str());  // bursts seen whole or not at all
            QVERIFY2(p->samples(), j.c_str());
        } else {
            QVERIFY2(!p->coverage.sensed_fraction, j.c_str());
        }
        if (coverage_one)
            QVERIFY2(within(p->coverage.mean, 1.0, 0.10), j.c_str());
        if (mode.isEmpty())  // exact: every burst seen whole
            QVERIFY2(p->coverage.sd < 0.15, j.c_str());
        QVERIFY2(p->coverage.bursts >= 5, j.c_str());
        // The profile reads back as written.
        auto back = CounterProfile::fromJson(nlohmann::json::parse(j));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
    }

    void aLoadThatDoesNotReachTheCounterIsNamed()
    {
        QTemporaryDir dir;
        const QString zone = dir.filePath(QStringLiteral("intel-rapl:0"));
        QDir().mkpath(zone);
        QProcess fz;
        // The zone watches a flag the load does not write.
        fz.start(testBin("fakezone"), QStringList{zone, QStringLiteral("--flag"), dir.filePath(QStringLiteral("other.flag"))} +
                                          qsl({"--idle-w", "5", "--busy-w", "100", "--tick-ms", "1", "--seconds", "60"}));
        QVERIFY(fz.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(zone + QStringLiteral("/energy_uj")), 5000);
        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        auto c = openCounter("rapl", o);
        QVERIFY(c.ok());
        auto load = flagFileLoad(dir.filePath(QStringLiteral("load.flag")).toStdString());
        QVERIFY(load->start().ok());
        CharacterizeOptions co;
        co.seconds = 5;
        auto p = characterize(**c, *load, co);
        fz.kill();
        fz.waitForFinished();
        QVERIFY(!p.ok());
        QVERIFY2(p.error().find("does load file") != std::string::npos, p.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TstCharacterize)
#include "tst_characterize.moc"
