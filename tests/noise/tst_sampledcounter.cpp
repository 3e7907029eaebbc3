// A sampling counter (25 ms sensed every 100 ms, as NVML's energy counter on an H200): what a
// round's energy looks like at random phases and at a fixed one. The phases are the ones the
// Session draws (jb::PhaseOffsets), so this holds the random round phases to their purpose:
// over rounds, a sampling counter's error averages out instead of biasing every round alike.
#include <jb/noise/SampledCounter.h>
#include <jb/noise/SensorFigures.h>
#include <jb/session/Plan.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>
#include <vector>

using namespace jb;

namespace {

const SampledCounterModel kH200{100.0, 25.0};

struct Interval95 {
    double lo = 0, hi = 0;
    bool covers(double v) const { return lo <= v && v <= hi; }
};

Interval95 meanInterval(const std::vector<double>& v)
{
    const double m = mean(v);
    const double half = 1.96 * sampleSd(v) / std::sqrt(double(v.size()));
    return {m - half, m + half};
}

// Rounds of busy_ms each, their phases drawn as the Session draws them (seeded), or fixed.
std::vector<double> shares(double busy_ms, int rounds, std::optional<std::uint64_t> seed, double fixed_ms = 0)
{
    std::vector<double> out;
    PhaseOffsets g(seed.value_or(0));
    for (int i = 0; i < rounds; ++i) {
        const double phase = seed ? double(g.nextNs(kH200.period_ms)) / 1e6 : fixed_ms;
        out.push_back(countedShare(kH200, busy_ms, phase));
    }
    return out;
}

}  // namespace

class TestSampledCounter : public QObject {
    Q_OBJECT
private slots:
    void anIntegratorCountsEveryBurstInFull()
    {
        const SampledCounterModel exact{100.0, 100.0};
        for (double busy : {5.0, 17.0, 30.0, 250.0, 1000.0})
            for (double phase : {0.0, 12.5, 50.0, 99.0})
                QVERIFY2(std::abs(countedShare(exact, busy, phase) - 1.0) < 1e-9,
                         qPrintable(QStringLiteral("busy %1 ms at %2 ms").arg(busy).arg(phase)));
    }

    void aSampledBurstIsAllOrNothingDependingOnItsPhase()
    {
        // 30 ms of work: inside the sensed 25 ms it counts 4x its overlap, outside it not at all.
        QCOMPARE(countedShare(kH200, 30.0, 0.0), 0.0);  // [0, 30) misses [75, 100)
        QVERIFY(std::abs(countedShare(kH200, 30.0, 72.0) - 25.0 * 4.0 / 30.0) < 1e-9);  // covers all 25 ms
        QVERIFY(std::abs(countedShare(kH200, 30.0, 50.0) - 5.0 * 4.0 / 30.0) < 1e-9);
        // Over uniform phases the mean is the truth, the spread wide.
        const ShareSpread s = shareSpread(kH200, 30.0);
        QVERIFY2(std::abs(s.mean - 1.0) < 0.01, qPrintable(QString::number(s.mean)));
        QVERIFY2(s.sd > 0.9, qPrintable(QString::number(s.sd)));
        // Long windows spread less: the ends' partial periods matter less.
        QVERIFY(shareSpread(kH200, 1000.0).sd < 0.1 * s.sd);
    }

    void randomPhasesGiveAnUnbiasedMeanFixedPhasesDoNot()
    {
        // 30 ms rounds, 40 of them: the 95% interval of the mean covers the truth for (about
        // 95% of) the seeds; at any fixed phase every round counts alike and the interval,
        // of zero width, misses it.
        int covered = 0;
        const int seeds = 40;
        for (std::uint64_t seed = 1; seed <= std::uint64_t(seeds); ++seed)
            covered += meanInterval(shares(30.0, 40, seed)).covers(1.0) ? 1 : 0;
        QVERIFY2(covered >= int(0.85 * seeds),
                 qPrintable(QStringLiteral("%1 of %2").arg(covered).arg(seeds)));
        for (double fixed : {0.0, 25.0, 50.0, 60.0, 72.0, 90.0}) {
            const auto v = shares(30.0, 40, std::nullopt, fixed);
            QVERIFY2(!meanInterval(v).covers(1.0),
                     qPrintable(QStringLiteral("fixed phase %1 ms: mean %2").arg(fixed).arg(mean(v))));
        }
    }

    void roundsForTenPercent()
    {
        // (1.96 sd / 0.1)^2: a 30 ms round on this counter needs hundreds, a 1 s one a handful.
        const ShareSpread shortRound = shareSpread(kH200, 30.0);
        const ShareSpread longRound = shareSpread(kH200, 1000.0);
        const int nShort = roundsForMean(shortRound.sd);
        QCOMPARE(nShort, int(std::ceil(std::pow(1.959964 * shortRound.sd / 0.1, 2.0) - 1e-6)));
        QVERIFY(nShort > 300);
        QVERIFY(roundsForMean(longRound.sd) < 10);
        QCOMPARE(roundsForMean(0.0), 1);
    }

    void theSensorViewsFigures()
    {
        // A 1 s average published every 100 ms: the reading lags the load's edges, held between updates.
        CounterProfile avg;
        avg.spec = "nvml-power:0";
        avg.update_period_ms = 100.0;
        avg.averaging_window_ms = 1000.0;
        avg.step_up = {536.0, 940.0};
        avg.step_down = {560.0, 1059.0};
        const SensorFigures f = sensorFigures(avg);
        QVERIFY(f.busy_s >= 3.0);
        QCOMPARE(f.load.size(), std::size_t(6));
        QCOMPARE(f.load[2], (std::pair<double, double>{0.0, 1.0}));
        auto readingAt = [&](double t) {
            double v = 0;
            for (const auto& [x, y] : f.reading)
                if (x <= t + 1e-9)
                    v = y;
            return v;
        };
        QCOMPARE(readingAt(0.05), 0.0);                   // before the first update
        QVERIFY(std::abs(readingAt(0.55) - 0.5) < 0.15);  // about half-way near the delay
        QCOMPARE(readingAt(f.busy_s - 0.01), 1.0);
        QVERIFY(readingAt(f.busy_s + 0.5) > 0.3);  // still smeared after the load stopped
        QCOMPARE(readingAt(f.busy_s + 1.2), 0.0);
        for (std::size_t i = 1; i < f.reading.size(); ++i)  // steps only at updates
            if (f.reading[i].second != f.reading[i - 1].second)
                QVERIFY(std::abs(std::remainder(f.reading[i].first, 0.1)) < 1e-9);
        QVERIFY(f.lines.size() >= 4);
        QVERIFY(f.lines[3].find("averages over 1000 ms") != std::string::npos);

        // An integrator counts every burst in full; the H200's energy counter does not.
        CounterProfile exact;
        exact.spec = "sim";
        const SensorFigures e = sensorFigures(exact);
        QCOMPARE(e.spread.sd, 0.0);
        for (const auto& [phase, share] : e.bursts)
            QVERIFY(std::abs(share - 1.0) < 1e-9);
        const SensorFigures s = sensorFigures(defaultProfile(std::string("nvml:0")));
        QCOMPARE(s.burst_ms, 17.0);
        QVERIFY(s.spread.sd > 0.5);
        QVERIFY(std::abs(s.spread.mean - 1.0) < 0.02);
        QVERIFY2(s.lines[4].find("senses about 25%") != std::string::npos, s.lines[4].c_str());
    }
};

QTEST_APPLESS_MAIN(TestSampledCounter)
#include "tst_sampledcounter.moc"
