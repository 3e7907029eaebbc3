// The chart's per-column decimation (core/sampling/Decimation): every column keeps its first,
// last, minimum and maximum exactly; at most four points per column; the block index gives the
// very same points as a plain scan.
#include <jb/sampling/Decimation.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using jb::Interval;
using jb::PlotPoint;

namespace {

enum class Shape { Noise, Ramp, Flat, Spikes, Gaps };

// n contiguous intervals of ~period_ns starting at t_ns, power by shape (in mW steps, so
// equal values occur and tie-breaking is exercised).
std::vector<Interval> makeIntervals(int n, Shape shape, std::int64_t t_ns = 1'000'000'000,
                                    std::int64_t period_ns = 100'000'000, unsigned seed = 7)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> jitter(0, period_ns / 50);
    std::uniform_int_distribution<int> mw(19000, 21000);
    std::vector<Interval> v;
    v.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        std::int64_t span = period_ns + jitter(rng);
        if (shape == Shape::Gaps && i % 97 == 5)
            span = period_ns * 40;  // a long read stall
        double w = 0;
        switch (shape) {
        case Shape::Noise:
            w = mw(rng) / 1000.0;
            break;
        case Shape::Ramp:
            w = 10.0 + i * 0.001;
            break;
        case Shape::Flat:
            w = 20.0;
            break;
        case Shape::Spikes:
            w = (i % 1013 == 17) ? 90.0 : (i % 509 == 3 ? 1.0 : 20.0);
            break;
        case Shape::Gaps:
            w = mw(rng) / 1000.0;
            break;
        }
        v.push_back({t_ns, t_ns + span, std::int64_t(std::llround(w * double(span)))});
        t_ns += span;
    }
    return v;
}

struct Column {
    std::vector<std::size_t> members;
};

// Brute force: which intervals each column holds.
std::vector<Column> columnsOf(const std::vector<Interval>& v, std::int64_t t0, std::int64_t t1, int columns)
{
    std::vector<Column> cols(std::size_t(std::max(columns, 1)));
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto m = jb::midpointNs(v[i]);
        if (m < t0 || m > t1)
            continue;
        cols[std::size_t(jb::columnOf(m, t0, t1, columns))].members.push_back(i);
    }
    return cols;
}

}  // namespace

Q_DECLARE_METATYPE(Shape)

class TestDecimation : public QObject {
    Q_OBJECT
private slots:
    void keepsEveryColumnsExtremes_data();
    void keepsEveryColumnsExtremes();
    void indexGivesTheSamePoints_data();
    void indexGivesTheSamePoints();
    void indexGrowsIncrementally();
    void edges();
    void columnOfIsMonotoneAndBounded();
};

void TestDecimation::keepsEveryColumnsExtremes_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<int>("columns");
    QTest::addColumn<double>("from");  // visible range as fractions of the data's span
    QTest::addColumn<double>("to");

    QTest::newRow("noise, whole, 800 px") << 20000 << Shape::Noise << 800 << 0.0 << 1.0;
    QTest::newRow("noise, zoomed in") << 20000 << Shape::Noise << 800 << 0.40 << 0.41;
    QTest::newRow("fewer samples than columns") << 300 << Shape::Noise << 1000 << 0.0 << 1.0;
    QTest::newRow("one column") << 5000 << Shape::Noise << 1 << 0.0 << 1.0;
    QTest::newRow("ramp") << 10000 << Shape::Ramp << 640 << 0.1 << 0.9;
    QTest::newRow("flat: ties everywhere") << 10000 << Shape::Flat << 333 << 0.0 << 1.0;
    QTest::newRow("rare spikes") << 50000 << Shape::Spikes << 500 << 0.0 << 1.0;
    QTest::newRow("stalls leave empty columns") << 20000 << Shape::Gaps << 1500 << 0.0 << 1.0;
    QTest::newRow("range past the data") << 1000 << Shape::Noise << 200 << 0.5 << 3.0;
    QTest::newRow("range before the data") << 1000 << Shape::Noise << 200 << -2.0 << -1.0;
}

