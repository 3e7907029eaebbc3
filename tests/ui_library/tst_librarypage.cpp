// The Library page on a temporary SQLite library: the model passes QAbstractItemModelTester,
// the filter runs the query terms, sorting is numeric, and a double-click asks to open the file.
#include "library/Library.h"
#include "library/LibraryModel.h"
#include "library/LibraryPage.h"
#include "record/AtomicWrite.h"
#include "record/RecordJson.h"
#include "record/SyntheticRecord.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

class TestLibraryPage : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    std::string spec_;

    QString write(const QString& name, const std::string& label, double busy_w, std::uint64_t seed)
    {
        jb::Record r = jbtest::syntheticRecord(3, seed, busy_w);
        r.label = label;
        const QString path = tmp_.path() + QLatin1Char('/') + name;
        return jb::writeFileAtomic(path.toStdString(), jb::dumpRecord(r)) ? path : QString();
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
    }

    void modelIsSound()
    {
        jb::LibraryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto lib = jb::Library::open(spec_);
        QVERIFY(lib.ok());
        model.setEntries(*(*lib)->list({}));
        QCOMPARE(model.rowCount(), 3);
        model.setEntries({});
        QCOMPARE(model.rowCount(), 0);
    }

    void filterSortAndOpen()
    {
        jb::LibraryPage page(spec_);
        page.resize(1000, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.model()->rowCount(), 3);
        QVERIFY2(page.status().contains(QLatin1String("3 record(s)")), qPrintable(page.status()));
        page.filter()->setText(QStringLiteral("label=alpha"));
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QCOMPARE(page.model()->rowCount(), 2);
        page.filter()->setText(QStringLiteral("colour=red"));
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QVERIFY2(page.status().contains(QLatin1String("unknown key 'colour'")), qPrintable(page.status()));
        page.filter()->clear();
        QTest::keyClick(page.filter(), Qt::Key_Return);
        QCOMPARE(page.model()->rowCount(), 3);

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
};

QTEST_MAIN(TestLibraryPage)
#include "tst_librarypage.moc"
