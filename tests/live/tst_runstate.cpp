// A run as values: the state fed by the live generator's phases and rounds (live idle noise
// since the last change, kept rounds, numbering), a record's counter, and a scripted event
// list folded into spans, rounds, bands and the phase the run is in.
#include <jb/live/RunState.h>
#include <jb/noise/LiveSim.h>
#include <jb/noise/SimRun.h>
#include <jb/sampling/SampleStore.h>
#include <jb/stats/Statistics.h>

#include <QtTest>

#include <cmath>

using NoiseRun = jb::RunState;

namespace {

// A live run as the page sees it: the generator's intervals into a store, its phases and
// rounds into the RunState.
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

class TestRunState : public QObject {
    Q_OBJECT
private slots:
    void liveNoiseFromTheBrackets();
    void liveNoiseSinceAChange();
    void roundsKeptAndNumbered();
    void recordCounter();
    void scriptedEventsFold();
    void marksFoldIntoPhaseSpans();
};

void TestRunState::liveNoiseFromTheBrackets()
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

void TestRunState::liveNoiseSinceAChange()
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

void TestRunState::roundsKeptAndNumbered()
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

void TestRunState::recordCounter()
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
    QVERIFY(!run.spans().empty());
    QCOMPARE(int(run.idleBands(r.samples.front().second.back().t1_ns).size()), 4);

    jb::Record bare = r;
    bare.samples.clear();
    run.showRecord(bare, "sim", 0.1);
    QVERIFY(!run.store());
    QCOMPARE(run.originNs(), (*r.rounds.front().brackets)[0][0]);
    QCOMPARE(int(run.roundPoints(30).size()), 3);
}

void TestRunState::scriptedEventsFold()
{
    // idle [0,1] s, busy round 0 [1,2], idle [2,3], round 0's figures, busy round 1 from 3 s on;
    // 100 ms intervals at 19.9/20.1 W while idle and 35 W while busy.
    constexpr std::int64_t s = 1'000'000'000, t0 = 100 * s;
    auto store = std::make_shared<jb::SampleStore>();
    for (int i = 0; i < 35; ++i) {
        const std::int64_t a = t0 + i * s / 10, b = a + s / 10;
        const bool busy = (a >= t0 + s && a < t0 + 2 * s) || a >= t0 + 3 * s;
        const double w = busy ? 35.0 : (i % 2 ? 20.1 : 19.9);
        store->append({a, b, std::llround(w * 1e8)});
    }
    NoiseRun run;
    run.beginLive(t0, store, "sim", 0.1);
    QVERIFY(!run.lastPhase());
    using E = jb::PhaseEvent;
    const std::vector<E> events = {{E::IdleStarted, -1, t0},        {E::IdleEnded, -1, t0 + s},
                                   {E::BusyStarted, 0, t0 + s},     {E::BusyEnded, 0, t0 + 2 * s},
                                   {E::IdleStarted, 0, t0 + 2 * s}, {E::IdleEnded, 0, t0 + 3 * s},
                                   {E::BusyStarted, 1, t0 + 3 * s}};
    for (const E& e : events)
        run.apply(e);

    // Spans in time order, the last one open; the idle spans for the noise.
    QCOMPARE(int(run.spans().size()), 4);
    QCOMPARE(int(run.spans()[1].kind), int(jb::RunSpan::Busy));
    QCOMPARE(run.spans()[1].round, 0);
    QCOMPARE(run.spans()[2].round, 0);  // the bracket after round 0
    QCOMPARE(run.spans()[2].t1_ns, std::optional<std::int64_t>(t0 + 3 * s));
    QVERIFY(!run.spans()[3].t1_ns);
    QCOMPARE(run.firstNs(), std::optional<std::int64_t>(t0));
    QCOMPARE(int(run.idleSpans().size()), 2);
    QCOMPARE(run.lastPhase()->kind, E::BusyStarted);
    QCOMPARE(run.lastPhase()->round, 1);

    // Before round 0's figures, the bands come from the samples (both brackets closed).
    int computed = 0;
    auto bands = run.idleBands("sim", t0 + 35 * s / 10, [&](std::int64_t, std::int64_t) {
        ++computed;
        return std::optional<jb::Bracket>(jb::Bracket{});
    });
    QCOMPARE(int(bands.size()), 2);
    QCOMPARE(computed, 2);
    bands = run.idleBands(t0 + 35 * s / 10);  // over the run's own store
    QCOMPARE(int(bands.size()), 2);
    QVERIFY(std::abs(bands[0].mean_w - 20.0) < 1e-6);
    QCOMPARE(bands[1].t0_ns, t0 + 2 * s);
    QCOMPARE(bands[1].t1_ns, t0 + 3 * s);

    // The live noise: both brackets, 20 intervals, mean 20 W, sd about 0.1 W.
    const auto n = run.liveNoise(20);
    QVERIFY(n);
    QCOMPARE(n->brackets, 2);
    QCOMPARE(n->intervals, 20);
    QVERIFY(std::abs(n->idle_mean_w - 20.0) < 1e-6);
    QVERIFY2(std::abs(n->idle_sd_w - 0.1) < 0.01, qPrintable(QString::number(n->idle_sd_w)));
    // A change after both brackets: nothing measured since.
    run.setNoiseSince(t0 + 3 * s);
    QVERIFY(!run.liveNoise(20));

    // Round 0 done: its figures replace the samples' for its brackets.
    jb::Round r;
    r.window_ns = s;
    jb::CounterRound c;
    auto br = [](double mean, double sd) {
        jb::Bracket b;
        b.intervals = 10;
        b.mean_w = mean;
        b.sd_w = sd;
        return b;
    };
    c.idle_before = br(19.5, 0.25);
    c.idle_after = br(20.5, 0.5);
    c.busy = br(35.0, 0.1);
    c.ratio = 30.0;
    c.verdict = jb::verdict(c.ratio);
    r.counters.emplace_back("sim", c);
    run.addRound(0, r);
    computed = 0;
    bands = run.idleBands("sim", t0 + 35 * s / 10, [&](std::int64_t, std::int64_t) {
        ++computed;
        return std::optional<jb::Bracket>();
    });
    QCOMPARE(computed, 0);
    QCOMPARE(bands[0].mean_w, 19.5);
    QCOMPARE(bands[1].sd_w, 0.5);
    QVERIFY(run.roundAt(0));
    QVERIFY(!run.roundAt(1));
    QCOMPARE(run.rounds().size(), std::size_t(1));
    QCOMPARE(run.roundNumber(0), 1);
    QVERIFY(run.verdicts(10) == (std::vector<std::optional<jb::Verdict>>{c.verdict}));
    QCOMPARE(run.medianWindowS(), 1.0);
    QVERIFY(run.medianMarginalW(5));
    const auto pts = run.roundPoints(30);
    QCOMPARE(int(pts.size()), 1);
    QCOMPARE(pts[0].round, 1);
    QCOMPARE(pts[0].verdict, c.verdict);
    // setRound (a record's final figures) changes the spans' figures, not the kept rounds.
    run.setRound(1, r);
    QVERIFY(run.roundAt(1));
    QCOMPARE(run.rounds().size(), std::size_t(1));
}

