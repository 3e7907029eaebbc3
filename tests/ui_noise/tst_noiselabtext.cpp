// The words the Noise lab puts in front of the room: verdict counts, the phase the run is in,
// the verdict floors, a round's banner and what the model expects at the sliders' settings.
#include "common/Format.h"
#include "noise/NoiseLabText.h"
#include <jb/noise/LiveSim.h>
#include <jb/noise/SimRun.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using jb::NoiseLabText;

class TestNoiseLabText : public QObject {
    Q_OBJECT
private slots:
    void words();
    void expectationFollowsTheModel();
};

void TestNoiseLabText::words()
{
    QCOMPARE(NoiseLabText::verdictCounts(
                 {jb::Verdict::Noisy, std::nullopt, jb::Verdict::Clean, jb::Verdict::Clean}),
             QStringLiteral("2 clean · 1 noisy · 1 no verdict"));
    QCOMPARE(NoiseLabText::verdictCounts({}), QString());

    jb::PhaseEvent idle{jb::PhaseEvent::IdleStarted, 2, 1'000'000'000};
    QCOMPARE(NoiseLabText::phase(idle, 4'100'000'000, 5.0), QStringLiteral("idle bracket  3.1 / 5.00 s"));
    QCOMPARE(NoiseLabText::phase(idle, 9'000'000'000, 5.0), QStringLiteral("idle bracket  5.0 / 5.00 s"));
    jb::PhaseEvent busy{jb::PhaseEvent::BusyStarted, 6, 1'000'000'000};
    QCOMPARE(NoiseLabText::phase(busy, 1'400'000'000, 5.0), QStringLiteral("busy: round 7  0.4 s"));

    const auto floors = NoiseLabText::floors(0.15);
    QCOMPARE(int(floors.size()), 3);
    QVERIFY(floors[0].verdict == jb::Verdict::Clean);
    QCOMPARE(floors[0].w, 1.5);
    QCOMPARE(floors[1].w, 3 * 0.15);
    QCOMPARE(floors[2].w, 0.15);
    QVERIFY(NoiseLabText::floors(0.0).empty());

    // A round's banner: the ratio divides by the larger bracket sd.
    jb::SimRunSpec spec;
    spec.rounds = 1;
    const jb::Record r = jb::simulateRun(spec);
    const jb::CounterRound& c = *r.rounds.front().counter("sim");
    const auto b = NoiseLabText::roundBanner(r.rounds.front(), "sim", 12, {jb::Verdict::Clean});
    QVERIFY(b.verdict == c.verdict);
    QCOMPARE(b.ratio, c.ratio);
    QCOMPARE(b.caption, QStringLiteral("round 12"));
    const double sd = std::max(c.idle_before->sd_w, c.idle_after->sd_w);
    QVERIFY2(b.figures.contains(QStringLiteral("idle sd ") + jb::fmt::significant(sd, 3)),
             qPrintable(b.figures));
    QCOMPARE(b.detail, QStringLiteral("Last 1 rounds: 1 clean"));
    const auto none = NoiseLabText::roundBanner(r.rounds.front(), "rapl", 1, {});
    QVERIFY(!none.verdict);
    QVERIFY(none.figures.contains(QStringLiteral("no figures for rapl")));
}

void TestNoiseLabText::expectationFollowsTheModel()
{
    jb::LiveSimSettings s;  // 15 W over 0.15 W: a ratio of 100
    QVERIFY(NoiseLabText::expectation(s).startsWith(
        QStringLiteral("Expected at these settings: clean in 100% of rounds")));
    s.signal_w = 0.0;
    QVERIFY(NoiseLabText::expectation(s).contains(QStringLiteral("clean in 0%")));
    s.noise_sd_w = 0.0;
    QVERIFY(NoiseLabText::expectation(s).isEmpty());
}

QTEST_GUILESS_MAIN(TestNoiseLabText)
#include "tst_noiselabtext.moc"
