// The Measure page on real runs: the `sim` counter and the fake decoder child (tests/clients/
// fakechild), small plans (idle 0.3 s, sample 50 ms). Start is clicked, the test waits on
// signals, then checks the table, the verdicts, the saved record against the CLI's, Stop in
// the middle of a round, and closing the window during a run.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "MainWindow.h"
#include "chart/PowerChart.h"
#include "common/Format.h"
#include "common/InterleavedView.h"
#include "common/RecordView.h"
#include "common/RoundsModel.h"
#include "common/SummaryStrip.h"
#include "measure/ChildrenPanel.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"
#include "measure/StatusLine.h"
#include <jb/live/RunSource.h>
#include <jb/record/Interleaved.h>
#include <jb/record/RecordJson.h>
#include <jb/record/Verify.h>
#include <jb/session/StartCheck.h>

#include <QCheckBox>
#include <QDir>
#include <QDirIterator>
#include <QGroupBox>
#include <QHeaderView>
#include <QTableView>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

namespace {

const QString kFakeChild = QStringLiteral(JB_TEST_BIN_DIR "/fakechild");
const QString kCli = QStringLiteral(JB_BIN_DIR "/joulebench-cli");

// A small plan: `marker` is a unique file name in the child's argv, to find the process.
jb::Plan smallPlan(int rounds, int job_ms, const QString& marker)
{
    jb::Plan p;
    p.label = "gui-test";
    p.rounds = rounds;
    p.k = 1;
    p.idle_s = 0.3;
    p.sample_ms = 50;
    p.counters = {"sim"};
    p.meta = jb::ojson{{"suite", "tst_measurepage"}};
    p.child = {kFakeChild.toStdString(), "serve", "--jobs", "2", "--job-ms", std::to_string(job_ms), "--flag",
               marker.toStdString()};
    p.with_samples = true;
    return p;
}

// Is a process with `marker` in its command line still alive?
bool childAlive(const QString& marker)
{
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        QFile f(it.next() + QStringLiteral("/cmdline"));
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(marker.toUtf8()))
            return true;
    }
    return false;
}

// Every key path of a JSON value: objects by key, arrays as [] (the union over elements).
void keyPaths(const jb::ojson& j, const std::string& at, std::set<std::string>& out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            out.insert(at + "." + it.key());
            keyPaths(it.value(), at + "." + it.key(), out);
        }
    } else if (j.is_array()) {
        for (const auto& e : j)
            keyPaths(e, at + "[]", out);
    }
}

std::set<std::string> keyPaths(const jb::ojson& j)
{
    std::set<std::string> out;
    keyPaths(j, "$", out);
    return out;
}

QString diff(const std::set<std::string>& a, const std::set<std::string>& b)
{
    QStringList only;
    for (const auto& k : a)
        if (!b.count(k))
            only << QStringLiteral("only GUI: ") + QString::fromStdString(k);
    for (const auto& k : b)
        if (!a.count(k))
            only << QStringLiteral("only CLI: ") + QString::fromStdString(k);
    return only.join(QStringLiteral("; "));
}

}  // namespace

class TestMeasurePage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void startCheckExplainsATooShortWorkload();
    void startIsDisabledWhileTheCheckProbes();
    void runShowsRoundsAndVerdicts();
    void markedPhasesAppearAsBandsWhileTheRunGoes();
    void twoWorkloadsInterleavedFillTheComparison();
    void keepGoingDropsTheFailedWorkloadAndGoesOn();
    void plainCommandIsThePlansExec();
    void savedRecordMatchesTheCli();
    void stopMidRoundKeepsTheRoundsDone();
    void closingTheWindowAsksStopsAndSaves();
    void aSignalClosesWithoutAskingAndSaves();
    void destroyingThePageMidRunEndsTheChild();

private:
    struct Run {
        jb::Record record;
        QString path;
    };
    // Clicks Start with `plan` in the form and waits for the run's end.
    Run runToEnd(jb::MeasurePage& page, const jb::Plan& plan);
    // Shows the window, starts a 3-round run whose child keeps the file `name` (in the test's
    // folder) while it lives, and waits until round 1 is busy.
    struct WindowRun {
        QString marker;
        std::unique_ptr<QSignalSpy> finished;
    };
    WindowRun startInWindow(jb::MainWindow& w, const QString& name);
    // The window closed after the run ended: the child is gone, and the aborted record, whose
    // error contains `why`, was saved.
    void expectClosedAndSaved(jb::MainWindow& w, WindowRun& run, const QString& why);

    QTemporaryDir dir_;
};

void TestMeasurePage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_measurepage"));
    QSettings().clear();
    QVERIFY(dir_.isValid());
    QSettings().setValue(QStringLiteral("records/folder"), dir_.filePath(QStringLiteral("records")));
    QVERIFY2(QFileInfo(kFakeChild).isExecutable(), qPrintable(kFakeChild + QStringLiteral(" is not built")));
}

