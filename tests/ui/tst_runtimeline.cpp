// Phases to shading: live phase events and a record's brackets and windows give the same
// spans; busy windows take their round's verdict colour; idle bands come from the rounds'
// figures, or from the samples while a bracket lasts.
#include "common/Palette.h"
#include "common/RunShading.h"

#include <QtTest>

using jb::PhaseEvent;
using RunTimeline = jb::RunState;
using TimelineSpan = jb::RunSpan;

namespace {

constexpr std::int64_t s = 1'000'000'000;

jb::Bracket br(double mean, double sd)
{
    jb::Bracket b;
    b.intervals = 5;
    b.mean_w = mean;
    b.sd_w = sd;
    return b;
}

jb::Round roundWith(std::optional<jb::Verdict> verdict, double before_w, double after_w)
{
    jb::Round r;
    jb::CounterRound c;
    c.idle_before = br(before_w, 0.1);
    c.idle_after = br(after_w, 0.2);
    c.busy = br(35, 0.3);
    c.has_marginal = true;
    c.ratio = 42.0;
    c.verdict = std::move(verdict);
    r.counters.emplace_back("sim", c);
    return r;
}

// idle [0,1] busy [1,2] idle [2,3] busy [3,4] idle [4,5], starting at t0.
std::vector<PhaseEvent> twoRounds(std::int64_t t0)
{
    return {{PhaseEvent::IdleStarted, -1, t0},        {PhaseEvent::IdleEnded, -1, t0 + 1 * s},
            {PhaseEvent::BusyStarted, 0, t0 + 1 * s}, {PhaseEvent::BusyEnded, 0, t0 + 2 * s},
            {PhaseEvent::IdleStarted, 0, t0 + 2 * s}, {PhaseEvent::IdleEnded, 0, t0 + 3 * s},
            {PhaseEvent::BusyStarted, 1, t0 + 3 * s}, {PhaseEvent::BusyEnded, 1, t0 + 4 * s},
            {PhaseEvent::IdleStarted, 1, t0 + 4 * s}, {PhaseEvent::IdleEnded, 1, t0 + 5 * s}};
}

}  // namespace

class TestRunTimeline : public QObject {
    Q_OBJECT
private slots:
    void livePhasesBecomeShades();
    void recordGivesTheSameSpans();
    void bandsFromRoundsOrSamples();
};

void TestRunTimeline::livePhasesBecomeShades()
{
    const std::int64_t t0 = 1000 * s;
    RunTimeline t;
    const auto events = twoRounds(t0);
    for (int i = 0; i < 3; ++i)  // idle, then round 1 busy and still going
        t.apply(events[std::size_t(i)]);
    auto shades = jb::chartShades(t, "sim", t0);
    QCOMPARE(shades.size(), std::size_t(2));
    QCOMPARE(shades[0].kind, jb::ChartShade::Idle);
    QCOMPARE(shades[0].t0_s, 0.0);
    QCOMPARE(shades[0].t1_s, std::optional<double>(1.0));
    QCOMPARE(shades[1].kind, jb::ChartShade::Busy);
    QVERIFY(!shades[1].t1_s);  // open: reaches the newest sample
    const QColor pending = shades[1].color;
    QVERIFY(!shades[1].baseline_w);

    for (std::size_t i = 3; i < events.size(); ++i)
        t.apply(events[i]);
    t.setRound(0, roundWith(jb::Verdict::Clean, 20.0, 20.4));
    shades = jb::chartShades(t, "sim", t0);
    QCOMPARE(shades.size(), std::size_t(5));
    QColor clean = jb::verdictStyle(jb::Verdict::Clean).background;
    QCOMPARE(shades[1].color.rgb(), clean.rgb());  // coloured by its verdict once the round ends
    QVERIFY(shades[1].label.contains(QStringLiteral("clean")));
    QCOMPARE(shades[1].baseline_w, std::optional<double>(20.2));  // the idle line under the window
    QCOMPARE(shades[3].color, pending);                           // round 2 not finished yet
    QCOMPARE(shades[4].label, QStringLiteral("idle after round 2"));
    // Another counter has no figures for round 1: its busy window stays neutral.
    QCOMPARE(jb::chartShades(t, "rapl", t0)[1].color, pending);
}

