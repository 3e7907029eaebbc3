// The Library page on a temporary SQLite library: the model passes QAbstractItemModelTester,
// the filter runs the query terms, sorting is numeric, and a double-click asks to open the file;
// two selected records open as the Inspector's comparison (the button and the context menu's
// action), and the trend chart shows core's trendOf for the current row's label.
// JB_SHOT_DIR set: the page is also saved there as library-page.png (for a look at it).
#include "chart/TrendChart.h"
#include "inspector/CompareView.h"
#include "inspector/InspectorPage.h"
#include "library/InspectorBridge.h"
#include "library/LibraryModel.h"
#include "library/LibraryPage.h"
#include "record/SyntheticRecord.h"
#include "UiClip.h"
#include <jb/library/Library.h>
#include <jb/library/LibraryReport.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Compare.h>
#include <jb/record/RecordJson.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <memory>

class TestLibraryPage : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    std::string spec_;

    std::map<QString, jb::Record> written_;  // by file name

    QString write(const QString& name, const std::string& label, double busy_w, std::uint64_t seed,
                  const std::string& started_at = {}, int rounds = 3, double noise_w = 0.2)
    {
        jb::Record r = jbtest::syntheticRecord(rounds, seed, busy_w, noise_w);
        r.label = label;
        if (!started_at.empty())
            r.extra["started_at"] = started_at;
        const QString path = tmp_.path() + QLatin1Char('/') + name;
        written_[name] = r;
        return jb::writeFileAtomic(path.toStdString(), jb::dumpRecord(r)) ? path : QString();
    }

    // Selects the table's rows of these files (by file name), and nothing else.
    static void selectFiles(jb::LibraryPage& page, const QStringList& names)
    {
        QAbstractItemModel* m = page.view()->model();
        page.view()->selectionModel()->clearSelection();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, 0);
            for (const QString& n : names)
                if (i.data(jb::LibraryModel::PathRole).toString().endsWith(QLatin1Char('/') + n))
                    page.view()->selectionModel()->select(
                        i, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }

    // The Inspector's comparison must be that of the two records themselves, A against B.
    void expectComparison(jb::InspectorPage& inspector, const QString& a, const QString& b)
    {
        const auto& got = inspector.compareView()->comparison();
        QVERIFY(got.has_value());
        const jb::Comparison want = jb::compareRecords(written_.at(a), written_.at(b), "rapl",
                                                       jb::CompareView::kResamples, jb::CompareView::kSeed);
        QVERIFY(want.ratio.has_value());
        QCOMPARE(got->ratio, want.ratio);
        QCOMPARE(got->ci_low, want.ci_low);
        QCOMPARE(got->counter, std::string("rapl"));
        QVERIFY(inspector.compareVisible());
        QCOMPARE(inspector.tabs()->currentWidget(), static_cast<QWidget*>(inspector.compareView()));
    }

