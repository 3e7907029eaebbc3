// verify: a record built by hand from samples agrees with itself; a tampered figure is
// flagged by its JSON path with both values; records without samples say why they cannot be
// checked.
#include "SyntheticRecord.h"
#include <jb/record/RecordJson.h>
#include <jb/record/Verify.h>
#include <jb/stats/SessionChecks.h>

#include <QtTest>

using namespace jb;

namespace {

QString describe(const VerifyReport& r)
{
    QString s = QStringLiteral("verifiable=%1 why_not=%2 checked=%3\n")
                    .arg(r.verifiable)
                    .arg(QString::fromStdString(r.why_not))
                    .arg(r.figures_checked);
    for (const Disagreement& d : r.disagreements)
        s += QString::fromStdString(d.path + ": stored " + d.stored + ", recomputed " + d.recomputed + "\n");
    return s;
}

CounterRound& rapl(Record& r, std::size_t round)
{
    return r.rounds[round].counters[0].second;
}

}  // namespace

class TestVerify : public QObject {
    Q_OBJECT
private slots:
    void builtByHandAgrees()
    {
        const Record r = jbtest::syntheticRecord(4);
        const VerifyReport rep = verifyRecord(r);
        QVERIFY2(rep.agrees(), qPrintable(describe(rep)));
        QCOMPARE(rep.rounds_checked, 4);
        QCOMPARE(rep.counters_checked, 4);
        // Per round: window_ns, 3 brackets x 6, window_nj, covered_ns, marginal, ratio, verdict.
        QCOMPARE(rep.figures_checked, 4 * (1 + 18 + 5));
        QVERIFY(rep.notes.empty());
    }

    void fixtureThroughJsonAgreesSummaryIncluded()
    {
        const Result<Record> r = loadRecord(std::string(JB_FIXTURES) + "/records/joulebench-rapl.json");
        QVERIFY(r.ok());
        QVERIFY(r->loaded_summary);
        const VerifyReport rep = verifyRecord(*r);
        QVERIFY2(rep.agrees(), qPrintable(describe(rep)));
        // Summary: rounds, 5 verdict counts, median, min, max (outlier_rounds is empty).
        QCOMPARE(rep.figures_checked, 3 * (1 + 18 + 5) + 9);
    }

    void tamperedFloatIsFlaggedWithItsPath()
    {
        Record r = jbtest::syntheticRecord(3);
        const double truth = rapl(r, 1).busy->mean_w;
        rapl(r, 1).busy->mean_w = truth * 1.001;
        const VerifyReport rep = verifyRecord(r);
        QVERIFY(rep.verifiable);
        QVERIFY(!rep.agrees());
        QCOMPARE(rep.disagreements.size(), std::size_t(1));
        const Disagreement& d = rep.disagreements[0];
        QCOMPARE(d.path, std::string("$.rounds[1].rapl.busy.mean_w"));
        QCOMPARE(d.stored, dumpJson(ojson(truth * 1.001), -1));
        QCOMPARE(d.recomputed, dumpJson(ojson(truth), -1));
    }

    void differenceWithinToleranceAgrees()
    {
        Record r = jbtest::syntheticRecord(2);
        rapl(r, 0).marginal_nj *= 1.0 + 1e-12;
        rapl(r, 1).idle_after->sd_w *= 1.0 - 5e-10;
        QVERIFY2(verifyRecord(r).agrees(), qPrintable(describe(verifyRecord(r))));
        rapl(r, 1).idle_after->sd_w *= 1.0 - 5e-9;  // now beyond 1e-9 in all
        const VerifyReport rep = verifyRecord(r);
        QCOMPARE(rep.disagreements.size(), std::size_t(1));
        QCOMPARE(rep.disagreements[0].path, std::string("$.rounds[1].rapl.idle_after.sd_w"));
    }