void TestDecimation::keepsEveryColumnsExtremes()
{
    QFETCH(int, n);
    QFETCH(Shape, shape);
    QFETCH(int, columns);
    QFETCH(double, from);
    QFETCH(double, to);
    const auto v = makeIntervals(n, shape);
    const std::int64_t span = v.back().t1_ns - v.front().t0_ns;
    const std::int64_t t0 = v.front().t0_ns + std::int64_t(from * double(span));
    const std::int64_t t1 = v.front().t0_ns + std::int64_t(to * double(span));
    const std::int64_t origin = v.front().t0_ns - 5'000'000'000;

    jb::DecimationIndex index;
    index.update(v);
    for (bool indexed : {false, true}) {
        const auto pts = indexed ? jb::decimate(v, index, origin, t0, t1, columns)
                                 : jb::decimate(v, origin, t0, t1, columns);
        QVERIFY(int(pts.size()) <= 4 * columns);
        for (std::size_t i = 1; i < pts.size(); ++i)
            QVERIFY2(pts[i - 1].t_s < pts[i].t_s, "points must be in strict time order");

        auto pointOf = [&](std::size_t i) {
            return PlotPoint{double(jb::midpointNs(v[i]) - origin) * 1e-9, v[i].power_w()};
        };
        const auto cols = columnsOf(v, t0, t1, columns);
        std::size_t expectedMax = 0;
        for (const Column& c : cols) {
            if (c.members.empty())
                continue;
            expectedMax += std::min<std::size_t>(4, c.members.size());
            double lo = v[c.members.front()].power_w(), hi = lo;
            for (std::size_t i : c.members) {
                lo = std::min(lo, v[i].power_w());
                hi = std::max(hi, v[i].power_w());
            }
            const double ct0 = pointOf(c.members.front()).t_s;
            const double ct1 = pointOf(c.members.back()).t_s;
            double seenLo = INFINITY, seenHi = -INFINITY;
            int inColumn = 0;
            for (const PlotPoint& p : pts) {
                if (p.t_s < ct0 || p.t_s > ct1)
                    continue;
                ++inColumn;
                seenLo = std::min(seenLo, p.power_w);
                seenHi = std::max(seenHi, p.power_w);
            }
            QVERIFY(inColumn >= 1 && inColumn <= 4);
            // Exactly the column's extremes: not approximately, the same doubles.
            QVERIFY2(seenLo == lo, qPrintable(QStringLiteral("min %1 != %2").arg(seenLo).arg(lo)));
            QVERIFY2(seenHi == hi, qPrintable(QStringLiteral("max %1 != %2").arg(seenHi).arg(hi)));
            QVERIFY(std::find(pts.begin(), pts.end(), pointOf(c.members.front())) != pts.end());
            QVERIFY(std::find(pts.begin(), pts.end(), pointOf(c.members.back())) != pts.end());
        }
        QVERIFY(pts.size() <= expectedMax);
    }
}

void TestDecimation::indexGivesTheSamePoints_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("indexed");  // how many intervals the index has seen
    QTest::addColumn<int>("columns");
    QTest::newRow("small") << 31 << 31 << 10;
    QTest::newRow("one block") << 32 << 32 << 3;
    QTest::newRow("two levels") << 40000 << 40000 << 700;
    QTest::newRow("three levels, few columns") << 70000 << 70000 << 4;
    QTest::newRow("index behind the data") << 40000 << 33333 << 1200;
    QTest::newRow("empty index") << 5000 << 0 << 90;
}

void TestDecimation::indexGivesTheSamePoints()
{
    QFETCH(int, n);
    QFETCH(int, indexed);
    QFETCH(int, columns);
    const auto v = makeIntervals(n, Shape::Spikes, 42, 100'000'000, 3);
    jb::DecimationIndex index;
    index.update(std::span<const Interval>(v).first(std::size_t(indexed)));
    QCOMPARE(index.size(), std::size_t(indexed));
    // Many visible ranges, including ones that cut blocks anywhere.
    std::mt19937 rng(11);
    const std::int64_t a = v.front().t0_ns, b = v.back().t1_ns;
    std::uniform_int_distribution<std::int64_t> t(a - 1'000'000'000, b + 1'000'000'000);
    for (int trial = 0; trial < 60; ++trial) {
        std::int64_t t0 = t(rng), t1 = t(rng);
        if (trial == 0)
            t0 = a, t1 = b;
        if (t1 < t0)
            std::swap(t0, t1);
        const auto plain = jb::decimate(v, 0, t0, t1, columns);
        const auto fast = jb::decimate(v, index, 0, t0, t1, columns);
        QCOMPARE(fast.size(), plain.size());
        QVERIFY(fast == plain);
    }
}

