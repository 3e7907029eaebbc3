// The sampler thread: contiguous intervals on the monotonic clock, energy differences,
// read errors recorded and reported without stopping.
#include <jb/sampling/Sampler.h>

#include <QtTest>

#include <atomic>

using namespace jb;

namespace {

// 1000 nJ per read; reads number fail_from..fail_to (1-based) fail.
class ScriptedCounter : public EnergyCounter {
public:
    explicit ScriptedCounter(int fail_from = 0, int fail_to = -1) : fail_from_(fail_from), fail_to_(fail_to) {}
    std::string spec() const override { return "scripted"; }
    Result<std::int64_t> readNj() override
    {
        const int n = ++reads;
        if (n >= fail_from_ && n <= fail_to_)
            return Error{"scripted: read " + std::to_string(n) + " failed"};
        return std::int64_t(n) * 1000;
    }
    nlohmann::ordered_json info() const override { return {{"kind", "scripted"}}; }
    std::atomic<int> reads{0};

private:
    int fail_from_, fail_to_;
};

}  // namespace

class TestSampler : public QObject {
    Q_OBJECT
private slots:
    void intervalsAreContiguousAndCarryTheDifference()
    {
        auto c = std::make_unique<ScriptedCounter>();
        ScriptedCounter* raw = c.get();
        Sampler s(std::move(c), 5'000'000);  // 5 ms
        QVERIFY(s.start().ok());
        QTRY_VERIFY_WITH_TIMEOUT(s.store()->size() >= 20, 10000);
        s.stop();
        QVERIFY(!s.running());
        const auto iv = s.store()->all();
        QVERIFY(iv.size() >= 20);
        QCOMPARE(int(iv.size()), raw->reads.load() - 1);  // the first read opens the first interval
        for (std::size_t i = 0; i < iv.size(); ++i) {
            QCOMPARE(iv[i].nj, 1000);
            QVERIFY(iv[i].t1_ns > iv[i].t0_ns);
            if (i > 0)
                QCOMPARE(iv[i].t0_ns, iv[i - 1].t1_ns);
        }
        const SamplerFigures f = s.figures();
        QCOMPARE(f.intervals, std::int64_t(iv.size()));
        QCOMPARE(f.read_errors, 0);
        QVERIFY(f.lateness_p50_ns <= f.lateness_p99_ns);
        QVERIFY(f.lateness_p99_ns <= f.lateness_max_ns);
        QVERIFY(f.update_cadence_ms.has_value());
    }

    void resolutionIsTheUnitAndTheLeastStepHasItsOwnName()
    {
        // Advances of 1000 nJ from a counter that counts in mJ (as NVML's energy counter
        // does): the resolution is its unit, the least step what was seen.
        class MjCounter : public ScriptedCounter {
        public:
            nlohmann::ordered_json info() const override { return {{"kind", "scripted"}, {"unit", "mJ"}}; }
        };
        Sampler s(std::make_unique<MjCounter>(), 5'000'000);
        QVERIFY(s.start().ok());
        QTRY_VERIFY_WITH_TIMEOUT(s.store()->size() >= 3, 10000);
        s.stop();
        const auto j = s.integrity();
        QCOMPARE(j["resolution_nj"].get<double>(), 1e6);
        QCOMPARE(j["least_step_nj"].get<double>(), 1000.0);
        QCOMPARE(*Sampler::leastStepNj(j), 1000.0);
        // A counter that names no energy unit (a power reading) has no resolution in nJ.
        QVERIFY(!Sampler::unitResolutionNj({{"unit", "mW"}}).has_value());
        QCOMPARE(*Sampler::unitResolutionNj({{"unit", "mW"}, {"resolution_nj", 5}}), 5.0);
        QCOMPARE(*Sampler::unitResolutionNj({{"unit", "uJ"}}), 1000.0);
    }

    void oldRecordsResolutionReadsAsTheLeastStep()
    {
        // A record from before least_step_nj: its resolution_nj was the least step.
        nlohmann::ordered_json old = {{"stalls", 0}, {"resolution_nj", 7.95e9}};
        QCOMPARE(*Sampler::leastStepNj(old), 7.95e9);
        nlohmann::ordered_json now = {{"resolution_nj", 1e6}, {"least_step_nj", 7.95e9}};
        QCOMPARE(*Sampler::leastStepNj(now), 7.95e9);
        nlohmann::ordered_json none = {{"resolution_nj", 1e6}, {"least_step_nj", nullptr}};
        QVERIFY(!Sampler::leastStepNj(none).has_value());
        QVERIFY(!Sampler::leastStepNj(nlohmann::ordered_json::object()).has_value());
    }

    void readErrorsAreRecordedAndTheGapIsBridged()
    {
        // Reads 3 and 4 fail: the interval after them spans the gap and holds its energy.
        Sampler s(std::make_unique<ScriptedCounter>(3, 4), 5'000'000);
        std::atomic<int> reported{0};
        std::string message;
        std::mutex m;
        s.setErrorHandler([&](const std::string& e) {
            std::lock_guard lock(m);
            message = e;
            ++reported;
        });
        QVERIFY(s.start().ok());
        QTRY_VERIFY_WITH_TIMEOUT(s.store()->size() >= 4, 10000);
        s.stop();
        const auto iv = s.store()->all();
        QCOMPARE(iv[0].nj, 1000);   // read 2 - read 1
        QCOMPARE(iv[1].nj, 3000);   // read 5 - read 2
        QCOMPARE(iv[1].t0_ns, iv[0].t1_ns);
        QCOMPARE(s.figures().read_errors, 2);
        QCOMPARE(reported.load(), 2);  // two distinct messages
        std::lock_guard lock(m);
        QVERIFY(message.find("read 4 failed") != std::string::npos);
        QVERIFY(s.figures().last_error.has_value());
    }

    void firstReadErrorFailsStart()
    {
        Sampler s(std::make_unique<ScriptedCounter>(1, 1), 5'000'000);
        const Status st = s.start();
        QVERIFY(!st.ok());
        QVERIFY(QString::fromStdString(st.error()).contains(QStringLiteral("read 1 failed")));
        QVERIFY(!s.running());
    }

    void stopIsPromptEvenWithALongPeriod()
    {
        Sampler s(std::make_unique<ScriptedCounter>(), 60'000'000'000);  // one read a minute
        QVERIFY(s.start().ok());
        QElapsedTimer t;
        t.start();
        s.stop();
        QVERIFY2(t.elapsed() < 2000, "stop waited for the period");
    }

    void storeBetweenAndCovering()
    {
        SampleStore st;
        st.appendBatch({{0, 10, 1}, {10, 20, 2}, {20, 30, 3}});
        QCOMPARE(st.between(10, 30).size(), std::size_t(2));
        QCOMPARE(st.covering(15, 16).front().nj, 2);
        QCOMPARE(st.slice(1, 99).size(), std::size_t(2));
        QCOMPARE(st.indexRangeOverlapping(5, 25).size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestSampler)
#include "tst_sampler.moc"
