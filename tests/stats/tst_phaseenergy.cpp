// Per-phase energy: the pure arithmetic (pro rata over intervals, marginal, median and MAD over
// rounds), the counter's limit (too short: no figure), the record's phase keys both ways (a bad
// entry named by its path), and verify recomputing them (a tampered figure found by path).
#include "../ui_inspector/MakeRecord.h"

#include <jb/record/RecordJson.h>
#include <jb/record/SummaryTable.h>
#include <jb/stats/CounterResolution.h>
#include <jb/stats/PhaseEnergy.h>

#include <QtTest>

using namespace jb;

namespace {

// A record of 3 rounds, read every 10 ms, busy at a steady 35 W over 20 W idle, with the marks
// a (first 500 ms of the window), tiny (12 ms), b (the rest).
Record markedRecord()
{
    jbtest::RunShape shape;
    shape.period_ns = 10'000'000;
    shape.cadence_ns = 1'000'000;
    shape.idle_s = 0.5;
    shape.busy_s = 0.8;
    shape.noise_w = 0.0;
    Record r = jbtest::makeRecord(shape);
    for (Round& rd : r.rounds) {
        const auto [w0, w1] = *rd.window;
        rd.marks = {{"a", w0, w0 + 500'000'000}, {"tiny", w0 + 500'000'000, w0 + 512'000'000}, {"b", w0 + 512'000'000, w1}};
    }
    fillPhaseEnergy(r, r.samples);
    return r;
}

const PhaseFigure* figure(const Round& rd, const std::string& spec, const std::string& name)
{
    for (const auto& [k, v] : rd.phase_energy)
        if (k == spec)
            for (const PhaseFigure& f : v)
                if (f.name == name)
                    return &f;
    return nullptr;
}

}  // namespace

