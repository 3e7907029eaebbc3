// The simulated counter driven by an injected clock and CPU-time source: idle mean, noise sd,
// w_per_core per busy core, determinism of the seed.
#include <jb/counters/SimCounter.h>

#include <QtTest>

#include <atomic>
#include <cmath>
#include <ctime>
#include <map>
#include <pthread.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace jb;

namespace {

constexpr std::int64_t kStepNs = 100'000'000;  // 100 ms between reads

// A clock that advances by one step per call, and a workload whose CPU time advances by
// `cores` x the wall step per clock tick.
struct Rig {
    std::int64_t now_ns = 1'000'000'000;
    double cores = 0;
    std::int64_t cpu_ns = 0;
    int cpu_calls = 0;
    bool workload_gone = false;

    SimCounter make(const SimParams& p)
    {
        return SimCounter(
            p,
            [this] {
                now_ns += kStepNs;
                cpu_ns += std::int64_t(cores * double(kStepNs));
                return now_ns;
            },
            [this](std::int64_t pid) -> Result<std::int64_t> {
                ++cpu_calls;
                if (workload_gone)
                    return Error{"no such process " + std::to_string(pid)};
                return cpu_ns;
            });
    }
};

// Power of each interval over n reads, in W.
std::vector<double> powers(SimCounter& c, int n)
{
    std::vector<double> w;
    std::int64_t prev = *c.readNj();
    for (int i = 0; i < n; ++i) {
        const std::int64_t cur = *c.readNj();
        w.push_back(double(cur - prev) / double(kStepNs));
        prev = cur;
    }
    return w;
}

double mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

double sd(const std::vector<double>& v)
{
    const double m = mean(v);
    double s = 0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / double(v.size() - 1));
}

}  // namespace

class TestSimCounter : public QObject {
    Q_OBJECT
private slots:
    void idleMeanAndNoiseSd()
    {
        Rig rig;
        SimParams p;  // 20 W idle, sd 0.15 W
        SimCounter c = rig.make(p);
        const auto w = powers(c, 4000);
        // Standard error of the mean: 0.15 / sqrt(4000) ~ 0.0024 W; 5 of them.
        QVERIFY2(std::abs(mean(w) - p.idle_w) < 0.012, qPrintable(QString::number(mean(w))));
        // The sample sd of 4000 normal draws is within ~1.1% (1 se) of sd; allow 6%.
        QVERIFY2(std::abs(sd(w) - p.noise_sd_w) < 0.06 * p.noise_sd_w, qPrintable(QString::number(sd(w))));
        QCOMPARE(rig.cpu_calls, 0);  // no workload, no CPU reads
    }

    void firstReadIsZero()
    {
        Rig rig;
        SimCounter c = rig.make({});
        // The constructor took the clock's first reading; one step later 20 W x 0.1 s ~ 2 J.
        const std::int64_t nj = *c.readNj();
        QVERIFY(std::abs(double(nj) - 2e9) < 0.05e9);
    }

    void busyCoresAddWattsPerCore_data()
    {
        QTest::addColumn<double>("cores");
        QTest::newRow("one busy core") << 1.0;
        QTest::newRow("half a core") << 0.5;
        QTest::newRow("two cores") << 2.0;
    }
    void busyCoresAddWattsPerCore()
    {
        QFETCH(double, cores);
        Rig rig;
        rig.cores = cores;
        SimParams p;
        p.noise_sd_w = 0;  // exact arithmetic
        SimCounter c = rig.make(p);
        c.setWorkloadPid(4242);
        // The first read with a new workload only takes its CPU baseline: idle power.
        std::int64_t prev = *c.readNj();
        QCOMPARE(prev, std::int64_t(p.idle_w * double(kStepNs)));
        for (int i = 0; i < 10; ++i) {
            const std::int64_t cur = *c.readNj();
            QCOMPARE(double(cur - prev) / double(kStepNs), p.idle_w + cores * p.w_per_core);
            prev = cur;
        }
        // Workload detached: back to idle.
        c.setWorkloadPid(0);
        const std::int64_t idle = *c.readNj();
        QCOMPARE(double(idle - prev) / double(kStepNs), p.idle_w);
    }

    void busyWithNoiseAveragesToIdlePlusCore()
    {
        Rig rig;
        rig.cores = 1;
        SimParams p;
        SimCounter c = rig.make(p);
        c.setWorkloadPid(7);
        c.readNj();  // baseline
        const auto w = powers(c, 2000);
        QVERIFY2(std::abs(mean(w) - (p.idle_w + p.w_per_core)) < 0.02, qPrintable(QString::number(mean(w))));
    }

