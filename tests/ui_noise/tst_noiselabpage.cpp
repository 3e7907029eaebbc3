// The Noise lab page, offscreen: sliders move the verdict (on the page's own timer, and with
// the clock driven by the test), the live noise figures come from the idle brackets measured
// since the last change, layout sliders start a new run, the planner says "unreachable" with
// what is needed and applies a plan to the run, records show their noise and replay as they
// ran (the same figures, round by round, through the live path), and the real
// counter button is off with its reason, or runs a real session on a fake powercap zone.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "../UiClip.h"
#include "MainWindow.h"
#include "chart/PowerChart.h"
#include "common/Format.h"
#include "noise/NoiseCharts.h"
#include "noise/NoiseLabPage.h"
#include "noise/PlannerPanel.h"
#include "noise/ResolutionModel.h"
#include "noise/SimControls.h"
#include "noise/ValueSlider.h"
#include "noise/VerdictBanner.h"
#include <jb/live/NoiseLabRun.h>
#include <jb/live/ReplaySource.h>
#include <jb/live/SessionSource.h>
#include <jb/live/SimSource.h>
#include <jb/noise/IdleNoise.h>
#include <jb/noise/SimRun.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using jb::NoiseLabPage;
using Mode = jb::NoiseLabPage::Mode;

namespace {

QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

// A powercap zone that tests/clients/fakezone keeps advancing (20 W, +15 W while the flag
// file exists).
class FakeZone {
public:
    explicit FakeZone(const QString& root)
        : zone(root + QStringLiteral("/intel-rapl:0")), flag(root + QStringLiteral("/busy.flag"))
    {
        QDir().mkpath(zone);
        proc.start(testBin("fakezone"),
                   {zone, QStringLiteral("--idle-w"), QStringLiteral("20"), QStringLiteral("--busy-w"),
                    QStringLiteral("15"), QStringLiteral("--flag"), flag, QStringLiteral("--tick-ms"),
                    QStringLiteral("1"), QStringLiteral("--seconds"), QStringLiteral("120")});
        proc.waitForStarted();
    }
    ~FakeZone()
    {
        proc.kill();
        proc.waitForFinished();
    }
    bool ready() const { return QFile::exists(zone + QStringLiteral("/energy_uj")); }
    QString zone, flag;
    QProcess proc;
};

const jb::CounterRound& lastSim(const NoiseLabPage& page)
{
    return *page.rounds().back().counter("sim");
}

}  // namespace

class TestNoiseLabPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void signalSliderDropsTheVerdictLive();
    void noiseSliderDropsTheVerdict();
    void liveFiguresFromTheBrackets();
    void layoutSliderStartsANewRun();
    void hiddenPagePausesTheSimulation();
    void plannerUnreachableSaysWhatIsNeeded();
    void planAppliedToTheRun();
    void recordShowsItsNoise();
    void recordWithoutSamples();
    void recordReplaysAsItRan();
    void coarseRecordIsPlannedByItsCadence();
    void realButtonOffWithTheReason();
    void realCounterRunsASession();
    void fitsTheLaptopSize_data();
    void fitsTheLaptopSize();

private:
    jb::NoiseLabOptions options(bool start = true) const;
    // Drives the simulated clock (the SimSource's own timer stopped) until n more rounds.
    static void runRounds(NoiseLabPage& page, QSignalSpy& rounds, int n);

    QTemporaryDir noPowercap_;  // an empty powercap root: no real counter, on any machine
};

void TestNoiseLabPage::initTestCase()
{
    QVERIFY(noPowercap_.isValid());
}

jb::NoiseLabOptions TestNoiseLabPage::options(bool start) const
{
    jb::NoiseLabOptions o;
    o.counters.powercap_root = noPowercap_.path().toStdString();
    o.counters.nvml_library = "/nonexistent/libnvidia-ml.so.1";
    o.decoder = testBin("fakechild");
    o.seed = 3;
    o.start_when_shown = start;
    return o;
}

void TestNoiseLabPage::runRounds(NoiseLabPage& page, QSignalSpy& rounds, int n)
{
    const int want = rounds.count() + n;
    for (int i = 0; i < 10000 && rounds.count() < want; ++i)
        page.lab()->sim()->tick(0.25);
    QVERIFY(rounds.count() >= want);
}

