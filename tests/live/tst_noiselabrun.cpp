// The Noise lab's live runs (core/live/NoiseLabRun): one source is live at a time and only its
// events come out; a real run (here the `sim` counter with the fake decoder child, on a backend
// thread) restarts when its layout changes, once the settings rest, and only after the previous
// run has ended; a start that cannot happen says why and leaves the live run as it was.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include <jb/live/NoiseLabRun.h>
#include <jb/live/ReplaySource.h>
#include <jb/live/SessionSource.h>
#include <jb/live/SimSource.h>
#include <jb/record/RecordJson.h>

#include <QSignalSpy>
#include <QtTest>

using jb::NoiseLabRun;

namespace {

const QString kFakeChild = QStringLiteral(JB_TEST_BIN_DIR "/fakechild");

jb::NoiseLabRunOptions labOptions(const std::string& real_spec = "sim")
{
    jb::NoiseLabRunOptions o;
    o.real.spec = real_spec;
    o.real.reason = real_spec.empty() ? "no real counter is readable here" : "";
    o.decoder_argv = {kFakeChild.toStdString(), "serve", "--jobs", "2", "--job-ms", "20"};
    return o;
}

jb::LiveSimSettings smallLayout()
{
    jb::LiveSimSettings s;
    s.period_s = 0.05;
    s.idle_s = 0.3;
    s.k = 1;
    return s;
}

}  // namespace

class TestNoiseLabRun : public QObject {
    Q_OBJECT
private slots:
    void onlyTheLiveSourceSpeaks();
    void replayRefusedSaysWhy();
    void noRealCounterLeavesTheSimulation();
    void realRunRestartsOnALayoutChange();
    void realStartWaitsForThePreviousRun();
};

void TestNoiseLabRun::onlyTheLiveSourceSpeaks()
{
    NoiseLabRun lab(labOptions());
    QCOMPARE(lab.live(), NoiseLabRun::Live::Simulated);  // not started yet
    QSignalSpy started(&lab, &NoiseLabRun::liveStarted);
    QSignalSpy phases(&lab, &NoiseLabRun::phase);
    QSignalSpy rounds(&lab, &NoiseLabRun::roundFinished);
    jb::LiveSimSettings s = smallLayout();
    s.busy_s_per_k = 0.2;
    lab.startSimulated(s, 1.0);
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(1).toString(), QStringLiteral("sim"));
    QVERIFY(lab.source() == lab.sim());
    lab.sim()->stop();  // the test drives the clock
    for (int i = 0; i < 40; ++i)
        lab.sim()->tick(0.05);
    QVERIFY(phases.count() > 0);
    QVERIFY(rounds.count() > 0);
    QCOMPARE(lab.simSettings().idle_s, 0.3);

    // Power settings continue the simulation; the lab says they were applied.
    s.signal_w = 3.0;
    QCOMPARE(lab.setSettings(s), NoiseLabRun::SettingsEffect::Applied);
    QCOMPARE(lab.sim()->settings().signal_w, 3.0);

    // Stopped: none is live, and a source that runs on emits nothing through the lab.
    lab.stopAll();
    QCOMPARE(lab.live(), NoiseLabRun::Live::None);
    QVERIFY(lab.source() == nullptr);
    const int p = phases.count(), r = rounds.count();
    QSignalSpy simPhases(lab.sim(), &jb::RunSource::phase);
    for (int i = 0; i < 40; ++i)
        lab.sim()->tick(0.05);
    QVERIFY(simPhases.count() > 0);
    QCOMPARE(phases.count(), p);
    QCOMPARE(rounds.count(), r);
    QCOMPARE(lab.setSettings(s), NoiseLabRun::SettingsEffect::None);
}

