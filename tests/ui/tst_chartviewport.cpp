// The power chart's viewport without a widget: following a growing run, freezing it, zooming
// in to the narrowest window and out again, panning, and following again.
#include "chart/ChartViewport.h"

#include <QTest>

#include <cmath>
#include <limits>

using jb::ChartViewport;

class TestChartViewport : public QObject {
    Q_OBJECT
private slots:
    void followsTheRunFromZero()
    {
        ChartViewport v;
        QVERIFY(v.following());
        v.setMinimumSpan(30);
        v.follow(std::nullopt, true);  // no data yet: the minimum span from 0
        QCOMPARE(v.range(), std::make_pair(0.0, 30.0));
        v.follow(std::pair{0.1, 12.0}, false);
        QCOMPARE(v.range(), std::make_pair(0.0, 30.0));  // shorter than the minimum span
        v.follow(std::pair{0.1, 47.3}, false);
        QCOMPARE(v.range(), std::make_pair(0.0, 47.3));  // grows with the run
        // Live, the end snaps up to the next x tick (span 47.3 / 8 -> 5 s ticks): 50.
        v.follow(std::pair{0.1, 47.3}, true);
        QCOMPARE(v.start(), 0.0);
        QCOMPARE(v.end(), 50.0);
        // Data before the origin widen the window to the left.
        v.follow(std::pair{-2.0, 40.0}, false);
        QCOMPARE(v.range(), std::make_pair(-2.0, 40.0));
    }

    void minimumSpanIsSane()
    {
        ChartViewport v;
        QCOMPARE(v.minimumSpan(), ChartViewport::kDefaultSpanS);
        v.setMinimumSpan(std::numeric_limits<double>::infinity());
        QCOMPARE(v.minimumSpan(), ChartViewport::kDefaultSpanS);
        v.setMinimumSpan(0);
        QCOMPARE(v.minimumSpan(), ChartViewport::kMinVisibleSpanS);
    }

    void freezeStopsTheData()
    {
        ChartViewport v;
        auto c = v.setFrozen(true, 123456789);
        QVERIFY(c.frozen);
        QVERIFY(v.frozen());
        QCOMPARE(v.frozenEnd(), std::optional<std::int64_t>(123456789));
        QVERIFY(v.following());  // freezing keeps following the data it stopped at
        // Frozen, a live fit does not snap to the next tick: the picture stays put.
        v.follow(std::pair{0.0, 47.3}, true);
        QCOMPARE(v.end(), 47.3);
        QVERIFY(!v.setFrozen(true, 5).frozen);  // no change: the first moment stays
        QCOMPARE(v.frozenEnd(), std::optional<std::int64_t>(123456789));
        c = v.setFrozen(false);
        QVERIFY(c.frozen);
        QVERIFY(!v.frozen());
        QVERIFY(!v.frozenEnd());
        QVERIFY(v.setFrozen(true).frozen);  // no data yet: frozen with no end
        QVERIFY(!v.frozenEnd());
    }

    void zoomInAndOutAroundAnAnchor()
    {
        ChartViewport v;
        v.follow(std::pair{0.0, 100.0}, false);
        auto c = v.zoom(0.5, 40.0);
        QVERIFY(c.range);
        QVERIFY(c.following);  // it stopped following
        QVERIFY(!v.following());
        QCOMPARE(v.range(), std::make_pair(20.0, 70.0));
        c = v.zoom(2.0, 40.0);
        QVERIFY(c.range);
        QVERIFY(!c.following);  // already not following
        QCOMPARE(v.range(), std::make_pair(0.0, 100.0));
        // Not a factor: nothing changes.
        QVERIFY(!v.zoom(0, 10).range);
        QVERIFY(!v.zoom(-1, 10).range);
        QVERIFY(!v.zoom(std::nan(""), 10).range);
        QCOMPARE(v.range(), std::make_pair(0.0, 100.0));
        // Zooming in and in stops at the narrowest window, centred where it was.
        for (int i = 0; i < 100; ++i)
            v.zoom(0.1, 50.0);
        QVERIFY(std::abs(v.end() - v.start() - ChartViewport::kMinVisibleSpanS) < 1e-9);
        QVERIFY(std::abs((v.start() + v.end()) / 2 - 50.0) < 1e-9);
        // Following does not move a window the user chose.
        v.follow(std::pair{0.0, 200.0}, true);
        QVERIFY(std::abs((v.start() + v.end()) / 2 - 50.0) < 1e-9);
    }

    void rangesNarrowerThanTheMinimumWiden()
    {
        ChartViewport v;
        v.setRange(5.0, 5.0);
        QCOMPARE(v.range(), std::make_pair(5.0 - 5e-4, 5.0 + 5e-4));
        v.setRange(9.0, 3.0);  // reversed: around the first
        QCOMPARE(v.range(), std::make_pair(9.0 - 5e-4, 9.0 + 5e-4));
        v.setRange(2.0, 8.0);
        QCOMPARE(v.range(), std::make_pair(2.0, 8.0));
    }

    void panMovesTheWindow()
    {
        ChartViewport v;
        v.follow(std::pair{0.0, 60.0}, false);
        auto c = v.pan(-15.0);
        QVERIFY(c.range);
        QVERIFY(c.following);
        QCOMPARE(v.range(), std::make_pair(-15.0, 45.0));
        v.pan(20.0);
        QCOMPARE(v.range(), std::make_pair(5.0, 65.0));
    }

    void resetViewFollowsAgain()
    {
        ChartViewport v;
        v.setMinimumSpan(20);
        v.zoom(0.25, 5.0);
        QVERIFY(!v.following());
        v.follow(std::pair{0.0, 80.0}, false);  // not following: untouched
        QCOMPARE(v.range(), std::make_pair(3.75, 6.25));
        auto c = v.resetView();
        QVERIFY(c.following);
        QVERIFY(v.following());
        QVERIFY(!v.resetView().following);  // already following: no change
        v.follow(std::pair{0.0, 80.0}, false);
        QCOMPARE(v.range(), std::make_pair(0.0, 80.0));
        QCOMPARE(v.xTickStep(), 10.0);
    }
};

QTEST_APPLESS_MAIN(TestChartViewport)
#include "tst_chartviewport.moc"
