// The coarse-counter rule: how many counter updates a busy window holds, from the counter's
// cadence, the sampler's period or the busy bracket's advanced count, and when that is too few.
#include "../ui_inspector/MakeRecord.h"
#include <jb/stats/CounterResolution.h>

#include <QtTest>

using namespace jb;
using Basis = WindowResolution::Basis;

Q_DECLARE_METATYPE(Basis)

class TestCounterResolution : public QObject {
    Q_OBJECT
private slots:
    void rule_data()
    {
        QTest::addColumn<qint64>("window_ns");
        QTest::addColumn<double>("cadence_ms");  // <0: none
        QTest::addColumn<double>("period_s");    // <0: none
        QTest::addColumn<int>("intervals");      // <0: no busy bracket
        QTest::addColumn<int>("advanced");
        QTest::addColumn<Basis>("basis");
        QTest::addColumn<double>("updates");  // <0: none
        QTest::addColumn<bool>("lowerBound");
        QTest::addColumn<bool>("coarse");
        QTest::addColumn<QString>("text");

        const qint64 ms = 1'000'000;
        QTest::newRow("rapl 1 ms cadence, read every 0.5 ms")
            << 800 * ms << 1.0 << 0.0005 << 1599 << 799 << Basis::Cadence << 800.0 << false << false
            << QStringLiteral("≈800 updates in the window (it changes every 1 ms)");
        QTest::newRow("a declared cadence shorter than the period")
            << 800 * ms << 1.0 << 0.1 << 7 << 7 << Basis::Cadence << 800.0 << false << false << QString();
        QTest::newRow("cadence of 0.7 periods is still the sampler's")
            << 800 * ms << 70.0 << 0.1 << 7 << 7 << Basis::SamplerBound << 8.0 << true << false << QString();
        QTest::newRow("changed at every 100 ms read")
            << 800 * ms << 100.0 << 0.1 << 7 << 7 << Basis::SamplerBound << 8.0 << true << false
            << QStringLiteral("at least 8 updates in the window (the counter "
                              "changed at every read, every 100 ms; it may "
                              "update faster)");
        QTest::newRow("cadence 1.4 periods is still the sampler's")
            << 800 * ms << 140.0 << 0.1 << 7 << 5 << Basis::SamplerBound << 8.0 << true << false << QString();
        QTest::newRow("coarse 250 ms counter")
            << 800 * ms << 250.0 << 0.01 << 79 << 4 << Basis::Cadence << 3.2 << false << true
            << QStringLiteral("coarse counter: 3.2 updates in the window (it "
                              "changes every 250 ms)");
        QTest::newRow("9.96 updates is coarse, shown as 9.9")
            << 996 * ms << 100.0 << 0.01 << 99 << 10 << Basis::Cadence << 9.96 << false << true
            << QStringLiteral("coarse counter: 9.9 updates in the window (it changes every 100 ms)");
        QTest::newRow("exactly ten is enough")
            << 1000 * ms << 100.0 << 0.01 << 99 << 10 << Basis::Cadence << 10.0 << false << false
            << QStringLiteral("≈10 updates in the window (it changes every 100 ms)");
        QTest::newRow("no period known: cadence taken as is")
            << 800 * ms << 100.0 << -1.0 << -1 << 0 << Basis::Cadence << 8.0 << false << true
            << QStringLiteral("coarse counter: 8 updates in the window (it changes every 100 ms)");
        QTest::newRow("advanced, coarse")
            << 800 * ms << -1.0 << 0.01 << 80 << 3 << Basis::Advanced << 3.0 << false << true
            << QStringLiteral("coarse counter: 3 updates in the window (3 of 80 "
                              "sampling intervals advanced)");
        QTest::newRow("advanced, fine enough")
            << 800 * ms << -1.0 << 0.01 << 80 << 40 << Basis::Advanced << 40.0 << false << false
            << QStringLiteral("≈40 updates in the window (40 of 80 sampling "
                              "intervals advanced)");
        QTest::newRow("one update") << 800 * ms << -1.0 << 0.01 << 80 << 1 << Basis::Advanced << 1.0 << false
                                    << true
                                    << QStringLiteral(
                                           "coarse counter: 1 update in the window (1 of 80 sampling "
                                           "intervals advanced)");
        QTest::newRow("stuck counter")
            << 800 * ms << -1.0 << 0.01 << 80 << 0 << Basis::Advanced << 0.0 << false << true
            << QStringLiteral("coarse counter: 0 updates in the window (0 of 80 sampling "
                              "intervals advanced)");
        QTest::newRow("every interval advanced: a lower bound, not coarse")
            << 800 * ms << -1.0 << 0.1 << 7 << 7 << Basis::AllAdvanced << 7.0 << true << false
            << QStringLiteral("at least 7 updates in the window (every sampling interval advanced)");
        QTest::newRow("zero cadence is no cadence")
            << 800 * ms << 0.0 << 0.1 << 7 << 7 << Basis::AllAdvanced << 7.0 << true << false << QString();
        QTest::newRow("nothing known")
            << 800 * ms << -1.0 << 0.1 << -1 << 0 << Basis::Unknown << -1.0 << false << false
            << QStringLiteral("counter cadence unknown: the record has no cadence and the "
                              "window fewer than two samples");
        QTest::newRow("no window") << qint64(0) << 1.0 << 0.1 << -1 << 0 << Basis::Unknown << -1.0 << false
                                   << false << QStringLiteral("no busy window");
    }
    void rule()
    {
        QFETCH(qint64, window_ns);
        QFETCH(double, cadence_ms);
        QFETCH(double, period_s);
        QFETCH(int, intervals);
        QFETCH(int, advanced);
        CounterCadence c;
        if (cadence_ms >= 0)
            c.update_cadence_ms = cadence_ms;
        if (period_s >= 0)
            c.period_s = period_s;
        std::optional<Bracket> busy;
        if (intervals >= 0) {
            busy = Bracket{};
            busy->intervals = intervals;
            busy->advanced = advanced;
        }
        const WindowResolution w = windowResolution(window_ns, c, busy);
        QTEST(w.basis, "basis");
        QFETCH(double, updates);
        if (updates < 0) {
            QVERIFY(!w.updates);
        } else {
            QVERIFY(w.updates);
            QVERIFY2(std::abs(*w.updates - updates) < 1e-9, qPrintable(QString::number(*w.updates)));
        }
        QTEST(w.lower_bound, "lowerBound");
        QTEST(w.coarse, "coarse");
        QFETCH(QString, text);
        if (!text.isEmpty())
            QCOMPARE(QString::fromStdString(w.text), text);
        if (w.coarse) {
            QVERIFY(w.text.starts_with("coarse counter: "));
            // The table's short form keeps the words.
            QCOMPARE(QString::fromStdString(w.short_text),
                     QString::fromStdString(w.text.substr(0, w.text.find(" ("))));
        }
        QVERIFY(!w.short_text.empty());
    }

