// The counter list of the run form: QAbstractItemModelTester, availability and the reason
// shown for unavailable counters, checking only what can be read.
#include "measure/CounterModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using jb::CounterModel;
using jb::CounterDetails;
using jb::CounterStatus;

namespace {
std::vector<CounterStatus> fixture()
{
    return {
        {"rapl", true, false,
         "cannot read /sys/class/powercap/intel-rapl:0/energy_uj: Permission denied "
         "(fix: the udev rule)",
         "RAPL package energy"},
        {"task", false, true, "", "the child's own CPU time"},
        {"sim", true, true, "", "simulated whole-device power"},
    };
}
}  // namespace

class TestCounterModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester();
    void showsAvailabilityAndReason();
    void checksOnlyAvailableCounters();
};

void TestCounterModel::passesTheModelTester()
{
    CounterModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setCounters(fixture());
    m.setChecked({QStringLiteral("sim"), QStringLiteral("task")});
    m.setData(m.index(2, 0), Qt::Unchecked, Qt::CheckStateRole);
    m.setCounters(fixture());  // a new list keeps what is still checked
    QCOMPARE(m.checked(), QStringList{QStringLiteral("task")});
    m.setCounters({});
    QCOMPARE(m.rowCount(), 0);
}

void TestCounterModel::showsAvailabilityAndReason()
{
    CounterModel m;
    m.setCounters(fixture());
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.columnCount(), 2);
    QCOMPARE(m.index(0, 0).data().toString(), QStringLiteral("rapl"));
    const QString why = m.index(0, 1).data().toString();
    QVERIFY2(why.startsWith(QStringLiteral("unavailable: ")) &&
                 why.contains(QStringLiteral("Permission denied")) && why.contains(QStringLiteral("fix")),
             qPrintable(why));
    QVERIFY(m.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Permission denied")));
    QVERIFY(m.index(2, 1).data().toString().startsWith(QStringLiteral("available")));
    QVERIFY(m.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("around each round")));
    QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Availability"));
    // Scope, unit and wrap range, where given, are in the tooltip.
    CounterDetails d;
    d.scope = "CPU socket 0";
    d.unit = "uJ";
    d.wrap_range = 262143328850;
    m.setCounters(fixture(), {d});
    const QString tip = m.index(0, 0).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("Scope: CPU socket 0")) && tip.contains(QStringLiteral("Unit: uJ; wraps at 262143328850")),
             qPrintable(tip));
    QVERIFY(!m.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Scope:")));
}

void TestCounterModel::checksOnlyAvailableCounters()
{
    CounterModel m;
    m.setCounters(fixture());
    QVERIFY(!(m.flags(m.index(0, 0)) & Qt::ItemIsUserCheckable));
    QVERIFY(m.flags(m.index(2, 0)) & Qt::ItemIsUserCheckable);
    QVERIFY(!(m.flags(m.index(2, 1)) & Qt::ItemIsUserCheckable));
    QVERIFY(!m.setData(m.index(0, 0), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(m.index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    QSignalSpy changed(&m, &CounterModel::checkedChanged);
    QVERIFY(m.setData(m.index(2, 0), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m.checked(), QStringList{QStringLiteral("sim")});
    const QStringList refused = m.setChecked(
        {QStringLiteral("rapl"), QStringLiteral("task"), QStringLiteral("nvml:3")});
    QCOMPARE(refused, (QStringList{QStringLiteral("rapl"), QStringLiteral("nvml:3")}));
    QCOMPARE(m.checked(), QStringList{QStringLiteral("task")});  // exactly what was asked and possible
    QVERIFY(m.find(QStringLiteral("rapl")) && !m.find(QStringLiteral("rapl"))->available);
    QVERIFY(!m.find(QStringLiteral("nvml:0")));
}

QTEST_MAIN(TestCounterModel)
#include "tst_countermodel.moc"
