// Records opened read-only on the Measure page: a reference record (no samples), a JouleBench
// record with samples (chart, shading), a broken file; exports of rounds, samples and chart;
// opening by drag and drop and from the recent files.
#include "MainWindow.h"
#include "chart/ChartLegend.h"
#include "chart/ChartPanel.h"
#include "chart/PowerChart.h"
#include "common/Palette.h"
#include "common/CsvExport.h"
#include "common/RecentFiles.h"
#include "common/RecordView.h"
#include "common/RoundsModel.h"
#include "common/SummaryStrip.h"
#include "measure/MeasurePage.h"
#include <jb/record/RecordJson.h>

#include <QAbstractItemModelTester>
#include <QDropEvent>
#include <QGraphicsView>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {
const QString kReference = QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json");
const QString kWithSamples = QStringLiteral(JB_FIXTURES "/records/joulebench-rapl.json");

int lines(const std::string& s)
{
    return int(std::count(s.begin(), s.end(), '\n'));
}
}  // namespace

class TestRecordView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void referenceRecordHasNoChart();
    void recordWithSamplesIsDrawn();
    void legendNamesEveryMark();
    void brokenFileIsRefusedByName();
    void exportsRoundsSamplesAndChart();
    void opensByDropAndRemembers();

private:
    QTemporaryDir dir_;
};

void TestRecordView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_recordview"));
    QSettings().clear();
    QVERIFY(dir_.isValid());
}

void TestRecordView::referenceRecordHasNoChart()
{
    jb::MeasurePage page;
    page.show();
    QAbstractItemModelTester tester(page.view()->roundsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto st = page.openRecord(kReference);
    QVERIFY2(st, st ? "" : st.error().c_str());
    auto ref = jb::loadRecord(kReference.toStdString());
    QVERIFY(ref);
    QVERIFY(page.readOnly());
    QCOMPARE(page.view()->roundsModel()->rowCount(), int(ref->rounds.size()));
    for (int i = 0; i < int(ref->rounds.size()); ++i)
        QCOMPARE(page.view()
                     ->roundsModel()
                     ->index(i, jb::RoundsModel::VerdictCol)
                     .data(jb::RoundsModel::VerdictRole)
                     .toString(),
                 QString::fromLatin1(ref->rounds[std::size_t(i)].counter("rapl")->verdict
                                         ? jb::verdictName(*ref->rounds[std::size_t(i)].counter("rapl")->verdict)
                                         : ""));
    QVERIFY(page.banner()->isVisible());
    QVERIFY2(page.banner()->text().contains(QStringLiteral("no raw samples")),
             qPrintable(page.banner()->text()));
    QCOMPARE(page.view()->chart()->pointCount(), 0);
    QVERIFY(page.view()->summary()->plainText().contains(QStringLiteral("rapl")));
    QVERIFY(page.view()->summary()->plainText().contains(QStringLiteral("J per decode")));
}

void TestRecordView::recordWithSamplesIsDrawn()
{
    jb::RecordView view;
    view.resize(1000, 700);
    view.show();
    auto r = jb::loadRecord(kWithSamples.toStdString());
    QVERIFY2(r, r ? "" : r.error().c_str());
    view.showRecord(r.value());
    view.chart()->redraw();
    QVERIFY(view.chart()->pointCount() > 10);
    QVERIFY(view.chart()->following());
    // Time 0 is the first sample; the view spans the record.
    const auto& iv = *r->samplesOf("rapl");
    QCOMPARE(view.originNs(), std::min(iv.front().t0_ns, (*r->rounds[0].brackets)[0][0]));
    QCOMPARE(view.chart()->visibleRange().second, double(iv.back().t1_ns - view.originNs()) / 1e9);
    // Busy windows are labelled with their verdicts for the hover text.
    const auto& w = *r->rounds[0].window;
    const double mid_s = double((w[0] + w[1]) / 2 - view.originNs()) / 1e9;
    const QString verdict = jb::verdictStyle(r->rounds[0].counter("rapl")->verdict).text;
    QVERIFY2(view.chart()->describeAt(mid_s).contains(QStringLiteral("round 1 busy: ") + verdict),
             qPrintable(view.chart()->describeAt(mid_s)));
    QCOMPARE(view.roundsModel()->rowCount(), int(r->rounds.size()));
    QCOMPARE(view.counter(), std::string("rapl"));
}

// The legend below the chart names each mark the chart draws: the power line, the unshaded
// start, idle brackets, idle mean +- sd boxes, each round verdict's colour, the dashed baseline;
// in an interleaved run each workload's colour. Hovering fills the read-out above the plot.
void TestRecordView::legendNamesEveryMark()
{
    jb::RecordView view;
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto r = jb::loadRecord(kWithSamples.toStdString());
    QVERIFY2(r, r ? "" : r.error().c_str());
    view.showRecord(r.value());
    jb::ChartLegend* legend = view.chartPanel()->legend();
    QStringList want{QStringLiteral("rapl power (W)"), QStringLiteral("idle bracket"),
                     QStringLiteral("idle mean ± 1 sd"), QStringLiteral("idle baseline")};
    // The record's samples begin before its first idle bracket: the child's start, unshaded.
    if ((*r->rounds[0].brackets)[0][0] > r->samplesOf("rapl")->front().t0_ns)
        want << QStringLiteral("unshaded: child starting");
    for (const jb::Round& round : r->rounds)
        want << QStringLiteral("round: ") + jb::verdictStyle(round.counter("rapl")->verdict).text;
    const QStringList texts = legend->texts();
    for (const QString& w : want)
        QVERIFY2(texts.contains(w), qPrintable(w + QStringLiteral(" not in ") + texts.join(QStringLiteral(" | "))));
    QVERIFY(legend->isVisible());
    QVERIFY(legend->height() >= legend->heightForWidth(legend->width()));
    // Below the plot, not over it.
    QVERIFY(legend->geometry().top() >= view.chart()->geometry().bottom());

    // Interleaved: each workload's windows in its colour, named.
    std::vector<int> of_round;
    for (std::size_t i = 0; i < r->rounds.size(); ++i)
        of_round.push_back(int(i % 2));
    view.setWorkloads({"png", "jpeg"}, of_round);
    QVERIFY2(legend->texts().contains(QStringLiteral("workload png")), qPrintable(legend->texts().join(QLatin1Char('|'))));
    QVERIFY(legend->texts().contains(QStringLiteral("workload jpeg")));

    // The hover read-out says the time and the watts of the sample under the pointer.
    QLabel* readout = view.chartPanel()->readout();
    view.chart()->redraw();
    QSignalSpy hovered(view.chart(), &jb::ChartFrame::hovered);
    auto* plot = view.chart()->findChild<QGraphicsView*>();
    QVERIFY(plot);
    for (int x = 0; x < plot->width() && hovered.isEmpty(); x += 4)
        QTest::mouseMove(plot->viewport(), QPoint(x, plot->height() / 2));
    QVERIFY(!hovered.isEmpty());
    const QString said = hovered.last()[0].toString();
    QVERIFY2(said.contains(QStringLiteral(" s ")) && said.contains(QStringLiteral(" W")), qPrintable(said));
    QCOMPARE(readout->text(), said);
}

void TestRecordView::brokenFileIsRefusedByName()
{
    jb::MeasurePage page;
    QVERIFY(page.openRecord(kWithSamples));
    const QString broken = dir_.filePath(QStringLiteral("broken.json"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"label\": \"x\", \"rounds\": [");
    f.close();
    const auto st = page.openRecord(broken);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error()).contains(broken), st.error().c_str());
    // The record on screen stays.
    QCOMPARE(page.recordPath(), QFileInfo(kWithSamples).absoluteFilePath());
    QVERIFY(page.view()->roundsModel()->rowCount() > 0);
}