TestMeasurePage::Run TestMeasurePage::runToEnd(jb::MeasurePage& page, const jb::Plan& plan)
{
    page.form()->applyPlan(plan);
    [&] { QVERIFY2(page.form()->problem().isEmpty(), qPrintable(page.form()->problem())); }();
    QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
    QTest::mouseClick(page.form()->startButton(), Qt::LeftButton);
    [&] {
        // The check before Start probes the child first: the run starts once it has.
        QTRY_VERIFY2_WITH_TIMEOUT(page.running(), qPrintable(page.banner()->message()), 20000);
        QVERIFY(!page.form()->startButton()->isEnabled());
        QVERIFY(page.form()->stopButton()->isEnabled());
        QVERIFY(finished.wait(60000));
    }();
    if (finished.isEmpty())
        return {};
    return {finished[0][0].value<jb::Record>(), finished[0][1].toString()};
}

// A child that marks phases (fakechild --phases, told by JOULEBENCH_MARKS=1): each `mark` puts a
// strip on the Measure page's power chart as it arrives, inside its round's busy window and
// before the round ends; at the end the strips are the record's marks.
void TestMeasurePage::markedPhasesAppearAsBandsWhileTheRunGoes()
{
    jb::MeasurePage page;
    page.resize(1300, 800);
    page.show();
    QSignalSpy rounds(page.controller(), &jb::RunSource::roundFinished);
    struct Seen {
        int round;
        QString name;
        std::size_t strips;      // the chart's strips just after the mark
        qsizetype rounds_done;   // rounds finished by then
        bool last_is_it;         // the newest strip is this mark's, open
    };
    std::vector<Seen> seen;
    connect(page.controller(), &jb::RunSource::phaseMarked, &page, [&](int round, const QString& name, qint64) {
        const std::vector<jb::ChartPhase>& ph = page.view()->chart()->phases();
        const bool it = !ph.empty() && ph.back().name == name && ph.back().round == round && !ph.back().t1_s;
        seen.push_back({round, name, ph.size(), rounds.count(), it});
    });
    jb::Plan plan = smallPlan(2, 100, dir_.filePath(QStringLiteral("phases.flag")));
    plan.child = {kFakeChild.toStdString(), "serve", "--jobs", "1", "--phases", "parse:60:5,infer:90:10", "--flag",
                  dir_.filePath(QStringLiteral("phases.flag")).toStdString()};
    const Run run = runToEnd(page, plan);
    QVERIFY(!QTest::currentTestFailed());
    const jb::Record& r = run.record;
    QCOMPARE(r.status, std::optional<std::string>("complete"));
    QCOMPARE(r.rounds.size(), std::size_t(2));

    // Live: two marks per round, each a new open strip the moment it arrived, before its round ended.
    QCOMPARE(int(seen.size()), 4);
    for (std::size_t i = 0; i < seen.size(); ++i) {
        QCOMPARE(seen[i].name, i % 2 ? QStringLiteral("infer") : QStringLiteral("parse"));
        QCOMPARE(seen[i].round, int(i / 2));
        QCOMPARE(seen[i].strips, i + 1);
        QCOMPARE(seen[i].rounds_done, qsizetype(i / 2));
        QVERIFY(seen[i].last_is_it);
    }

    // At the end: the record's marks, closed, inside their busy windows, in two colours.
    const std::vector<jb::ChartPhase>& ph = page.view()->chart()->phases();
    QCOMPARE(ph.size(), std::size_t(4));
    const double origin_s = double(page.view()->originNs()) * 1e-9;
    for (std::size_t i = 0; i < ph.size(); ++i) {
        const jb::Round& rd = r.rounds[std::size_t(ph[i].round)];
        QVERIFY(rd.window);
        QCOMPARE(rd.marks.size(), std::size_t(2));
        QVERIFY(ph[i].t1_s);
        QCOMPARE(ph[i].name.toStdString(), rd.marks[i % 2].name);
        QVERIFY(ph[i].t0_s >= double((*rd.window)[0]) * 1e-9 - origin_s - 1e-6);
        QVERIFY(*ph[i].t1_s <= double((*rd.window)[1]) * 1e-9 - origin_s + 1e-6);
        QVERIFY(*ph[i].t1_s > ph[i].t0_s);
    }
    QCOMPARE(ph[0].color, ph[2].color);
    QVERIFY(ph[0].color != ph[1].color);
    // The legend names each phase once.
    int phaseEntries = 0;
    for (const jb::LegendEntry& e : page.view()->chart()->legend())
        phaseEntries += e.text.startsWith(QStringLiteral("phase ")) ? 1 : 0;
    QCOMPARE(phaseEntries, 2);
}

