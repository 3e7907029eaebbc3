// The Inspector's models under QAbstractItemModelTester: the rounds table with its
// counter-updates column (a proxy over the dashboard's RoundsModel) and the verify
// disagreements; and the metadata content.
#include "MakeRecord.h"
#include "common/RoundsModel.h"
#include "inspector/DisagreementModel.h"
#include "inspector/MetadataView.h"
#include "inspector/ResolutionProxyModel.h"
#include <jb/record/RecordJson.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace jb;

namespace {

jbtest::RunShape coarseShape()
{
    jbtest::RunShape s;
    s.period_ns = 10'000'000;
    s.cadence_ns = 250'000'000;
    s.rounds = 4;
    return s;
}

QString text(const QAbstractItemModel& m, int row, int col, int role = Qt::DisplayRole)
{
    return m.data(m.index(row, col), role).toString();
}

}  // namespace

class TestInspectorModels : public QObject {
    Q_OBJECT
private slots:
    void resolutionProxy()
    {
        RoundsModel rounds;
        ResolutionProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setRoundsModel(&rounds);
        QCOMPARE(proxy.columnCount(), int(RoundsModel::ColumnCount) + 1);
        QCOMPARE(proxy.resolutionColumn(), int(RoundsModel::ColumnCount));
        QCOMPARE(proxy.rowCount(), 0);

        const Record r = jbtest::makeRecord(coarseShape());
        rounds.setRounds(r.rounds);
        proxy.setRecord(r);
        QSignalSpy changed(&proxy, &QAbstractItemModel::dataChanged);
        rounds.setCounter("rapl");
        // The extra column follows the counter.
        bool extraTouched = false;
        for (const QList<QVariant>& args : changed)
            extraTouched = extraTouched || args.at(1).toModelIndex().column() == proxy.resolutionColumn();
        QVERIFY(extraTouched);

        QCOMPARE(proxy.rowCount(), 4);
        const int col = proxy.resolutionColumn();
        for (int row = 0; row < 4; ++row) {
            QVERIFY2(text(proxy, row, col).startsWith(QStringLiteral("coarse counter: ")),
                     qPrintable(text(proxy, row, col)));
            QVERIFY(proxy.data(proxy.index(row, col), ResolutionProxyModel::CoarseRole).toBool());
            // The verdict's tooltip says it too, before the thresholds.
            QVERIFY(text(proxy, row, RoundsModel::VerdictCol, Qt::ToolTipRole)
                        .startsWith(QStringLiteral("coarse counter")));
            // Every other column is the rounds model's.
            for (int c = 0; c < RoundsModel::ColumnCount; ++c)
                QCOMPARE(proxy.data(proxy.index(row, c)), rounds.data(rounds.index(row, c)));
        }
        QCOMPARE(proxy.coarseCount(), 4);
        QCOMPARE(proxy.headerData(col, Qt::Horizontal).toString(),
                 QStringLiteral("Counter updates in window"));
        QVERIFY(!proxy.index(0, col).parent().isValid());
        QCOMPARE(proxy.rowCount(proxy.index(0, col)), 0);
        QVERIFY(!proxy.hasChildren(proxy.index(0, col)));
        QCOMPARE(proxy.sibling(1, col, proxy.index(0, 0)), proxy.index(1, col));

        // Another counter (absent): no busy bracket, and no cadence for it.
        rounds.setCounter("nvml:0");
        QCOMPARE(proxy.coarseCount(), 0);
        QVERIFY(!proxy.data(proxy.index(0, col), ResolutionProxyModel::UpdatesRole).isValid());

        // Live-style growth and replacement, and a reset.
        rounds.setCounter("rapl");
        const Record fine = jbtest::makeRecord({});
        rounds.setRound(4, fine.rounds[0]);
        QCOMPARE(proxy.rowCount(), 5);
        rounds.setRound(0, fine.rounds[1]);
        rounds.clear();
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(proxy.coarseCount(), 0);
    }

    void fineCounterIsNotCoarse()
    {
        RoundsModel rounds;
        ResolutionProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setRoundsModel(&rounds);
        jbtest::RunShape s;
        s.period_ns = 10'000'000;
        const Record r = jbtest::makeRecord(s);
        proxy.setRecord(r);
        rounds.setRounds(r.rounds);
        rounds.setCounter("rapl");
        QCOMPARE(proxy.coarseCount(), 0);
        QVERIFY(
            !text(proxy, 0, RoundsModel::VerdictCol, Qt::ToolTipRole).startsWith(QStringLiteral("coarse")));
        QVERIFY(text(proxy, 0, proxy.resolutionColumn()).startsWith(QStringLiteral("≥ ")));
        QVERIFY(text(proxy, 0, proxy.resolutionColumn(), Qt::ToolTipRole)
                    .contains(QStringLiteral("updates in the window")));
    }

