// The Noise lab's sensor view, offscreen: a profile's step response and burst spread drawn (the
// figures are core's noise/SensorFigures), its figures in words, and a bad profile file named
// with the file and what is wrong; Characterize on `sim` with a short budget: the charts grow
// while it runs, the end shows the profile as a saved one is shown and keeps it in the library
// (a temporary one, by $JOULEBENCH_LIBRARY); Stop mid-run ends it.
#include "noise/SensorCharts.h"
#include "noise/SensorView.h"
#include <jb/noise/SensorFigures.h>

#include <jb/profile/CharacterizeRun.h>

#include <QSignalSpy>
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

    void characterizeDrawsAsItGoesAndShowsTheProfile()
    {
        QTemporaryDir dir;
        const QString lib = dir.filePath(QStringLiteral("library.sqlite"));
        qputenv("JOULEBENCH_LIBRARY", lib.toUtf8());
        SensorView v;
        int grew_while_running = 0, last_points = 0;
        int step_points_while_running = 0;
        CounterProfile got;
        connect(v.run(), &CharacterizeRun::advanced, &v, [&] {
            const int pts = v.burstChart()->points();
            if (v.run()->running() && pts > last_points)
                ++grew_while_running;
            last_points = pts;
            if (v.run()->running())
                step_points_while_running = std::max(step_points_while_running, v.stepChart()->readingPoints());
        });
        connect(v.run(), &CharacterizeRun::finished, &v,
                [&](const CounterProfile& p, const QString&, bool) { got = p; });
        QSignalSpy ended(&v, &SensorView::characterizeEnded);
        QVERIFY(v.characterize(QStringLiteral("sim"), 8));
        QVERIFY(!v.characterize(QStringLiteral("sim"), 8));  // one at a time
        QVERIFY(ended.wait(120'000));
        QVERIFY2(v.statusText().startsWith(QStringLiteral("Characterized sim")), qPrintable(v.statusText()));
        QVERIFY2(v.statusText().contains(QStringLiteral("Kept in the library")), qPrintable(v.statusText()));
        QVERIFY(QFile::exists(lib));
        // The charts grew while it ran: the step response drawn, the bursts added one by one.
        QVERIFY(step_points_while_running > 10);
        QVERIFY2(grew_while_running >= 2, qPrintable(QString::number(grew_while_running)));
        // The end: the profile shown as a saved one is.
        QVERIFY(got.measured);
        QCOMPARE(got.spec, std::string("sim"));
        SensorView saved;
        saved.setProfile(got);
        QCOMPARE(v.figuresText(), saved.figuresText());
        QCOMPARE(v.stepChart()->readingPoints(), saved.stepChart()->readingPoints());
        QCOMPARE(v.burstChart()->points(), saved.burstChart()->points());
        qunsetenv("JOULEBENCH_LIBRARY");
    }

    void stopEndsARunMidway()
    {
        QTemporaryDir dir;
        qputenv("JOULEBENCH_LIBRARY", dir.filePath(QStringLiteral("library.sqlite")).toUtf8());
        SensorView v;
        QSignalSpy advanced(v.run(), &CharacterizeRun::advanced);
        QSignalSpy ended(&v, &SensorView::characterizeEnded);
        QVERIFY(v.characterize(QStringLiteral("sim"), 300));
        QVERIFY(advanced.wait(30'000));
        v.stopCharacterize();
        // Well before its 300 s budget (a stop that went unseen would run it all).
        QVERIFY(ended.wait(30'000));
        QVERIFY(!v.run()->running());
        QVERIFY2(v.statusText().startsWith(QStringLiteral("Stopped")), qPrintable(v.statusText()));
        // And a view closed mid-run does not hang: its destructor stops and joins.
        auto* w = new SensorView;
        QSignalSpy adv2(w->run(), &CharacterizeRun::advanced);
        QVERIFY(w->characterize(QStringLiteral("sim"), 300));
        QVERIFY(adv2.wait(30'000));
        delete w;
        qunsetenv("JOULEBENCH_LIBRARY");
    }
};

QTEST_MAIN(TestSensorView)
#include "tst_sensorview.moc"