    void vanishedWorkloadRunsIdle()
    {
        Rig rig;
        rig.cores = 1;
        SimParams p;
        p.noise_sd_w = 0;
        SimCounter c = rig.make(p);
        c.setWorkloadPid(99);
        std::int64_t prev = *c.readNj();
        rig.workload_gone = true;
        const auto r = c.readNj();
        QVERIFY(r.ok());  // the device still draws idle power: not an error
        QCOMPARE(double(*r - prev) / double(kStepNs), p.idle_w);
        // When it can be read again, the first read is a fresh baseline (no jump).
        rig.workload_gone = false;
        prev = *r;
        const std::int64_t again = *c.readNj();
        QCOMPARE(double(again - prev) / double(kStepNs), p.idle_w);
        const std::int64_t busy = *c.readNj();
        QCOMPARE(double(busy - again) / double(kStepNs), p.idle_w + p.w_per_core);
    }

    void sameSeedSameSequence()
    {
        SimParams p;
        p.seed = 12345;
        Rig a, b, d;
        SimCounter ca = a.make(p), cb = b.make(p);
        SimParams other = p;
        other.seed = 12346;
        SimCounter cd = d.make(other);
        std::vector<std::int64_t> sa, sb, sd_;
        for (int i = 0; i < 50; ++i) {
            sa.push_back(*ca.readNj());
            sb.push_back(*cb.readNj());
            sd_.push_back(*cd.readNj());
        }
        QCOMPARE(sa, sb);
        QVERIFY(sa != sd_);
    }

    void neverRunsBackwards()
    {
        Rig rig;
        SimParams p;
        p.idle_w = 0;
        p.noise_sd_w = 1;  // half the draws are negative power
        SimCounter c = rig.make(p);
        std::int64_t prev = *c.readNj();
        int flat = 0;
        for (int i = 0; i < 200; ++i) {
            const std::int64_t cur = *c.readNj();
            QVERIFY(cur >= prev);
            flat += cur == prev;
            prev = cur;
        }
        QVERIFY(flat > 50 && flat < 150);
    }

    void infoHasEveryParameter()
    {
        SimParams p{12.5, 0.25, 9.0, 77};
        Rig rig;
        SimCounter c = rig.make(p);
        const auto info = c.info();
        QCOMPARE(info["kind"].get<std::string>(), std::string("sim"));
        QCOMPARE(info["simulated"].get<bool>(), true);
        QCOMPARE(info["idle_w"].get<double>(), 12.5);
        QCOMPARE(info["noise_sd_w"].get<double>(), 0.25);
        QCOMPARE(info["w_per_core"].get<double>(), 9.0);
        QCOMPARE(info["seed"].get<std::uint64_t>(), std::uint64_t(77));
        QCOMPARE(c.spec(), std::string("sim"));
    }

    void realClockAndRealCpuOfThisProcess()
    {
        // Default clock and CPU source, this process as the workload, no noise: burning CPU
        // on a second thread makes the power exceed idle by at most w_per_core per core.
        SimParams p;
        p.noise_sd_w = 0;
        SimCounter c(p);
        c.setWorkloadPid(::getpid());
        const std::int64_t e0 = *c.readNj();  // baseline of the workload's CPU time
        timespec t0{};
        clock_gettime(CLOCK_MONOTONIC, &t0);
        std::atomic<bool> stop{false};
        std::thread burner([&] {
            volatile std::uint64_t x = 0;
            while (!stop.load())
                x = x + 1;
        });
        timespec thr{};
        // Busy for at least 20 ms of the burner's own CPU time (however the machine is shared).
        clockid_t burner_clock{};
        QCOMPARE(pthread_getcpuclockid(burner.native_handle(), &burner_clock), 0);
        do {
            std::this_thread::yield();
            clock_gettime(burner_clock, &thr);
        } while (thr.tv_sec == 0 && thr.tv_nsec < 20'000'000);
        stop = true;
        burner.join();
        const std::int64_t e1 = *c.readNj();
        timespec t1{};
        clock_gettime(CLOCK_MONOTONIC, &t1);
        const double wall_ns = double(t1.tv_sec - t0.tv_sec) * 1e9 + double(t1.tv_nsec - t0.tv_nsec);
        const double power_w = double(e1 - e0) / wall_ns;
        QVERIFY2(power_w > p.idle_w, qPrintable(QString::number(power_w)));
        const double cores = double(std::thread::hardware_concurrency());
        QVERIFY2(power_w < p.idle_w + p.w_per_core * (cores + 1), qPrintable(QString::number(power_w)));
    }
};

QTEST_GUILESS_MAIN(TestSimCounter)
#include "tst_sim_counter.moc"