private slots:
    void initTestCase()
    {
        spec_ = QString(tmp_.path() + QStringLiteral("/library.sqlite")).toStdString();
        auto lib = jb::Library::open(spec_);
        QVERIFY(lib.ok());
        for (const auto& [name, label, w] : {std::tuple{"a.json", "alpha", 30.0}, std::tuple{"b.json", "alpha", 40.0},
                                             std::tuple{"c.json", "beta", 35.0}}) {
            const QString p = write(QString::fromLatin1(name), label, w, 7);
            QVERIFY(!p.isEmpty());
            QVERIFY((*lib)->addFile(p.toStdString()).ok());
        }
        // A label over three days: 30 W, 30 W, then 36 W (a regression).
        for (const auto& [name, w, day] : {std::tuple{"g1.json", 30.0, 1}, std::tuple{"g2.json", 30.0, 2},
                                           std::tuple{"g3.json", 36.0, 3}}) {
            const QString p = write(QString::fromLatin1(name), "gamma", w, std::uint64_t(10 + day),
                                    "2026-11-0" + std::to_string(day) + "T10:00:00Z", 6, 1.5);
            QVERIFY(!p.isEmpty());
            QVERIFY((*lib)->addFile(p.toStdString()).ok());
        }
    }

    void modelIsSound()
    {
        jb::LibraryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto lib = jb::Library::open(spec_);
        QVERIFY(lib.ok());
        const std::vector<jb::LibraryEntry> all = *(*lib)->list({});
        model.setEntries(all);
        QCOMPARE(model.rowCount(), 6);

        // It sorts itself, as its SortRole values order: every column, both ways, stable.
        const auto key = [&model](int r, int c) { return model.index(r, c).data(jb::LibraryModel::SortRole); };
        for (int c = 0; c < jb::LibraryModel::ColumnCount; ++c)
            for (const Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                model.sort(c, o);
                for (int r = 1; r < model.rowCount(); ++r) {
                    const QPartialOrdering cmp = QVariant::compare(key(r - 1, c), key(r, c));
                    QVERIFY(cmp != QPartialOrdering::Unordered);
                    QVERIFY2(o == Qt::AscendingOrder ? cmp != QPartialOrdering::Greater : cmp != QPartialOrdering::Less,
                             qPrintable(QStringLiteral("column %1, row %2").arg(c).arg(r)));
                }
            }
        // A persistent index (a selection) follows its row through a sort.
        model.sort(jb::LibraryModel::File, Qt::AscendingOrder);
        const QPersistentModelIndex first(model.index(0, jb::LibraryModel::File));
        const QString firstPath = first.data().toString();
        model.sort(jb::LibraryModel::File, Qt::DescendingOrder);
        QCOMPARE(first.row(), model.rowCount() - 1);
        QCOMPARE(first.data().toString(), firstPath);
        // New entries keep the sort.
        model.setEntries(all);
        QCOMPARE(model.index(model.rowCount() - 1, jb::LibraryModel::File).data().toString(), firstPath);
        model.setEntries({});
        QCOMPARE(model.rowCount(), 0);
    }

    // Issue 36, item 4: an H200 record's two counters of GPU 0 disagree by 40%; the Library says
    // which one's J per decode is absolute (the Trust column, its reason as the tooltip), and
    // `library list` (libraryTable) prints the same sentence under its table.
    void trustColumnNamesTheCounterToTrust()
    {
        jb::LibraryEntry e;
        e.id = 7;
        e.path = "/records/h200.json";
        e.host = "h200";
        e.counters = {"nvml:0", "nvml-power:0", "task"};
        jb::CounterFigures energy, power;
        energy.counter = "nvml:0";
        energy.summary.median_j_per_decode = 188.7;
        power.counter = "nvml-power:0";
        power.summary.median_j_per_decode = 114.8;
        e.figures = {energy, power};
        jb::LibraryModel model;
        model.setEntries({e});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.headerData(jb::LibraryModel::Trust, Qt::Horizontal).toString(), QStringLiteral("Trust"));
        std::map<QString, int> row;
        for (int r = 0; r < model.rowCount(); ++r)
            row[model.index(r, jb::LibraryModel::Counter).data().toString()] = r;
        const int er = row.at(QStringLiteral("nvml:0")), pr = row.at(QStringLiteral("nvml-power:0"));
        QCOMPARE(model.index(er, jb::LibraryModel::Trust).data().toString(), QStringLiteral("absolute"));
        QCOMPARE(model.index(pr, jb::LibraryModel::Trust).data().toString(),
                 QStringLiteral("relative only, prefer nvml:0"));
        const QString tip = model.index(pr, jb::LibraryModel::MedianJ).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("nvml-power:0: averaged power reading (1 s window): marginal "
                                               "energy under-counted")),
                 qPrintable(tip));
        QVERIFY2(tip.endsWith(QStringLiteral("prefer nvml:0")), qPrintable(tip));
        QVERIFY(model.index(er, jb::LibraryModel::Counter).data(Qt::ToolTipRole).toString().contains(
            QStringLiteral("energy register")));
        // Sorted on Trust: the absolute counter first.
        model.sort(jb::LibraryModel::Trust, Qt::AscendingOrder);
        QCOMPARE(model.index(0, jb::LibraryModel::Counter).data().toString(), QStringLiteral("nvml:0"));

        const std::string table = jb::libraryTable({e});
        QVERIFY2(table.find("\nnote: id 7 nvml-power:0: averaged power reading (1 s window): marginal energy "
                            "under-counted, good for relative comparisons only; prefer nvml:0\n") != std::string::npos,
                 table.c_str());
        QVERIFY2(table.find("note: id 7 nvml:0") == std::string::npos, table.c_str());
    }

    // At the laptop size every column but the file's path reads whole (the path, last, is cut
    // in its middle), and the verdicts and start time are core's words.
    void readsWholeAt1280x720()
    {
        jb::LibraryPage page(spec_);
        page.resize(1280, 720);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), 6);
        QStringList clipped;
        for (const QString& c : jbtest::clippedTableColumns(&page))
            if (!c.contains(QLatin1String("\"File\"")))
                clipped << c;
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1String("; "))));
        QCOMPARE(page.view()->textElideMode(), Qt::ElideMiddle);
        const QModelIndex v = page.model()->index(0, jb::LibraryModel::Verdicts);
        QVERIFY2(v.data().toString().endsWith(QLatin1String(" clean")) ||
                     v.data().toString().contains(QLatin1String(" clean,")),
                 qPrintable(v.data().toString()));
        QVERIFY2(!v.data().toString().contains(QRegularExpression(QStringLiteral("(^|, )0 "))),
                 qPrintable(v.data().toString()));
        const QModelIndex t = page.model()->index(0, jb::LibraryModel::Started);
        QCOMPARE(t.data().toString().size(), 16);  // 2026-11-03T10:00
    }

    void filterSortAndOpen()
    {
        jb::LibraryPage page(spec_);
        page.resize(1000, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), 6);
        QVERIFY2(page.status().contains(QLatin1String("6 record(s)")), qPrintable(page.status()));
        page.filter()->setText(QStringLiteral("label=alpha"));
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), 2);
        page.filter()->setText(QStringLiteral("colour=red"));
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QVERIFY2(page.status().contains(QLatin1String("unknown key 'colour'")), qPrintable(page.status()));
        page.filter()->clear();
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), 6);

        // Sorting by median J/decode is by the number: the 40 W record is the largest.
        QTableView* view = page.view();
        view->sortByColumn(jb::LibraryModel::MedianJ, Qt::DescendingOrder);
        const QModelIndex top = view->model()->index(0, jb::LibraryModel::File);
        QVERIFY(top.data().toString().endsWith(QLatin1String("/b.json")));

        QSignalSpy open(&page, &jb::LibraryPage::openRecords);
        const QRect cell = view->visualRect(top);
        // A press first: the view opens on a double-click of the index that was pressed.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toStringList(), QStringList{top.data().toString()});
    }

    void filesTheDashboardWritesJoin()
    {
        // What MainWindow's saves and the Inspector's opens call (app/gui/main.cpp).
        jb::LibraryPage page(spec_);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        const int before = page.model()->rowCount();
        const QString p = write(QStringLiteral("saved.json"), "delta", 33.0, 21);
        QVERIFY(!p.isEmpty());
        page.addFile(p);
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), before + 1);
        page.addFile(tmp_.path() + QStringLiteral("/no-such.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QVERIFY2(page.status().contains(QLatin1String("Not added")) && page.status().contains(QLatin1String("no-such.json")),
                 qPrintable(page.status()));
        QCOMPARE(page.model()->rowCount(), before + 1);
        // Hidden, the page shows it when it is shown again.
        page.hide();
        const QString q = write(QStringLiteral("saved2.json"), "delta", 34.0, 22);
        page.addFile(q);
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), before + 1);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QCOMPARE(page.model()->rowCount(), before + 2);
        // Leave the library as the other tests expect it.
        auto lib = jb::Library::open(spec_);
        QVERIFY(lib.ok());
        QVERIFY(QFile::remove(p) && QFile::remove(q));
        QVERIFY((*lib)->refresh().ok());  // both marked missing: left out of lists
    }

    void twoSelectedOpenAsComparison()
    {
        jb::LibraryPage page(spec_);
        jb::InspectorPage inspector;
        QStringList errors;
        inspector.showError = [&](const QString&, const QString& m) { errors << m; };
        int shown = 0;
        jb::InspectorBridge bridge(&page, &inspector, [&] { ++shown; });
        page.resize(1000, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        page.view()->sortByColumn(jb::LibraryModel::File, Qt::AscendingOrder);

        selectFiles(page, {QStringLiteral("a.json")});
        QVERIFY(!page.compareButton()->isEnabled());
        QVERIFY(!page.compareAction()->isEnabled());
        selectFiles(page, {QStringLiteral("a.json"), QStringLiteral("b.json")});
        QCOMPARE(page.selectedPaths().size(), 2);
        QVERIFY(page.compareButton()->isEnabled());
        QVERIFY(page.compareAction()->isEnabled());

        // The button: A is the first in the table's order (a.json), B the second.
        QSignalSpy asked(&page, &jb::LibraryPage::compareRecords);
        QSignalSpy compared(&bridge, &jb::InspectorBridge::compared);
        QTest::mouseClick(page.compareButton(), Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 20000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(inspector.tabCount(), 2);
        QVERIFY(shown > 0);
        expectComparison(inspector, QStringLiteral("a.json"), QStringLiteral("b.json"));

        // The context menu's action, with the table sorted the other way: A is c.json, and the
        // already open a.json is reused (one more tab, not two).
        page.view()->sortByColumn(jb::LibraryModel::File, Qt::DescendingOrder);
        selectFiles(page, {QStringLiteral("a.json"), QStringLiteral("c.json")});
        QCOMPARE(page.selectedPaths().size(), 2);
        QVERIFY(page.selectedPaths().front().endsWith(QLatin1String("/c.json")));
        page.compareAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 2, 20000);
        QCOMPARE(inspector.tabCount(), 3);
        expectComparison(inspector, QStringLiteral("c.json"), QStringLiteral("a.json"));

        // Both already open: compared at once.
        const int before = int(compared.count());
        selectFiles(page, {QStringLiteral("b.json"), QStringLiteral("c.json")});
        page.compareSelected();
        QCOMPARE(int(compared.count()), before + 1);
        expectComparison(inspector, QStringLiteral("c.json"), QStringLiteral("b.json"));

        // A file gone since it was indexed: the request ends with a message, nothing compared.
        const QString gone = tmp_.path() + QStringLiteral("/gone.json");
        QSignalSpy failed(&bridge, &jb::InspectorBridge::failed);
        bridge.compare(gone, tmp_.path() + QStringLiteral("/a.json"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY(!bridge.pending());
        QCOMPARE(int(compared.count()), before + 1);
    }

    void trendOfTheSelectedLabel()
    {
        jb::LibraryPage page(spec_);
        page.resize(1100, 720);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        page.showTrend(QString(), QString());  // nothing to show: the placeholder says so
        QVERIFY(!page.trendChart()->placeholderText().isEmpty());
        QCOMPARE(page.trendChart()->pointCount(), 0);

        // What `library trend gamma` computes, straight from core.
        auto lib = jb::Library::open(spec_);
        QVERIFY(lib.ok());
        jb::LibraryQuery q;
        q.label = "gamma";
        q.counter = "rapl";
        auto entries = (*lib)->list(q, true);
        QVERIFY(entries.ok());
        const std::vector<jb::TrendPoint> want = jb::trendOf(*entries, "rapl", false);
        QCOMPARE(want.size(), std::size_t(3));
        QVERIFY(!want[1].regression);
        QVERIFY(want[2].regression);  // 36 W after 30 W

        // Clicking a row of gamma shows its trend.
        page.view()->sortByColumn(jb::LibraryModel::File, Qt::AscendingOrder);
        QAbstractItemModel* m = page.view()->model();
        QModelIndex g2;
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, 0).data(jb::LibraryModel::PathRole).toString().endsWith(QLatin1String("/g2.json")))
                g2 = m->index(r, jb::LibraryModel::Label);
        QVERIFY(g2.isValid());
        QTest::mouseClick(page.view()->viewport(), Qt::LeftButton, {}, page.view()->visualRect(g2).center());
        QCOMPARE(page.trendLabel(), QStringLiteral("gamma"));
        QCOMPARE(page.trendCounter(), QStringLiteral("rapl"));
        // Computed on the page's worker: the click returns at once, the chart fills in after.
        QVERIFY(page.trendBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!page.trendBusy(), 10000);
        jb::TrendChart* chart = page.trendChart();
        QVERIFY2(chart->placeholderText().isEmpty(), qPrintable(chart->placeholderText()));
        QCOMPARE(chart->pointCount(), 3);
        QCOMPARE(chart->barCount(), 3);
        QCOMPARE(chart->regressionCount(), 1);
        QCOMPARE(chart->axisLabels().size(), 3);
        for (std::size_t i = 0; i < want.size(); ++i) {
            const jb::TrendMark& got = chart->marks()[i];
            QCOMPARE(got.median, want[i].j_per_decode.median);
            QCOMPARE(got.low, want[i].j_per_decode.low);
            QCOMPARE(got.high, want[i].j_per_decode.high);
            QCOMPARE(got.regression, want[i].regression);
        }
        QVERIFY(chart->describe(2).contains(QLatin1String("regression")));
        const auto [lo, hi] = chart->yRange();
        QVERIFY(lo <= *want[0].j_per_decode.low && hi >= *want[2].j_per_decode.high);

        if (const QString dir = qEnvironmentVariable("JB_SHOT_DIR"); !dir.isEmpty()) {
            QDir().mkpath(dir);
            QCoreApplication::processEvents();  // the chart lays itself out
            QVERIFY(page.grab().save(dir + QStringLiteral("/library-page.png")));
        }

        // By commit: none of these has a commit, so still a point per record.
        page.trendBy()->setCurrentIndex(page.trendBy()->findData(QStringLiteral("commit")));
        QTRY_VERIFY_WITH_TIMEOUT(!page.trendBusy(), 10000);
        QCOMPARE(chart->pointCount(), 3);
        // Another label: beta has one record, no point before it, no regression.
        page.showTrend(QStringLiteral("beta"), QStringLiteral("rapl"));
        QTRY_VERIFY_WITH_TIMEOUT(!page.trendBusy(), 10000);
        QCOMPARE(chart->pointCount(), 1);
        QCOMPARE(chart->regressionCount(), 0);
        // The filter narrows the trend too.
        page.filter()->setText(QStringLiteral("since=2026-11-02"));
        page.showTrend(QStringLiteral("gamma"), QStringLiteral("rapl"));
        page.reload();
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!page.trendBusy(), 10000);
        QCOMPARE(chart->pointCount(), 2);
    }

    void aNewerTrendRequestWins()
    {
        jb::LibraryPage page(spec_);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.busy(), 10000);
        QSignalSpy shown(&page, &jb::LibraryPage::trendShown);
        // Three requests before the first is done: only the last reaches the chart.
        page.showTrend(QStringLiteral("gamma"), QStringLiteral("rapl"));
        page.showTrend(QStringLiteral("beta"), QStringLiteral("rapl"));
        page.showTrend(QStringLiteral("gamma"), QStringLiteral("rapl"));
        QVERIFY(page.trendBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!page.trendBusy(), 10000);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(page.trendChart()->pointCount(), 3);
        QCOMPARE(page.trendChart()->regressionCount(), 1);
        // Cleared while one computes: the placeholder stays, the late result is dropped.
        page.showTrend(QStringLiteral("beta"), QStringLiteral("rapl"));
        page.showTrend(QString(), QString());
        QVERIFY(!page.trendBusy());
        QTest::qWait(300);
        QCOMPARE(page.trendChart()->pointCount(), 0);
        QVERIFY(!page.trendChart()->placeholderText().isEmpty());
        // A library that cannot be opened: the chart says why.
        // (its folder is a file)
        jb::LibraryPage broken(spec_ + "/lib.sqlite");
        broken.showTrend(QStringLiteral("gamma"), QStringLiteral("rapl"));
        QTRY_VERIFY_WITH_TIMEOUT(!broken.trendBusy(), 10000);
        QVERIFY2(!broken.trendChart()->placeholderText().isEmpty(), "no error shown");
    }

    void closedWhileComputing()
    {
        // The page goes away with a trend under way: its destructor waits for the worker,
        // whose result goes nowhere (ASan and TSan builds run this too).
        for (int i = 0; i < 5; ++i) {
            auto page = std::make_unique<jb::LibraryPage>(spec_);
            page->showTrend(QStringLiteral("gamma"), QStringLiteral("rapl"));
            QVERIFY(page->trendBusy());
            page.reset();
        }
        QCoreApplication::processEvents();
    }
};

QTEST_MAIN(TestLibraryPage)
#include "tst_librarypage.moc"