void TestDecimation::indexGrowsIncrementally()
{
    const auto v = makeIntervals(50000, Shape::Noise);
    jb::DecimationIndex grown, fresh;
    for (std::size_t upto : {0u, 1u, 31u, 32u, 33u, 1023u, 1024u, 1025u, 20000u, 50000u}) {
        grown.update(std::span<const Interval>(v).first(upto));
        QCOMPARE(grown.size(), upto);
    }
    fresh.update(v);
    for (auto [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 50000}, {1, 49999}, {31, 33}, {1000, 33000}, {32768, 50000}, {7, 8}}) {
        const auto g = grown.minMax(v, b, e);
        const auto f = fresh.minMax(v, b, e);
        const auto s = jb::DecimationIndex{}.minMax(v, b, e);
        QCOMPARE(g.min_i, s.min_i);
        QCOMPARE(g.max_i, s.max_i);
        QCOMPARE(f.min_i, s.min_i);
        QCOMPARE(f.max_i, s.max_i);
    }
    // A shorter sequence is not the one indexed: the index starts again rather than lie.
    grown.update(std::span<const Interval>(v).first(10));
    QCOMPARE(grown.size(), std::size_t(10));
    QCOMPARE(grown.minMax(v, 0, 10).max_i, jb::DecimationIndex{}.minMax(v, 0, 10).max_i);
}

void TestDecimation::edges()
{
    QVERIFY(jb::decimate({}, 0, 0, 100, 10).empty());
    const std::vector<Interval> one{{100, 300, 400}};  // 2 W, midpoint 200
    auto p = jb::decimate(one, 100, 0, 1000, 50);
    QCOMPARE(p.size(), std::size_t(1));
    QCOMPARE(p[0].t_s, 100e-9);
    QCOMPARE(p[0].power_w, 2.0);
    // The midpoint decides, and the range is closed at both ends.
    QCOMPARE(jb::decimate(one, 0, 200, 200, 5).size(), std::size_t(1));
    QVERIFY(jb::decimate(one, 0, 201, 1000, 5).empty());
    QVERIFY(jb::decimate(one, 0, 0, 199, 5).empty());
    // A reversed range shows nothing; columns below one count as one.
    QVERIFY(jb::decimate(one, 0, 1000, 0, 5).empty());
    QCOMPARE(jb::decimate(one, 0, 0, 1000, 0).size(), std::size_t(1));
    // A zero-length interval (two reads at the same instant) plots as 0 W, not a NaN.
    const std::vector<Interval> zero{{100, 100, 0}, {100, 200, 100}};
    p = jb::decimate(zero, 0, 0, 1000, 1);
    QCOMPARE(p.size(), std::size_t(2));
    QCOMPARE(p[0].power_w, 0.0);
    QCOMPARE(p[1].power_w, 1.0);
}

void TestDecimation::columnOfIsMonotoneAndBounded()
{
    const std::int64_t t0 = 5'000'000'000'000, t1 = t0 + 3'600'000'000'000;  // an hour
    int prev = 0;
    for (std::int64_t m = t0 - 10; m <= t1 + 10; m += 999'999'937) {
        const int c = jb::columnOf(m, t0, t1, 1920);
        QVERIFY(c >= prev);
        QVERIFY(c >= 0 && c < 1920);
        prev = c;
    }
    QCOMPARE(jb::columnOf(t1, t0, t1, 1920), 1919);
    QCOMPARE(jb::columnOf(t0, t0, t1, 1920), 0);
    QCOMPARE(jb::columnOf(t0 + 5, t0, t0, 10), 0);  // empty range: one column
}

QTEST_GUILESS_MAIN(TestDecimation)
#include "tst_decimation.moc"