    void cadenceSources()
    {
        Record r = jbtest::makeRecord({});
        // counter_info first.
        r.counter_info[0].second["update_cadence_ms"] = 7.5;
        r.sampler[0].second.update_cadence_ms = 3.0;
        CounterCadence c = cadenceOf(r, "rapl");
        QCOMPARE(c.update_cadence_ms.value_or(-1), 7.5);
        QCOMPARE(QString::fromStdString(c.cadence_source), QStringLiteral("counter_info"));
        QCOMPARE(c.period_s.value_or(-1), 0.1);
        // A null there: the sampler's figure.
        r.counter_info[0].second["update_cadence_ms"] = nullptr;
        c = cadenceOf(r, "rapl");
        QCOMPARE(c.update_cadence_ms.value_or(-1), 3.0);
        QCOMPARE(QString::fromStdString(c.cadence_source), QStringLiteral("sampler"));
        // Neither, and no sampler period: the record's sample_s.
        r.sampler.clear();
        r.counter_info.clear();
        r.sample_s = 0.25;
        c = cadenceOf(r, "rapl");
        QVERIFY(!c.update_cadence_ms);
        QCOMPARE(c.period_s.value_or(-1), 0.25);
        // Another counter's figures are not this one's.
        Record other = jbtest::makeRecord({});
        QVERIFY(!cadenceOf(other, "nvml:0").update_cadence_ms);
    }

