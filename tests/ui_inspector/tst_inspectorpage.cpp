// The Inspector page end to end (offscreen): records load off the GUI thread into tabs, the
// reference's golden record and JouleBench records show what they hold, broken files get
// loadRecord's message and leave the other tabs alone, verify is shown, coarse counters are
// named, two records compare as jb::compareRecords says, and exports write what they should.
#include "MakeRecord.h"
#include "chart/PowerChart.h"
#include "chart/RatioChart.h"
#include "common/Banner.h"
#include "common/CsvExport.h"
#include "common/Format.h"
#include "common/InterleavedView.h"
#include "common/RecordView.h"
#include "common/RoundsModel.h"
#include "common/SummaryStrip.h"
#include "inspector/CompareView.h"
#include "inspector/DisagreementModel.h"
#include "inspector/InspectorPage.h"
#include "inspector/MetadataView.h"
#include "inspector/RecordTab.h"
#include "inspector/ResolutionProxyModel.h"
#include "inspector/RoundChart.h"
#include "inspector/VerifyPanel.h"
#include <jb/record/Compare.h>
#include <jb/record/JsonText.h>
#include <jb/record/RecordJson.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace jb;

namespace {

const QString kReference = QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json");
const QString kComparisonDir = QStringLiteral(JB_FIXTURES "/comparison");

QByteArray slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestInspectorPage : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString a_, b_, aborted_, coarse_, tampered_, power_;
    QStringList errorsShown_;

    QString write(const QString& name, const std::string& text)
    {
        const QString p = dir_.filePath(name);
        QFile f(p);
        if (f.open(QIODevice::WriteOnly))
            f.write(text.data(), qint64(text.size()));
        return p;
    }

    // A page whose dialogs are recorded instead of shown.
    std::unique_ptr<InspectorPage> page()
    {
        auto p = std::make_unique<InspectorPage>();
        errorsShown_.clear();
        p->showError = [this](const QString&, const QString& message) { errorsShown_ << message; };
        p->askSavePath = [](const QString&, const QString&, const QString&) { return QString(); };
        p->resize(1400, 860);
        p->show();
        return p;
    }

    // Opens the files and waits until every load has finished (recordOpened or openFailed).
    static bool openAndWait(InspectorPage& p, const QStringList& paths)
    {
        QSignalSpy idle(&p, &InspectorPage::loadingChanged);
        p.openRecords(paths);
        if (!p.isLoading())
            return true;
        while (p.isLoading())
            if (!idle.wait(10000))
                return false;
        return true;
    }