void TestRunTimeline::recordGivesTheSameSpans()
{
    const std::int64_t t0 = 50 * s;
    RunTimeline live;
    for (const PhaseEvent& e : twoRounds(t0))
        live.apply(e);
    jb::Record rec;
    for (int i = 0; i < 2; ++i) {
        jb::Round r = roundWith(jb::Verdict::Noisy, 20, 20);
        const std::int64_t b = t0 + 2 * i * s;
        r.brackets = std::array<std::array<std::int64_t, 2>, 2>{{{b, b + s}, {b + 2 * s, b + 3 * s}}};
        r.window = std::array<std::int64_t, 2>{b + s, b + 2 * s};
        rec.rounds.push_back(r);
    }
    const RunTimeline fromRecord = RunTimeline::fromRecord(rec);
    QCOMPARE(fromRecord.spans().size(), live.spans().size());  // the shared bracket appears once
    for (std::size_t i = 0; i < live.spans().size(); ++i) {
        const TimelineSpan& a = live.spans()[i];
        const TimelineSpan& b = fromRecord.spans()[i];
        QCOMPARE(b.kind, a.kind);
        QCOMPARE(b.round, a.round);
        QCOMPARE(b.t0_ns, a.t0_ns);
        QCOMPARE(b.t1_ns, a.t1_ns);
    }
    QCOMPARE(fromRecord.firstNs(), std::optional<std::int64_t>(t0));
    // A reference record has neither brackets nor windows: nothing to shade.
    jb::Record ref;
    ref.rounds.push_back(roundWith(jb::Verdict::Clean, 20, 20));
    QVERIFY(RunTimeline::fromRecord(ref).spans().empty());
}

void TestRunTimeline::bandsFromRoundsOrSamples()
{
    const std::int64_t t0 = 7 * s;
    RunTimeline t;
    const auto events = twoRounds(t0);
    for (std::size_t i = 0; i < 5; ++i)  // the second idle bracket has begun
        t.apply(events[i]);
    std::vector<std::pair<std::int64_t, std::int64_t>> asked;
    auto compute = [&](std::int64_t a, std::int64_t b) -> std::optional<jb::Bracket> {
        asked.emplace_back(a, b);
        return br(19.0, 0.5);
    };
    auto bands = jb::chartBands(t, "sim", t0, t0 + 2 * s + s / 2, compute);
    QCOMPARE(bands.size(), std::size_t(2));
    QCOMPARE(asked.size(), std::size_t(2));  // no round done: both from the samples
    QCOMPARE(asked[1].second, std::numeric_limits<std::int64_t>::max());  // open bracket
    QCOMPARE(bands[1].t1_s, 2.5);                                         // reaches the newest sample
    t.setRound(0, roundWith(jb::Verdict::Clean, 20.0, 20.4));
    asked.clear();
    bands = jb::chartBands(t, "sim", t0, t0 + 3 * s, compute);
    QVERIFY(asked.empty());  // both brackets belong to round 1 now
    QCOMPARE(bands[0].mean_w, 20.0);
    QCOMPARE(bands[0].sd_w, 0.1);
    QCOMPARE(bands[1].mean_w, 20.4);
    QCOMPARE(bands[1].sd_w, 0.2);
    QVERIFY(jb::chartBands(t, "sim", t0, t0, nullptr).size() == 2);
    QVERIFY(jb::chartBands(t, "rapl", t0, t0, nullptr).empty());  // nothing known, nothing to compute
}

QTEST_GUILESS_MAIN(TestRunTimeline)
#include "tst_runtimeline.moc"