    void madeRecords()
    {
        // A RAPL-like counter read every 10 ms: hundreds of updates per 0.8 s window.
        jbtest::RunShape fine;
        fine.period_ns = 10'000'000;
        fine.cadence_ns = 1'000'000;
        const Record rf = jbtest::makeRecord(fine);
        for (std::size_t i = 0; i < rf.rounds.size(); ++i) {
            const WindowResolution w = roundResolution(rf, i, "rapl");
            QVERIFY2(!w.coarse, w.text.c_str());
            QVERIFY2(w.basis == Basis::SamplerBound || w.basis == Basis::Cadence, w.text.c_str());
        }
        // A counter that changes every 250 ms, read every 10 ms: about 3 updates per window.
        jbtest::RunShape coarse = fine;
        coarse.cadence_ns = 250'000'000;
        const Record rc = jbtest::makeRecord(coarse);
        QVERIFY(rc.sampler[0].second.update_cadence_ms);
        QVERIFY(std::abs(*rc.sampler[0].second.update_cadence_ms - 250.0) < 15.0);
        for (std::size_t i = 0; i < rc.rounds.size(); ++i) {
            const WindowResolution w = roundResolution(rc, i, "rapl");
            QVERIFY2(w.coarse, w.text.c_str());
            QVERIFY(w.updates && *w.updates > 2.5 && *w.updates < 4.0);
        }
        // Without a cadence the busy bracket's advanced count tells the same.
        Record nocad = rc;
        nocad.counter_info.clear();
        nocad.sampler.clear();
        for (std::size_t i = 0; i < nocad.rounds.size(); ++i) {
            const WindowResolution w = roundResolution(nocad, i, "rapl");
            QCOMPARE(w.basis, Basis::Advanced);
            QVERIFY2(w.coarse, w.text.c_str());
        }
        QVERIFY(roundResolution(rc, 99, "rapl").basis == Basis::Unknown);
    }

    void deadCounterIsNamedNotCoarse()
    {
        // A counter that reads 0 (or is frozen) all round: no interval advanced in the busy window
        // or either bracket. Its round names it and the cause instead of "0 updates, too short".
        jbtest::RunShape shape;
        shape.period_ns = 10'000'000;
        Record dead = jbtest::makeRecord(shape);
        dead.counter_info.clear();
        dead.sampler.clear();
        for (Round& rd : dead.rounds)
            for (auto& [spec, c] : rd.counters)
                for (auto* b : {&c.busy, &c.idle_before, &c.idle_after})
                    if (*b)
                        (*b)->advanced = 0;
        for (std::size_t i = 0; i < dead.rounds.size(); ++i) {
            const auto lim = roundLimits(dead, i);
            QCOMPARE(int(lim.size()), 1);
            QCOMPARE(QString::fromStdString(lim[0].second),
                     QStringLiteral("rapl never advanced in this round: its energy is missing"));
        }
        QVERIFY2(!coarseCounter(dead, "rapl").coarse(), coarseCounter(dead, "rapl").text().c_str());
        // One that advanced in a bracket is alive (coarse perhaps, never dead).
        Record alive = dead;
        alive.rounds[0].counters[0].second.idle_after->advanced = 1;
        const auto lim = roundLimits(alive, 0);
        QVERIFY(lim.empty() || lim[0].second.find("never advanced") == std::string::npos);
        // One known to publish every 5 s says nothing in a round of 2.8 s: coarse, not dead.
        CounterCadence slow;
        slow.update_cadence_ms = 5000;
        QVERIFY(neverAdvancedText("rapl", slow, dead.rounds[0].counters[0].second).empty());
        slow.update_cadence_ms = 100;
        QVERIFY(!neverAdvancedText("rapl", slow, dead.rounds[0].counters[0].second).empty());
    }