void TestRecordView::exportsRoundsSamplesAndChart()
{
    jb::MeasurePage page;
    page.resize(1200, 800);
    page.show();
    QVERIFY(page.openRecord(kWithSamples));
    const jb::Record& r = page.record();
    const QString rounds = dir_.filePath(QStringLiteral("r.csv"));
    const QString samples = dir_.filePath(QStringLiteral("s.csv"));
    QVERIFY(page.exportRoundsCsv(rounds));
    QVERIFY(page.exportSamplesCsv(samples));
    QFile rf(rounds), sf(samples);
    QVERIFY(rf.open(QIODevice::ReadOnly) && sf.open(QIODevice::ReadOnly));
    const std::string rtext = rf.readAll().toStdString(), stext = sf.readAll().toStdString();
    QCOMPARE(lines(rtext), int(r.rounds.size()) + 1);
    QCOMPARE(lines(stext), int(r.samplesOf("rapl")->size()) + 1);
    QVERIFY(rtext.rfind("round,decodes,child_wall_ns,window_ns,child_note,rapl.idle_before_w", 0) == 0);
    QVERIFY(stext.rfind("counter,t0_ns,t1_ns,nj,power_w\nrapl,", 0) == 0);
    // Each rounds row carries the record's own figures, in full precision.
    const auto* c = r.rounds[0].counter("rapl");
    char expect[64];
    std::snprintf(expect, sizeof expect, ",%.17g,", c->marginal_nj);
    QVERIFY(rtext.find(expect) != std::string::npos);
    const QString png = dir_.filePath(QStringLiteral("c.png"));
    const QString svg = dir_.filePath(QStringLiteral("c.svg"));
    QVERIFY(page.exportChartPng(png));
    QVERIFY(page.exportChartSvg(svg));
    QVERIFY(!QImage(png).isNull());
    QVERIFY(QFileInfo(svg).size() > 1000);
    // A quoted cell survives commas and quotes.
    jb::Record odd;
    jb::Round round;
    round.child_note = "a,b \"c\"";
    odd.rounds.push_back(round);
    QVERIFY(jb::roundsCsv(odd).find("\"a,b \"\"c\"\"\"") != std::string::npos);
}

void TestRecordView::opensByDropAndRemembers()
{
    jb::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kWithSamples)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QCOMPARE(w.measurePage()->recordPath(), QFileInfo(kWithSamples).absoluteFilePath());
    QCOMPARE(w.recentFiles()->files().value(0), QFileInfo(kWithSamples).absoluteFilePath());
    QVERIFY(w.openRecord(kReference));
    QCOMPARE(w.recentFiles()->files().size(), 2);
    QCOMPARE(w.recentFiles()->files().value(0), QFileInfo(kReference).absoluteFilePath());
    // A new window finds them again (QSettings).
    jb::RecentFiles again;
    QCOMPARE(again.files(), w.recentFiles()->files());
}

QTEST_MAIN(TestRecordView)
#include "tst_recordview.moc"
