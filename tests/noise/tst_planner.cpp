// The planner against simulated runs: its settings, run on the simulated counter through the
// session's own statistics (between, covering, counterRound), reach the target verdict in at
// least the planned share of rounds over many seeded repetitions.
#include <jb/noise/Planner.h>
#include <jb/noise/RoundModel.h>
#include <jb/noise/SimRun.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using namespace jb;

namespace {

struct Share {
    int rounds = 0;
    int reached = 0;
    std::vector<double> jPerDecode;
    double share() const { return rounds ? double(reached) / rounds : 0.0; }
};

// Runs the settings `reps` times (seeds 1000 + i) and counts the rounds whose ratio reaches
// the threshold (the reference's verdict at or above the target).
Share simulate(const PlanInputs& in, double idle_s, int k, int rounds, int reps, double threshold)
{
    Share s;
    for (int i = 0; i < reps; ++i) {
        SimRunSpec spec;
        spec.noise_sd_w = in.idle_sd_w;
        spec.busy_noise_sd_w = in.busy_sd_w > 0 ? in.busy_sd_w : -1.0;
        spec.marginal_w = in.marginal_w;
        spec.period_s = in.period_s;
        spec.idle_s = idle_s;
        spec.k = k;
        spec.busy_s = k * in.busy_s_per_k;
        spec.rounds = rounds;
        spec.seed = 1000 + std::uint64_t(i);
        const Record r = simulateRun(spec);
        for (const Round& x : r.rounds) {
            const CounterRound* c = x.counter("sim");
            ++s.rounds;
            if (c && c->ratio && *c->ratio >= threshold)
                ++s.reached;
            if (c && c->has_marginal)
                s.jPerDecode.push_back(c->marginal_nj / 1e9 / double(x.decodes));
        }
    }
    return s;
}

// Allowed shortfall of a simulated share: 3 binomial sds, the count of rounds divided by 3
// because a round shares each of its idle brackets with its neighbour (a design effect of at
// most 1 + 2 * correlation <= 3).
double margin(double p, int rounds)
{
    return 3.0 * std::sqrt(3.0 * p * (1.0 - p) / rounds) + 1e-9;
}

}  // namespace

class TestPlanner : public QObject {
    Q_OBJECT
private slots:
    void plannedSettingsReachTheTarget_data()
    {
        QTest::addColumn<double>("sd");
        QTest::addColumn<double>("marginal");
        QTest::addColumn<double>("perK");
        QTest::addColumn<QString>("target");
        QTest::addColumn<double>("confidence");
        QTest::addColumn<int>("reps");
        QTest::addColumn<double>("ciWidth");  // loose: the verdict alone decides the settings
        // Far above the floor: the shortest brackets do.
        QTest::newRow("clean, ratio 100") << 0.15 << 15.0 << 0.4 << QStringLiteral("clean") << 0.9 << 200 << 0.05;
        // The sd's sampling noise decides: idle length is the lever.
        QTest::newRow("clean, ratio 13") << 0.15 << 2.0 << 0.4 << QStringLiteral("clean") << 0.9 << 200 << 0.05;
        QTest::newRow("clean, ratio 10.8") << 0.2 << 2.16 << 0.25 << QStringLiteral("clean") << 0.8 << 200 << 0.05;
        QTest::newRow("relative-only, ratio 4") << 0.5 << 2.0 << 0.3 << QStringLiteral("relative-only") << 0.95 << 250 << 0.05;
        QTest::newRow("relative-only, ratio 3.4, verdict-bound")
            << 0.5 << 1.7 << 0.3 << QStringLiteral("relative-only") << 0.9 << 250 << 1.0;
        // The numerator's noise matters too: k is a lever.
        QTest::newRow("noisy, ratio 1.6") << 1.0 << 1.6 << 0.15 << QStringLiteral("noisy") << 0.85 << 200 << 0.05;
        QTest::newRow("noisy, ratio 1.6, verdict-bound")
            << 1.0 << 1.6 << 0.15 << QStringLiteral("noisy") << 0.85 << 250 << 1.0;
    }
    void plannedSettingsReachTheTarget()
    {
        QFETCH(double, sd);
        QFETCH(double, marginal);
        QFETCH(double, perK);
        QFETCH(QString, target);
        QFETCH(double, confidence);
        QFETCH(int, reps);
        QFETCH(double, ciWidth);
        PlanInputs in;
        in.ci_halfwidth = ciWidth;
        in.idle_sd_w = sd;
        in.marginal_w = marginal;
        in.period_s = 0.1;
        in.busy_s_per_k = perK;
        in.target = *parseVerdict(target.toStdString());
        in.confidence = confidence;
        in.min_rounds = 6;
        const PlanOutcome o = planRun(in);
        QVERIFY2(o.reachable, o.message.c_str());
        QVERIFY(o.round_probability >= confidence);
        QVERIFY(o.rounds >= 6);
        QVERIFY(o.idle_intervals >= 2 && o.busy_intervals >= 2);
        QCOMPARE(o.idle_intervals, intervalsInside(o.idle_s, 0.1));
        QVERIFY(std::abs(o.busy_s - o.k * perK) < 1e-12);
        QVERIFY(std::abs(o.total_s - ((o.rounds + 1) * o.idle_s + o.rounds * (o.busy_s + 0.2))) < 1e-9);

        const Share s = simulate(in, o.idle_s, o.k, o.rounds, reps, o.threshold);
        const double m = margin(confidence, s.rounds);
        qInfo("%s: idle %.1f s (%d), k %d (%d busy), %d rounds; model %.3f, simulated %.3f of %d rounds (margin %.3f)",
              qPrintable(target), o.idle_s, o.idle_intervals, o.k, o.busy_intervals, o.rounds, o.round_probability,
              s.share(), s.rounds, m);
        QVERIFY2(s.share() >= confidence - m,
                 qPrintable(QStringLiteral("reached in %1 of rounds, planned %2").arg(s.share()).arg(confidence)));
        // The model is honest, not merely safe: the share lies near the planned probability
        // (a busy window may hold one interval more than planned, hence the extra 0.02).
        QVERIFY2(std::abs(s.share() - o.round_probability) < margin(o.round_probability, s.rounds) + 0.02,
                 qPrintable(QStringLiteral("model %1, simulated %2").arg(o.round_probability).arg(s.share())));
    }