// The child's marks (RunSource::phaseMarked): each opens a span and closes the open one, `mark -`
// closes without opening, the busy window's end closes the last; the round's recorded marks
// replace the live ones; a record's marks come back from fromRecord.
void TestRunState::marksFoldIntoPhaseSpans()
{
    using namespace jb;
    RunState run;
    run.apply({PhaseEvent::BusyStarted, 0, 1000});
    run.applyMark(0, "parse", 1100);
    QCOMPARE(run.phaseSpans().size(), std::size_t(1));
    QVERIFY(!run.phaseSpans()[0].t1_ns);
    run.applyMark(0, "infer", 1300);
    run.applyMark(0, "", 1500);  // mark -
    run.applyMark(0, "parse", 1600);
    run.apply({PhaseEvent::BusyEnded, 0, 1900});
    const auto& s = run.phaseSpans();
    QCOMPARE(s.size(), std::size_t(3));
    QCOMPARE(s[0].name, std::string("parse"));
    QCOMPARE(s[0].t1_ns, std::optional<std::int64_t>(1300));
    QCOMPARE(s[1].name, std::string("infer"));
    QCOMPARE(s[1].t1_ns, std::optional<std::int64_t>(1500));
    QCOMPARE(s[2].t0_ns, std::int64_t(1600));
    QCOMPARE(s[2].t1_ns, std::optional<std::int64_t>(1900));
    QCOMPARE(run.phaseNames(), (std::vector<std::string>{"parse", "infer"}));

    // The session's record of the round replaces the live spans of that round only.
    run.apply({PhaseEvent::BusyStarted, 1, 3000});
    run.applyMark(1, "parse", 3100);
    Round r0;
    r0.marks = {{"parse", 1101, 1301}, {"infer", 1301, 1899}};
    run.setRound(0, r0);
    QCOMPARE(run.phaseSpans().size(), std::size_t(3));
    QCOMPARE(run.phaseSpans()[0].t0_ns, std::int64_t(1101));
    QCOMPARE(run.phaseSpans()[1].t1_ns, std::optional<std::int64_t>(1899));
    QCOMPARE(run.phaseSpans()[2].round, 1);
    QVERIFY(!run.phaseSpans()[2].t1_ns);

    Record rec;
    rec.rounds = {r0, Round{}};
    const RunState fromRec = RunState::fromRecord(rec);
    QCOMPARE(fromRec.phaseSpans().size(), std::size_t(2));
    QCOMPARE(fromRec.phaseSpans()[1].name, std::string("infer"));
    QVERIFY(RunState::fromRecord(Record{}).phaseSpans().empty());
}

QTEST_GUILESS_MAIN(TestRunState)
#include "tst_runstate.moc"
