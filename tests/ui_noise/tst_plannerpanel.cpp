// The Noise lab's planner panel on a record's noise: for a coarse counter (one that changes in
// fewer sampling intervals than it is read) it recommends what `joulebench-cli plan` does
// (jb::cadencePlan: a sampling period at the counter's cadence, longer rounds) in core's words,
// instead of planning from the counter's quantisation; for a fine counter and for live noise it
// plans from the noise (jb::planRun).
#include "../ui_inspector/MakeRecord.h"
#include "noise/PlannerPanel.h"
#include <jb/noise/CadencePlan.h>
#include <jb/noise/RecordNoise.h>

#include <QPushButton>
#include <QtTest>

#include <memory>

using namespace jb;

namespace {

Record madeRecord(std::int64_t cadence_ns)
{
    jbtest::RunShape s;
    s.period_ns = 100'000'000;
    s.cadence_ns = cadence_ns;
    s.rounds = 4;
    s.idle_s = 2.0;
    s.busy_s = 0.8;
    return jbtest::makeRecord(s);
}

struct Shown {
    RecordNoise noise;
    PlanInputs in;
};

// What the Noise lab hands the panel for a record's counter.
Shown show(PlannerPanel& p, const Record& r, const std::string& spec)
{
    auto n = recordNoise(r, spec);
    if (!n)
        qFatal("%s", n.error().c_str());
    Shown s{*n, planInputsFrom(*n, r)};
    p.setRecordNoise(s.in, QStringLiteral("record"), std::make_shared<const Record>(r), spec);
    if (s.noise.marginal_w)
        p.setMarginalW(*s.noise.marginal_w);
    if (s.noise.busy_s_per_k)
        p.setBusySPerK(*s.noise.busy_s_per_k);
    p.replan();
    return s;
}

}  // namespace

class TestPlannerPanel : public QObject {
    Q_OBJECT
private slots:
    void coarseCounterGetsTheCliPlan()
    {
        const Record r = madeRecord(400'000'000);  // changes every 400 ms, read every 100 ms
        PlannerPanel panel;
        panel.setApplicable(true);
        const Shown s = show(panel, r, "rapl");
        QVERIFY(s.noise.busy_s_per_k);
        QVERIFY(panel.coarsePlan().has_value());
        QVERIFY(panel.outcome().has_value());
        const PlanOutcome& o = *panel.outcome();
        QVERIFY(!o.reachable);
        // At the counter's cadence (never faster), with ten updates in every window and bracket.
        QVERIFY(o.suggested_sample_s);
        QCOMPARE(*o.suggested_sample_s, 0.4);
        QVERIFY2(o.busy_s >= 4.0 - 1e-9, qPrintable(panel.resultText()));
        QVERIFY2(o.idle_s >= 4.0 - 1e-9, qPrintable(panel.resultText()));
        QCOMPARE(o.busy_s, o.k * *s.noise.busy_s_per_k);
        QVERIFY(o.rounds >= 6);
        // The same figures and words as the CLI's plan (which calls cadencePlan with the
        // record's busy per k and the planner's minimums).
        const auto cli = cadencePlan(r, "rapl", *s.noise.busy_s_per_k, s.in.min_idle_intervals, s.in.min_rounds);
        QVERIFY(cli);
        QCOMPARE(o.k, cli->k);
        QCOMPARE(o.busy_s, cli->busy_s);
        QCOMPARE(o.idle_s, cli->idle_s);
        QCOMPARE(o.rounds, cli->rounds);
        QCOMPARE(panel.resultText(), QString::fromStdString(cli->settings));
        QCOMPARE(panel.detailText(), QString::fromStdString(cli->text()));
        QVERIFY(panel.detailText().startsWith(QStringLiteral("Coarse counter (rapl):")));
        QVERIFY(panel.detailText().contains(QStringLiteral("not the machine's noise")));
        // Not the noise planner's words, and nothing to apply to the run.
        QVERIFY(panel.resultText() != QStringLiteral("Unreachable"));
        QVERIFY(!panel.detailText().contains(QStringLiteral("More rounds or a longer busy window do not change that")));
        QVERIFY(!panel.applyButton()->isEnabled());
    }

    void busyPerKChangesTheRounds()
    {
        const Record r = madeRecord(400'000'000);
        PlannerPanel panel;
        show(panel, r, "rapl");
        QVERIFY(panel.coarsePlan());
        panel.setBusySPerK(2.5);
        panel.replan();
        QVERIFY(panel.coarsePlan());
        // Ten updates of 400 ms: 4 s, in whole passes of 2.5 s.
        QCOMPARE(panel.outcome()->k, 2);
        QCOMPARE(panel.outcome()->busy_s, 5.0);
        QVERIFY(panel.resultText().contains(QStringLiteral("k 2 (busy 5 s)")));
    }

    void fineCounterIsPlannedFromItsNoise()
    {
        const Record r = madeRecord(1'000'000);  // changes every 1 ms, as RAPL
        PlannerPanel panel;
        show(panel, r, "rapl");
        QVERIFY(!panel.coarsePlan().has_value());
        QVERIFY(panel.outcome().has_value());
        const PlanOutcome expected = planRun(panel.inputs());
        QCOMPARE(panel.outcome()->reachable, expected.reachable);
        QCOMPARE(panel.outcome()->k, expected.k);
        QCOMPARE(panel.outcome()->idle_s, expected.idle_s);
        QVERIFY(!panel.detailText().contains(QStringLiteral("Coarse counter")));
    }

    void liveNoiseForgetsTheRecord()
    {
        const Record r = madeRecord(400'000'000);
        PlannerPanel panel;
        const Shown s = show(panel, r, "rapl");
        QVERIFY(panel.coarsePlan());
        panel.setNoise(s.in, QStringLiteral("measured now"));
        panel.replan();
        QVERIFY(!panel.coarsePlan().has_value());
        QVERIFY(!panel.detailText().contains(QStringLiteral("Coarse counter")));
        // Clearing the noise forgets the record too.
        show(panel, r, "rapl");
        QVERIFY(panel.coarsePlan());
        panel.clearNoise(QStringLiteral("gone"));
        QVERIFY(!panel.coarsePlan().has_value());
        QCOMPARE(panel.resultText(), QStringLiteral("No plan yet"));
    }
};

QTEST_MAIN(TestPlannerPanel)
#include "tst_plannerpanel.moc"
