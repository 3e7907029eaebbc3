// `joulebench-cli summary` on the committed record with phases (tests/fixtures/records/
// phases-demo-sim.json, the demo decoder on the sim counter): core's phase table is printed
// under the record's row, as jb::phaseTable gives it, with the too-short phase said in words;
// a record without phases prints no phase table.
#include "CliTestKit.h"
#include <jb/record/RecordJson.h>
#include <jb/record/SummaryTable.h>

#include <QtTest>

using namespace jbclitest;

namespace {

const QString kPhases = QStringLiteral(JB_FIXTURES "/records/phases-demo-sim.json");
const QString kPlain = QStringLiteral(JB_FIXTURES "/records/joulebench-rapl.json");

}  // namespace

class TestCliPhases : public QObject {
    Q_OBJECT
private slots:
    void summaryPrintsThePhaseTable()
    {
        const Run r = cli({QStringLiteral("summary"), kPhases});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        const auto rec = jb::loadRecord(kPhases.toStdString());
        QVERIFY(bool(rec));
        const std::string table = jb::phaseTable(*rec, "sim");
        QVERIFY(!table.empty());
        QVERIFY2(out.contains(QString::fromStdString(table)), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("phases on sim")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("decode/png")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("checksum")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("too short")), qPrintable(out));
    }

    void summaryOfARecordWithoutPhasesHasNoPhaseTable()
    {
        const Run r = cli({QStringLiteral("summary"), kPlain});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(!QString::fromUtf8(r.out).contains(QStringLiteral("phases on")), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliPhases)
#include "tst_cli_phases.moc"
