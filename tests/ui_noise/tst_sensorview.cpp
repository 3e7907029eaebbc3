// The Noise lab's sensor view, offscreen: a profile's step response and burst spread drawn (the
// figures are core's noise/SensorFigures), its figures in words, and a bad profile file named
// with the file and what is wrong.
#include "noise/SensorCharts.h"
#include "noise/SensorView.h"
#include <jb/noise/SensorFigures.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace jb;

class TestSensorView : public QObject {
    Q_OBJECT
private slots:
    void aProfileIsDrawnAndSaid()
    {
        SensorView v;
        QCOMPARE(v.stepChart()->readingPoints(), 0);
        const CounterProfile p = defaultProfile(std::string("nvml:0"));
        v.setProfile(p);
        QCOMPARE(v.stepChart()->readingPoints(), int(sensorFigures(p).reading.size()));
        QVERIFY(v.stepChart()->readingPoints() > 10);
        QCOMPARE(v.burstChart()->points(), 200);
        QVERIFY2(v.figuresText().contains(QStringLiteral("senses about 25%")), qPrintable(v.figuresText()));
        QVERIFY(v.figuresText().contains(QStringLiteral("documented default")));
    }

    void aProfileFileIsReadAndABadOneNamed()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.json"));
        CounterProfile p = defaultProfile(std::string("nvml-power:0"));
        p.averaging_window_ms = 1000.0;
        std::ofstream(good.toStdString()) << p.toJson().dump(1);
        SensorView v;
        const Status ok = v.openProfile(good);
        QVERIFY2(ok, ok ? "" : ok.error().c_str());
        QVERIFY(v.figuresText().contains(QStringLiteral("averages over 1000 ms")));
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        std::ofstream(bad.toStdString()) << "{\"profile_version\": 1, \"update_period_ms\": \"often\"}";
        const Status no = v.openProfile(bad);
        QVERIFY(!no);
        QVERIFY2(no.error().find("bad.json") != std::string::npos, no.error().c_str());
    }
};

QTEST_MAIN(TestSensorView)
#include "tst_sensorview.moc"
