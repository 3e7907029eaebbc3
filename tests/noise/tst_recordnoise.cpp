// A record's noise figures, from its raw samples and from its stored bracket figures, on
// simulated runs whose truth is known.
#include <jb/noise/RecordNoise.h>
#include <jb/noise/SimRun.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using namespace jb;

namespace {

SimRunSpec spec()
{
    SimRunSpec s;
    s.noise_sd_w = 0.2;
    s.marginal_w = 5.0;
    s.idle_s = 3.0;  // 29 whole intervals per bracket
    s.busy_s = 1.2;
    s.k = 3;
    s.rounds = 10;
    s.seed = 99;
    return s;
}

}  // namespace

class TestRecordNoise : public QObject {
    Q_OBJECT
private slots:
    void simulatedRunIsLaidOutAsTheSession()
    {
        const Record r = simulateRun(spec());
        QCOMPARE(r.rounds.size(), std::size_t(10));
        QCOMPARE(r.k, 3);
        QCOMPARE(r.rounds[0].decodes, 12);
        for (std::size_t i = 0; i < r.rounds.size(); ++i) {
            const Round& x = r.rounds[i];
            QVERIFY(x.window && x.brackets);
            QCOMPARE(x.window_ns, 1'200'000'000);
            // The busy window starts where the bracket before ends; the bracket after starts
            // where the window ends; round i's bracket after is round i+1's bracket before.
            if (i == 0) {
                QCOMPARE((*x.brackets)[0][1], (*x.window)[0]);
            } else {
                QVERIFY((*x.brackets)[0][1] < (*x.window)[0]);  // settling periods between
            }
            QCOMPARE((*x.brackets)[1][0], (*x.window)[1]);
            if (i + 1 < r.rounds.size()) {
                QCOMPARE((*x.brackets)[1], (*r.rounds[i + 1].brackets)[0]);
            }
            const CounterRound* c = x.counter("sim");
            QVERIFY(c && c->has_marginal && c->ratio);
            QCOMPARE(c->idle_before->intervals, 29);  // (n + 1) periods hold n whole intervals
            QVERIFY(c->busy->intervals == 11 || c->busy->intervals == 12);
        }
        // Samples are contiguous and sorted.
        const auto& iv = *r.samplesOf("sim");
        for (std::size_t i = 1; i < iv.size(); ++i)
            QCOMPARE(iv[i].t0_ns, iv[i - 1].t1_ns);
    }

    void fromSamples()
    {
        const Record r = simulateRun(spec());
        const auto n = recordNoise(r);
        QVERIFY2(n.ok(), n.ok() ? "" : n.error().c_str());
        QCOMPARE(QString::fromStdString(n->spec), QStringLiteral("sim"));
        QCOMPARE(QString::fromStdString(n->source), QStringLiteral("samples"));
        QCOMPARE(n->brackets, 11);  // rounds + 1 distinct brackets
        QCOMPARE(n->intervals, 11 * 29);
        QCOMPARE(n->idle_power_w.size(), std::size_t(11));
        QCOMPARE(n->period_s, 0.1);
        // Pooled sd over 11 * 28 degrees of freedom: relative se 1 / sqrt(2 * 308) = 4%; allow 4 se.
        QVERIFY2(std::abs(n->idle_sd_w / 0.2 - 1.0) < 0.16, qPrintable(QString::number(n->idle_sd_w)));
        QVERIFY(std::abs(n->idle_mean_w - 20.0) < 0.05);
        QVERIFY(n->idle_sd_max_w >= n->idle_sd_w);
        QCOMPARE(n->rounds_with_marginal, 10);
        QVERIFY(std::abs(*n->marginal_w - 5.0) < 0.3);
        QVERIFY(std::abs(*n->busy_s_per_k - 0.4) < 1e-12);
        QVERIFY(std::abs(*n->window_s - 1.2) < 1e-12);
        QVERIFY(std::abs(*n->busy_sd_w / 0.2 - 1.0) < 0.25);
        // 5 W for 1.2 s over 12 decodes: 0.5 J per decode.
        QVERIFY(std::abs(*n->j_per_decode - 0.5) < 0.03);
        QVERIFY(n->j_per_decode_rel_spread);
        QCOMPARE(n->ratios.size(), std::size_t(10));
    }

    void pooledSdByHand()
    {
        // Two brackets, powers 1 2 3 (sd 1) and 10 14 (sd 2.828): pooled over 2 + 1 dof:
        // sqrt((2 * 1 + 1 * 8) / 3). Plain sd of all five values would be far larger.
        Record r;
        r.counters = {"sim"};
        r.sample_s = 1.0;
        r.samples.push_back({"sim", {{0, 1, 1}, {1, 2, 2}, {2, 3, 3}, {3, 4, 100}, {4, 5, 10}, {5, 6, 14}}});
        Round x;
        x.window = std::array<std::int64_t, 2>{3, 4};
        x.brackets = std::array<std::array<std::int64_t, 2>, 2>{{{0, 3}, {4, 6}}};
        x.counters.push_back({"sim", CounterRound{}});
        r.rounds.push_back(x);
        const auto n = recordNoise(r, "sim");
        QVERIFY(n.ok());
        QCOMPARE(n->brackets, 2);
        QCOMPARE(n->intervals, 5);
        QVERIFY(std::abs(n->idle_sd_w - std::sqrt(10.0 / 3.0)) < 1e-12);
        QVERIFY(std::abs(n->idle_sd_max_w - std::sqrt(8.0)) < 1e-12);
        QVERIFY(std::abs(n->idle_mean_w - (6.0 + 24.0) / 5.0) < 1e-12);
        QCOMPARE(n->idle_power_w[1], (std::vector<double>{10.0, 14.0}));
        QVERIFY(!n->marginal_w);  // the round has no marginal figure
    }

    void fromStoredBracketsWithoutSamples()
    {
        Record r = simulateRun(spec());
        const auto withSamples = recordNoise(r);
        r.samples.clear();
        const auto n = recordNoise(r);
        QVERIFY(n.ok());
        QCOMPARE(QString::fromStdString(n->source), QStringLiteral("brackets"));
        QVERIFY(n->idle_power_w.empty());
        // The same brackets, each counted once: the same pooled sd.
        QCOMPARE(n->brackets, 11);
        QVERIFY(std::abs(n->idle_sd_w - withSamples->idle_sd_w) < 1e-12);
        QVERIFY(std::abs(n->idle_mean_w - withSamples->idle_mean_w) < 1e-9);
    }

    void fromWindowsWhereBracketTimesAreMissing()
    {
        // A record with samples and windows but no bracket times: idle is what lies between
        // the windows (settling intervals included), still white noise of the same sd.
        Record r = simulateRun(spec());
        for (Round& x : r.rounds)
            x.brackets.reset();
        const auto n = recordNoise(r);
        QVERIFY(n.ok());
        QCOMPARE(QString::fromStdString(n->source), QStringLiteral("samples"));
        QCOMPARE(n->brackets, 11);
        QVERIFY(n->intervals > 11 * 29);
        QVERIFY(std::abs(n->idle_sd_w / 0.2 - 1.0) < 0.16);
    }

    void idleOnlyRecord()
    {
        SimRunSpec s = spec();
        s.rounds = 0;
        s.idle_s = 20.0;
        const auto n = recordNoise(simulateRun(s));
        QVERIFY(n.ok());
        QCOMPARE(n->brackets, 1);
        QVERIFY(!n->marginal_w && !n->busy_s_per_k);
        QCOMPARE(n->rounds_with_marginal, 0);
    }

    void errorsNameWhatIsMissing()
    {
        Record empty;
        auto n = recordNoise(empty);
        QVERIFY(!n.ok());
        QVERIFY(n.error().find("no whole-device counter") != std::string::npos);
        n = recordNoise(simulateRun(spec()), "rapl");
        QVERIFY(!n.ok());
        QVERIFY2(n.error().find("'rapl'") != std::string::npos && n.error().find("sim") != std::string::npos,
                 n.error().c_str());
    }

    void liveBrackets()
    {
        // Two brackets measured now, as the noise page hands them over: the same pooled
        // figures as from a record (sqrt((2 * 1 + 1 * 8) / 3), as pooledSdByHand), and a
        // one-interval bracket left out.
        const std::vector<Interval> a{{0, 1, 1}, {1, 2, 2}, {2, 3, 3}};
        const std::vector<Interval> b{{10, 11, 10}, {11, 12, 14}};
        const std::vector<Interval> c{{20, 21, 5}};
        const RecordNoise n = liveNoise({a, b, c}, "rapl", 0.1);
        QCOMPARE(QString::fromStdString(n.source), QStringLiteral("live"));
        QCOMPARE(n.brackets, 2);
        QCOMPARE(n.intervals, 5);
        QVERIFY(std::abs(n.idle_sd_w - std::sqrt(10.0 / 3.0)) < 1e-12);
        QCOMPARE(n.idle_power_w[0], (std::vector<double>{1.0, 2.0, 3.0}));
        QVERIFY(!n.marginal_w);
        QCOMPARE(powersOf(b), (std::vector<double>{10.0, 14.0}));
        const RecordNoise none = liveNoise({}, "rapl", 0.1);
        QCOMPARE(none.brackets, 0);
        QCOMPARE(none.idle_sd_w, 0.0);
    }

    void planInputs()
    {
        const Record r = simulateRun(spec());
        const auto n = recordNoise(r);
        const PlanInputs in = planInputsFrom(*n, r);
        QCOMPARE(in.idle_sd_w, n->idle_sd_w);
        QCOMPARE(in.marginal_w, *n->marginal_w);
        QCOMPARE(in.busy_s_per_k, *n->busy_s_per_k);
        QCOMPARE(in.period_s, 0.1);
        QVERIFY(!in.allan.empty());
        QCOMPARE(in.allan.front().m, 1);
        // The simulated workload does not vary: what little spread is left over is noise in
        // the spread's own estimate from 10 rounds.
        QVERIFY2(in.extra_rel_sd < 0.05, qPrintable(QString::number(in.extra_rel_sd)));
    }
};

QTEST_GUILESS_MAIN(TestRecordNoise)
#include "tst_recordnoise.moc"