    // The fixture's comparison.json, spoiled by `edit`, written into a fresh folder of the temp
    // dir with the child records named in `records` copied beside it.
    QString comparisonCopy(const QString& folder, const QStringList& records,
                           const std::function<void(ojson&)>& edit = {})
    {
        QDir(dir_.path()).mkpath(folder);
        const QString d = dir_.filePath(folder);
        for (const QString& r : records)
            QFile::copy(kComparisonDir + QLatin1Char('/') + r, d + QLatin1Char('/') + r);
        ojson j = parseJsonText(slurp(kComparisonDir + QStringLiteral("/comparison.json")).toStdString()).value();
        if (edit)
            edit(j);
        const QString p = d + QStringLiteral("/comparison.json");
        QFile f(p);
        if (f.open(QIODevice::WriteOnly))
            f.write(QByteArray::fromStdString(j.dump(2)));
        return p;
    }

private slots:
    void aComparisonOpensItsChildrenAndItsFigures()
    {
        auto p = page();
        const QString path = kComparisonDir + QStringLiteral("/comparison.json");
        QVERIFY(openAndWait(*p, {path}));
        QVERIFY2(errorsShown_.isEmpty(), qPrintable(errorsShown_.join(QLatin1Char('\n'))));
        // Both children's records, each in its tab, and the comparison's view, shown.
        QCOMPARE(p->tabCount(), 2);
        QCOMPARE(p->recordTab(0)->path(), QFileInfo(kComparisonDir + QStringLiteral("/low.json")).absoluteFilePath());
        QCOMPARE(p->recordTab(1)->path(), QFileInfo(kComparisonDir + QStringLiteral("/high.json")).absoluteFilePath());
        QVERIFY(p->recordTab(0)->isLoaded() && p->recordTab(1)->isLoaded());
        QCOMPARE(p->comparisonCount(), 1);
        InterleavedView* v = p->comparisonView(0);
        QCOMPARE(p->tabs()->currentWidget(), v);
        // The figures are the file's.
        const ojson j = parseJsonText(slurp(path).toStdString()).value();
        const ojson& e = j.at("pairs")[0].at("energy");
        const ojson& t = j.at("pairs")[0].at("time");
        QCOMPARE(v->rowCount(), 2);
        QCOMPARE(v->cellText(0, InterleavedView::Child), QStringLiteral("low"));
        QCOMPARE(v->cellText(0, InterleavedView::EnergyRatio), QStringLiteral("1 (baseline)"));
        QCOMPARE(v->cellText(1, InterleavedView::Child), QStringLiteral("high"));
        QCOMPARE(v->cellText(1, InterleavedView::JPerDecode),
                 fmt::significant(j.at("children")[1].at("median_j_per_decode").get<double>(), 4));
        QCOMPARE(v->cellText(1, InterleavedView::EnergyRatio), fmt::fixed(e.at("ratio").get<double>(), 4));
        QCOMPARE(v->cellText(1, InterleavedView::EnergyCi), fmt::fixed(e.at("ratio_ci95")[0].get<double>(), 4) +
                                                                 QStringLiteral(" – ") +
                                                                 fmt::fixed(e.at("ratio_ci95")[1].get<double>(), 4));
        QCOMPARE(v->cellText(1, InterleavedView::EnergyP), fmt::fixed(e.at("p_value").get<double>(), 3));
        QVERIFY(e.at("significant").get<bool>());
        QVERIFY(v->cellText(1, InterleavedView::EnergySignificant).startsWith(QStringLiteral("yes")));
        QVERIFY(!t.at("significant").get<bool>());
        QCOMPARE(v->cellText(1, InterleavedView::TimeSignificant), QStringLiteral("no"));
        QCOMPARE(v->cellText(1, InterleavedView::TimeRatio), fmt::fixed(t.at("ratio").get<double>(), 4));
        QCOMPARE(v->cellText(1, InterleavedView::Blocks), QStringLiteral("6"));
        QVERIFY2(v->headline().contains(QStringLiteral("baseline <b>low</b>")), qPrintable(v->headline()));
        QVERIFY(v->headline().contains(QStringLiteral("1 warm-up block")));
        QVERIFY(v->headline().contains(QStringLiteral("significant at p &lt; 0.05")));  // rich text: "<" escaped
        QVERIFY(v->banner()->message().isEmpty());
        // The chart: an energy and a time interval for the one pair, 1 and the intervals in range.
        QCOMPARE(v->chart()->bars(), 2);
        const auto [lo, hi] = v->chart()->ratioRange();
        QVERIFY(lo < t.at("ratio_ci95")[0].get<double>() && e.at("ratio_ci95")[1].get<double>() < hi);
        // Opened again: the same view comes forward.
        p->setCurrentRecordTab(0);
        p->openRecords({path});
        QCOMPARE(p->comparisonCount(), 1);
        QCOMPARE(p->tabCount(), 2);
        QCOMPARE(p->tabs()->currentWidget(), v);
    }

