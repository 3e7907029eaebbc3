// What the Noise lab shows, without widgets: the run's state fed by the live generator's
// phases and rounds (live idle noise since the last change, kept rounds, numbering), a
// record's counter, and the words the page puts in front of the room.
#include "common/Format.h"
#include "noise/LiveSim.h"
#include "noise/NoiseLabText.h"
#include "noise/NoiseRun.h"
#include "noise/SimRun.h"
#include "sampling/SampleStore.h"
#include "stats/Statistics.h"

#include <QtTest>

#include <cmath>

using jb::NoiseLabText;
using jb::NoiseRun;

namespace {

// A live run as the page sees it: the generator's intervals into a store, its phases and
// rounds into the NoiseRun.
struct Feed {
    jb::LiveSim sim;
    std::shared_ptr<jb::SampleStore> store = std::make_shared<jb::SampleStore>();
    NoiseRun run;
    explicit Feed(const jb::LiveSimSettings& s, std::uint64_t seed = 1) : sim(s, seed)
    {
        run.beginLive(sim.originNs(), store, "sim", s.period_s);
    }
    void advance(double seconds)
    {
        const auto step = sim.advance(std::llround(seconds * 1e9));
        store->appendBatch(step.intervals);
        for (const auto& e : step.phases)
            run.apply(e);
        for (const auto& [i, r] : step.rounds)
            run.addRound(i, r);
    }
    void untilRounds(std::size_t n)
    {
        while (sim.rounds().size() < n)
            advance(0.25);
    }
};

jb::LiveSimSettings settings()
{
    jb::LiveSimSettings s;
    s.idle_s = 2.0;
    return s;
}

}  // namespace

class TestNoiseRun : public QObject {
    Q_OBJECT
private slots:
    void liveNoiseFromTheBrackets();
    void liveNoiseSinceAChange();
    void roundsKeptAndNumbered();
    void recordCounter();
    void words();
    void expectationFollowsTheModel();
};

void TestNoiseRun::liveNoiseFromTheBrackets()
{
    Feed f(settings());
    QVERIFY(!f.run.liveNoise(20));  // nothing measured yet
    f.untilRounds(3);
    const auto n = f.run.liveNoise(20);
    QVERIFY(n);
    // Round 2's figures come when round 3's window opens: brackets 0..3 are done, none open.
    QCOMPARE(int(f.run.idleSpans().size()), 4);
    QVERIFY(f.run.idleSpans().back().t1_ns);
    QCOMPARE(n->brackets, 4);
    QCOMPARE(n->spec, std::string("sim"));
    QCOMPARE(n->source, std::string("live"));
    // The same figures jb::liveNoise gives over the generator's own brackets.
    std::vector<std::span<const jb::Interval>> spans;
    const std::span<const jb::Interval> all(f.sim.intervals());
    for (int j = 0; j <= 3; ++j) {
        const auto b = f.sim.idleBracket(j);
        const auto r = jb::between(all, b[0], b[1]);
        spans.push_back(all.subspan(r.begin, r.size()));
    }
    const auto direct = jb::liveNoise(spans, "sim", 0.1);
    QCOMPARE(n->intervals, direct.intervals);
    QCOMPARE(n->idle_sd_w, direct.idle_sd_w);
    QCOMPARE(n->idle_mean_w, direct.idle_mean_w);
    // Only the newest brackets when asked for fewer.
    QCOMPARE(f.run.liveNoise(2)->brackets, 2);
}

void TestNoiseRun::liveNoiseSinceAChange()
{
    Feed f(settings());
    f.untilRounds(2);
    f.sim.setPower(20.0, 2.0, 15.0);  // noise sd 0.15 -> 2 W
    f.run.setNoiseSince(f.sim.nowNs());
    f.untilRounds(5);
    const auto n = f.run.liveNoise(20);
    QVERIFY(n);
    // Only intervals after the change: sd about 2 W (standard error ~0.15 W over ~60 values).
    QVERIFY2(std::abs(n->idle_sd_w - 2.0) < 0.6, qPrintable(QString::number(n->idle_sd_w)));
}

