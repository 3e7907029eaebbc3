// jb::cadencePlan: what a coarse counter needs (a sampling period no shorter than its update
// cadence, windows and brackets of ten updates), on records made with a known cadence.
#include "../ui_inspector/MakeRecord.h"
#include <jb/noise/CadencePlan.h>

#include <QtTest>

#include <cmath>

using namespace jb;

namespace {

Record coarseRecord(std::int64_t cadence_ns, bool keep_cadence)
{
    jbtest::RunShape s;
    s.period_ns = 100'000'000;
    s.cadence_ns = cadence_ns;
    s.rounds = 4;
    s.idle_s = 2.0;
    s.busy_s = 0.8;
    Record r = jbtest::makeRecord(s);
    if (!keep_cadence) {  // as the reference harness writes it
        r.counter_info.clear();
        r.sampler.clear();
    }
    return r;
}

}  // namespace

class TestCadencePlan : public QObject {
    Q_OBJECT
private slots:
    void matchesTheCadence_data()
    {
        QTest::addColumn<qint64>("cadence_ns");
        QTest::addColumn<bool>("keep");
        QTest::newRow("400 ms, record's cadence") << qint64(400'000'000) << true;
        QTest::newRow("400 ms, brackets only") << qint64(400'000'000) << false;
        QTest::newRow("250 ms, record's cadence") << qint64(250'000'000) << true;
        QTest::newRow("1 s, brackets only") << qint64(1'000'000'000) << false;
    }
    void matchesTheCadence()
    {
        QFETCH(qint64, cadence_ns);
        QFETCH(bool, keep);
        const Record r = coarseRecord(cadence_ns, keep);
        const auto p = cadencePlan(r, "rapl", 0.8, 5, 6);
        QVERIFY(p);
        QVERIFY(p->counter.coarse());
        QCOMPARE(QString::fromStdString(p->cadence.source), keep ? QStringLiteral("counter_info") : QStringLiteral("brackets"));
        const double truth_ms = double(cadence_ns) / 1e6;
        // The record's own figure where it has one (the sampler's median: 250 ms read every
        // 100 ms reads as 200 or 300), else near the truth.
        if (keep)
            QCOMPARE(p->cadence.ms, r.counter_info[0].second["update_cadence_ms"].get<double>());
        else
            QVERIFY2(p->cadence.ms > 0.75 * truth_ms && p->cadence.ms < 1.3 * truth_ms, p->cadence.text.c_str());
        // Never faster than the counter updates.
        QVERIFY2(p->sample_s * 1e3 >= truth_ms - 1e-6, p->lines.at(1).c_str());
        // Never faster than the counter updates, and a whole multiple of the record's period.
        QVERIFY2(p->sample_s * 1e3 >= 0.99 * p->cadence.ms, p->lines.at(1).c_str());
        const double factor = p->sample_s / p->record_period_s;
        QCOMPARE(factor, std::round(factor));
        // With the record's own cadence figure the period is the next multiple at or above it.
        if (keep)
            QCOMPARE(p->sample_s * 1e3, std::ceil(p->cadence.ms / 100.0 - 0.01) * 100.0);
        // Ten updates (and ten periods) in every busy window and idle bracket.
        const double need_s = std::max(10 * p->cadence.ms / 1e3, 10 * p->sample_s);
        QVERIFY(p->busy_s >= need_s - 1e-9);
        QCOMPARE(p->busy_s, p->k * 0.8);
        QVERIFY(p->busy_s - 0.8 < need_s);  // the smallest whole k
        QVERIFY(p->idle_s >= need_s - 1e-9 && p->idle_s >= r.idle_s);
        QCOMPARE(p->rounds, 6);
        QCOMPARE(int(p->lines.size()), 3);
        QVERIFY(QString::fromStdString(p->lines.at(0)).contains(QStringLiteral("not the machine's noise")));
    }

    void slackForAMeasuredCadence()
    {
        // 401 ms measured on a 400 ms counter read every 100 ms: 400 ms, not 500.
        Record r = coarseRecord(400'000'000, true);
        r.counter_info[0].second["update_cadence_ms"] = 401.0;
        auto p = cadencePlan(r, "rapl", 0.8);
        QVERIFY(p);
        QCOMPARE(p->sample_s, 0.4);
        // 420 ms is more than the slack: 500 ms.
        r.counter_info[0].second["update_cadence_ms"] = 420.0;
        p = cadencePlan(r, "rapl", 0.8);
        QVERIFY(p);
        QCOMPARE(p->sample_s, 0.5);
    }

    void textAndOutcome()
    {
        // What a panel shows: the counter's finding, then the three lines as sentences; and the
        // plan as the planner's outcome (not reachable, the remedy as its message).
        const auto p = cadencePlan(coarseRecord(400'000'000, true), "rapl", 0.8, 5, 6);
        QVERIFY(p);
        const std::string t = p->text();
        QVERIFY2(t.rfind(p->counter.text(), 0) == 0, t.c_str());
        QVERIFY2(t.find(" The counter changes ") != std::string::npos, t.c_str());
        QVERIFY2(t.find(". Sample every 400 ms ") != std::string::npos, t.c_str());
        QVERIFY2(t.find(". Plan again from that record") != std::string::npos, t.c_str());
        QCOMPARE(t.back(), '.');
        QVERIFY(t.find("..") == std::string::npos);
        QCOMPARE(QString::fromStdString(p->settings),
                 QStringLiteral("sample every 400 ms, k %1 (busy %2 s), idle %3 s, 6 rounds")
                     .arg(p->k)
                     .arg(p->busy_s, 0, 'g', 3)
                     .arg(p->idle_s, 0, 'g', 3));
        const PlanOutcome o = p->outcome();
        QVERIFY(!o.reachable);
        QCOMPARE(o.message, p->lines.at(1));
        QCOMPARE(o.suggested_sample_s, std::optional<double>(0.4));
        QCOMPARE(o.k, p->k);
        QCOMPARE(o.idle_s, p->idle_s);
        QCOMPARE(o.busy_s, p->busy_s);
        QCOMPARE(o.rounds, 6);
    }

    void fineCounterHasNone()
    {
        jbtest::RunShape s;
        s.period_ns = 100'000'000;
        s.cadence_ns = 1'000'000;
        QVERIFY(!cadencePlan(jbtest::makeRecord(s), "rapl", 0.8));
        QVERIFY(!cadencePlan(coarseRecord(400'000'000, true), "nvml:0", 0.8));
    }
};

QTEST_GUILESS_MAIN(TestCadencePlan)
#include "tst_cadenceplan.moc"
