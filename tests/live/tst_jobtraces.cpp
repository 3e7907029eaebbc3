// A GPU job queue's live traces as values (core/live/JobTraces: the Jobs page draws them) and
// the trace decimation it draws them with (core/sampling's decimateColumns): samples in, at most
// four points per pixel column out, every column's extremes kept, in time order.
#include <jb/jobs/JobExecutor.h>
#include <jb/live/JobTraces.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

class TestJobTraces : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addSkipsUnknownValues()
    {
        jb::JobTrace t;
        t.add(0.0, 100, std::nan(""));
        t.add(1.0, -1, 250.0);  // memory not read this time
        t.add(2.0, 300, 260.0);
        QCOMPARE(t.samples(), std::size_t(3));
        QCOMPARE(t.memory().size(), std::size_t(2));
        QCOMPARE(t.power().size(), std::size_t(2));
        QCOMPARE(t.maxMemory(), std::optional<double>(300));
        QCOMPARE(t.maxPower(), std::optional<double>(260));
        QCOMPARE(t.lastT(), 2.0);
        QVERIFY(!jb::JobTrace().maxPower().has_value());
    }

    void tracesAreKeptPerLaunchedJob()
    {
        jb::JobTraces traces;
        jb::JobProgress p;
        p.elapsed_seconds = 0.5;
        p.memory_mib = 2048;
        p.power_w = 310.0;
        QVERIFY(!traces.sampled(QStringLiteral("a"), p));  // not launched: no trace, nothing kept
        QVERIFY(!traces.trace(QStringLiteral("a")));
        traces.launched(QStringLiteral("a"));
        traces.launched(QStringLiteral("b"));
        QVERIFY(traces.sampled(QStringLiteral("a"), p));
        p.elapsed_seconds = 1.0;
        p.memory_mib = 4096;
        p.power_w.reset();  // power not read this time
        QVERIFY(traces.sampled(QStringLiteral("a"), p));
        const auto a = traces.trace(QStringLiteral("a"));
        QVERIFY(a);
        QCOMPARE(a->samples(), std::size_t(2));
        QCOMPARE(a->memory(), (std::vector<jb::TracePoint>{{0.5, 2048}, {1.0, 4096}}));
        QCOMPARE(a->power(), (std::vector<jb::TracePoint>{{0.5, 310}}));
        QCOMPARE(a->maxMemory(), std::optional<double>(4096));
        QCOMPARE(traces.trace(QStringLiteral("b"))->samples(), std::size_t(0));
        QCOMPARE(traces.size(), std::size_t(2));
        // Launched again (a rerun): a fresh trace; a chart still holding the old one keeps it.
        traces.launched(QStringLiteral("a"));
        QCOMPARE(traces.trace(QStringLiteral("a"))->samples(), std::size_t(0));
        QCOMPARE(a->samples(), std::size_t(2));
        traces.clear();
        QVERIFY(!traces.trace(QStringLiteral("b")));
    }

    void fewPointsAreKeptAsTheyAre()
    {
        const std::vector<jb::TracePoint> pts{{0, 1}, {1, 5}, {2, 3}, {50, 9}};
        QCOMPARE(jb::decimateColumns(pts, 0, 10, 100), (std::vector<jb::TracePoint>{{0, 1}, {1, 5}, {2, 3}}));
        QVERIFY(jb::decimateColumns(pts, 5, 5, 10).empty());  // an empty range
        QVERIFY(jb::decimateColumns({}, 0, 10, 10).empty());
    }

    void manyPointsAtMostFourPerColumnWithTheirExtremes()
    {
        // Six hours at one sample a second, noisy, with one spike and one dip.
        std::vector<jb::TracePoint> pts;
        std::mt19937 rng(7);
        std::normal_distribution<double> noise(300, 5);
        for (int i = 0; i < 21600; ++i)
            pts.push_back({double(i), noise(rng)});
        pts[12345].v = 700;
        pts[777].v = 10;
        const int columns = 800;
        const auto out = jb::decimateColumns(pts, 0, 21600, columns);
        QVERIFY(out.size() <= std::size_t(4 * columns));
        QVERIFY(out.size() >= std::size_t(2 * columns));  // every column has points
        QVERIFY(std::is_sorted(out.begin(), out.end(), [](auto& a, auto& b) { return a.t_s < b.t_s; }));
        QVERIFY(std::find(out.begin(), out.end(), pts[12345]) != out.end());
        QVERIFY(std::find(out.begin(), out.end(), pts[777]) != out.end());
        QCOMPARE(out.front(), pts.front());
        QCOMPARE(out.back(), pts.back());
        // Per column: the min and max of the input are there.
        const double width = 21600.0 / columns;
        for (int c = 0; c < columns; c += 97) {
            double lo = 1e9, hi = -1e9, olo = 1e9, ohi = -1e9;
            for (const auto& p : pts)
                if (std::min(columns - 1, int(p.t_s / width)) == c) {
                    lo = std::min(lo, p.v);
                    hi = std::max(hi, p.v);
                }
            for (const auto& p : out)
                if (std::min(columns - 1, int(p.t_s / width)) == c) {
                    olo = std::min(olo, p.v);
                    ohi = std::max(ohi, p.v);
                }
            QCOMPARE(olo, lo);
            QCOMPARE(ohi, hi);
        }
    }

    void pointsOutsideTheRangeAreDropped()
    {
        std::vector<jb::TracePoint> pts;
        for (int i = 0; i < 1000; ++i)
            pts.push_back({double(i), double(i % 7)});
        const auto out = jb::decimateColumns(pts, 100, 200, 10);
        QVERIFY(!out.empty());
        for (const auto& p : out)
            QVERIFY(p.t_s >= 100 && p.t_s <= 200);
        QVERIFY(out.size() <= 40);
    }

    // Against a plain pass that looks at every point: the same points, in the same order, for
    // ranges that leave points out at either end, ties (values on a coarse grid), columns
    // wider than the trace's pace and narrower.
    void theSamePointsAsAPlainPass()
    {
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> step(0.01, 2.0);
        std::uniform_int_distribution<int> level(0, 20);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<jb::TracePoint> pts;
            double t = -50;
            const int n = 50 + trial * 20;
            for (int i = 0; i < n; ++i, t += step(rng))
                pts.push_back({t, double(level(rng))});
            const double t0 = pts[std::size_t(n / 10)].t_s + 0.005, t1 = pts[std::size_t(n - n / 7)].t_s - 0.005;
            const int columns = 1 + trial % 90;
            QCOMPARE(jb::decimateColumns(pts, t0, t1, columns), plainPass(pts, t0, t1, columns));
        }
    }