    void disagreements()
    {
        DisagreementModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        m.setDisagreements(
            {{"$.rounds[1].rapl.marginal_nj", "1.0", "2.5"}, {"$.summary.rapl.rounds", "4", "3"}});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), 3);
        QCOMPARE(text(m, 0, DisagreementModel::PathCol), QStringLiteral("$.rounds[1].rapl.marginal_nj"));
        QCOMPARE(text(m, 0, DisagreementModel::StoredCol), QStringLiteral("1.0"));
        QCOMPARE(text(m, 0, DisagreementModel::RecomputedCol), QStringLiteral("2.5"));
        QVERIFY(m.data(m.index(0, DisagreementModel::StoredCol), Qt::BackgroundRole).isValid());
        QCOMPARE(m.headerData(DisagreementModel::RecomputedCol, Qt::Horizontal).toString(),
                 QStringLiteral("Recomputed from the samples"));
        m.setDisagreements({});
        QCOMPARE(m.rowCount(), 0);
    }

    void metadataContent()
    {
        Record r = jbtest::makeRecord({});
        r.status = "aborted";
        r.error = "the child exited with status 3 in round 2";
        r.child = {"decoder", "--in", "my file.bin"};
        r.extra["custom"] = 5;
        r.sampler[0].second.read_errors = 2;
        const auto nodes = metadataNodes(r, QStringLiteral("/tmp/x.json"));
        auto section = [&](const QString& key) -> const MetaNode* {
            for (const MetaNode& n : nodes)
                if (n.key == key)
                    return &n;
            return nullptr;
        };
        auto child = [](const MetaNode* n, const QString& key) -> const MetaNode* {
            for (const MetaNode& c : n->children)
                if (c.key == key)
                    return &c;
            return nullptr;
        };
        const MetaNode* rec = section(QStringLiteral("Record"));
        QVERIFY(rec);
        QCOMPARE(child(rec, QStringLiteral("Label"))->value, QStringLiteral("made"));
        QCOMPARE(child(rec, QStringLiteral("Status"))->value, QStringLiteral("aborted"));
        QVERIFY(child(rec, QStringLiteral("Status"))->alert);
        QCOMPARE(child(rec, QStringLiteral("Why it stopped"))->value, QString::fromStdString(*r.error));
        QVERIFY(child(rec, QStringLiteral("Tool"))->value.startsWith(QStringLiteral("joulebench ")));
        QCOMPARE(section(QStringLiteral("Child command"))->value,
                 QStringLiteral("decoder --in 'my file.bin'"));
        QCOMPARE(child(section(QStringLiteral("Host")), QStringLiteral("System"))->value,
                 QStringLiteral("Linux"));
        QCOMPARE(child(section(QStringLiteral("Meta")), QStringLiteral("codec"))->value,
                 QStringLiteral("demo"));
        const MetaNode* rapl = child(section(QStringLiteral("Counters")), QStringLiteral("rapl"));
        QVERIFY(rapl);
        QCOMPARE(child(child(rapl, QStringLiteral("Counter info")), QStringLiteral("zone"))->value,
                 QStringLiteral("/sys/class/powercap/intel-rapl:0"));
        const MetaNode* sampler = child(rapl, QStringLiteral("Sampler"));
        QVERIFY(sampler && sampler->alert);
        QCOMPARE(child(sampler, QStringLiteral("Read errors"))->value, QStringLiteral("2"));
        QVERIFY(child(rapl, QStringLiteral("Raw samples"))->value.contains(QStringLiteral("intervals")));
        QCOMPARE(child(section(QStringLiteral("Other keys")), QStringLiteral("custom"))->value,
                 QStringLiteral("5"));

        // The reference's record: no tool, no status, no samples, all said plainly.
        auto ref = loadRecord(std::string(JB_REFERENCE_DIR) + "/reference-record-rapl.json");
        QVERIFY(ref.ok());
        MetadataView view;
        view.setRecord(*ref, QStringLiteral("ref.json"));
        QCOMPARE(view.valueAt(QStringLiteral("Record"), QStringLiteral("Label")),
                 QStringLiteral("reference"));
        QVERIFY(view.valueAt(QStringLiteral("Record"), QStringLiteral("Tool"))
                    .contains(QStringLiteral("reference")));
        QVERIFY(view.valueAt(QStringLiteral("Child command"), {})
                    .startsWith(QStringLiteral("python3 fakechild.py")));
    }
};

QTEST_MAIN(TestInspectorModels)
#include "tst_inspectormodels.moc"
