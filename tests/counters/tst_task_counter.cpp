// The task reader: rusage v6 bytes, the delta's keys and order, the settled rule, and the
// Linux reader's CPU time of a whole process (all threads) with its /proc fallback.
#include "FakeZone.h"
#include <jb/counters/CpuTime.h>
#include <jb/counters/TaskCounter.h>

#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <atomic>
#include <cmath>
#include <ctime>
#include <pthread.h>
#include <thread>
#include <unistd.h>

using namespace jb;

namespace {

void putLe64(std::vector<std::uint8_t>& b, std::size_t off, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        b[off + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

std::vector<std::string> keysOf(const nlohmann::ordered_json& j)
{
    std::vector<std::string> k;
    for (auto it = j.begin(); it != j.end(); ++it)
        k.push_back(it.key());
    return k;
}

}  // namespace

class TestTaskCounter : public QObject {
    Q_OBJECT
private slots:
    void rusageV6Offsets()
    {
        std::vector<std::uint8_t> b(512, 0xEE);  // filler that must not leak into any field
        putLe64(b, 16, 3'000'000);       // user ticks
        putLe64(b, 24, 600'000);         // system ticks
        putLe64(b, 264, 0x0102030405060708ULL);  // billed energy: byte order matters
        putLe64(b, 272, 42);             // serviced energy
        putLe64(b, 336, 9'876'543'210);  // energy
        const double tick_ns = 125.0 / 3.0;  // Apple silicon's mach_timebase_info
        const TaskSample s = parseRusageV6(b, tick_ns);
        QCOMPARE(s.cpu_ns, 3'600'000 * tick_ns);
        QVERIFY(s.energy_nj && s.billed_nj && s.serviced_nj);
        QCOMPARE(*s.energy_nj, 9'876'543'210.0);
        QCOMPARE(*s.billed_nj, double(0x0102030405060708ULL));
        QCOMPARE(*s.serviced_nj, 42.0);
    }

    void shortRusageBufferLeavesFieldsEmpty()
    {
        std::vector<std::uint8_t> b(300, 0);
        putLe64(b, 16, 10);
        putLe64(b, 24, 5);
        putLe64(b, 264, 7);
        const TaskSample s = parseRusageV6(b, 1.0);
        QCOMPARE(s.cpu_ns, 15.0);
        QVERIFY(s.billed_nj.has_value() && s.serviced_nj.has_value());  // 272 + 8 <= 300
        QVERIFY(!s.energy_nj.has_value());                             // 336 + 8 > 300
        const std::vector<std::uint8_t> tiny(20, 1);  // user's 8 bytes, no system
        QCOMPARE(parseRusageV6(tiny, 1.0).cpu_ns, 0.0);
    }

    void deltaKeysInTheReferenceOrder()
    {
        TaskSample a{100.0, 1000.0, 10.0, 1.0};
        TaskSample b{350.0, 1800.5, 15.0, 4.0};
        const auto d = taskDelta(a, b);
        QCOMPARE(keysOf(d), (std::vector<std::string>{"energy_nj", "cpu_ns", "billed_nj", "serviced_nj"}));
        QCOMPARE(d["energy_nj"].get<std::int64_t>(), std::int64_t(250));
        QVERIFY(d["energy_nj"].is_number_integer());
        QCOMPARE(d["cpu_ns"].get<double>(), 800.5);
        QCOMPARE(d["billed_nj"].get<std::int64_t>(), std::int64_t(5));
        QCOMPARE(d["serviced_nj"].get<std::int64_t>(), std::int64_t(3));
    }

    void linuxDeltaHasCpuTimeOnly()
    {
        TaskSample a;
        a.cpu_ns = 5e6;
        TaskSample b;
        b.cpu_ns = 9e6;
        const auto d = taskDelta(a, b);
        QCOMPARE(keysOf(d), std::vector<std::string>{"cpu_ns"});
        QCOMPARE(d["cpu_ns"].get<double>(), 4e6);
    }

    void settledRule()
    {
        TaskSample a{100.0, 1000.0, 1.0, 1.0};
        TaskSample b = a;
        b.billed_nj = 2.0;  // billed energy may still move: not part of the rule
        QVERIFY(settledPair(a, b));
        b.cpu_ns = 1001.0;
        QVERIFY(!settledPair(a, b));
        b = a;
        b.energy_nj = 101.0;
        QVERIFY(!settledPair(a, b));
        TaskSample l1, l2;  // Linux: no energy, CPU time decides
        l1.cpu_ns = l2.cpu_ns = 7;
        QVERIFY(settledPair(l1, l2));
        l2.cpu_ns = 8;
        QVERIFY(!settledPair(l1, l2));
    }

    void readerCountsEveryThread()
    {
        auto reader = makeTaskReader();
        const auto before = reader->read(::getpid());
        QVERIFY2(before.ok(), before.ok() ? "" : before.error().c_str());
        QVERIFY(!before->energy_nj.has_value());
        std::atomic<bool> stop{false};
        std::thread burner([&] {
            volatile std::uint64_t x = 0;
            while (!stop.load())
                x = x + 1;
        });
        clockid_t burner_clock{};
        QCOMPARE(pthread_getcpuclockid(burner.native_handle(), &burner_clock), 0);
        timespec thr{};
        do {
            std::this_thread::yield();
            clock_gettime(burner_clock, &thr);
        } while (thr.tv_sec == 0 && thr.tv_nsec < 30'000'000);
        stop = true;
        burner.join();
        const auto after = reader->read(::getpid());
        QVERIFY(after.ok());
        // The other thread's 30 ms are in the process's CPU time.
        QVERIFY2(after->cpu_ns - before->cpu_ns >= 30e6, qPrintable(QString::number(after->cpu_ns - before->cpu_ns)));
    }

    void readerNamesAMissingProcess()
    {
        auto reader = makeTaskReader(JB_FIXTURES "/counters/no-such-proc");
        const auto r = reader->read(999'999'999);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("999999999") != std::string::npos, r.error().c_str());
    }

    void procStatLine_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<qint64>("ticks");
        QTest::addColumn<QString>("error");
        QTest::newRow("plain") << QByteArray("1234 (dec) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0\n")
                               << qint64(300) << QString();
        QTest::newRow("name with spaces and parens")
            << QByteArray("77 (a) b (c)) R 1 77 77 0 -1 0 0 0 0 0 7 8 0 0 20 0 1 0\n") << qint64(15) << QString();
        QTest::newRow("too short") << QByteArray("1 (x) S 1 2 3\n") << qint64(0) << QStringLiteral("only");
        QTest::newRow("no name") << QByteArray("garbage") << qint64(0) << QStringLiteral("no ')'");
        QTest::newRow("bad utime") << QByteArray("1 (x) S 1 1 1 0 -1 0 0 0 0 0 x1 8 0\n") << qint64(0)
                                   << QStringLiteral("field 14 is 'x1'");
    }
    void procStatLine()
    {
        QFETCH(QByteArray, line);
        QFETCH(qint64, ticks);
        QFETCH(QString, error);
        const auto r = parseProcStatCpuTicks(std::string_view(line.constData(), std::size_t(line.size())));
        if (error.isEmpty()) {
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            QCOMPARE(*r, std::int64_t(ticks));
        } else {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find(error.toStdString()) != std::string::npos, r.error().c_str());
        }
    }

    void procFallbackReadsAFixtureRoot()
    {
        QTemporaryDir tmp;
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("4321"))));
        QVERIFY(jbtest::writeText(tmp.filePath(QStringLiteral("4321/stat")),
                                  "4321 (fake child) S 1 1 1 0 -1 0 0 0 0 0 120 30 0 0 20 0 1 0\n"));
        const auto ns = procStatCpuNs(4321, jbtest::s(tmp.path()));
        QVERIFY2(ns.ok(), ns.ok() ? "" : ns.error().c_str());
        QCOMPARE(*ns, std::int64_t(150) * (1'000'000'000 / sysconf(_SC_CLK_TCK)));
        const auto missing = procStatCpuNs(4322, jbtest::s(tmp.path()));
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().find("/4322/stat") != std::string::npos, missing.error().c_str());
    }

    void clockAndProcAgreeForThisProcess()
    {
        // The ns clock and the tick count describe the same CPU time: within a few ticks.
        const auto clock_ns = processCpuNs(::getpid());
        const auto proc_ns = procStatCpuNs(::getpid(), "/proc");
        if (!proc_ns.ok())
            QSKIP("this machine has no /proc");
        QVERIFY(clock_ns.ok());
        const double tick_ns = 1e9 / double(sysconf(_SC_CLK_TCK));
        QVERIFY2(std::abs(double(*clock_ns - *proc_ns)) <= 3 * tick_ns,
                 qPrintable(QStringLiteral("%1 vs %2").arg(*clock_ns).arg(*proc_ns)));
    }
};

QTEST_GUILESS_MAIN(TestTaskCounter)
#include "tst_task_counter.moc"
