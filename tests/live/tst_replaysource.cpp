// A saved record replayed as a live run (tests/fixtures/records/joulebench-rapl.json: 3 rounds
// with brackets, windows and 67 RAPL samples): the phases and rounds come in a session's order
// at the record's times, each sample reaches the store once the clock passes its end, the
// speed scales the clock, and the end gives finished(record). A record without samples is
// refused with the reason.
#include <jb/live/ReplaySource.h>
#include <jb/record/RecordJson.h>
#include <jb/sampling/SampleStore.h>

#include <QSignalSpy>
#include <QtTest>

using jb::PhaseEvent;
using jb::ReplaySource;

namespace {

jb::Record fixture()
{
    auto r = jb::loadRecord(JB_FIXTURES "/records/joulebench-rapl.json");
    if (!r)
        qFatal("%s", r.error().c_str());
    return r.value();
}

// What the test saw, in arrival order: a phase (kind, round, t) or a round (-1 - index) with
// the replayed clock when it came.
struct Seen {
    int kind;  // PhaseEvent::Kind, or 100 for a round
    int round;
    std::int64_t t_ns;
};

}  // namespace

class TestReplaySource : public QObject {
    Q_OBJECT
private slots:
    void eventsInOrderAtTheirTimes();
    void samplesFollowTheClock();
    void refusesARecordWithoutSamples();
};

void TestReplaySource::eventsInOrderAtTheirTimes()
{
    ReplaySource src;
    QVERIFY(src.load(fixture()));
    QCOMPARE(src.spec(), std::string("rapl"));
    QCOMPARE(src.originNs(), std::int64_t(5'000'000'000));  // the first sample's start
    QCOMPARE(src.endNs(), std::int64_t(11'697'853'074));    // the last sample's end
    QCOMPARE(src.layout().period_s, 0.1);
    QCOMPARE(src.layout().k, 2);
    QCOMPARE(src.layout().rounds, 3);

    std::vector<Seen> seen;
    connect(&src, &jb::RunSource::phase, this, [&](const PhaseEvent& e) {
        QVERIFY(e.t_ns <= src.nowNs());  // never before the clock reached it
        seen.push_back({int(e.kind), e.round, e.t_ns});
    });
    connect(&src, &jb::RunSource::roundFinished, this,
            [&](int i, const jb::Round& r) {
                QCOMPARE(r.window_ns, src.record().rounds[std::size_t(i)].window_ns);
                seen.push_back({100, i, src.nowNs()});
            });
    QSignalSpy started(&src, &jb::RunSource::started);
    QSignalSpy finished(&src, &jb::RunSource::finished);
    src.start();
    src.stop();  // the test drives the clock: 10 ms steps
    QCOMPARE(started.count(), 1);
    QCOMPARE(started[0][0].toLongLong(), qint64(5'000'000'000));
    QCOMPARE(started[0][1].toStringList(), QStringList{QStringLiteral("rapl")});
    for (int i = 0; i < 2000 && !src.done(); ++i)
        src.tick(0.01);
    QVERIFY(src.done());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished[0][0].value<jb::Record>().rounds.size(), std::size_t(3));

    using E = PhaseEvent;
    // The record's brackets and windows; a round's figures two sample periods after its idle
    // bracket after, or when the next window opens where that comes first (as a session does).
    const std::vector<Seen> want = {
        {E::IdleStarted, -1, 5'003'000'000}, {E::IdleEnded, -1, 6'003'137'000}, {E::BusyStarted, 0, 6'007'348'000},
        {E::BusyEnded, 0, 6'808'334'424},    {E::IdleStarted, 0, 6'809'339'424}, {E::IdleEnded, 0, 7'810'295'083},
        {100, 0, 7'814'506'083},             {E::BusyStarted, 1, 7'814'506'083}, {E::BusyEnded, 1, 8'616'319'234},
        {E::IdleStarted, 1, 8'617'324'234},  {E::IdleEnded, 1, 9'617'596'980},  {100, 1, 9'621'807'980},
        {E::BusyStarted, 2, 9'621'807'980},  {E::BusyEnded, 2, 10'422'340'738}, {E::IdleStarted, 2, 10'423'345'738},
        {E::IdleEnded, 2, 11'423'484'159},   {100, 2, 11'623'484'159}};
    QCOMPARE(seen.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(seen[i].kind, want[i].kind);
        QCOMPARE(seen[i].round, want[i].round);
        if (want[i].kind == 100)  // a round comes on the first tick at or past its time
            QVERIFY2(seen[i].t_ns >= want[i].t_ns && seen[i].t_ns < want[i].t_ns + 10'000'000,
                     qPrintable(QString::number(seen[i].t_ns)));
        else
            QCOMPARE(seen[i].t_ns, want[i].t_ns);
    }
}

void TestReplaySource::samplesFollowTheClock()
{
    const jb::Record rec = fixture();
    ReplaySource src;
    QVERIFY(src.load(rec, "rapl"));
    src.setSpeed(2.0);
    src.setSpeed(0.0);  // refused
    QCOMPARE(src.speed(), 2.0);
    QSignalSpy advanced(&src, &jb::RunSource::advanced);
    src.start();
    src.stop();
    QVERIFY(src.stores().size() == 1 && src.storeOf("rapl"));
    QCOMPARE(src.storeOf("rapl")->size(), std::size_t(0));
    src.tick(0.25);  // 0.5 s replayed: 5.0 .. 5.5 s holds 4 whole samples (ends 5.10 .. 5.40)
    QCOMPARE(src.nowNs(), std::int64_t(5'500'000'000));
    QCOMPARE(advanced.count(), 1);
    const auto& all = *rec.samplesOf("rapl");
    std::size_t ended = 0;
    for (const auto& iv : all)
        ended += iv.t1_ns <= 5'500'000'000 ? 1 : 0;
    QVERIFY(ended >= 3);
    QCOMPARE(src.storeOf("rapl")->size(), ended);
    QCOMPARE(src.storeOf("rapl")->slice(0, 1).front(), all.front());
    src.tick(100.0);  // past the end: the clock stops there, every sample is in
    QCOMPARE(src.nowNs(), src.endNs());
    QCOMPARE(src.storeOf("rapl")->size(), all.size());
    QVERIFY(src.done());
    // start() replays it again from the beginning.
    QSignalSpy rounds(&src, &jb::RunSource::roundFinished);
    src.start();
    src.stop();
    QVERIFY(!src.done());
    QCOMPARE(src.storeOf("rapl")->size(), std::size_t(0));
    src.tick(100.0);
    QCOMPARE(rounds.count(), 3);
}

void TestReplaySource::refusesARecordWithoutSamples()
{
    jb::Record bare = fixture();
    bare.samples.clear();
    ReplaySource src;
    const jb::Status st = src.load(bare);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("no raw samples")), st.error().c_str());
    const jb::Status named = src.load(fixture(), "nvml:0");
    QVERIFY(!named);
    QVERIFY2(QString::fromStdString(named.error()).contains(QStringLiteral("nvml:0")), named.error().c_str());
    src.start();  // nothing loaded: nothing starts
    QVERIFY(!src.running());
}

QTEST_GUILESS_MAIN(TestReplaySource)
#include "tst_replaysource.moc"
