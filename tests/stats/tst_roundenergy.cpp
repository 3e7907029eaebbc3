// Per-round J per decode and its uncertainty from the idle noise: the formula by hand, the
// reference's golden record, and a made-up run whose true energy is known (the bars must be
// neither far too narrow nor far too wide).
#include "../ui_inspector/MakeRecord.h"
#include <jb/record/Compare.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/RoundEnergy.h>

#include <QtTest>

using namespace jb;

class TestRoundEnergy : public QObject {
    Q_OBJECT
private slots:
    void formulaByHand()
    {
        CounterRound c;
        c.busy = Bracket{8, 8, 8, 800'000'000, 35.0, 0.3};
        c.idle_before = Bracket{9, 9, 9, 900'000'000, 20.0, 0.1};
        c.idle_after = Bracket{16, 16, 16, 1'600'000'000, 20.1, 0.2};
        c.covered_ns = 1'000'000'000;
        c.window_nj = 35'000'000'000;
        c.has_marginal = true;
        c.marginal_nj = 14.95e9;
        const auto u = marginalUncertainty(c);
        QVERIFY(u);
        // window: max idle sd 0.2 W x 1 s / sqrt(8 busy intervals)
        QCOMPARE(u->window_j, 0.2 / std::sqrt(8.0));
        // baseline: 1 s x 0.5 sqrt(0.1^2/9 + 0.2^2/16)
        QCOMPARE(u->baseline_j, 0.5 * std::sqrt(0.01 / 9 + 0.04 / 16));
        QCOMPARE(u->total_j, std::sqrt(u->window_j * u->window_j + u->baseline_j * u->baseline_j));

        c.idle_after.reset();
        QVERIFY(!marginalUncertainty(c));
    }

    void referenceRecord()
    {
        auto r = loadRecord(std::string(JB_REFERENCE_DIR) + "/reference-record-rapl.json");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        const auto e = roundEnergies(*r, "rapl");
        const auto j = jPerDecode(*r, "rapl");
        QCOMPARE(e.size(), j.size());
        QCOMPARE(int(e.size()), int(r->rounds.size()));
        for (std::size_t i = 0; i < e.size(); ++i) {
            QCOMPARE(e[i].round, j[i].round);
            QCOMPARE(e[i].j_per_decode, j[i].j_per_decode);
            QVERIFY(e[i].sd_j_per_decode);
            // About 1.5 J per decode known to a few mJ: the idle sd is ~0.1 W over ~0.9 s.
            QVERIFY2(*e[i].sd_j_per_decode > 0.001 && *e[i].sd_j_per_decode < 0.02,
                     qPrintable(QString::number(*e[i].sd_j_per_decode)));
            QVERIFY(e[i].verdict == jb::Verdict::Clean);
        }
        // The child's own truth (child_note truth_nj=...) lies within three bars of each round.
        for (std::size_t i = 0; i < e.size(); ++i) {
            const std::string note = r->rounds[i].child_note.value_or("");
            const double truth = std::stod(note.substr(note.find('=') + 1)) / 1e9 /
                double(r->rounds[i].decodes);
            QVERIFY2(std::abs(e[i].j_per_decode - truth) < 3 * *e[i].sd_j_per_decode,
                     qPrintable(QStringLiteral("round %1: %2 vs truth %3 sd %4")
                                    .arg(i)
                                    .arg(e[i].j_per_decode)
                                    .arg(truth)
                                    .arg(*e[i].sd_j_per_decode)));
        }
    }

    void skipsRoundsWithoutFigures()
    {
        Record r = jbtest::makeRecord({});
        r.rounds[1].decodes = 0;
        r.rounds[2].counters[0].second.has_marginal = false;
        const auto e = roundEnergies(r, "rapl");
        QCOMPARE(int(e.size()), 1);
        QCOMPARE(e[0].round, 0);
        QVERIFY(roundEnergies(r, "nvml:0").empty());
    }

    void barsAreCalibrated()
    {
        // The made-up decoder draws exactly 15 W more during each window, so the true J per
        // decode is 15 W x window / decodes. Over many rounds the errors, in units of the
        // bar, should look like a standard deviation's: most within two, not all within a tenth.
        jbtest::RunShape s;
        s.rounds = 120;
        s.period_ns = 50'000'000;
        s.noise_w = 0.5;
        s.seed = 11;
        const Record r = jbtest::makeRecord(s);
        const auto e = roundEnergies(r, "rapl");
        QCOMPARE(int(e.size()), s.rounds);
        int within2 = 0;
        double sumZ = 0;
        for (const RoundEnergy& x : e) {
            const Round& rd = r.rounds[std::size_t(x.round)];
            const double truth = 15.0 * double(rd.window_ns) / 1e9 / double(rd.decodes);
            const double z = std::abs(x.j_per_decode - truth) / *x.sd_j_per_decode;
            within2 += z < 2.0;
            sumZ += z;
        }
        const double meanZ = sumZ / double(e.size());
        qInfo("mean |error| / bar = %.2f, within two bars: %d of %d", meanZ, within2, int(e.size()));
        QVERIFY2(within2 >= int(0.85 * double(e.size())), qPrintable(QString::number(within2)));
        QVERIFY2(meanZ > 0.3 && meanZ < 1.6, qPrintable(QString::number(meanZ)));
    }

    void formulaText()
    {
        const QString t = QString::fromStdString(uncertaintyFormulaText());
        QVERIFY(t.contains(QStringLiteral("√n_busy")));
        QVERIFY(t.contains(QStringLiteral("decodes")));
    }
};

QTEST_GUILESS_MAIN(TestRoundEnergy)
#include "tst_roundenergy.moc"