// A workload whose rounds are shorter than a counter sample: Start probes it, does not start,
// says why and offers the k that core chose; that button puts k in the form and starts.
// While the check before Start probes the workload, neither the form's Start nor the window's
// Run > Start is enabled, and a second start() begins no second check; both come back when the
// check ends (here: a workload too short to start, so no run follows).
void TestMeasurePage::startIsDisabledWhileTheCheckProbes()
{
    jb::MainWindow w;
    w.resize(1300, 800);
    w.show();
    jb::MeasurePage* page = w.measurePage();
    jb::Plan plan = smallPlan(2, 5, dir_.filePath(QStringLiteral("probing.flag")));
    plan.child = {kFakeChild.toStdString(), "serve", "--jobs", "1", "--job-ms", "5"};
    page->form()->applyPlan(plan);
    QAction* start = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Start"))
            start = a;
    QVERIFY(start);
    QVERIFY(start->isEnabled());
    QVERIFY(page->form()->startButton()->isEnabled());
    QSignalSpy checked(page, &jb::MeasurePage::startChecked);
    QSignalSpy checking(page, &jb::MeasurePage::checkingChanged);
    start->trigger();
    QVERIFY(page->checking());
    QCOMPARE(checking.count(), 1);
    QCOMPARE(checking[0][0].toBool(), true);
    QVERIFY(!start->isEnabled());
    QVERIFY(!page->form()->startButton()->isEnabled());
    page->start();  // the slot itself: still the one check
    QCOMPARE(checking.count(), 1);
    QVERIFY(checked.wait(20000));
    QVERIFY(!page->checking());
    QCOMPARE(checking.count(), 2);
    QCOMPARE(checking[1][0].toBool(), false);
    QVERIFY(!page->running());
    QVERIFY(start->isEnabled());
    QVERIFY(page->form()->startButton()->isEnabled());
}

void TestMeasurePage::startCheckExplainsATooShortWorkload()
{
    jb::MeasurePage page;
    page.resize(1300, 800);
    page.show();
    jb::Plan plan = smallPlan(2, 5, dir_.filePath(QStringLiteral("short.flag")));
    plan.child = {kFakeChild.toStdString(), "serve", "--jobs", "1", "--job-ms", "5"};
    page.form()->applyPlan(plan);
    QVERIFY2(page.form()->problem().isEmpty(), qPrintable(page.form()->problem()));
    QSignalSpy checked(&page, &jb::MeasurePage::startChecked);
    QSignalSpy runningChanged(&page, &jb::MeasurePage::runningChanged);
    QTest::mouseClick(page.form()->startButton(), Qt::LeftButton);
    QVERIFY(page.checking());
    QVERIFY(checked.wait(20000));
    QVERIFY(!page.running());
    QVERIFY(runningChanged.isEmpty());
    const QString msg = page.banner()->message();
    // One pass of 5 ms (a little more on a loaded machine), k = 1, 50 ms samples: less than one
    // sample; ten samples need k = 500 ms / the pass.
    const QRegularExpression said(QStringLiteral(
        "gui-test: each round \\(k = 1\\) would last about (\\d+(?:\\.\\d)?) ms, less than one 50 ms sample: its "
        "rounds would get no verdict\\nFix: use k = (\\d+) "));
    const QRegularExpressionMatch m = said.match(msg);
    QVERIFY2(m.hasMatch(), qPrintable(msg));
    const double pass_ms = m.captured(1).toDouble();
    const int k = m.captured(2).toInt();
    QVERIFY2(pass_ms >= 5.0 && pass_ms < 25.0, qPrintable(msg));
    // k comes from the pass as measured; the message rounds it (one decimal under 10 ms, whole
    // ms above: "about 10 ms" was a 10.3 ms pass and k = 49 in a loaded CI run).
    const double half = m.captured(1).contains(QLatin1Char('.')) ? 0.05 : 0.5;
    QVERIFY2(k * (pass_ms + half) >= 500.0 && (k - 1) * (pass_ms - half) < 500.0, qPrintable(msg));
    QCOMPARE(checked[0][0].toString(), msg);
    QVERIFY(page.startCheckBar()->isVisible());
    QCOMPARE(page.useSuggestedKButton()->text(), QStringLiteral("Use k = %1 and start").arg(k));
    QVERIFY(page.startAnywayButton()->isVisible());

    QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
    QTest::mouseClick(page.useSuggestedKButton(), Qt::LeftButton);
    QVERIFY(page.running());
    QVERIFY(!page.startCheckBar()->isVisible());
    QCOMPARE(page.run()->options().plan.k, k);
    QCOMPARE(page.form()->plan()->k, k);
    page.stop();
    QVERIFY(finished.wait(30000));
}