    void aMissingChildRecordIsNamedAndTheOthersOpen()
    {
        auto p = page();
        const QString path = comparisonCopy(QStringLiteral("missing"), {QStringLiteral("low.json")});
        QSignalSpy failed(p.get(), &InspectorPage::openFailed);
        QVERIFY(openAndWait(*p, {path}));
        QCOMPARE(p->tabCount(), 1);
        QCOMPARE(p->comparisonCount(), 1);
        const QString high = QFileInfo(dir_.filePath(QStringLiteral("missing/high.json"))).absoluteFilePath();
        QCOMPARE(errorsShown_.size(), 1);
        QVERIFY2(errorsShown_[0].contains(high) && errorsShown_[0].contains(QStringLiteral("missing")),
                 qPrintable(errorsShown_[0]));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].toString(), high);
        InterleavedView* v = p->comparisonView(0);
        QVERIFY(v->banner()->message().contains(high));
        QCOMPARE(v->banner()->tone(), Tone::Error);
        // The figures are still there.
        QCOMPARE(v->cellText(1, InterleavedView::Blocks), QStringLiteral("6"));
    }

    void aDroppedChildIsShown()
    {
        auto p = page();
        const QString path = comparisonCopy(QStringLiteral("dropped"), {QStringLiteral("low.json"), QStringLiteral("high.json")},
                                            [](ojson& j) {
                                                j["children"][1]["dropped"] = {{"block", 3},
                                                                               {"reason", "child 2 (high): it exited"}};
                                            });
        QVERIFY(openAndWait(*p, {path}));
        QVERIFY(errorsShown_.isEmpty());
        InterleavedView* v = p->comparisonView(0);
        QVERIFY2(v->banner()->message().contains(QStringLiteral("high was dropped at block 3 (--keep-going): child 2 (high): it exited")),
                 qPrintable(v->banner()->message()));
        QCOMPARE(v->banner()->tone(), Tone::Warning);
        QVERIFY(v->cellText(1, InterleavedView::Status).contains(QStringLiteral("dropped at block 3")));
        QVERIFY(!v->cellText(0, InterleavedView::Status).contains(QStringLiteral("dropped")));
    }

    void aBadComparisonGetsItsMessageAndOpensNothing()
    {
        auto p = page();
        const QString path = comparisonCopy(QStringLiteral("bad"), {QStringLiteral("low.json"), QStringLiteral("high.json")},
                                            [](ojson& j) { j["pairs"][0]["energy"]["ratio_ci95"] = "wide"; });
        QVERIFY(openAndWait(*p, {path}));
        QCOMPARE(p->tabCount(), 0);
        QCOMPARE(p->comparisonCount(), 0);
        QCOMPARE(errorsShown_.size(), 1);
        QVERIFY2(errorsShown_[0].startsWith(QFileInfo(path).absoluteFilePath() +
                                            QStringLiteral(": $.pairs[0].energy.ratio_ci95: expected [low, high]")),
                 qPrintable(errorsShown_[0]));
    }

    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        jbtest::RunShape sa;
        sa.label = "decoder-a";
        sa.rounds = 6;
        sa.busy_w = 35.0;
        sa.seed = 3;
        a_ = write(QStringLiteral("a.json"), dumpRecord(jbtest::makeRecord(sa)));
        jbtest::RunShape sb = sa;
        sb.label = "decoder-b";
        sb.rounds = 5;
        sb.busy_w = 32.0;
        sb.seed = 4;
        b_ = write(QStringLiteral("b.json"), dumpRecord(jbtest::makeRecord(sb)));

        Record ab = jbtest::makeRecord(sa);
        ab.rounds.resize(2);
        ab.status = "aborted";
        ab.error = "the child exited with status 3 during round 3";
        ab.label = "stopped";
        aborted_ = write(QStringLiteral("aborted.json"), dumpRecord(ab));

        jbtest::RunShape sc;
        sc.label = "coarse";
        sc.period_ns = 10'000'000;
        sc.cadence_ns = 250'000'000;
        coarse_ = write(QStringLiteral("coarse.json"), dumpRecord(jbtest::makeRecord(sc)));

        // A GPU's power reading integrated (no counter_info: the averaged reading).
        jbtest::RunShape sp;
        sp.label = "power";
        sp.spec = "nvml-power:0";
        power_ = write(QStringLiteral("power.json"), dumpRecord(jbtest::makeRecord(sp)));

        // A stored figure changed after the run: verify must point at it.
        ojson j = toJson(jbtest::makeRecord(sa));
        j["rounds"][1]["rapl"]["marginal_nj"] = j["rounds"][1]["rapl"]["marginal_nj"].get<double>() * 1.01;
        tampered_ = write(QStringLiteral("tampered.json"), dumpJson(j) + "\n");
    }

    void loadsOffTheGuiThread()
    {
        auto p = page();
        QSignalSpy loading(p.get(), &InspectorPage::loadingChanged);
        QSignalSpy opened(p.get(), &InspectorPage::recordOpened);
        p->openRecord(a_);
        // The tab is there at once, still loading: the work is on a worker thread and its
        // result comes back through the event loop.
        QCOMPARE(p->tabCount(), 1);
        QVERIFY(!p->recordTab(0)->isLoaded());
        QVERIFY(p->recordTab(0)->loadingText().contains(QStringLiteral("Opening a.json")));
        QVERIFY(p->isLoading());
        QCOMPARE(loading.count(), 1);
        QVERIFY(loading.at(0).at(0).toBool());
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.at(0).at(0).toString(), QFileInfo(a_).absoluteFilePath());
        QVERIFY(p->recordTab(0)->isLoaded());
        QVERIFY(!p->isLoading());
        QCOMPARE(loading.last().at(0).toBool(), false);
    }

    void referenceRecordShowsWhatItHolds()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {kReference}));
        QCOMPARE(p->tabCount(), 1);
        RecordTab* t = p->recordTab(0);
        QVERIFY(t->isLoaded());
        QVERIFY(errorsShown_.isEmpty());
        QVERIFY2(t->bannerText().contains(QStringLiteral("reference harness")), qPrintable(t->bannerText()));
        QVERIFY(t->headerText().contains(QStringLiteral("reference")));
        // Rounds table and summary from the dashboard.
        QCOMPARE(t->recordView()->table()->model()->rowCount(), 3);
        QCOMPARE(t->recordView()->table()->model(), static_cast<QAbstractItemModel*>(t->roundsProxy()));
        QVERIFY(t->recordView()->summary()->text().contains(QStringLiteral("J per decode")));
        // Per-round chart: three rounds with bars.
        QCOMPARE(t->roundChart()->markCount(), 3);
        QVERIFY(t->roundChart()->describe(0, 0).contains(QStringLiteral("J per decode ±")));
        // No samples: verify says why; the power chart has nothing to draw.
        QCOMPARE(t->verifyPanel()->state(), VerifyPanel::State::Unverifiable);
        QVERIFY2(t->verifyPanel()->summaryText().contains(QStringLiteral("holds no raw samples")),
                 qPrintable(t->verifyPanel()->summaryText()));
        t->recordView()->chart()->redraw();
        QCOMPARE(t->recordView()->chart()->pointCount(), 0);
        // Metadata: label, host, child, meta, counters.
        MetadataView* m = t->metadataView();
        QCOMPARE(m->valueAt(QStringLiteral("Record"), QStringLiteral("Label")), QStringLiteral("reference"));
        QCOMPARE(m->valueAt(QStringLiteral("Host"), QStringLiteral("Machine")), QStringLiteral("x86_64"));
        QVERIFY(
            m->valueAt(QStringLiteral("Child command"), {}).contains(QStringLiteral("fakechild.py serve")));
        QCOMPARE(m->valueAt(QStringLiteral("Meta"), QStringLiteral("codec")), QStringLiteral("demo"));
        QCOMPARE(m->valueAt(QStringLiteral("Counters"), QStringLiteral("rapl")),
                 QStringLiteral("whole device"));
        // Every 100 ms read of RAPL changes it: no coarse-counter claim.
        QVERIFY(t->coarseText().isEmpty());
        // Exports that need samples say so.
        QVERIFY(!t->exportSamplesCsv(dir_.filePath(QStringLiteral("none.csv"))));
    }

    void joulebenchRecordWithSamples()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {a_}));
        RecordTab* t = p->recordTab(0);
        QVERIFY(t->isLoaded());
        QVERIFY(t->loaded()->fast_samples);
        QVERIFY(t->bannerText().isEmpty());
        QCOMPARE(t->verifyPanel()->state(), VerifyPanel::State::Agrees);
        QVERIFY(t->verifyPanel()->summaryText().startsWith(QStringLiteral("Verified: ")));
        QVERIFY(t->verifyPanel()->model()->rowCount() == 0);
        PowerChart* c = t->recordView()->chart();
        c->redraw();
        QVERIFY(c->pointCount() > 10);
        // Zoomable as on the dashboard.
        const auto [v0, v1] = c->visibleRange();
        c->zoom(0.5, (v0 + v1) / 2);
        QVERIFY(c->visibleRange().second - c->visibleRange().first < (v1 - v0) * 0.6);
        QCOMPARE(t->roundChart()->markCount(), 6);
        QVERIFY(t->roundChart()->yRange().first < t->roundChart()->yRange().second);
        QVERIFY(t->recordView()->summary()->text().contains(QStringLiteral("clean")));
    }

    void tamperedFigureIsShownByPath()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {tampered_}));
        RecordTab* t = p->recordTab(0);
        QCOMPARE(t->verifyPanel()->state(), VerifyPanel::State::Disagrees);
        QVERIFY(t->verifyPanel()->summaryText().contains(QStringLiteral("disagree")));
        const auto& d = t->verifyPanel()->model()->disagreements();
        QVERIFY(!d.empty());
        bool found = false;
        for (const Disagreement& x : d)
            found = found || x.path == "$.rounds[1].rapl.marginal_nj";
        QVERIFY(found);
        QVERIFY(!t->verifyPanel()->table()->isHidden());
    }

    void brokenFiles_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("broken JSON") << QStringLiteral("{\n \"label\": \"x\",\n \"rounds\": [\n}\n")
                                     << QStringLiteral("broken JSON at line 4, column 1");
        QTest::newRow("wrong type") << QString()  // the reference with one field spoiled, below
                                    << QStringLiteral(
                                           "$.rounds[2].rapl.busy.mean_w: expected a number, found \"abc\"");
        QTest::newRow("empty file") << QStringLiteral("") << QStringLiteral("the file is empty");
        QTest::newRow("not a record")
            << QStringLiteral("{\"name\": \"left-pad\", \"version\": \"1.0\"}")
            << QStringLiteral("not a record of JouleBench or of the reference harness");
        QTest::newRow("no such file") << QStringLiteral("-") << QStringLiteral("No such file or directory");
    }
    void brokenFiles()
    {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        const QString tag =
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
        QString path;
        if (content == QLatin1String("-")) {
            path = dir_.filePath(QStringLiteral("missing.json"));
        } else if (content.isEmpty() && tag == QLatin1String("wrong-type")) {
            ojson j = *parseJsonText(slurp(kReference).toStdString());
            j["rounds"][2]["rapl"]["busy"]["mean_w"] = "abc";
            path = write(tag + QStringLiteral(".json"), dumpJson(j));
        } else {
            path = write(tag + QStringLiteral(".json"), content.toStdString());
        }
        auto p = page();
        QVERIFY(openAndWait(*p, {a_}));
        p->setCurrentRecordTab(0);
        RecordTab* kept = p->recordTab(0);
        QSignalSpy failed(p.get(), &InspectorPage::openFailed);
        QVERIFY(openAndWait(*p, {path}));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.at(0).at(1).toString();
        // The message is loadRecord's, word for word, and names the file.
        QCOMPARE(message, QString::fromStdString(loadRecord(path.toStdString()).error()));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(message.startsWith(path) || message.contains(path));
        QCOMPARE(errorsShown_, QStringList{message});
        // The other tab is intact and still works.
        QCOMPARE(p->tabCount(), 1);
        QCOMPARE(p->recordTab(0), kept);
        QVERIFY(kept->isLoaded());
        QCOMPARE(p->currentRecordTab(), kept);
        QCOMPARE(kept->recordView()->table()->model()->rowCount(), 6);
        // And more records still open afterwards.
        QVERIFY(openAndWait(*p, {b_}));
        QCOMPARE(p->tabCount(), 2);
    }

    void abortedRecordSaysWhy()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {aborted_}));
        RecordTab* t = p->recordTab(0);
        QVERIFY2(t->bannerText().contains(QStringLiteral("Aborted run")), qPrintable(t->bannerText()));
        QVERIFY(t->bannerText().contains(QStringLiteral("the child exited with status 3 during round 3")));
        QVERIFY(t->headerText().contains(QStringLiteral("aborted")));
        QVERIFY(!p->tabs()->tabIcon(p->tabs()->indexOf(t)).isNull());
        QCOMPARE(t->metadataView()->valueAt(QStringLiteral("Record"), QStringLiteral("Why it stopped")),
                 QStringLiteral("the child exited with status 3 during round 3"));
    }

    // Issue 36, item 4: a counter whose J per decode is relative only says so above the table,
    // in core's words (jb::counterTrust); an energy register's record says nothing.
    void powerReadingIsRelativeOnly()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {power_, coarse_}));
        RecordTab* t = p->recordTab(0);
        QVERIFY2(t->trustText().startsWith(QStringLiteral(
                     "J per decode relative only (nvml-power:0): averaged power reading (1 s window): "
                     "marginal energy under-counted")),
                 qPrintable(t->trustText()));
        QVERIFY(p->recordTab(1)->trustText().isEmpty());  // rapl: an energy register
    }

    void coarseCounterIsNamed()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {coarse_}));
        RecordTab* t = p->recordTab(0);
        QVERIFY2(t->coarseText().startsWith(QStringLiteral("Coarse counter (rapl): in 3 of 3 rounds")),
                 qPrintable(t->coarseText()));
        QVERIFY(t->coarseText().contains(QStringLiteral("coarse counter: 3.")));
        ResolutionProxyModel* m = t->roundsProxy();
        const QString cell = m->data(m->index(0, m->resolutionColumn())).toString();
        QVERIFY2(cell.startsWith(QStringLiteral("coarse counter: ")) &&
                     cell.contains(QStringLiteral("updates in the window")),
                 qPrintable(cell));
        QVERIFY(t->roundChart()->describe(0, 0).contains(QStringLiteral("coarse counter")));
    }

    void compareTwoRecords()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {a_, b_}));
        QCOMPARE(p->tabCount(), 2);
        // Tabs in the order asked, whatever order the loads finished in.
        QCOMPARE(p->recordTab(0)->path(), QFileInfo(a_).absoluteFilePath());
        QCOMPARE(p->recordTab(1)->path(), QFileInfo(b_).absoluteFilePath());
        // Switch between them.
        p->setCurrentRecordTab(0);
        QCOMPARE(p->currentRecordTab()->title(), QStringLiteral("decoder-a"));
        p->setCurrentRecordTab(1);
        QCOMPARE(p->currentRecordTab()->title(), QStringLiteral("decoder-b"));
        QCOMPARE(p->recordTab(1)->roundChart()->markCount(), 5);

        p->showCompare();
        QVERIFY(p->compareVisible());
        QCOMPARE(p->tabs()->currentWidget(), static_cast<QWidget*>(p->compareView()));
        QCOMPARE(p->tabs()->indexOf(p->compareView()), p->tabs()->count() - 1);
        CompareView* cv = p->compareView();
        QCOMPARE(cv->candidateCount(), 2);
        cv->compare(0, 1, "rapl");
        QVERIFY(cv->comparison());

        const auto ra = loadRecord(a_.toStdString());
        const auto rb = loadRecord(b_.toStdString());
        QVERIFY(ra.ok() && rb.ok());
        const Comparison expected = compareRecords(*ra, *rb, "rapl", 10000, 1);
        QVERIFY(expected.ratio && expected.ci_low && expected.ci_high);
        QCOMPARE(*cv->comparison()->ratio, *expected.ratio);
        QCOMPARE(*cv->comparison()->ci_low, *expected.ci_low);
        QCOMPARE(*cv->comparison()->ci_high, *expected.ci_high);
        // What is shown is that ratio: 35 W vs 32 W busy over a 20 W idle, about 15/12.
        const QString shown = cv->ratioText();
        QVERIFY2(shown.contains(CompareView::formatRatio(expected).section(QLatin1Char(' '), 0, 0)),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("95% CI")), qPrintable(shown));
        QVERIFY(*expected.ratio > 1.15 && *expected.ratio < 1.35);
        QVERIFY2(cv->verdictText().contains(QStringLiteral("more energy per decode than B")),
                 qPrintable(cv->verdictText()));
        // Side by side: verdict counts, and both series on one chart.
        QVERIFY(cv->sideText(0).contains(QStringLiteral("decoder-a")));
        QVERIFY(cv->sideText(0).contains(QStringLiteral("6 clean")));
        QVERIFY(cv->sideText(1).contains(QStringLiteral("5 clean")));
        QCOMPARE(cv->chart()->seriesCount(), 2);
        QCOMPARE(cv->chart()->markCount(), 11);

        // Swapped: the inverse.
        cv->compare(1, 0, "rapl");
        QCOMPARE(*cv->comparison()->ratio, *compareRecords(*rb, *ra, "rapl", 10000, 1).ratio);
        QVERIFY(cv->verdictText().contains(QStringLiteral("less energy")));

        // Closing one record leaves nothing to compare: the Compare tab goes.
        p->closeRecordTab(1);
        QCOMPARE(p->tabCount(), 1);
        QVERIFY(!p->compareVisible());
    }

    // "Compare two…" compares the two records opened last (A the older), not the first two tabs.
    void compareTwoTakesTheRecordsJustOpened()
    {
        auto p = page();
        const QString c = dir_.filePath(QStringLiteral("third.json"));
        QFile::remove(c);
        QVERIFY(QFile::copy(a_, c));
        QVERIFY(openAndWait(*p, {a_, b_}));
        QVERIFY(openAndWait(*p, {c}));
        QCOMPARE(p->tabCount(), 3);
        p->showCompare();
        CompareView* cv = p->compareView();
        QCOMPARE(cv->candidateCount(), 3);
        QCOMPARE(cv->indexA(), 1);  // b_
        QCOMPARE(cv->indexB(), 2);  // the third, opened last
        QVERIFY(cv->comparison());
        // The user's own pick stays while nothing new is opened.
        cv->compare(0, 2);
        p->setCurrentRecordTab(0);
        p->showCompare();
        QCOMPARE(cv->indexA(), 0);
        QCOMPARE(cv->indexB(), 2);
        // Opening a_ again brings it forward: the pair is the third and a_.
        p->openRecord(a_);
        p->showCompare();
        QCOMPARE(cv->indexA(), 2);
        QCOMPARE(cv->indexB(), 0);
    }

    void reopeningBringsTheTabForward()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {a_, b_}));
        QSignalSpy opened(p.get(), &InspectorPage::recordOpened);
        p->openRecord(a_);
        QCOMPARE(p->tabCount(), 2);
        QCOMPARE(p->currentRecordTab()->path(), QFileInfo(a_).absoluteFilePath());
        QCOMPARE(opened.count(), 1);
    }

    void exports()
    {
        auto p = page();
        QVERIFY(openAndWait(*p, {a_}));
        RecordTab* t = p->recordTab(0);
        const Record& r = *t->record();

        const QString rounds = dir_.filePath(QStringLiteral("out/rounds.csv"));
        QVERIFY(t->exportRoundsCsv(rounds));
        QCOMPARE(slurp(rounds), QByteArray::fromStdString(roundsCsv(r)));
        const QString samples = dir_.filePath(QStringLiteral("out/samples.csv"));
        QVERIFY(t->exportSamplesCsv(samples));
        QCOMPARE(slurp(samples), QByteArray::fromStdString(samplesCsv(r.samples)));

        // The record saved back unchanged: the very bytes of the file.
        const QString copy = dir_.filePath(QStringLiteral("out/copy.json"));
        QVERIFY(t->saveCopy(copy));
        QCOMPARE(slurp(copy), slurp(a_));

        for (auto kind : {RecordTab::PowerPng, RecordTab::RoundsPng}) {
            const QString png = dir_.filePath(QStringLiteral("out/chart%1.png").arg(int(kind)));
            const Status st = t->exportTo(kind, png);
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().c_str());
            QImage img(png);
            QVERIFY(!img.isNull());
            QVERIFY(img.width() > 200 && img.height() > 100);
        }
        for (auto kind : {RecordTab::PowerSvg, RecordTab::RoundsSvg}) {
            const QString svg = dir_.filePath(QStringLiteral("out/chart%1.svg").arg(int(kind)));
            QVERIFY(t->exportTo(kind, svg));
            const QByteArray bytes = slurp(svg);
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("decoder-a"));
        }

        // Through the page's dialog: the path asked for, and a failure shown.
        QString asked;
        p->askSavePath = [&](const QString&, const QString& suggestion, const QString&) {
            asked = suggestion;
            return dir_.filePath(QStringLiteral("out/dialog.csv"));
        };
        p->exportCurrent(RecordTab::RoundsCsv);
        QCOMPARE(asked, dir_.filePath(QStringLiteral("a-rounds.csv")));
        QCOMPARE(slurp(dir_.filePath(QStringLiteral("out/dialog.csv"))),
                 QByteArray::fromStdString(roundsCsv(r)));
        p->askSavePath = [](const QString&, const QString&, const QString&) {
            return QStringLiteral("/proc/no/such/folder/x.csv");
        };
        p->exportCurrent(RecordTab::RoundsCsv);
        QCOMPARE(errorsShown_.size(), 1);
        QVERIFY(errorsShown_.front().contains(QStringLiteral("/proc/no/such/folder")));
    }
};

QTEST_MAIN(TestInspectorPage)
#include "tst_inspectorpage.moc"