void TestNoiseLabRun::replayRefusedSaysWhy()
{
    NoiseLabRun lab(labOptions());
    auto rec = jb::loadRecord(JB_FIXTURES "/records/joulebench-rapl.json");
    QVERIFY2(rec, rec ? "" : rec.error().c_str());
    // A counter the record has no samples of: refused, naming it.
    const jb::Status st = lab.startReplay(rec.value(), "no-such-counter", 4.0);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("no-such-counter")), st.error().c_str());
    QVERIFY(lab.source() == nullptr);

    QSignalSpy started(&lab, &NoiseLabRun::liveStarted);
    QSignalSpy ended(&lab, &NoiseLabRun::replayEnded);
    QVERIFY(lab.startReplay(rec.value(), {}, 16.0));
    QCOMPARE(lab.live(), NoiseLabRun::Live::Replay);
    QCOMPARE(started.count(), 1);
    QCOMPARE(lab.replaySpeed(), 16.0);
    lab.replay()->stop();
    for (int i = 0; i < 100000 && !lab.replay()->done(); ++i)
        lab.replay()->tick(0.25);
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.at(0).at(0).toInt(), int(rec.value().rounds.size()));
}

void TestNoiseLabRun::noRealCounterLeavesTheSimulation()
{
    NoiseLabRun lab(labOptions(""));
    lab.startSimulated(smallLayout(), 1.0);
    const jb::Status st = lab.startReal(smallLayout());
    QVERIFY(!st);
    QCOMPARE(QString::fromStdString(st.error()), QStringLiteral("no real counter is readable here"));
    QCOMPARE(lab.live(), NoiseLabRun::Live::Simulated);
    QVERIFY(lab.sim()->running());
    lab.stopAll();
}

void TestNoiseLabRun::realRunRestartsOnALayoutChange()
{
    NoiseLabRun lab(labOptions());
    QSignalSpy started(&lab, &NoiseLabRun::liveStarted);
    QSignalSpy ready(&lab, &NoiseLabRun::childReady);
    QSignalSpy restarting(&lab, &NoiseLabRun::realRestarting);
    QSignalSpy ended(&lab, &NoiseLabRun::realEnded);
    lab.startSimulated(smallLayout(), 1.0);
    started.clear();  // the simulation's
    QVERIFY(lab.startReal(smallLayout()));
    QCOMPARE(lab.live(), NoiseLabRun::Live::Real);
    QVERIFY(!lab.sim()->running());
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(1).toString(), QStringLiteral("sim"));  // the real choice's counter
    QCOMPARE(lab.real()->plan().k, 1);

    // A power change means nothing to a real run; a layout change restarts it once settled.
    jb::LiveSimSettings s = smallLayout();
    s.signal_w = 1.0;
    QCOMPARE(lab.setSettings(s), NoiseLabRun::SettingsEffect::None);
    s.k = 2;
    QCOMPARE(lab.setSettings(s), NoiseLabRun::SettingsEffect::RealRestartScheduled);
    s.k = 3;  // the slider moves on: one restart, with where it rests
    QCOMPARE(lab.setSettings(s), NoiseLabRun::SettingsEffect::RealRestartScheduled);
    QTRY_COMPARE_WITH_TIMEOUT(restarting.count(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 2, 20000);
    QCOMPARE(lab.real()->plan().k, 3);
    QCOMPARE(restarting.count(), 1);
    QCOMPARE(ended.count(), 0);  // the first run ended to start again: not an end

    // Stopped from outside the lab (its run is live): it ends, and says why.
    lab.real()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 15000);
    QVERIFY2(ended.at(0).at(0).toString().contains(QStringLiteral("stopped")),
             qPrintable(ended.at(0).at(0).toString()));
    QCOMPARE(restarting.count(), 1);  // and does not start again
    QVERIFY(!lab.real()->running());
}

void TestNoiseLabRun::realStartWaitsForThePreviousRun()
{
    NoiseLabRun lab(labOptions());
    QSignalSpy started(&lab, &NoiseLabRun::liveStarted);
    QVERIFY(lab.startReal(smallLayout()));
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 15000);
    // Off to the simulation and straight back: the real run is still ending, so the new one
    // starts once it has.
    jb::LiveSimSettings s = smallLayout();
    lab.startSimulated(s, 1.0);
    QVERIFY(lab.real()->running());
    s.k = 2;
    QVERIFY(lab.startReal(s));
    QCOMPARE(lab.live(), NoiseLabRun::Live::Real);
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 3, 20000);  // the simulation's, then the real one again
    QCOMPARE(lab.real()->plan().k, 2);
    QVERIFY(lab.real()->running());
    lab.stopAll();
    QTRY_VERIFY_WITH_TIMEOUT(!lab.real()->running(), 15000);
}

QTEST_GUILESS_MAIN(TestNoiseLabRun)
#include "tst_noiselabrun.moc"
