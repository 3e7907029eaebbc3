// The check before Start: suggestK's arithmetic, checkStart's words for a too-short workload,
// a long-enough one, a failed probe and a slow counter; WorkloadProbe on the fake child.
#include <jb/session/StartCheck.h>

#include <QSignalSpy>
#include <QtTest>

using jb::ProbeResult;

namespace {
const std::string kFakeChild = JB_TEST_BIN_DIR "/fakechild";

jb::Plan plan(int k, double sample_ms)
{
    jb::Plan p;
    p.k = k;
    p.sample_ms = sample_ms;
    p.counters = {"sim"};
    p.child = {"./decoder", "serve"};
    return p;
}
}  // namespace

class TestStartCheck : public QObject {
    Q_OBJECT
private slots:
    void suggestKSpansTenPeriods()
    {
        QCOMPARE(jb::suggestK(0.09, 0.1), 12);  // 10 x 100 ms / 90 ms = 11.1 -> 12
        QCOMPARE(jb::suggestK(0.005, 0.05), 100);
        QCOMPARE(jb::suggestK(2.0, 0.1), 1);
        QCOMPARE(jb::suggestK(0.0, 0.1), 1);
    }
    void tooShortRoundsAreExplainedWithAK()
    {
        // The case: the demo decoder's jpeg pass of 0.09 s at k = 2, 100 ms samples.
        jb::Plan p = plan(2, 100);
        const auto c = jb::checkStart(p, {ProbeResult{"jpeg", 45'000'000, false, {}, {}}});
        QVERIFY(!c.ok());
        QCOMPARE(c.suggested_k, 23);  // 1 s / 45 ms
        QCOMPARE(c.warnings.size(), std::size_t(1));
        QCOMPARE(c.warnings[0],
                 std::string("jpeg: each round (k = 2) would last about 90 ms, less than one "
                             "100 ms sample: its rounds would get no verdict"));
        QVERIFY(c.text().find("use k = 23") != std::string::npos);
    }
    void aFewSamplesIsCoarseAndEnoughIsOk()
    {
        jb::Plan p = plan(1, 100);
        auto c = jb::checkStart(p, {ProbeResult{"a", 250'000'000, false, {}, {}}});
        QCOMPARE(c.warnings.size(), std::size_t(1));
        QVERIFY2(c.warnings[0].find("only 2.5 samples of 100 ms") != std::string::npos,
                 c.warnings[0].c_str());
        QVERIFY(c.warnings[0].find("coarse") != std::string::npos);
        QCOMPARE(c.suggested_k, 4);
        c = jb::checkStart(p, {ProbeResult{"a", 300'000'000, false, {}, {}}});
        QVERIFY(c.ok());
        QVERIFY(c.text().empty());
        // A probe that stopped waiting (at least 50 ms) is not judged; nor a skipped one.
        c = jb::checkStart(
            p, {ProbeResult{"a", 50'000'000, true, {}, {}}, ProbeResult{"b", 0, false, {}, "slow to start"}});
        QVERIFY(c.ok());
    }
    void aCounterSlowerThanTheSamplerCounts()
    {
        jb::Plan p = plan(1, 100);
        const auto c = jb::checkStart(p, {ProbeResult{"a", 500'000'000, false, {}, {}}}, 0.25);
        QCOMPARE(c.period_s, 0.25);
        QCOMPARE(c.warnings.size(), std::size_t(1));
        QVERIFY2(c.warnings[0].find("2.0 counter updates of 250 ms") != std::string::npos,
                 c.warnings[0].c_str());
        QCOMPARE(c.suggested_k, 5);
    }
    void aFailedProbeIsAProblem()
    {
        const auto c = jb::checkStart(plan(1, 100),
                                      {ProbeResult{"b", 0, false, "the child program x does not exist", {}}});
        QVERIFY(!c.ok());
        QCOMPARE(c.suggested_k, 0);
        QCOMPARE(c.text(), std::string("Will not work: b: the child program x does not exist"));
    }
    void probeTimesOnePassOfEachWorkload()
    {
        jb::WorkloadProbe probe(
            {jb::PlanChild{"fast", {kFakeChild, "serve", "--jobs", "2", "--job-ms", "10"}, {}},
             jb::PlanChild{"missing", {"/nonexistent/decoder"}, {}},
             jb::PlanChild{"slow", {kFakeChild, "serve", "--jobs", "1", "--job-ms", "5000"}, {}}},
            {});
        probe.setPassWaitS(0.5);
        QSignalSpy done(&probe, &jb::WorkloadProbe::finished);
        probe.start();
        QVERIFY(done.wait(20000));
        const auto r = done[0][0].value<std::vector<ProbeResult>>();
        QCOMPARE(r.size(), std::size_t(3));
        QCOMPARE(r[0].name, std::string("fast"));
        QVERIFY(r[0].error.empty());
        QVERIFY2(r[0].pass_ns >= 20'000'000 && r[0].pass_ns < 2'000'000'000,
                 std::to_string(r[0].pass_ns).c_str());
        QVERIFY(!r[0].at_least);
        QVERIFY2(r[1].error.find("does not exist") != std::string::npos, r[1].error.c_str());
        QVERIFY(r[2].at_least);  // stopped waiting after 0.5 s: long enough
        QVERIFY(r[2].pass_ns >= 500'000'000);
    }
};

QTEST_GUILESS_MAIN(TestStartCheck)
#include "tst_startcheck.moc"