void TestMeasurePage::runShowsRoundsAndVerdicts()
{
    jb::MeasurePage page;
    page.resize(1300, 800);
    page.show();
    QSignalSpy rounds(page.controller(), &jb::RunSource::roundFinished);
    QSignalSpy phases(page.controller(), &jb::RunSource::phase);
    const Run run = runToEnd(page, smallPlan(2, 100, dir_.filePath(QStringLiteral("run1.flag"))));
    QVERIFY(!QTest::currentTestFailed());
    const jb::Record& r = run.record;
    QCOMPARE(r.status, std::optional<std::string>("complete"));
    QCOMPARE(r.rounds.size(), std::size_t(2));
    QCOMPARE(rounds.count(), 2);
    QCOMPARE(phases.count(), 10);  // 3 idle brackets and 2 busy windows, each started and ended
    QVERIFY(!page.running());
    QVERIFY(page.form()->startButton()->isEnabled());

    // The table: one row per round, the verdict the session computed, as a badge.
    const jb::RoundsModel* m = page.view()->roundsModel();
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(m->counter(), std::string("sim"));
    for (int i = 0; i < 2; ++i) {
        const jb::CounterRound* c = r.rounds[std::size_t(i)].counter("sim");
        QVERIFY(c && c->verdict);
        // The child busy-loops a core: +15 W over 20 W with 0.15 W of noise is far above it.
        QVERIFY(*c->verdict == jb::Verdict::Clean);
        QCOMPARE(m->index(i, jb::RoundsModel::VerdictCol).data(jb::RoundsModel::VerdictRole).toString(),
                 QStringLiteral("clean"));
        QCOMPARE(m->index(i, jb::RoundsModel::DecodesCol).data().toString(), QStringLiteral("2"));
        QCOMPARE(m->index(i, jb::RoundsModel::MarginalCol).data(jb::RoundsModel::SortRole).toDouble(),
                 c->marginal_nj / 1e9);
    }
    // A round beyond its counter's limits names them in the verdict's tooltip: the session's words
    // (the CLI prints them under the round line). Round 2 again, as a round on a dead sim.
    jb::Round limited = r.rounds[1];
    limited.extra["limits"]["sim"] = "sim never advanced in this round: its energy is missing";
    page.view()->applyRound(1, limited);
    QVERIFY(m->index(1, jb::RoundsModel::VerdictCol)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("sim never advanced in this round: its energy is missing")));
    QVERIFY(!m->index(0, jb::RoundsModel::VerdictCol).data(Qt::ToolTipRole).toString().contains(
        QStringLiteral("never advanced")));
    page.view()->applyRound(1, r.rounds[1]);
    const QString summary = page.view()->summary()->plainText();
    QVERIFY2(summary.contains(QStringLiteral("J per decode")) && summary.contains(QStringLiteral("2 clean")),
             qPrintable(summary));

    // The chart kept the run and its phases: idle brackets and busy windows shaded.
    QVERIFY(page.view()->chart()->pointCount() > 10);
    QVERIFY(r.rounds[0].brackets);
    const auto& first = (*r.rounds[0].brackets)[0];
    const double mid_s = double((first[0] + first[1]) / 2 - page.view()->originNs()) / 1e9;
    QVERIFY(page.view()->chart()->describeAt(mid_s).contains(QStringLiteral("idle before round 1")));

    // Saved by itself: the very bytes the CLI writes for this record, with raw samples.
    QVERIFY(QFileInfo::exists(run.path));
    QVERIFY(page.statusLine()->messageText().contains(run.path));
    QFile f(run.path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().toStdString(), jb::dumpRecord(r));
    QVERIFY(r.samplesOf("sim") && r.samplesOf("sim")->size() > 20);
    // The run's crash journal lay beside it and is gone now that the record is safe.
    QCOMPARE(QFileInfo(run.path).absolutePath(), dir_.filePath(QStringLiteral("records")));
    QVERIFY(
        QDir(dir_.filePath(QStringLiteral("records"))).entryList({QStringLiteral("*.journal")}).isEmpty());
    // Its figures are what the shared statistics compute from those samples.
    auto loaded = jb::loadRecord(run.path.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().c_str());
    const jb::VerifyReport v = jb::verifyRecord(loaded.value());
    QVERIFY2(v.agrees(), v.disagreements.empty() ? v.why_not.c_str() : v.disagreements.front().path.c_str());
}