class TestPhaseEnergy : public QObject {
    Q_OBJECT
private slots:
    void proRataSplitsSharedIntervals()
    {
        // Four 100 ms intervals of 1 J each (10 W); a phase from 50 ms to 250 ms takes half of the
        // first, all of the second and half of the third: 2 J over 0.2 s.
        std::vector<Interval> iv;
        for (int i = 0; i < 4; ++i)
            iv.push_back({i * 100'000'000LL, (i + 1) * 100'000'000LL, 1'000'000'000});
        const std::vector<MarkSpan> spans{{"x", 50'000'000, 250'000'000}, {"y", 250'000'000, 300'000'000},
                                          {"x", 300'000'000, 400'000'000}};
        const auto f = phaseArithmetic(iv, spans, 4.0);
        QCOMPARE(int(f.size()), 2);
        QCOMPARE(QString::fromStdString(f[0].name), QStringLiteral("x"));
        QCOMPARE(f[0].passes, 2);
        QCOMPARE(f[0].span_s, 0.3);
        QVERIFY(qFuzzyCompare(*f[0].energy_j, 3.0));
        QVERIFY(qFuzzyCompare(*f[0].marginal_j, 3.0 - 4.0 * 0.3));
        QCOMPARE(f[1].passes, 1);
        QVERIFY(qFuzzyCompare(*f[1].energy_j, 0.5));
        // Without an idle power there is no marginal figure.
        QVERIFY(!phaseArithmetic(iv, spans, std::nullopt)[0].marginal_j);
        // The phases add up to the energy of their spans (here all of it but the first 50 ms).
        QVERIFY(qFuzzyCompare(*f[0].energy_j + *f[1].energy_j, 3.5));
    }

    void summaryIsMedianAndMad()
    {
        auto fig = [](double m) {
            PhaseFigure f;
            f.name = "p";
            f.passes = 1;
            f.span_s = 0.1;
            f.energy_j = m + 1;
            f.marginal_j = m;
            return f;
        };
        PhaseFigure shortOne;
        shortOne.name = "p";
        shortOne.span_s = 0.01;
        shortOne.too_short = "too short";
        const std::vector<std::vector<PhaseFigure>> rounds{{fig(1.0)}, {fig(2.0)}, {fig(4.0)}, {shortOne}};
        const auto s = summarizePhases(rounds, {10.0, 10.0, 10.0, 10.0});
        QCOMPARE(int(s.size()), 1);
        QCOMPARE(s[0].rounds, 4);
        QCOMPARE(s[0].too_short_rounds, 1);
        QCOMPARE(*s[0].median_marginal_j, 2.0);
        QCOMPARE(*s[0].mad_marginal_j, 1.0);  // |1-2|, |2-2|, |4-2| -> median 1
        QCOMPARE(*s[0].median_energy_j, 3.0);
        QCOMPARE(*s[0].share, 0.2);
        QCOMPARE(s[0].median_span_s, 0.1);  // median of 0.1, 0.1, 0.1, 0.01
    }

    void recordPhasesHaveFiguresAndLimits()
    {
        const Record r = markedRecord();
        for (const Round& rd : r.rounds) {
            const PhaseFigure* a = figure(rd, "rapl", "a");
            const PhaseFigure* tiny = figure(rd, "rapl", "tiny");
            const PhaseFigure* b = figure(rd, "rapl", "b");
            QVERIFY(a && tiny && b);
            // 15 W above idle: 7.5 J over 500 ms.
            QVERIFY2(std::abs(*a->marginal_j - 7.5) < 0.02 * 7.5, qPrintable(QString::number(*a->marginal_j)));
            QVERIFY(!a->too_short);
            QVERIFY(*a->updates > 40);
            // 12 ms against a 10 ms read: 1.2 updates, too short, and no figure.
            QVERIFY(tiny->too_short);
            QVERIFY(!tiny->energy_j && !tiny->marginal_j);
            QVERIFY2(tiny->too_short->find("too short for rapl: 1.2 updates in 12 ms, needs 2") != std::string::npos,
                     tiny->too_short->c_str());
            QVERIFY(b->marginal_j && *b->marginal_j > 0);
        }
        const std::string table = phaseTable(r, "rapl");
        QVERIFY2(table.find("too short for the counter (every round)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("spread (MAD)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("tiny: too short for rapl") != std::string::npos, table.c_str());
    }

    void verifyAgreesAndFindsATamperedFigure()
    {
        const Record r = markedRecord();
        const VerifyReport ok = verifyRecordWithPhases(r);
        QVERIFY(ok.verifiable);
        QVERIFY2(ok.disagreements.empty(), ok.disagreements.empty() ? "" : ok.disagreements[0].path.c_str());
        // Through the file: written, read back, still agreeing.
        ojson j = toJson(r);
        QVERIFY(j.contains("phase_summary"));
        QCOMPARE(j["phase_summary"]["spread"].get<std::string>(), std::string("mad"));
        auto back = recordFromJson(j);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(back->rounds[1].marks, r.rounds[1].marks);
        QCOMPARE(back->rounds[1].phase_energy, r.rounds[1].phase_energy);
        QVERIFY(verifyRecordWithPhases(*back).agrees());
        QCOMPARE(dumpRecord(*back), dumpRecord(r));
        // A figure changed in the file.
        j["rounds"][1]["phase_energy"]["rapl"][0]["marginal_j"] = 99.0;
        j["phase_summary"]["rapl"][2]["median_marginal_j"] = 1.0;
        auto bad = recordFromJson(j);
        QVERIFY(bad.ok());
        const VerifyReport rep = verifyRecordWithPhases(*bad);
        QVERIFY(!rep.agrees());
        QStringList paths;
        for (const Disagreement& d : rep.disagreements)
            paths << QString::fromStdString(d.path);
        QVERIFY2(paths.contains(QStringLiteral("$.rounds[1].phase_energy.rapl[0].marginal_j")), qPrintable(paths.join(QLatin1Char(' '))));
        QVERIFY2(paths.contains(QStringLiteral("$.phase_summary.rapl[2].median_marginal_j")), qPrintable(paths.join(QLatin1Char(' '))));
    }

    void badPhaseEntriesAreNamedByPath()
    {
        const ojson good = toJson(markedRecord());
        auto expectError = [&](const std::function<void(ojson&)>& spoil, const QString& want) {
            ojson j = good;
            spoil(j);
            const auto r = recordFromJson(j);
            QVERIFY2(!r.ok(), qPrintable(want));
            QVERIFY2(QString::fromStdString(r.error()).contains(want), r.error().c_str());
        };
        expectError([](ojson& j) { j["rounds"][0]["marks"][1]["t0_ns"] = "soon"; },
                    QStringLiteral("$.rounds[0].marks[1].t0_ns: expected an integer"));
        expectError([](ojson& j) { j["rounds"][0]["marks"] = 3; }, QStringLiteral("$.rounds[0].marks: expected an array"));
        expectError([](ojson& j) { j["rounds"][2]["phase_energy"]["rapl"][0].erase("span_s"); },
                    QStringLiteral("$.rounds[2].phase_energy.rapl[0]: missing key \"span_s\""));
        expectError([](ojson& j) { j["rounds"][0]["phase_energy"]["rapl"][1]["marginal_j"] = 1.0; },
                    QStringLiteral("$.rounds[0].phase_energy.rapl[1]: a phase that is too short has no figure"));
        expectError([](ojson& j) { j["rounds"][0]["marks"][0]["t1_ns"] = 0; },
                    QStringLiteral("$.rounds[0].marks[0]: ends"));
    }

    void recordWithoutMarksHasNoPhaseKeys()
    {
        jbtest::RunShape shape;
        Record r = jbtest::makeRecord(shape);
        fillPhaseEnergy(r, r.samples);
        const ojson j = toJson(r);
        QVERIFY(!j.contains("phase_summary"));
        for (const auto& rd : j["rounds"]) {
            QVERIFY(!rd.contains("marks"));
            QVERIFY(!rd.contains("phase_energy"));
        }
        QVERIFY(phaseTable(r, "rapl").empty());
    }
};

QTEST_GUILESS_MAIN(TestPhaseEnergy)
#include "tst_phaseenergy.moc"