    void shorterBracketsFallShort()
    {
        // Where the idle length is the lever, a quarter of the planned brackets misses the
        // target clearly: the plan is not padded for nothing.
        PlanInputs in;
        in.idle_sd_w = 0.2;
        in.marginal_w = 2.16;
        in.busy_s_per_k = 0.25;
        in.confidence = 0.8;
        const PlanOutcome o = planRun(in);
        QVERIFY(o.reachable);
        QVERIFY(o.idle_intervals >= 40);
        const int quarter = o.idle_intervals / 4;
        const Share s = simulate(in, windowHolding(quarter, 0.1), o.k, 6, 200, 10.0);
        QVERIFY2(s.share() < 0.8 - margin(0.8, s.rounds), qPrintable(QString::number(s.share())));
    }

    void medianSpreadMatchesTheModel()
    {
        // The per-round relative sd of J/decode the rounds are sized from, against the spread
        // of simulated rounds (1200 rounds: the sd's relative se is 2%; allow 10%).
        PlanInputs in;
        in.idle_sd_w = 0.5;
        in.marginal_w = 2.0;
        in.busy_s_per_k = 0.3;
        const int nIdle = 29;
        const int k = 4;
        const double model = roundRelativeSd(in, nIdle, k * 0.3);
        const Share s = simulate(in, windowHolding(nIdle, 0.1), k, 6, 200, 3.0);
        double sum = 0, ss = 0;
        for (double v : s.jPerDecode)
            sum += v;
        const double mean = sum / double(s.jPerDecode.size());
        for (double v : s.jPerDecode)
            ss += (v - mean) * (v - mean);
        const double rel = std::sqrt(ss / double(s.jPerDecode.size() - 1)) / mean;
        // Truth: 2 W * 1.2 s / (4 * 4 decodes) = 0.15 J per decode.
        QVERIFY(std::abs(mean - 0.15) < 0.01);
        QVERIFY2(std::abs(rel / model - 1.0) < 0.10, qPrintable(QStringLiteral("model %1, simulated %2").arg(model).arg(rel)));
    }