private:
    // First, minimum, maximum and last of each column, the earliest of equal values, by a
    // scan of every point.
    static std::vector<jb::TracePoint> plainPass(const std::vector<jb::TracePoint>& pts, double t0, double t1,
                                                 int columns)
    {
        std::vector<std::size_t> in;
        for (std::size_t i = 0; i < pts.size(); ++i)
            if (pts[i].t_s >= t0 && pts[i].t_s <= t1)
                in.push_back(i);
        std::vector<jb::TracePoint> out;
        if (in.size() <= 4 * std::size_t(columns)) {
            for (std::size_t i : in)
                out.push_back(pts[i]);
            return out;
        }
        const double width = (t1 - t0) / columns;
        auto col = [&](std::size_t i) { return std::min(columns - 1, int((pts[i].t_s - t0) / width)); };
        for (int c = 0; c < columns; ++c) {
            std::vector<std::size_t> members;
            for (std::size_t i : in)
                if (col(i) == c)
                    members.push_back(i);
            if (members.empty())
                continue;
            std::size_t lo = members.front(), hi = members.front();
            for (std::size_t i : members) {
                if (pts[i].v < pts[lo].v)
                    lo = i;
                if (pts[i].v > pts[hi].v)
                    hi = i;
            }
            std::vector<std::size_t> keep{members.front(), lo, hi, members.back()};
            std::sort(keep.begin(), keep.end());
            keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
            for (std::size_t i : keep)
                out.push_back(pts[i]);
        }
        return out;
    }
};

QTEST_GUILESS_MAIN(TestJobTraces)
#include "tst_jobtraces.moc"