    void recordWideSentence()
    {
        // A coarse counter: every round named, with the first coarse round's figures.
        jbtest::RunShape coarse;
        coarse.period_ns = 10'000'000;
        coarse.cadence_ns = 250'000'000;
        const Record rc = jbtest::makeRecord(coarse);
        const CoarseCounter c = coarseCounter(rc, "rapl");
        QVERIFY(c.coarse());
        QCOMPARE(c.coarse_rounds, 3);
        QCOMPARE(c.rounds, 3);
        QCOMPARE(QString::fromStdString(c.headline), QStringLiteral("Coarse counter (rapl):"));
        QCOMPARE(c.example.text, roundResolution(rc, 0, "rapl").text);
        QCOMPARE(QString::fromStdString(c.detail),
                 QStringLiteral("in 3 of 3 rounds the busy window saw fewer than 10 counter updates (") +
                     QString::fromStdString(c.example.text) +
                     QStringLiteral("). Those verdicts judge the counter more than the decoder: make the rounds "
                                    "longer (more decodes per round) or use a finer counter."));
        QCOMPARE(c.text(), c.headline + " " + c.detail);
        // A fine one: nothing to say.
        jbtest::RunShape fine = coarse;
        fine.cadence_ns = 1'000'000;
        const CoarseCounter f = coarseCounter(jbtest::makeRecord(fine), "rapl");
        QVERIFY(!f.coarse());
        QVERIFY(f.text().empty());
        QCOMPARE(f.rounds, 3);
        // A counter the record does not have.
        QVERIFY(!coarseCounter(rc, "nvml:0").coarse());
    }

    void observedCadenceSources()
    {
        jbtest::RunShape coarse;
        coarse.period_ns = 100'000'000;
        coarse.cadence_ns = 400'000'000;
        coarse.rounds = 6;
        coarse.idle_s = 2.0;
        Record r = jbtest::makeRecord(coarse);
        // counter_info first (the made record's is the measured cadence).
        auto o = observedCadence(r, "rapl");
        QVERIFY(o);
        QCOMPARE(QString::fromStdString(o->source), QStringLiteral("counter_info"));
        QVERIFY2(std::abs(o->ms - 400.0) < 20.0, o->text.c_str());
        r.counter_info[0].second["update_cadence_ms"] = 390.0;
        o = observedCadence(r, "rapl");
        QVERIFY(o);
        QCOMPARE(o->ms, 390.0);
        // Else the sampler's figure.
        r.counter_info[0].second["update_cadence_ms"] = nullptr;
        o = observedCadence(r, "rapl");
        QVERIFY(o);
        QCOMPARE(QString::fromStdString(o->source), QStringLiteral("sampler"));
        QVERIFY2(std::abs(o->ms - 400.0) < 20.0, o->text.c_str());
        // No figure: the brackets' spans over their advancing intervals, near the truth.
        r.counter_info.clear();
        r.sampler.clear();
        o = observedCadence(r, "rapl");
        QVERIFY(o);
        QCOMPARE(QString::fromStdString(o->source), QStringLiteral("brackets"));
        QVERIFY(o->advanced > 0 && o->advanced < o->intervals);
        // Brackets in step with the counter (the same phase every round) are off by up to about
        // an update each: near the truth, not at it.
        QVERIFY2(o->ms > 300.0 && o->ms < 520.0, o->text.c_str());
        QVERIFY2(QString::fromStdString(o->text).contains(QStringLiteral(" sampling intervals advanced)")), o->text.c_str());
        // A counter that changes at every read: the brackets say only "at most the period".
        jbtest::RunShape fine = coarse;
        fine.cadence_ns = 1'000'000;
        Record rf = jbtest::makeRecord(fine);
        rf.counter_info.clear();
        rf.sampler.clear();
        QVERIFY(!observedCadence(rf, "rapl"));
        // A sampler's cadence about the period is the sampler's bound, not the counter's.
        Record bound = jbtest::makeRecord(fine);
        bound.counter_info[0].second["update_cadence_ms"] = 100.0;
        bound.sampler[0].second.update_cadence_ms = 100.0;
        QVERIFY(!observedCadence(bound, "rapl"));
    }
};

QTEST_GUILESS_MAIN(TestCounterResolution)
#include "tst_counterresolution.moc"