void TestNoiseLabPage::signalSliderDropsTheVerdictLive()
{
    // On the page's own timers, as in the lecture hall (50x, so a round takes ~0.1 s).
    NoiseLabPage page(options());
    page.resize(1400, 900);
    page.show();
    QCOMPARE(page.mode(), Mode::Simulated);
    QVERIFY(page.lab()->sim()->running());
    page.controls()->setSpeed(50);
    QCOMPARE(page.lab()->sim()->speed(), 50.0);
    QTRY_COMPARE_WITH_TIMEOUT(page.banner()->verdictText(), QStringLiteral("clean"), 20000);
    QVERIFY(page.banner()->ratioText().startsWith(QStringLiteral("ratio ")));
    QVERIFY(page.banner()->detailText().contains(QStringLiteral("clean in 100%")));
    const int restarts = page.lab()->sim()->restarts();

    // Signal power from 15 W to nothing: the run goes on, and its rounds turn unusable.
    jb::ValueSlider* signal = page.controls()->signalSlider();
    signal->slider()->setValue(0);
    QCOMPARE(signal->value(), 0.0);
    QCOMPARE(signal->valueText(), QStringLiteral("0 W"));
    QCOMPARE(page.lab()->sim()->settings().signal_w, 0.0);
    QCOMPARE(page.lab()->sim()->restarts(), restarts);
    QTRY_COMPARE_WITH_TIMEOUT(page.banner()->verdictText(), QStringLiteral("unusable"), 20000);
    QVERIFY(page.banner()->detailText().contains(QStringLiteral("clean in 0%")));
    QVERIFY(std::abs(*lastSim(page).ratio) < 3.0);
    // The planner follows the signal: nothing reaches clean at 0 W.
    QCOMPARE(page.planner()->marginalBox()->value(), 0.0);
    QTRY_COMPARE_WITH_TIMEOUT(page.planner()->resultText(), QStringLiteral("Unreachable"), 5000);
}

void TestNoiseLabPage::noiseSliderDropsTheVerdict()
{
    NoiseLabPage page(options(false));
    page.show();
    page.startSimulated();
    page.lab()->sim()->stop();  // the test drives the clock
    QSignalSpy rounds(&page, &NoiseLabPage::roundShown);
    runRounds(page, rounds, 3);
    QCOMPARE(rounds.last().at(1).toString(), QStringLiteral("clean"));
    QCOMPARE(page.banner()->verdictText(), QStringLiteral("clean"));
    const int restarts = page.lab()->sim()->restarts();

    // Noise sd from 0.15 W to 5 W against a 15 W signal: the ratio tends to 3.
    jb::ValueSlider* noise = page.controls()->noiseSlider();
    noise->slider()->setValue(noise->slider()->maximum());
    QCOMPARE(noise->value(), 5.0);
    QCOMPARE(page.lab()->sim()->restarts(), restarts);
    runRounds(page, rounds, 3);
    const jb::CounterRound& c = lastSim(page);
    QVERIFY(c.ratio);
    QVERIFY2(*c.ratio < 10.0, qPrintable(QString::number(*c.ratio)));
    const QString v = page.banner()->verdictText();
    QVERIFY2(v == QStringLiteral("relative-only") || v == QStringLiteral("noisy") ||
                 v == QStringLiteral("unusable"),
             qPrintable(v));
    // The verdict counts start again at the new noise: the rounds since, not the clean ones before.
    QVERIFY2(page.banner()->detailText().startsWith(QStringLiteral("Last 3 rounds: ")),
             qPrintable(page.banner()->detailText()));
    QCOMPARE(v, QString::fromLatin1(jb::verdictName(*c.verdict)));

    // The idle noise shown is measured since the change only: about 5 W, not a mix with 0.15.
    page.refresh();
    QVERIFY(page.noise());
    QVERIFY2(std::abs(page.noise()->idle_sd_w - 5.0) < 1.0,
             qPrintable(QString::number(page.noise()->idle_sd_w)));
}

