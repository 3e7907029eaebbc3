// Tick steps of the charts' axes: 1, 2 or 5 x 10^n, nearest or at least the rough step.
#include "chart/AxisTicks.h"

#include <QtTest>

using namespace jb::ticks;

class TestAxisTicks : public QObject {
    Q_OBJECT
private slots:
    void steps_data()
    {
        QTest::addColumn<double>("rough");
        QTest::addColumn<double>("nearest");
        QTest::addColumn<double>("atLeast");
        QTest::newRow("exact 2") << 2.0 << 2.0 << 2.0;
        QTest::newRow("1.4") << 1.4 << 1.0 << 2.0;
        QTest::newRow("3.6") << 3.6 << 5.0 << 5.0;
        QTest::newRow("7.6") << 7.6 << 10.0 << 10.0;
        QTest::newRow("0.031") << 0.031 << 0.02 << 0.05;
        QTest::newRow("not positive") << 0.0 << 1.0 << 1.0;
    }
    void steps()
    {
        QFETCH(double, rough);
        QFETCH(double, nearest);
        QFETCH(double, atLeast);
        QVERIFY(qFuzzyCompare(nearestStep(rough), nearest));
        QVERIFY(qFuzzyCompare(stepAtLeast(rough), atLeast));
    }
    void formats()
    {
        QCOMPARE(decimalsFor(5.0), 0);
        QCOMPARE(decimalsFor(0.5), 1);
        QCOMPARE(decimalsFor(0.02), 2);
        QCOMPARE(labelFormat(0.02), QStringLiteral("%.2f"));
    }
    void labelsThatFit()
    {
        QCOMPARE(intervalsThatFit(140.0, 25.5), 5);
        QCOMPARE(intervalsThatFit(10.0, 25.5), 1);    // one interval at least
        QVERIFY(intervalsThatFit(0.0, 25.5) > 1000);  // not laid out yet: no limit
        // 13.7..39.4 W at step 2: 12..40, 14 intervals; at 5: 10..40, 6; at 10: 10..40, 3.
        QCOMPARE(coarsenToFit(13.7, 39.4, 2.0, 6), 5.0);
        QCOMPARE(coarsenToFit(13.7, 39.4, 2.0, 5), 10.0);
        // 0..20 at step 5 is 4 intervals; room for 3 gives 10 (0, 10, 20).
        QCOMPARE(coarsenToFit(0.0, 20.0, 5.0, 3), 10.0);
        QCOMPARE(coarsenToFit(0.0, 20.0, 5.0, 4), 5.0);    // fits already: unchanged
        QCOMPARE(coarsenToFit(0.61, 0.67, 0.01, 1), 0.1);  // [0.6, 0.7]: one interval
        QCOMPARE(verticalLabelPx(15.0), 25.5);
    }
    void scales()
    {
        // Rounded outwards to the step; a tall axis keeps it, a 140 px one in a 15 px font
        // (room for 5 intervals) gets 10 W ticks.
        const Scale tall = fitScale(13.7, 39.4, 5.0, 600.0, 15.0);
        QCOMPARE(tall.lo, 10.0);
        QCOMPARE(tall.hi, 40.0);
        QCOMPARE(tall.step, 5.0);
        const Scale short_ = fitScale(13.7, 39.4, 5.0, 140.0, 15.0);
        QCOMPARE(short_.step, 10.0);
        QCOMPARE(short_.hi, 40.0);
        QCOMPARE(fitScale(13.7, 39.4, 5.0).step, 5.0);  // not laid out: no limit
    }
    void pixels()
    {
        QCOMPARE(toPixel(5.0, 0.0, 10.0, 100.0, 200.0), 200.0);    // x: half way along
        QCOMPARE(toPixel(0.0, 0.0, 10.0, 300.0, -200.0), 300.0);   // y: the bottom edge
        QCOMPARE(toPixel(10.0, 0.0, 10.0, 300.0, -200.0), 100.0);  // y: the top edge
        QCOMPARE(toPixel(3.0, 3.0, 3.0, 7.0, 50.0), 7.0);          // an empty span does not divide by 0
    }
};

QTEST_GUILESS_MAIN(TestAxisTicks)
#include "tst_axisticks.moc"