// Two workloads interleaved from the form: the slow child decodes twice as long on the same
// power, so its J/decode is about twice the baseline's. The comparison fills in as blocks end,
// each workload's busy windows are marked with its name, and the run's folder holds one record
// per workload and comparison.json, as measure --out-dir writes them.
void TestMeasurePage::twoWorkloadsInterleavedFillTheComparison()
{
    jb::MeasurePage page;
    page.resize(1300, 900);
    page.show();
    // Both spin on their CPU clock: `sim` draws power per CPU second, and a wall-clock spin's
    // share of a loaded 2-core machine would move the ratio (2.9 seen in a CI run).
    jb::Plan fast = smallPlan(3, 100, dir_.filePath(QStringLiteral("fast.flag")));
    fast.child.push_back("--cpu-clock");
    page.form()->applyPlan(fast);
    page.form()->compareBox()->setChecked(true);
    jb::ChildrenModel* m = page.form()->childrenPanel()->model();
    m->addRow({QStringLiteral("slow"),
               jb::RunForm::joinCommand({kFakeChild.toStdString(), "serve", "--jobs", "2", "--job-ms", "200", "--flag",
                                         dir_.filePath(QStringLiteral("slow.flag")).toStdString(), "--cpu-clock"}),
               {}});
    QVERIFY2(page.form()->problem().isEmpty(), qPrintable(page.form()->problem()));
    QVERIFY(page.comparisonView()->isHidden());
    QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
    QTest::mouseClick(page.form()->startButton(), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(page.running(), qPrintable(page.banner()->message()), 20000);
    QVERIFY(!page.comparisonView()->isHidden());
    // The comparison fills in while the run goes on: the first block's figures before the end.
    QCOMPARE(page.comparisonView()->cellText(1, jb::InterleavedView::Blocks), QStringLiteral("0"));
    QTRY_VERIFY_WITH_TIMEOUT(page.comparisonView()->cellText(1, jb::InterleavedView::Blocks).toInt() >= 1 ||
                                 !finished.isEmpty(),
                             60000);
    const bool filledDuringTheRun = finished.isEmpty();
    // JB_SHOT_DIR: the page during and after the run, for the docs' screenshots.
    const QString shots = qEnvironmentVariable("JB_SHOT_DIR");
    if (!shots.isEmpty() && filledDuringTheRun)
        page.grab().save(QDir(shots).filePath(QStringLiteral("measure-interleaved-running.png")));
    QVERIFY(filledDuringTheRun);
    QVERIFY(finished.wait(90000));
    if (!shots.isEmpty())
        page.grab().save(QDir(shots).filePath(QStringLiteral("measure-interleaved.png")));

    jb::InterleavedView* v = page.comparisonView();
    QCOMPARE(v->rowCount(), 2);
    QCOMPARE(v->cellText(1, jb::InterleavedView::Child), QStringLiteral("slow"));
    QCOMPARE(v->cellText(0, jb::InterleavedView::EnergyRatio), QStringLiteral("1 (baseline)"));
    bool ok = false;
    const double ratio = v->cellText(1, jb::InterleavedView::EnergyRatio).toDouble(&ok);
    qInfo("energy ratio %s (truth 2)", qPrintable(v->cellText(1, jb::InterleavedView::EnergyRatio)));
    QVERIFY2(ok && ratio > 1.5 && ratio < 2.6, qPrintable(v->cellText(1, jb::InterleavedView::EnergyRatio)));
    QCOMPARE(v->cellText(1, jb::InterleavedView::Blocks), QStringLiteral("3"));

    // The folder: two records and comparison.json, as the CLI writes them.
    const QString cpath = page.comparisonPath();
    QVERIFY2(QFileInfo::exists(cpath), qPrintable(cpath));
    auto c = jb::loadComparisonFile(cpath.toStdString());
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
    QCOMPARE(c->children.size(), std::size_t(2));
    QCOMPARE(c->children[1].name, std::string("slow"));
    // The baseline is named by the label, not its command line, and so is its record's file.
    QCOMPARE(c->children[0].name, std::string("gui-test"));
    QVERIFY2(QString::fromStdString(*c->children[0].record).startsWith(QStringLiteral("gui-test")),
             c->children[0].record->c_str());
    // The rounds table names each round's workload, beside the round number.
    QTableView* table = page.view()->table();
    QVERIFY(!table->isColumnHidden(jb::RoundsModel::WorkloadCol));
    QCOMPARE(table->horizontalHeader()->visualIndex(jb::RoundsModel::WorkloadCol), 1);
    QStringList names;
    for (int row = 0; row < page.view()->roundsModel()->rowCount(); ++row)
        names << page.view()->roundsModel()->index(row, jb::RoundsModel::WorkloadCol).data().toString();
    QCOMPARE(names.count(QStringLiteral("slow")), 3);
    QCOMPARE(names.count(QStringLiteral("gui-test")), 3);
    auto slow = jb::loadRecord(jb::comparisonChildPath(cpath.toStdString(), *c->children[1].record));
    QVERIFY2(slow.ok(), slow.ok() ? "" : slow.error().c_str());
    QCOMPARE(slow->rounds.size(), std::size_t(3));
    QCOMPARE(slow->status, std::optional<std::string>("complete"));
    QVERIFY(QDir(QFileInfo(cpath).absolutePath()).entryList({QStringLiteral("*.json")}).size() == 3);

    // The chart names the workload of a busy window.
    QVERIFY(slow->rounds[0].window);
    const auto& w = *slow->rounds[0].window;
    const double mid_s = double((w[0] + w[1]) / 2 - page.view()->originNs()) / 1e9;
    QVERIFY2(page.view()->chart()->describeAt(mid_s).contains(QStringLiteral("slow")),
             qPrintable(page.view()->chart()->describeAt(mid_s)));

    // The summary under the chart is one line per workload over its own rounds (never their
    // mix), and the slow one's median is the one its own record gives.
    const QString sum = page.view()->summary()->plainText();
    QCOMPARE(sum.count(QStringLiteral("over 3 of 3 rounds")), 2);
    QVERIFY2(sum.contains(QStringLiteral("slow · ")), qPrintable(sum));
    const jb::CounterSummary own = jb::summaryOf(*slow, page.view()->counter());
    QVERIFY(own.median_j_per_decode);
    QVERIFY2(sum.contains(QStringLiteral("slow · ")) &&
                 sum.mid(sum.indexOf(QStringLiteral("slow · "))).contains(jb::fmt::significant(*own.median_j_per_decode, 4)),
             qPrintable(sum));
}

// "Run as a plain command" is the plan's exec (measure --exec): off by default, read back by
// applyPlan, and the workloads the Start check probes are run by the exec shim.
void TestMeasurePage::plainCommandIsThePlansExec()
{
    jb::RunForm form;
    form.applyPlan(smallPlan(3, 80, dir_.filePath(QStringLiteral("pc.flag"))));
    QVERIFY(!form.plainCommandCheck()->isChecked());
    auto plan = form.plan();
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
    QVERIFY(!plan->exec);
    form.plainCommandCheck()->click();
    plan = form.plan();
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
    QVERIFY(plan->exec);
    const auto probed = jb::planWorkloads(*plan);
    QCOMPARE(probed.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(probed[0].argv[0]).endsWith(QStringLiteral("/joulebench-exec")));
    QCOMPARE(probed[0].argv[1], std::string("--"));
    QCOMPARE(probed[0].argv[2], plan->child[0]);
    jb::RunForm other;
    other.applyPlan(*plan);
    QVERIFY(other.plainCommandCheck()->isChecked());
}

void TestMeasurePage::keepGoingDropsTheFailedWorkloadAndGoesOn()
{
    jb::MeasurePage page;
    page.resize(1300, 900);
    page.show();
    // Rounds of 2 x 80 ms: over the Start check's three 50 ms samples.
    page.form()->applyPlan(smallPlan(3, 80, dir_.filePath(QStringLiteral("kg.flag"))));
    page.form()->compareBox()->setChecked(true);
    jb::ChildrenPanel* panel = page.form()->childrenPanel();
    panel->model()->addRow({QStringLiteral("crashes"),
                            jb::RunForm::joinCommand({kFakeChild.toStdString(), "serve", "--jobs", "2", "--job-ms", "80",
                                                      "--mode", "exit", "--fail-round", "2"}),
                            {}});
    // Off by default, as the CLI without --keep-going; the box is the plan's flag.
    QVERIFY(!panel->keepGoing());
    auto plan = page.form()->plan();
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
    QVERIFY(!plan->keep_going);
    panel->keepGoingBox()->click();
    plan = page.form()->plan();
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
    QVERIFY(plan->keep_going);

    QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
    QTest::mouseClick(page.form()->startButton(), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(page.running(), qPrintable(page.banner()->message()), 20000);
    QVERIFY(finished.wait(90000));

    // The crashing workload is dropped at its second block; the baseline runs all three.
    const QString cpath = page.comparisonPath();
    auto c = jb::loadComparisonFile(cpath.toStdString());
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
    QCOMPARE(c->children.size(), std::size_t(2));
    QCOMPARE(c->children[1].dropped_block, std::optional<int>(2));
    QVERIFY2(!c->children[0].dropped_block, c->children[0].dropped_reason.c_str());
    auto base = jb::loadRecord(jb::comparisonChildPath(cpath.toStdString(), *c->children[0].record));
    QVERIFY2(base.ok(), base.ok() ? "" : base.error().c_str());
    QCOMPARE(base->rounds.size(), std::size_t(3));
    QCOMPARE(base->status, std::optional<std::string>("complete"));
    auto crashed = jb::loadRecord(jb::comparisonChildPath(cpath.toStdString(), *c->children[1].record));
    QVERIFY2(crashed.ok(), crashed.ok() ? "" : crashed.error().c_str());
    QVERIFY(crashed->isAborted());
    QCOMPARE(crashed->rounds.size(), std::size_t(1));  // the block before it failed is kept
    QVERIFY2(crashed->error && crashed->error->find("dropped at block 2") != std::string::npos,
             crashed->error ? crashed->error->c_str() : "no error");
    QCOMPARE(page.comparisonView()->rowCount(), 2);
    const QString status = page.comparisonView()->cellText(1, jb::InterleavedView::Status);
    QVERIFY2(status.contains(QStringLiteral("dropped at block 2")), qPrintable(status));
}

void TestMeasurePage::savedRecordMatchesTheCli()
{
    QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli + QStringLiteral(" is not built")));
    const jb::Plan plan = smallPlan(2, 100, dir_.filePath(QStringLiteral("run2.flag")));
    jb::MeasurePage page;
    const Run gui = runToEnd(page, plan);
    QVERIFY(!QTest::currentTestFailed());

    // The CLI on the same plan, with raw samples.
    const QString cliOut = dir_.filePath(QStringLiteral("cli.json"));
    QStringList args{QStringLiteral("measure"),  QStringLiteral("--label"),
                     QStringLiteral("gui-test"), QStringLiteral("--rounds"),
                     QStringLiteral("2"),        QStringLiteral("--k"),
                     QStringLiteral("1"),        QStringLiteral("--idle-s"),
                     QStringLiteral("0.3"),      QStringLiteral("--sample-ms"),
                     QStringLiteral("50"),       QStringLiteral("--counter"),
                     QStringLiteral("sim"),      QStringLiteral("--samples"),
                     QStringLiteral("--meta"),   QString::fromStdString(plan.meta.dump()),
                     QStringLiteral("--out"),    cliOut,
                     QStringLiteral("--")};
    for (const std::string& a : plan.child)
        args << QString::fromStdString(a);
    QProcess cli;
    cli.start(kCli, args);
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

    auto cliRecord = jb::loadRecord(cliOut.toStdString());
    auto guiRecord = jb::loadRecord(gui.path.toStdString());
    QVERIFY(cliRecord && guiRecord);
    // Same keys, to the last nested one.
    const auto cliKeys = keyPaths(jb::toJson(cliRecord.value()));
    const auto guiKeys = keyPaths(jb::toJson(guiRecord.value()));
    QVERIFY2(cliKeys == guiKeys, qPrintable(diff(guiKeys, cliKeys)));
    // And the file on disk is that JSON (nothing added or lost in reading it back).
    QFile f(gui.path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto onDisk = jb::parseJsonText(f.readAll().toStdString());
    QVERIFY(onDisk);
    QVERIFY2(keyPaths(onDisk.value()) == cliKeys, qPrintable(diff(keyPaths(onDisk.value()), cliKeys)));
    // The plan's figures agree value for value.
    const jb::Record& a = guiRecord.value();
    const jb::Record& b = cliRecord.value();
    QCOMPARE(a.label, b.label);
    QCOMPARE(a.meta, b.meta);
    QCOMPARE(a.k, b.k);
    QCOMPARE(a.jobs, b.jobs);
    QCOMPARE(a.counters, b.counters);
    QCOMPARE(a.idle_s, b.idle_s);
    QCOMPARE(a.sample_s, b.sample_s);
    QCOMPARE(a.child, b.child);
    QCOMPARE(a.rounds.size(), b.rounds.size());
    for (std::size_t i = 0; i < a.rounds.size(); ++i)
        QCOMPARE(a.rounds[i].decodes, b.rounds[i].decodes);
}

void TestMeasurePage::stopMidRoundKeepsTheRoundsDone()
{
    jb::MeasurePage page;
    page.show();
    const QString marker = dir_.filePath(QStringLiteral("stop.flag"));
    page.form()->applyPlan(smallPlan(3, 400, marker));  // each busy window 0.8 s
    QSignalSpy rounds(page.controller(), &jb::RunSource::roundFinished);
    QSignalSpy phases(page.controller(), &jb::RunSource::phase);
    QSignalSpy finished(&page, &jb::MeasurePage::runFinished);
    QTest::mouseClick(page.form()->startButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(rounds.count(), 1, 30000);
    // Wait for round 2 to be under way, then Stop.
    auto busyInRound2 = [&] {
        if (phases.isEmpty())
            return false;
        const auto e = phases.last()[0].value<jb::PhaseEvent>();
        return e.kind == jb::PhaseEvent::BusyStarted && e.round == 1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(busyInRound2(), 30000);
    QVERIFY(childAlive(marker));
    // Round 1 is already in the crash journal.
    const QDir records(dir_.filePath(QStringLiteral("records")));
    QCOMPARE(records.entryList({QStringLiteral("*.journal")}).size(), 1);
    QTest::mouseClick(page.form()->stopButton(), Qt::LeftButton);
    QVERIFY(finished.wait(20000));

    const auto r = finished[0][0].value<jb::Record>();
    QVERIFY(r.isAborted());
    QVERIFY2(r.error && QString::fromStdString(*r.error).contains(QStringLiteral("stopped")),
             r.error ? r.error->c_str() : "");
    QCOMPARE(r.rounds.size(), std::size_t(1));
    QCOMPARE(page.view()->roundsModel()->rowCount(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!childAlive(marker), 5000);  // Stop ended the child
    QVERIFY(records.entryList({QStringLiteral("*.journal")}).isEmpty());
    // What was measured stays on screen and is saved as an aborted record.
    QVERIFY(page.view()->chart()->pointCount() > 10);
    QVERIFY(page.banner()->isVisible());
    QVERIFY(page.banner()->text().contains(QStringLiteral("aborted")));
    const QString path = finished[0][1].toString();
    QVERIFY2(path.endsWith(QStringLiteral("-aborted.json")), qPrintable(path));
    auto loaded = jb::loadRecord(path.toStdString());
    QVERIFY(loaded);
    QVERIFY(loaded->isAborted());
    QCOMPARE(loaded->rounds.size(), std::size_t(1));
    QVERIFY(loaded->samplesOf("sim") && !loaded->samplesOf("sim")->empty());
}

TestMeasurePage::WindowRun TestMeasurePage::startInWindow(jb::MainWindow& w, const QString& name)
{
    WindowRun run;
    w.show();
    [&] { QVERIFY(QTest::qWaitForWindowExposed(&w)); }();
    jb::MeasurePage* page = w.measurePage();
    run.marker = dir_.filePath(name);
    page->form()->applyPlan(smallPlan(3, 400, run.marker));
    QSignalSpy phases(page->controller(), &jb::RunSource::phase);
    run.finished = std::make_unique<QSignalSpy>(page, &jb::MeasurePage::runFinished);
    page->start();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(phases.count() >= 3, 30000); }();  // round 1 is busy
    return run;
}

void TestMeasurePage::expectClosedAndSaved(jb::MainWindow& w, WindowRun& run, const QString& why)
{
    QVERIFY(run.finished->count() == 1 || run.finished->wait(20000));
    QTRY_VERIFY(!w.isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!childAlive(run.marker), 5000);
    const auto r = run.finished->at(0).at(0).value<jb::Record>();
    QVERIFY(r.isAborted());
    QVERIFY2(QString::fromStdString(r.error.value_or("")).contains(why), r.error.value_or("").c_str());
    QVERIFY(QFileInfo::exists(run.finished->at(0).at(1).toString()));  // saved, not left to a journal
}

void TestMeasurePage::closingTheWindowAsksStopsAndSaves()
{
    jb::MainWindow w;
    int asked = 0;
    bool answer = false;
    w.confirmStopRun = [&] {
        ++asked;
        return answer;
    };
    WindowRun run = startInWindow(w, QStringLiteral("close.flag"));
    if (QTest::currentTestFailed())
        return;

    QVERIFY(!w.close());  // "no": the run goes on
    QCOMPARE(asked, 1);
    QVERIFY(w.measurePage()->running());
    QVERIFY(w.isVisible());

    answer = true;
    QVERIFY(!w.close());  // the window waits for the run to end and be saved
    QCOMPARE(asked, 2);
    expectClosedAndSaved(w, run, QStringLiteral("window was closed"));
}

void TestMeasurePage::aSignalClosesWithoutAskingAndSaves()
{
    jb::MainWindow w;
    int asked = 0;
    w.confirmStopRun = [&] {
        ++asked;
        return false;  // a user would say no; a signal does not ask
    };
    w.busyElsewhere = [&] {
        ++asked;
        return QStringLiteral("jobs are running");
    };
    WindowRun run = startInWindow(w, QStringLiteral("signal.flag"));
    if (QTest::currentTestFailed())
        return;

    w.closeForSignal(QStringLiteral("SIGTERM"));
    expectClosedAndSaved(w, run, QStringLiteral("SIGTERM"));
    QCOMPARE(asked, 0);
}

void TestMeasurePage::destroyingThePageMidRunEndsTheChild()
{
    auto page = std::make_unique<jb::MeasurePage>();
    const QString marker = dir_.filePath(QStringLiteral("destroy.flag"));
    page->form()->applyPlan(smallPlan(3, 400, marker));
    QSignalSpy phases(page->controller(), &jb::RunSource::phase);
    page->start();
    QTRY_VERIFY_WITH_TIMEOUT(phases.count() >= 3, 30000);
    QVERIFY(childAlive(marker));
    page.reset();  // the backend thread is ended and the session with it
    QTRY_VERIFY_WITH_TIMEOUT(!childAlive(marker), 5000);
}

QTEST_MAIN(TestMeasurePage)
#include "tst_measurepage.moc"