void TestNoiseLabPage::liveFiguresFromTheBrackets()
{
    NoiseLabPage page(options(false));
    QAbstractItemModelTester tester(page.resolutionModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(1400, 900);
    page.show();
    page.startSimulated();
    page.lab()->sim()->stop();
    QSignalSpy rounds(&page, &NoiseLabPage::roundShown);
    runRounds(page, rounds, 4);
    page.refresh();

    // 5 s brackets at 100 ms: 49 whole intervals each; 5 brackets done (and an open one).
    QVERIFY(page.noise());
    const jb::RecordNoise& n = *page.noise();
    QCOMPARE(n.source, std::string("live"));
    QVERIFY(n.brackets >= 5);
    QVERIFY(n.intervals >= 5 * 49);
    // sd of 0.15 W from ~245 intervals: standard error ~0.007 W; tolerance 0.03 W.
    QVERIFY2(std::abs(n.idle_sd_w - 0.15) < 0.03, qPrintable(QString::number(n.idle_sd_w)));
    QVERIFY2(std::abs(n.idle_mean_w - 20.0) < 0.05, qPrintable(QString::number(n.idle_mean_w)));

    QVERIFY(page.histogram()->bins() >= 5);
    QVERIFY(page.histogram()->fitPoints() > 50);
    QVERIFY(page.allan()->logLog());
    QVERIFY(page.allan()->points() >= 4);

    // The verdict floors: threshold x the measured idle sd, on the chart and in the table.
    const std::vector<double> lines = page.roundsChart()->thresholdsW();
    QCOMPARE(int(lines.size()), 3);
    QCOMPARE(lines[0], 10.0 * n.idle_sd_w);
    QCOMPARE(lines[1], 3.0 * n.idle_sd_w);
    QCOMPARE(lines[2], 1.0 * n.idle_sd_w);
    QCOMPARE(page.roundsChart()->points(), int(page.rounds().size()));
    jb::ResolutionModel* m = page.resolutionModel();
    QCOMPARE(m->rowCount(), 3);
    QCOMPARE(m->data(m->index(0, jb::ResolutionModel::FloorWCol), jb::ResolutionModel::SortRole).toDouble(),
             10.0 * n.idle_sd_w);
    // Energy over the 1 s busy window.
    QCOMPARE(m->data(m->index(0, jb::ResolutionModel::FloorJCol), jb::ResolutionModel::SortRole).toDouble(),
             10.0 * n.idle_sd_w * 1.0);

    page.trace()->redraw();
    QVERIFY(page.trace()->pointCount() > 10);
    QVERIFY(page.banner()->phaseText().contains(QStringLiteral("simulated")));
}

void TestNoiseLabPage::layoutSliderStartsANewRun()
{
    NoiseLabPage page(options(false));
    page.show();
    page.startSimulated();
    page.lab()->sim()->stop();
    QSignalSpy rounds(&page, &NoiseLabPage::roundShown);
    runRounds(page, rounds, 2);
    const int restarts = page.lab()->sim()->restarts();
    QSignalSpy started(page.lab()->sim(), &jb::SimSource::started);
    page.lab()->sim()->start();  // running again, so a layout change restarts at once
    page.controls()->kSlider()->setValue(3);
    QCOMPARE(started.count(), 2);  // start() itself, then the new layout
    QCOMPARE(page.lab()->sim()->restarts(), restarts + 2);
    QCOMPARE(page.lab()->sim()->settings().k, 3);
    QVERIFY(page.rounds().empty());
    QCOMPARE(page.banner()->verdictText(), QStringLiteral("–"));
    page.lab()->sim()->stop();
    runRounds(page, rounds, 1);
    QCOMPARE(page.rounds().front().window_ns, std::int64_t(3'000'000'000));
    QCOMPARE(page.rounds().front().decodes, std::int64_t(12));
}

void TestNoiseLabPage::hiddenPagePausesTheSimulation()
{
    NoiseLabPage page(options());
    page.show();
    QVERIFY(page.lab()->sim()->running());
    const int restarts = page.lab()->sim()->restarts();
    page.hide();
    QVERIFY(!page.lab()->sim()->running());
    page.show();
    QVERIFY(page.lab()->sim()->running());
    QCOMPARE(page.lab()->sim()->restarts(), restarts);  // the same run goes on
}

void TestNoiseLabPage::plannerUnreachableSaysWhatIsNeeded()
{
    jb::SimRunSpec spec;
    spec.marginal_w = 0.5;  // a ratio of about 3.3 against 0.15 W of noise
    spec.noise_sd_w = 0.15;
    spec.idle_s = 3.0;
    spec.rounds = 5;
    spec.seed = 5;
    NoiseLabPage page(options(false));
    page.show();
    page.showRecord(jb::simulateRun(spec), QStringLiteral("weak.json"));
    QCOMPARE(page.mode(), Mode::Record);
    jb::PlannerPanel* p = page.planner();
    QVERIFY(std::abs(p->marginalBox()->value() - 0.5) < 0.1);  // the record's median marginal
    p->setTarget(QStringLiteral("clean"));
    p->replan();
    QVERIFY(p->outcome());
    QVERIFY(!p->outcome()->reachable);
    QCOMPARE(p->resultText(), QStringLiteral("Unreachable"));
    const double sd = page.noise()->idle_sd_w;
    QCOMPARE(p->outcome()->needed_marginal_w, 10.0 * sd);
    QVERIFY2(p->detailText().contains(QStringLiteral("marginal power above")), qPrintable(p->detailText()));
    // Not "however long the run" beside an Allan curve that falls with averaging: what averaging
    // changes (the sample period) and what it does not (more rounds, longer windows).
    QVERIFY2(p->detailText().contains(QStringLiteral("More rounds or a longer busy window do not change that")),
             qPrintable(p->detailText()));
    QVERIFY(p->detailText().contains(QStringLiteral("a longer sample period raises the ratio")));
    QVERIFY(p->detailText().contains(jb::fmt::significant(10.0 * sd, 3) + QStringLiteral(" W")));
    QVERIFY(!p->applyButton()->isEnabled());

    // Relative-only is within reach: the same plan jb::planRun gives for these inputs.
    p->setTarget(QStringLiteral("relative-only"));
    p->replan();
    QVERIFY(p->outcome()->reachable);
    const jb::PlanOutcome direct = jb::planRun(p->inputs());
    QCOMPARE(p->outcome()->k, direct.k);
    QCOMPARE(p->outcome()->rounds, direct.rounds);
    QCOMPARE(p->outcome()->idle_s, direct.idle_s);
    QVERIFY2(p->resultText().contains(QStringLiteral("%1 rounds").arg(direct.rounds)),
             qPrintable(p->resultText()));
    QVERIFY(p->resultText().contains(QStringLiteral("total")));
    QVERIFY(!p->applyButton()->isEnabled());  // a record: nothing to apply it to
}

void TestNoiseLabPage::planAppliedToTheRun()
{
    NoiseLabPage page(options(false));
    page.show();
    page.startSimulated();
    page.lab()->sim()->stop();
    QSignalSpy rounds(&page, &NoiseLabPage::roundShown);
    runRounds(page, rounds, 1);
    page.refresh();
    jb::PlannerPanel* p = page.planner();
    QCOMPARE(p->marginalBox()->value(), 15.0);  // the signal slider's value
    p->setTarget(QStringLiteral("clean"));
    p->setConfidence(0.99);
    p->replan();
    QVERIFY(p->outcome() && p->outcome()->reachable);
    QVERIFY(p->applyButton()->isEnabled());
    const double idle_s = p->outcome()->idle_s;
    const int k = p->outcome()->k;
    const int restarts = page.lab()->sim()->restarts();
    QSignalSpy started(page.lab()->sim(), &jb::SimSource::started);
    p->applyButton()->click();
    QVERIFY(page.lab()->sim()->settings().idle_s >= idle_s);
    QVERIFY2(page.lab()->sim()->settings().idle_s < idle_s + 0.5 + 1e-9,  // the slider's next step
             qPrintable(QStringLiteral("%1 for %2").arg(page.lab()->sim()->settings().idle_s).arg(idle_s)));
    QCOMPARE(page.lab()->sim()->settings().k, k);
    // Paused (the test drives the clock): the new layout waits for the clock to go on, as one
    // new run, not one per slider.
    QCOMPARE(started.count(), 0);
    page.lab()->sim()->resume();
    QCOMPARE(started.count(), 1);
    QCOMPARE(page.lab()->sim()->restarts(), restarts + 1);
    QVERIFY(page.rounds().empty());
}

void TestNoiseLabPage::recordShowsItsNoise()
{
    jb::SimRunSpec spec;
    spec.rounds = 7;
    spec.seed = 8;
    const jb::Record r = jb::simulateRun(spec);
    NoiseLabPage page(options());
    page.resize(1400, 900);
    page.show();
    QSignalSpy modes(&page, &NoiseLabPage::modeChanged);
    page.showRecord(r, QStringLiteral("run.json"));
    QCOMPARE(page.mode(), Mode::Record);
    QCOMPARE(modes.count(), 1);
    QVERIFY(!page.lab()->sim()->running());
    QVERIFY(!page.controls()->isVisibleTo(&page));  // a record's figures are fixed
    QVERIFY(page.traceShown());
    QVERIFY(!page.simButton()->isChecked());
    QCOMPARE(page.counter(), std::string("sim"));
    QVERIFY(page.noise());
    QCOMPARE(page.noise()->source, std::string("samples"));
    QCOMPARE(page.noise()->brackets, 8);
    QCOMPARE(page.banner()->verdictText(), QStringLiteral("clean"));
    QVERIFY(page.banner()->ratioText().startsWith(QStringLiteral("median ratio")));
    QVERIFY(page.banner()->detailText().contains(QStringLiteral("7 clean")));
    QCOMPARE(page.roundsChart()->points(), 7);
    QCOMPARE(page.roundsChart()->thresholdsW().front(), 10.0 * page.noise()->idle_sd_w);
    QVERIFY(page.histogram()->bins() > 0);
    QVERIFY(page.allan()->points() >= 4);
    page.trace()->redraw();
    QVERIFY(page.trace()->pointCount() > 10);
    QVERIFY(page.resolutionModel()->rowCount() == 3);

    // Back to the simulation: a new live run.
    page.simButton()->click();
    QCOMPARE(page.mode(), Mode::Simulated);
    QVERIFY(page.lab()->sim()->running());
    QVERIFY(page.controls()->isVisibleTo(&page));
    QVERIFY(page.rounds().empty());
}

void TestNoiseLabPage::recordWithoutSamples()
{
    jb::SimRunSpec spec;
    spec.rounds = 4;
    jb::Record r = jb::simulateRun(spec);
    r.samples.clear();
    NoiseLabPage page(options(false));
    page.show();
    page.showRecord(r);
    QVERIFY(page.noise());
    QCOMPARE(page.noise()->source, std::string("brackets"));
    QCOMPARE(page.histogram()->bins(), 0);  // the placeholder says why
    QVERIFY(!page.traceShown());
    QCOMPARE(page.allan()->points(), 0);
    QCOMPARE(page.roundsChart()->points(), 4);
    QCOMPARE(page.resolutionModel()->rowCount(), 3);
    // No samples, nothing to replay: the button is off and says why.
    QVERIFY(page.replayButton()->isVisibleTo(&page));
    QVERIFY(!page.replayButton()->isEnabled());
    QVERIFY(page.replayButton()->toolTip().contains(QStringLiteral("--samples")));
    QVERIFY(!page.startReplay(4));
    QCOMPARE(page.mode(), Mode::Record);

    // A record with no whole-device counter: the reason, everywhere.
    jb::Record empty;
    page.showRecord(empty, QStringLiteral("empty.json"));
    QVERIFY(!page.noise());
    QVERIFY(page.statusLabel()->text().contains(QStringLiteral("no whole-device counter")));
    QCOMPARE(page.roundsChart()->points(), 0);
}

void TestNoiseLabPage::recordReplaysAsItRan()
{
    jb::SimRunSpec spec;
    spec.rounds = 5;
    spec.seed = 8;
    const jb::Record r = jb::simulateRun(spec);
    NoiseLabPage page(options(false));
    page.resize(1400, 900);
    page.show();
    page.showRecord(r, QStringLiteral("run.json"));
    QVERIFY(page.noise());
    const double recordSd = page.noise()->idle_sd_w;
    QVERIFY(page.replayButton()->isVisibleTo(&page));
    QVERIFY(page.replayButton()->isEnabled());

    QSignalSpy shown(&page, &NoiseLabPage::roundShown);
    page.replayButton()->click();
    QCOMPARE(page.mode(), Mode::Replay);
    QVERIFY(page.lab()->source() == page.lab()->replay());
    QVERIFY(page.lab()->replay()->running());
    QCOMPARE(page.lab()->replay()->speed(), 4.0);  // the speed box's default
    QVERIFY(!page.controls()->isVisibleTo(&page));  // the record's settings, not the sliders'
    QVERIFY(page.rounds().empty());                // from the record's start
    QCOMPARE(page.replayButton()->text(), QStringLiteral("Whole record"));

    // The test drives the replayed clock.
    page.lab()->replay()->stop();
    for (int i = 0; i < 100000 && !page.lab()->replay()->done(); ++i) {
        page.lab()->replay()->tick(0.25);
        if (i % 40 == 0)
            page.refresh();  // the page's own timer, mid-run
    }
    QVERIFY(page.lab()->replay()->done());
    page.refresh();
    QCOMPARE(shown.count(), 5);
    QCOMPARE(page.rounds().size(), std::size_t(5));
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const jb::CounterRound* want = r.rounds[i].counter("sim");
        const jb::CounterRound* got = page.rounds()[i].counter("sim");
        QVERIFY(want && got);
        QVERIFY(got->verdict == want->verdict);
        QCOMPARE(got->marginal_nj, want->marginal_nj);
        QCOMPARE(shown.at(int(i)).at(1).toString(), (want->verdict ? QString::fromLatin1(jb::verdictName(*want->verdict)) : QString()));
    }
    // The live noise figures come from the replayed samples: the record's idle noise.
    QVERIFY(page.noise());
    QCOMPARE(page.noise()->brackets, 6);
    QVERIFY2(std::abs(page.noise()->idle_sd_w - recordSd) < 0.01 * recordSd,
             qPrintable(QStringLiteral("%1 W against %2 W").arg(page.noise()->idle_sd_w).arg(recordSd)));
    QCOMPARE(page.banner()->verdictText(), QStringLiteral("clean"));
    QCOMPARE(page.roundsChart()->points(), 5);
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("record's end")),
             qPrintable(page.statusLabel()->text()));
    if (const QString dir = qEnvironmentVariable("JB_SHOT_DIR"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        page.trace()->redraw();
        QTest::qWait(200);  // the charts lay themselves out
        QVERIFY(page.grab().save(dir + QStringLiteral("/noise-lab-replay.png")));
    }

    // Back to the whole record, as before the replay.
    page.replayButton()->click();
    QCOMPARE(page.mode(), Mode::Record);
    QVERIFY(page.lab()->source() == nullptr);
    QCOMPARE(page.noise()->idle_sd_w, recordSd);
    QCOMPARE(page.roundsChart()->points(), 5);
    QCOMPARE(page.replayButton()->text(), QStringLiteral("Replay"));
}

// A counter that updates every 400 ms, sampled every 100 ms: the planner recommends what
// `joulebench-cli plan` does (a period at or above the cadence), not a quieter machine.
void TestNoiseLabPage::coarseRecordIsPlannedByItsCadence()
{
    NoiseLabPage page(options(false));
    page.show();
    const jb::Status opened =
        page.openRecord(QStringLiteral(JB_FIXTURES "/records/coarse-400ms-reference.json"));
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().c_str());
    const auto& coarse = page.planner()->coarsePlan();
    QVERIFY(coarse.has_value());
    QVERIFY2(coarse->sample_s >= 0.4 - 1e-9, qPrintable(QString::number(coarse->sample_s)));
    QVERIFY(!page.planner()->resultText().contains(QStringLiteral("quieter")));
}