    void roundsForTheMedianCi()
    {
        // (1.959964 * sqrt(pi/2) * 0.1 / 0.05)^2 = 24.14 -> 25.
        QCOMPARE(roundsForMedianCi(0.1, 0.05, 0.95), 25);
        QCOMPARE(roundsForMedianCi(0.0, 0.05, 0.95), 1);
        // A noisy workload: the plan takes its rounds from the CI, not from min_rounds.
        PlanInputs in;
        in.idle_sd_w = 0.15;
        in.marginal_w = 15.0;
        in.busy_s_per_k = 0.4;
        in.extra_rel_sd = 0.1;
        const PlanOutcome o = planRun(in);
        QVERIFY(o.reachable && o.ci_met);
        QVERIFY(o.rounds >= 25);
        QVERIFY(o.ci_halfwidth <= 0.05);
        in.max_rounds = 10;
        const PlanOutcome capped = planRun(in);
        QVERIFY(capped.reachable && !capped.ci_met);
        QCOMPARE(capped.rounds, 10);
        QVERIFY(capped.message.find("CI") != std::string::npos);
    }

    void unreachableSaysWhatWouldBeNeeded()
    {
        PlanInputs in;
        in.idle_sd_w = 0.2;
        in.marginal_w = 1.9;  // ratio 9.5 < 10 however long the run
        in.busy_s_per_k = 0.4;
        PlanOutcome o = planRun(in);
        QVERIFY(!o.reachable);
        QVERIFY(std::abs(o.asymptotic_ratio - 9.5) < 1e-12);
        QVERIFY(std::abs(o.needed_idle_sd_w - 0.19) < 1e-12);
        QVERIFY(std::abs(o.needed_marginal_w - 2.0) < 1e-12);
        QVERIFY2(o.message.find("unreachable") != std::string::npos, o.message.c_str());
        QVERIFY(!o.suggested_sample_s);
        // The same counter's Allan curve falls (white noise): a longer period would do.
        in.allan = {{1, 0.1, 0.2, 100}, {2, 0.2, 0.141, 99}, {4, 0.4, 0.1, 97}};
        o = planRun(in);
        QVERIFY(!o.reachable);
        // At 0.2 s: 1.9 / 0.141 = 13.5, clear of 10 with the planner's 20% to spare.
        QVERIFY(o.suggested_sample_s && std::abs(*o.suggested_sample_s - 0.2) < 1e-12);
        QVERIFY2(o.message.find("200 ms") != std::string::npos, o.message.c_str());
        // Reachable in principle, not within the limits.
        in.allan.clear();
        in.marginal_w = 2.02;
        in.max_idle_s = 5;
        o = planRun(in);
        QVERIFY(!o.reachable);
        QVERIFY2(o.message.find("within the limits") != std::string::npos, o.message.c_str());
        // No idle noise at all: no ratio, no verdict.
        in.idle_sd_w = 0;
        o = planRun(in);
        QVERIFY(!o.reachable);
        QVERIFY(o.message.find("sd is 0") != std::string::npos);
    }

    void badInputsAreNamed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::newRow("target") << QStringLiteral("target") << QStringLiteral("target must be");
        QTest::newRow("confidence 0.5") << QStringLiteral("confidence") << QStringLiteral("confidence must");
        QTest::newRow("period") << QStringLiteral("period") << QStringLiteral("sample period");
        QTest::newRow("per k") << QStringLiteral("perk") << QStringLiteral("busy seconds per k");
        QTest::newRow("rounds") << QStringLiteral("rounds") << QStringLiteral("rounds limits");
    }
    void badInputsAreNamed()
    {
        QFETCH(QString, field);
        QFETCH(QString, expected);
        PlanInputs in;
        in.idle_sd_w = 0.2;
        in.marginal_w = 5;
        in.busy_s_per_k = 0.4;
        QVERIFY(checkPlanInputs(in).ok);
        if (field == QLatin1String("target"))
            in.target = Verdict::Unusable;
        else if (field == QLatin1String("confidence"))
            in.confidence = 0.5;
        else if (field == QLatin1String("period"))
            in.period_s = 0;
        else if (field == QLatin1String("perk"))
            in.busy_s_per_k = -1;
        else
            in.min_rounds = 0;
        const PlanCheck c = checkPlanInputs(in);
        QVERIFY(!c.ok);
        QVERIFY2(QString::fromStdString(c.error).contains(expected), c.error.c_str());
        const PlanOutcome o = planRun(in);
        QVERIFY(!o.reachable);
        QCOMPARE(QString::fromStdString(o.message), QString::fromStdString(c.error));
    }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
