// The resolution table's model: QAbstractItemModelTester through resets and updates, the
// floors threshold x sd in W and J, the at-confidence column where the brackets allow it.
#include "noise/ResolutionModel.h"
#include <jb/noise/Resolution.h>

#include <QAbstractItemModelTester>
#include <QtTest>

using jb::ResolutionModel;

namespace {

std::vector<jb::ResolutionRow> rows(double sd, double window_s, double idle_s = 0.0)
{
    jb::ResolutionInputs in;
    in.idle_sd_w = sd;
    in.window_s = window_s;
    in.period_s = 0.1;
    in.idle_s = idle_s;
    in.confidence = 0.9;
    return jb::resolution(in);
}

}  // namespace

class TestResolutionModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester();
    void floorsAreThresholdTimesSd();
    void atConfidenceOnlyWithBrackets();
    void headerNamesTheConfidence();
};

void TestResolutionModel::passesTheModelTester()
{
    ResolutionModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.rowCount(), 0);
    m.setRows(rows(0.15, 1.0), 0.9);
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.columnCount(), int(ResolutionModel::ColumnCount));
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    m.setRows(rows(0.3, 2.0, 5.0), 0.8);  // same shape: data changes in place
    QCOMPARE(changed.count(), 1);
    m.setRows({}, 0.8);
    QCOMPARE(m.rowCount(), 0);
    m.setRows(rows(0.2, 1.0, 5.0), 0.95);
    m.clear();
    QCOMPARE(m.rowCount(), 0);
    QVERIFY(!m.data(m.index(0, 0)).isValid());
}

void TestResolutionModel::floorsAreThresholdTimesSd()
{
    ResolutionModel m;
    m.setRows(rows(0.15, 2.0), 0.9);
    const double thresholds[] = {10.0, 3.0, 1.0};
    const char* names[] = {"clean", "relative-only", "noisy"};
    for (int r = 0; r < 3; ++r) {
        QCOMPARE(m.data(m.index(r, ResolutionModel::VerdictCol), ResolutionModel::VerdictRole).toString(),
                 QString::fromLatin1(names[r]));
        QCOMPARE(m.data(m.index(r, ResolutionModel::ThresholdCol), ResolutionModel::SortRole).toDouble(),
                 thresholds[r]);
        QCOMPARE(m.data(m.index(r, ResolutionModel::FloorWCol), ResolutionModel::SortRole).toDouble(),
                 thresholds[r] * 0.15);
        QCOMPARE(m.data(m.index(r, ResolutionModel::FloorJCol), ResolutionModel::SortRole).toDouble(),
                 thresholds[r] * 0.15 * 2.0);
    }
    QCOMPARE(m.data(m.index(0, ResolutionModel::FloorWCol)).toString(), QStringLiteral("1.50 W"));
    QCOMPARE(m.data(m.index(0, ResolutionModel::FloorJCol)).toString(), QStringLiteral("3.00 J"));
    QCOMPARE(m.data(m.index(1, ResolutionModel::ThresholdCol)).toString(), QStringLiteral("3 σ"));
    QVERIFY(m.data(m.index(0, ResolutionModel::VerdictCol), Qt::BackgroundRole).isValid());
    QVERIFY(!m.data(m.index(0, ResolutionModel::FloorWCol), Qt::ToolTipRole).toString().isEmpty());
}

void TestResolutionModel::atConfidenceOnlyWithBrackets()
{
    ResolutionModel m;
    m.setRows(rows(0.15, 2.0), 0.9);  // no idle bracket length: no at-confidence figure
    QCOMPARE(m.data(m.index(0, ResolutionModel::AtConfidenceWCol)).toString(), QStringLiteral("–"));
    QVERIFY(!m.data(m.index(0, ResolutionModel::AtConfidenceWCol), ResolutionModel::SortRole).isValid());
    m.setRows(rows(0.15, 2.0, 5.0), 0.9);
    for (int r = 0; r < 3; ++r) {
        const double floorW =
            m.data(m.index(r, ResolutionModel::FloorWCol), ResolutionModel::SortRole).toDouble();
        const QVariant at = m.data(m.index(r, ResolutionModel::AtConfidenceWCol), ResolutionModel::SortRole);
        QVERIFY(at.isValid());
        QVERIFY(at.toDouble() > floorW);  // short brackets need more than the floor
        QCOMPARE(m.data(m.index(r, ResolutionModel::AtConfidenceJCol), ResolutionModel::SortRole).toDouble(),
                 at.toDouble() * 2.0);
    }
}

void TestResolutionModel::headerNamesTheConfidence()
{
    ResolutionModel m;
    QSignalSpy header(&m, &QAbstractItemModel::headerDataChanged);
    m.setRows(rows(0.15, 1.0, 5.0), 0.9);
    QCOMPARE(m.headerData(ResolutionModel::AtConfidenceWCol, Qt::Horizontal).toString(),
             QStringLiteral("W in 90%"));
    m.setRows(rows(0.15, 1.0, 5.0), 0.75);
    QCOMPARE(header.count(), 1);
    QCOMPARE(m.headerData(ResolutionModel::AtConfidenceJCol, Qt::Horizontal).toString(),
             QStringLiteral("J in 75%"));
}

QTEST_MAIN(TestResolutionModel)
#include "tst_resolutionmodel.moc"