void TestNoiseRun::roundsKeptAndNumbered()
{
    NoiseRun run;
    run.beginLive(0, std::make_shared<jb::SampleStore>(), "sim", 0.1);
    for (int i = 0; i < int(NoiseRun::kKeepRounds) + 10; ++i) {
        jb::Round r;
        r.window_ns = 1'000'000'000 + i;
        jb::CounterRound c;
        jb::Bracket b;
        b.intervals = 10;
        b.mean_w = 20.0;
        b.sd_w = 0.1;
        c.idle_before = b;
        c.idle_after = b;
        b.mean_w = 20.0 + i % 3;
        c.busy = b;
        c.ratio = (i % 3) / 0.1;
        c.verdict = jb::verdict(c.ratio);
        r.counters.emplace_back("sim", c);
        run.addRound(i, r);
    }
    QCOMPARE(run.rounds().size(), NoiseRun::kKeepRounds);
    QCOMPARE(run.roundNumber(0), 11);  // the first ten were dropped
    const auto pts = run.roundPoints(30);
    QCOMPARE(int(pts.size()), 30);
    QCOMPARE(pts.back().round, int(NoiseRun::kKeepRounds) + 10);
    QCOMPARE(pts.back().marginal_w, double((NoiseRun::kKeepRounds + 9) % 3));
    const auto v = run.verdicts(3);
    QCOMPARE(int(v.size()), 3);
    QCOMPARE(v.back(), jb::verdict(double((NoiseRun::kKeepRounds + 9) % 3) / 0.1));  // newest last
    QVERIFY(std::abs(run.medianWindowS() - 1.0) < 1e-6);
    QCOMPARE(*run.medianMarginalW(3), 1.0);  // marginals 0, 1, 2 in some order
}

void TestNoiseRun::recordCounter()
{
    jb::SimRunSpec spec;
    spec.rounds = 3;
    const jb::Record r = jb::simulateRun(spec);
    NoiseRun run;
    run.showRecord(r, "sim", 0.1);
    QVERIFY(run.store());
    QCOMPARE(run.store()->size(), r.samples.front().second.size());
    QVERIFY(run.originNs() <= r.samples.front().second.front().t0_ns);
    QCOMPARE(run.rounds().size(), std::size_t(3));
    QCOMPARE(run.roundPoints(30).front().round, 1);
    QVERIFY(!run.shades().empty());
    QCOMPARE(int(run.bands(r.samples.front().second.back().t1_ns).size()), 4);

    jb::Record bare = r;
    bare.samples.clear();
    run.showRecord(bare, "sim", 0.1);
    QVERIFY(!run.store());
    QCOMPARE(run.originNs(), (*r.rounds.front().brackets)[0][0]);
    QCOMPARE(int(run.roundPoints(30).size()), 3);
}

void TestNoiseRun::words()
{
    QCOMPARE(NoiseLabText::verdictCounts(
                 {std::string("noisy"), std::nullopt, std::string("clean"), std::string("clean")}),
             QStringLiteral("2 clean · 1 noisy · 1 no verdict"));
    QCOMPARE(NoiseLabText::verdictCounts({}), QString());

    jb::PhaseEvent idle{jb::PhaseEvent::IdleStarted, 2, 1'000'000'000};
    QCOMPARE(NoiseLabText::phase(idle, 4'100'000'000, 5.0), QStringLiteral("idle bracket  3.1 / 5.00 s"));
    QCOMPARE(NoiseLabText::phase(idle, 9'000'000'000, 5.0), QStringLiteral("idle bracket  5.0 / 5.00 s"));
    jb::PhaseEvent busy{jb::PhaseEvent::BusyStarted, 6, 1'000'000'000};
    QCOMPARE(NoiseLabText::phase(busy, 1'400'000'000, 5.0), QStringLiteral("busy: round 7  0.4 s"));

    const auto floors = NoiseLabText::floors(0.15);
    QCOMPARE(int(floors.size()), 3);
    QCOMPARE(floors[0].verdict, std::string("clean"));
    QCOMPARE(floors[0].w, 1.5);
    QCOMPARE(floors[1].w, 3 * 0.15);
    QCOMPARE(floors[2].w, 0.15);
    QVERIFY(NoiseLabText::floors(0.0).empty());

    // A round's banner: the ratio divides by the larger bracket sd.
    jb::SimRunSpec spec;
    spec.rounds = 1;
    const jb::Record r = jb::simulateRun(spec);
    const jb::CounterRound& c = *r.rounds.front().counter("sim");
    const auto b = NoiseLabText::roundBanner(r.rounds.front(), "sim", 12, {std::string("clean")});
    QCOMPARE(b.verdict, c.verdict);
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

void TestNoiseRun::expectationFollowsTheModel()
{
    jb::LiveSimSettings s;  // 15 W over 0.15 W: a ratio of 100
    QVERIFY(NoiseLabText::expectation(s).startsWith(
        QStringLiteral("Expected at these settings: clean in 100% of rounds")));
    s.signal_w = 0.0;
    QVERIFY(NoiseLabText::expectation(s).contains(QStringLiteral("clean in 0%")));
    s.noise_sd_w = 0.0;
    QVERIFY(NoiseLabText::expectation(s).isEmpty());
}

QTEST_GUILESS_MAIN(TestNoiseRun)
#include "tst_noiserun.moc"
