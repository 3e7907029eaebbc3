// The Inspector on records with phases (offscreen): the fixture tests/fixtures/records/
// phases-demo-sim.json (the demo decoder, which marks decode/png and checksum, measured on the
// sim counter; README there) gets a Phases tab whose rows are core's jb::phaseRows, a phase too
// short in every round said in words, never as a figure, and one strip per marked span on the
// power chart inside its round's busy window, one colour per phase. A record without phases
// shows neither.
#include "chart/PowerChart.h"
#include "common/RecordView.h"
#include "inspector/PhaseTable.h"
#include "inspector/RecordTab.h"
#include <jb/record/RecordJson.h>
#include <jb/record/SummaryTable.h>

#include <QTabWidget>
#include <QtTest>

#include <memory>

using namespace jb;

namespace {

const QString kPhases = QStringLiteral(JB_FIXTURES "/records/phases-demo-sim.json");
const QString kPlain = QStringLiteral(JB_FIXTURES "/records/joulebench-rapl.json");

LoadedRecordPtr loadedOf(const QString& path)
{
    auto r = loadRecord(path.toStdString());
    if (!r.ok())
        return nullptr;
    auto l = std::make_shared<LoadedRecord>();
    l->path = path;
    l->record = std::make_shared<const Record>(std::move(r.value()));
    return l;
}

}  // namespace

class TestInspectorPhases : public QObject {
    Q_OBJECT
private slots:
    void phaseTableShowsCoresRows()
    {
        const LoadedRecordPtr l = loadedOf(kPhases);
        QVERIFY2(l, "the phases fixture does not load");
        const Record& rec = *l->record;
        QVERIFY(rec.hasPhases());
        RecordTab tab(kPhases);
        tab.resize(1400, 860);
        tab.show();
        tab.setLoaded(l);
        QVERIFY(tab.showsPhases());
        QCOMPARE(tab.sideTabs()->tabText(tab.sideTabs()->indexOf(tab.phaseTable())), QStringLiteral("Phases"));
        QCOMPARE(tab.sideTabs()->currentWidget(), static_cast<QWidget*>(tab.phaseTable()));  // opens on it

        const std::string spec = tab.counter();
        QCOMPARE(spec, std::string("sim"));
        const std::vector<PhaseRow> rows = phaseRows(rec, spec);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].name, std::string("decode/png"));
        QCOMPARE(rows[1].name, std::string("checksum"));
        const PhaseTable* t = tab.phaseTable();
        QCOMPARE(t->rowCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const PhaseRow& p = rows[std::size_t(i)];
            QCOMPARE(t->cell(i, PhaseTable::NameCol).toStdString(), p.name);
            QCOMPARE(t->cell(i, PhaseTable::SpreadCol).toStdString(), p.spread_j);
            QCOMPARE(t->cell(i, PhaseTable::SpanCol).toStdString(), p.span);
            QCOMPARE(t->cell(i, PhaseTable::ShareCol).toStdString(), p.share);
            QCOMPARE(t->cell(i, PhaseTable::TooShortCol).toStdString(), p.too_short);
            if (p.all_too_short)
                QCOMPARE(t->cell(i, PhaseTable::MarginalCol), QStringLiteral("too short"));
            else
                QCOMPARE(t->cell(i, PhaseTable::MarginalCol).toStdString(), p.marginal_j);
        }
        // The decode is long enough on the sim counter for a figure; the checksum (a few ms
        // against 20 ms samples) is too short in every round, and said so, not as a number.
        QVERIFY(!rows[0].all_too_short);
        QVERIFY(t->cell(0, PhaseTable::MarginalCol).toDouble() > 0);
        QVERIFY(rows[1].all_too_short);
        QCOMPARE(t->cell(1, PhaseTable::MarginalCol), QStringLiteral("too short"));
        QVERIFY(t->cell(1, PhaseTable::TooShortCol).startsWith(QStringLiteral("too short")));
    }

    void chartHasAStripPerMarkedSpan()
    {
        const LoadedRecordPtr l = loadedOf(kPhases);
        QVERIFY(l);
        const Record& rec = *l->record;
        RecordTab tab(kPhases);
        tab.resize(1400, 860);
        tab.show();
        tab.setLoaded(l);
        const PowerChart* chart = tab.recordView()->chart();
        const std::vector<ChartPhase>& ph = chart->phases();
        std::size_t marks = 0;
        for (const Round& r : rec.rounds)
            marks += r.marks.size();
        QVERIFY(marks >= 2 * rec.rounds.size());
        QCOMPARE(ph.size(), marks);
        const double origin_s = double(tab.recordView()->originNs()) * 1e-9;
        for (const ChartPhase& p : ph) {
            QVERIFY(p.round >= 0 && p.round < int(rec.rounds.size()));
            const Round& rd = rec.rounds[std::size_t(p.round)];
            QVERIFY(rd.window && p.t1_s);
            QVERIFY(p.t0_s >= double((*rd.window)[0]) * 1e-9 - origin_s - 1e-6);
            QVERIFY(*p.t1_s <= double((*rd.window)[1]) * 1e-9 - origin_s + 1e-6);
            QVERIFY(*p.t1_s >= p.t0_s);
            // One colour per phase name.
            for (const ChartPhase& o : ph)
                QCOMPARE(o.name == p.name, o.color == p.color);
        }
        QVERIFY(chart->describeAt((ph[0].t0_s + *ph[0].t1_s) / 2).contains(QStringLiteral("phase ") + ph[0].name));
    }

    void recordWithoutPhasesShowsNeither()
    {
        const LoadedRecordPtr l = loadedOf(kPlain);
        QVERIFY(l);
        QVERIFY(!l->record->hasPhases());
        RecordTab tab(kPlain);
        tab.resize(1400, 860);
        tab.show();
        tab.setLoaded(l);
        QVERIFY(!tab.showsPhases());
        QCOMPARE(tab.phaseTable()->rowCount(), 0);
        QVERIFY(tab.recordView()->chart()->phases().empty());
        for (const LegendEntry& e : tab.recordView()->chart()->legend())
            QVERIFY(!e.text.startsWith(QStringLiteral("phase ")));
    }
};

QTEST_MAIN(TestInspectorPhases)
#include "tst_inspectorphases.moc"
