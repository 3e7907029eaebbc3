// The session's side rules as pure functions (stats/SessionChecks): idle drift between a
// round's brackets, and two counters that are one counter read twice.
#include <jb/stats/SessionChecks.h>

#include <QtTest>

using namespace jb;

namespace {

Bracket bracketOf(double mean_w, double sd_w, int intervals)
{
    Bracket b;
    b.intervals = intervals;
    b.mean_w = mean_w;
    b.sd_w = sd_w;
    return b;
}

}  // namespace

class TestSessionChecks : public QObject {
    Q_OBJECT
private slots:
    void driftFiguresAndFlag_data()
    {
        QTest::addColumn<double>("before_w");
        QTest::addColumn<double>("after_w");
        QTest::addColumn<double>("sd_w");
        QTest::addColumn<bool>("flagged");
        // noise = sqrt(2 * sd^2 / 25) = sd * 0.2828...; 4 noise with sd 1: 1.131 W.
        QTest::newRow("steady") << 20.0 << 20.1 << 1.0 << false;
        QTest::newRow("beyond 4 standard errors and 1 %") << 20.0 << 21.2 << 1.0 << true;
        QTest::newRow("falling counts too") << 20.0 << 18.8 << 1.0 << true;
        QTest::newRow("within 4 standard errors") << 20.0 << 21.1 << 1.0 << false;
        // Noise-free brackets: 4 standard errors is 0, the 1 % floor decides.
        QTest::newRow("under 1 % of the idle power") << 100.0 << 100.9 << 0.0 << false;
        QTest::newRow("over 1 % of the idle power") << 100.0 << 101.1 << 0.0 << true;
    }
    void driftFiguresAndFlag()
    {
        QFETCH(double, before_w);
        QFETCH(double, after_w);
        QFETCH(double, sd_w);
        QFETCH(bool, flagged);
        const IdleDrift d = idleDrift(bracketOf(before_w, sd_w, 25), bracketOf(after_w, sd_w, 25));
        QCOMPARE(d.drift_w, after_w - before_w);
        QVERIFY(std::abs(d.noise_w - sd_w * std::sqrt(2.0 / 25.0)) < 1e-12);
        QCOMPARE(d.flagged, flagged);
        const nlohmann::ordered_json j = idleDriftJson(d);
        QCOMPARE(QString::fromStdString(j.dump()),
                 QString::fromStdString(nlohmann::ordered_json{
                     {"idle_drift", flagged},
                     {"drift_w", after_w - before_w},
                     {"noise_w", d.noise_w}}.dump()));
    }
    void driftNoiseWeighsEachBracketByItsIntervals()
    {
        const IdleDrift d = idleDrift(bracketOf(10.0, 2.0, 4), bracketOf(10.0, 1.0, 100));
        QVERIFY(std::abs(d.noise_w - std::sqrt(4.0 / 4 + 1.0 / 100)) < 1e-12);
        QVERIFY(!d.flagged);
        // A bracket of no intervals counts as one (no division by zero).
        QVERIFY(std::isfinite(idleDrift(bracketOf(1, 1, 0), bracketOf(1, 1, 0)).noise_w));
    }
    void driftWarningNamesRoundCounterAndFigures()
    {
        const IdleDrift d{1.5, 0.25, true};
        const std::string w = idleDriftWarning(3, "rapl", d);
        QVERIFY2(w.rfind("round 3: rapl: idle drift: ", 0) == 0, w.c_str());
        QVERIFY(w.find("by 1.500000 W") != std::string::npos);
        QVERIFY(w.find("noise (0.250000 W)") != std::string::npos);
    }

    void mirrorNeedsSixReadsAndFiveMoves()
    {
        // Columns 0 and 2 advance alike; column 1 is its own counter.
        std::vector<std::vector<std::int64_t>> reads;
        for (int t = 0; t < 6; ++t)
            reads.push_back({1000 + 7 * t, 50 + 3 * t * t, 9000 + 7 * t});
        const auto m = findMirroredPair(reads);
        QVERIFY(m);
        QCOMPARE(m->a, std::size_t(0));
        QCOMPARE(m->b, std::size_t(2));
        QCOMPARE(m->same, std::size_t(5));
        QCOMPARE(m->moved, std::size_t(5));
        reads.pop_back();
        QVERIFY(!findMirroredPair(reads));  // 5 rows: too few to say
    }
    void mirrorIgnoresStillStepsAndAllowsOneInFive()
    {
        std::vector<std::vector<std::int64_t>> reads;
        std::int64_t a = 0, b = 0;
        for (int t = 0; t <= 12; ++t) {
            if (t % 2 == 0 && t > 0) {  // odd steps move neither: not counted
                a += 10;
                b += t == 4 ? 11 : 10;  // 1 of the 6 moving steps differs: 5 of 6 >= 80 %
            }
            reads.push_back({a, b});
        }
        auto m = findMirroredPair(reads);
        QVERIFY(m);
        QCOMPARE(m->moved, std::size_t(6));
        QCOMPARE(m->same, std::size_t(5));
        // A second moving step differs (step 6): 4 of 6 is under 80 %.
        for (std::size_t k = 6; k < reads.size(); ++k)
            reads[k][1] += 1;
        QVERIFY(!findMirroredPair(reads));
    }
    void distinctCountersAreNoMirror()
    {
        std::vector<std::vector<std::int64_t>> reads;
        for (int t = 0; t < 20; ++t)
            reads.push_back({10 * t, 11 * t});
        QVERIFY(!findMirroredPair(reads));
        // Rows of differing length (a malformed probe table): none.
        reads[3].push_back(1);
        QVERIFY(!findMirroredPair(reads));
    }
    void mirrorTextNamesTheCountersAndTheFix()
    {
        const MirroredPair m{0, 1, 9, 10};
        const std::string sum = mirroredCountersText(m, "rapl:0", "rapl:packages", "rapl:1", "rapl:packages");
        QCOMPARE(
            sum,
            std::string("--counter rapl:packages sums rapl:0 and rapl:1, which advanced identically over "
                        "the first idle bracket (9 of 10 back-to-back reads the same): they are one "
                        "counter read twice (a per-die mirror), so the sum would count its energy twice; "
                        "measure --counter rapl:0 instead"));
        const std::string two = mirroredCountersText(m, "hwmon:a:x", "hwmon:a:x", "hwmon:b:y", "hwmon:b:y");
        QVERIFY(two.rfind("--counter hwmon:a:x and --counter hwmon:b:y advanced identically", 0) == 0);
        QVERIFY(two.find("keep hwmon:a:x and drop hwmon:b:y") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSessionChecks)
#include "tst_sessionchecks.moc"