void TestNoiseLabPage::realButtonOffWithTheReason()
{
    NoiseLabPage page(options(false));
    QVERIFY(!page.realCounter().ok());
    QVERIFY(!page.realButton()->isEnabled());
    QVERIFY2(page.realButton()->toolTip().contains(QStringLiteral("rapl")),
             qPrintable(page.realButton()->toolTip()));
    QVERIFY(!page.startReal());
    QCOMPARE(page.mode(), Mode::Simulated);
    QVERIFY(page.statusLabel()->text().contains(QStringLiteral("No real whole-device counter")));

    // With a readable counter but no decoder, the button names the missing program.
    FakeZone z(noPowercap_.path() + QStringLiteral("/zone"));
    QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
    jb::NoiseLabOptions o = options(false);
    o.counters.rapl_zone = z.zone.toStdString();
    o.decoder = QStringLiteral("/nonexistent/joulebench-demo-decoder");
    NoiseLabPage page2(o);
    QVERIFY(!page2.realButton()->isEnabled());
    QVERIFY(page2.realButton()->toolTip().contains(QStringLiteral("/nonexistent/joulebench-demo-decoder")));
}

void TestNoiseLabPage::realCounterRunsASession()
{
    QTemporaryDir dir;
    FakeZone z(dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
    jb::NoiseLabOptions o = options(false);
    o.counters.powercap_root = dir.path().toStdString();
    o.counters.rapl_zone = z.zone.toStdString();
    o.decoder_args = {QStringLiteral("serve"),
                      QStringLiteral("--jobs"),
                      QStringLiteral("2"),
                      QStringLiteral("--job-ms"),
                      QStringLiteral("150"),
                      QStringLiteral("--flag"),
                      z.flag,
                      QStringLiteral("--busy-w"),
                      QStringLiteral("15")};
    NoiseLabPage page(o);
    QVERIFY2(page.realCounter().ok(), page.realCounter().reason.c_str());
    QCOMPARE(page.realCounter().spec, std::string("rapl"));
    QVERIFY(page.realButton()->isEnabled());
    QVERIFY(page.realButton()->text().contains(QStringLiteral("rapl")));
    page.show();
    jb::LiveSimSettings s = page.controls()->settings();
    s.period_s = 0.05;
    s.idle_s = 0.5;
    s.k = 1;
    page.controls()->setSettings(s);

    QSignalSpy rounds(&page, &NoiseLabPage::roundShown);
    page.realButton()->click();
    QCOMPARE(page.mode(), Mode::Real);
    QVERIFY(page.lab()->real()->running());
    QVERIFY(!page.controls()->signalSlider()->isVisibleTo(&page));  // the machine sets the power
    QCOMPARE(page.lab()->real()->plan().sample_ms, 50.0);
    QCOMPARE(page.lab()->real()->plan().idle_s, 0.5);
    QTRY_VERIFY_WITH_TIMEOUT(rounds.count() >= 2, 30000);
    QCOMPARE(page.counter(), std::string("rapl"));
    const jb::CounterRound* c = page.rounds().back().counter("rapl");
    QVERIFY(c && c->busy && c->idle_after);
    // fakezone adds 15 W while the child is busy; the window's edges (the child's reply, the
    // zone's 1 ms ticks on a loaded machine) lose some of it, never add any.
    const double marginal = c->busy->mean_w - c->idle_after->mean_w;
    QVERIFY2(marginal > 7.5 && marginal < 16.0, qPrintable(QString::number(marginal)));
    QVERIFY(page.banner()->verdictText() != QStringLiteral("–"));
    // The planner starts from the first round's pass time and marginal power.
    const jb::CounterRound& first = *page.rounds().front().counter("rapl");
    QVERIFY(std::abs(page.planner()->marginalBox()->value() - std::max(0.0, *jb::roundMarginalW(first))) <
            0.0006);
    page.refresh();
    QVERIFY(page.noise());
    QCOMPARE(page.noise()->spec, std::string("rapl"));

    // Back to the simulation: the session stops (and its decoder with it).
    page.simButton()->click();
    QCOMPARE(page.mode(), Mode::Simulated);
    QTRY_VERIFY_WITH_TIMEOUT(!page.lab()->real()->running(), 15000);
}

QTEST_MAIN(TestNoiseLabPage)
#include "tst_noiselabpage.moc"

void TestNoiseLabPage::fitsTheLaptopSize_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

// In the window at 1280x720 (and 1600x1000), a few rounds in: no button, box or one-line label
// narrower than its text or outside the window, the power chart keeps a readable height, and no
// chart title, tick label, axis title or legend entry is cut to "..." (nor a table column).
void TestNoiseLabPage::fitsTheLaptopSize()
{
    QFETCH(QSize, size);
    jb::MainWindow w;
    auto* page = new NoiseLabPage(options(false));
    w.addPage(page, QStringLiteral("Noise lab"));
    w.resize(size);
    w.show();
    w.showPage(page);
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    page->startSimulated();
    page->lab()->sim()->stop();
    QSignalSpy rounds(page, &NoiseLabPage::roundShown);
    runRounds(*page, rounds, 3);
    QCoreApplication::processEvents();
    const QStringList clipped = jbtest::clippedWidgets(page);
    QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
    QVERIFY2(page->trace()->height() >= 200, qPrintable(QString::number(page->trace()->height())));
    // The charts' own texts (titles, axis labels and titles, legends) whole, not "...", and the
    // table's headers and values whole: a chart squeezed by the layout is cut, not shrunk.
    const QStringList cut = jbtest::elidedChartTexts(page);
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
    const QStringList columns = jbtest::clippedTableColumns(page);
    QVERIFY2(columns.isEmpty(), qPrintable(columns.join(QLatin1Char('\n'))));
    for (jb::ChartFrame* c : page->findChildren<jb::ChartFrame*>())
        if (c->isVisible())
            QVERIFY2(c->height() >= 200, qPrintable(QStringLiteral("%1: %2 px high")
                                                        .arg(QString::fromLatin1(c->metaObject()->className()))
                                                        .arg(c->height())));
}