    void integersMustMatchExactly()
    {
        Record r = jbtest::syntheticRecord(2);
        rapl(r, 0).window_nj += 1;
        rapl(r, 1).busy->intervals += 1;
        const VerifyReport rep = verifyRecord(r);
        QCOMPARE(rep.disagreements.size(), std::size_t(2));
        QCOMPARE(rep.disagreements[0].path, std::string("$.rounds[0].rapl.window_nj"));
        QCOMPARE(rep.disagreements[0].stored, std::to_string(rapl(r, 0).window_nj));
        QCOMPARE(rep.disagreements[0].recomputed, std::to_string(rapl(r, 0).window_nj - 1));
        QCOMPARE(rep.disagreements[1].path, std::string("$.rounds[1].rapl.busy.intervals"));
    }

    void verdictAndMissingFigures()
    {
        Record r = jbtest::syntheticRecord(3);
        rapl(r, 0).verdict = Verdict::Noisy;
        r.rounds[2].counters.clear();
        const VerifyReport rep = verifyRecord(r);
        QCOMPARE(rep.disagreements.size(), std::size_t(2));
        QCOMPARE(rep.disagreements[0].path, std::string("$.rounds[0].rapl.verdict"));
        QCOMPARE(rep.disagreements[0].stored, std::string("\"noisy\""));
        QCOMPARE(rep.disagreements[0].recomputed, std::string("\"clean\""));
        QCOMPARE(rep.disagreements[1].path, std::string("$.rounds[2].rapl"));
        QCOMPARE(rep.disagreements[1].stored, std::string("missing"));
    }

    void marginalStoredWhereNoneFollows()
    {
        Record r = jbtest::syntheticRecord(1);
        // Brackets that hold no interval: the recomputed round has no marginal at all.
        (*r.rounds[0].brackets)[0] = {1, 2};
        const VerifyReport rep = verifyRecord(r);
        QStringList paths;
        for (const Disagreement& d : rep.disagreements)
            paths << QString::fromStdString(d.path);
        QVERIFY2(paths.contains(QStringLiteral("$.rounds[0].rapl.idle_before")), qPrintable(describe(rep)));
        QVERIFY(paths.contains(QStringLiteral("$.rounds[0].rapl.marginal_nj")));
        for (const Disagreement& d : rep.disagreements)
            if (d.path == "$.rounds[0].rapl.marginal_nj")
                QCOMPARE(d.recomputed, std::string("missing"));
    }

    void movedWindowChangesFigures()
    {
        Record r = jbtest::syntheticRecord(2);
        (*r.rounds[1].window)[0] += 150'000'000;
        const VerifyReport rep = verifyRecord(r);
        QVERIFY(!rep.agrees());
        QCOMPARE(rep.disagreements[0].path, std::string("$.rounds[1].window_ns"));
        bool busy = false;
        for (const Disagreement& d : rep.disagreements)
            busy = busy || d.path == "$.rounds[1].rapl.busy.intervals";
        QVERIFY2(busy, qPrintable(describe(rep)));
    }

    void storedSummaryIsChecked()
    {
        Result<Record> r = loadRecord(std::string(JB_FIXTURES) + "/records/joulebench-rapl.json");
        QVERIFY(r.ok());
        (*r->loaded_summary)["rapl"]["median_j_per_decode"] = 99.0;
        (*r->loaded_summary)["rapl"]["verdicts"]["relative-only"] = 1;
        const VerifyReport rep = verifyRecord(*r);
        QCOMPARE(rep.disagreements.size(), std::size_t(2));
        QCOMPARE(rep.disagreements[0].path, std::string("$.summary.rapl.verdicts[\"relative-only\"]"));
        QCOMPARE(rep.disagreements[1].path, std::string("$.summary.rapl.median_j_per_decode"));
        QCOMPARE(rep.disagreements[1].stored, std::string("99.0"));
    }

    void referenceRecordCannotBeVerified()
    {
        const Result<Record> r = loadRecord(std::string(JB_REFERENCE_DIR) + "/reference-record-rapl.json");
        QVERIFY(r.ok());
        const VerifyReport rep = verifyRecord(*r);
        QVERIFY(!rep.verifiable);
        QVERIFY(!rep.agrees());
        QVERIFY2(QString::fromStdString(rep.why_not).contains(QStringLiteral("no raw samples")),
                 rep.why_not.c_str());
        QVERIFY(rep.disagreements.empty());
    }

    void samplesWithoutWindowsCannotBeVerified()
    {
        Record r = jbtest::syntheticRecord(2);
        for (Round& round : r.rounds)
            round.window.reset();
        const VerifyReport rep = verifyRecord(r);
        QVERIFY(!rep.verifiable);
        QVERIFY2(QString::fromStdString(rep.why_not).contains(QStringLiteral("window and brackets")),
                 rep.why_not.c_str());
        QCOMPARE(rep.notes.size(), std::size_t(1));
        QCOMPARE(rep.notes[0],
                 std::string("rounds 0, 1 (0-based): no window or brackets stored, not checked"));
    }

    // The session writes each round's integrity.<spec> (idle drift) from its brackets; verify
    // recomputes it, so a drift figure or flag edited afterwards is caught by its path.
    void tamperedIdleDriftIsFlagged()
    {
        Record r = jbtest::syntheticRecord(3);
        for (Round& round : r.rounds) {
            const CounterRound& c = round.counters[0].second;
            QVERIFY(c.idle_before && c.idle_after);
            round.extra["integrity"]["rapl"] = idleDriftJson(idleDrift(*c.idle_before, *c.idle_after));
        }
        const VerifyReport clean = verifyRecord(r);
        QVERIFY2(clean.agrees(), qPrintable(describe(clean)));
        QCOMPARE(clean.figures_checked, 3 * (1 + 18 + 5 + 3));  // + idle_drift, drift_w, noise_w

        const double truth = r.rounds[2].extra["integrity"]["rapl"]["drift_w"].get<double>();
        r.rounds[2].extra["integrity"]["rapl"]["drift_w"] = truth + 0.5;
        r.rounds[0].extra["integrity"]["rapl"]["idle_drift"] =
            !r.rounds[0].extra["integrity"]["rapl"]["idle_drift"].get<bool>();
        const VerifyReport rep = verifyRecord(r);
        QVERIFY(rep.verifiable);
        QCOMPARE(rep.disagreements.size(), std::size_t(2));
        QCOMPARE(rep.disagreements[0].path, std::string("$.rounds[0].integrity.rapl.idle_drift"));
        QCOMPARE(rep.disagreements[1].path, std::string("$.rounds[2].integrity.rapl.drift_w"));
        QCOMPARE(rep.disagreements[1].stored, dumpJson(ojson(truth + 0.5), -1));
        QCOMPARE(rep.disagreements[1].recomputed, dumpJson(ojson(truth), -1));

        // A drift figure where the recomputed round has no idle bracket to drift between.
        r.rounds[1].extra["integrity"]["rapl:psys"] = r.rounds[1].extra["integrity"]["rapl"];
        r.rounds[1].extra["integrity"].erase("rapl");
        const VerifyReport gone = verifyRecord(r);
        bool missing = false;
        for (const Disagreement& d : gone.disagreements)
            missing = missing || (d.path == "$.rounds[1].integrity.rapl" && d.stored == "missing");
        QVERIFY2(missing, qPrintable(describe(gone)));
    }

    void partlyCheckableRecordSaysWhatWasLeft()
    {
        Record r = jbtest::syntheticRecord(3);
        r.rounds[1].brackets.reset();
        // A second counter with figures but no samples.
        for (Round& round : r.rounds)
            round.counters.emplace_back("rapl:psys", round.counters[0].second);
        const VerifyReport rep = verifyRecord(r);
        QVERIFY2(rep.agrees(), qPrintable(describe(rep)));
        QCOMPARE(rep.rounds_checked, 2);
        QCOMPARE(rep.notes.size(), std::size_t(2));
        QCOMPARE(rep.notes[0], std::string("round 1 (0-based): no window or brackets stored, not checked"));
        QCOMPARE(rep.notes[1],
                 std::string("rapl:psys: no samples in the record, its round figures were not checked"));
    }
};

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
