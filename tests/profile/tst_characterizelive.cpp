// characterize's live feed against the fake zone (exact mode, a short budget): the feeds,
// folded by CharacterizeLive, hold exactly the final trace's reads, long loads, bursts and
// burst coverages, in order, through the phases in order, the last figures equal to the
// profile's; the sensor view's live figures are drawn from them. A cancel flag set mid-run
// ends it with "cancelled", long before its budget.
#include <jb/counters/CounterRegistry.h>
#include <jb/profile/Characterize.h>
#include <jb/profile/CharacterizeLive.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace jb;

namespace {

// A fake zone in exact mode, watching the flag `load.flag` in dir.
struct FakeZone {
    QProcess p;
    QString zone, flag;
    explicit FakeZone(const QTemporaryDir& dir)
    {
        zone = dir.filePath(QStringLiteral("intel-rapl:0"));
        flag = dir.filePath(QStringLiteral("load.flag"));
        QDir().mkpath(zone);
        QStringList args{zone, QStringLiteral("--flag"), flag};
        for (const char* a : {"--idle-w", "5", "--busy-w", "100", "--tick-ms", "1", "--seconds", "120"})
            args << QLatin1String(a);
        p.start(QStringLiteral(JB_TEST_BIN_DIR "/fakezone"), args);
    }
    ~FakeZone()
    {
        p.kill();
        p.waitForFinished();
    }
    bool ready()
    {
        if (!p.waitForStarted())
            return false;
        for (int i = 0; i < 500 && !QFile::exists(zone + QStringLiteral("/energy_uj")); ++i)
            QTest::qWait(10);
        return QFile::exists(zone + QStringLiteral("/energy_uj"));
    }
};

bool samePulses(const std::vector<Pulse>& a, const std::vector<Pulse>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].t0_ns != b[i].t0_ns || a[i].t1_ns != b[i].t1_ns)
            return false;
    return true;
}

}  // namespace

class TstCharacterizeLive : public QObject {
    Q_OBJECT
private slots:
    void theFeedHoldsTheTrace()
    {
        QTemporaryDir dir;
        FakeZone fz(dir);
        QVERIFY(fz.ready());
        CounterOptions o;
        o.rapl_zone = fz.zone.toStdString();
        auto c = openCounter("rapl", o);
        QVERIFY2(c.ok(), c ? "" : c.error().c_str());
        auto load = flagFileLoad(fz.flag.toStdString());
        QVERIFY(load->start().ok());
        CharacterizeOptions co;
        co.seconds = 5;
        co.burst_ms = 3;
        co.seed = 11;
        CharacterizeLive live;
        std::vector<CharacterizePhase> phases;
        const auto caller = std::this_thread::get_id();
        bool off_thread = false;
        int coverage_before_end = 0;
        co.feed = [&](const CharacterizeFeed& f) {
            off_thread = off_thread || std::this_thread::get_id() != caller;
            if (phases.empty() || phases.back() != f.phase)
                phases.push_back(f.phase);
            if (f.phase == CharacterizePhase::Bursts)
                coverage_before_end += int(f.coverage.size());
            live.add(f);
        };
        CharacterizeTrace trace;
        auto p = characterize(**c, *load, co, &trace);
        QVERIFY2(p.ok(), p ? "" : p.error().c_str());
        QVERIFY(!off_thread);
        QCOMPARE(phases, (std::vector<CharacterizePhase>{CharacterizePhase::Dither, CharacterizePhase::Steps,
                                                         CharacterizePhase::Bursts, CharacterizePhase::Done}));
        QVERIFY(live.feeds() > 10);
        // Every read, pulse and coverage the trace holds, in its order.
        QCOMPARE(live.reads().size(), trace.reads.size());
        QVERIFY(live.reads() == trace.reads);
        QVERIFY(samePulses(live.steps(), trace.steps));
        QVERIFY(samePulses(live.bursts(), trace.bursts));
        QCOMPARE(live.coverage().size(), trace.coverage.size());
        for (std::size_t i = 0; i < trace.coverage.size(); ++i) {
            QVERIFY(i == 0 || live.coverage()[i].first > live.coverage()[i - 1].first);
            QCOMPARE(live.coverage()[i].second, trace.coverage[i]);
        }
        // Most coverages came while the bursts went on, not all at the end.
        QVERIFY2(coverage_before_end >= int(trace.coverage.size()) - 2, qPrintable(QString::number(coverage_before_end)));
        // The last figures are the profile's.
        const CharacterizeFeed& g = live.figures();
        QCOMPARE(g.update_period_ms, p->update_period_ms);
        QCOMPARE(g.update_jitter_ms, p->update_jitter_ms);
        QVERIFY(g.step_up && *g.step_up == p->step_up);
        QVERIFY(g.step_down && *g.step_down == p->step_down);
        QCOMPARE(g.averaging_window_ms, p->averaging_window_ms);
        QCOMPARE(g.idle_w, trace.idle_w);
        QCOMPARE(g.busy_w, trace.busy_w);
        QCOMPARE(g.burst_ms, p->coverage.burst_ms);
        // The sensor view's live figures: the first long load's edges, the reading around it
        // (an exact counter: near 0 before, near 1 late in the load), each measured burst.
        const SensorFigures f = live.sensorFigures("rapl");
        QCOMPARE(f.busy_s, trace.steps.front().seconds());
        QVERIFY(f.reading.size() > 20);
        double before = 0, late = 0;
        int nb = 0, nl = 0;
        for (const auto& [t, v] : f.reading) {
            if (t < -0.01) {
                before += v;
                ++nb;
            } else if (t > 0.6 * f.busy_s && t < 0.95 * f.busy_s) {
                late += v;
                ++nl;
            }
        }
        QVERIFY(nb > 0 && nl > 0);
        QVERIFY2(std::abs(before / nb) < 0.2, qPrintable(QString::number(before / nb)));
        QVERIFY2(std::abs(late / nl - 1.0) < 0.2, qPrintable(QString::number(late / nl)));
        QCOMPARE(f.bursts.size(), trace.coverage.size());
        double mean = 0;
        for (double x : trace.coverage)
            mean += x;
        QVERIFY(std::abs(f.spread.mean - mean / double(trace.coverage.size())) < 1e-9);
        QVERIFY(!f.lines.empty() && f.lines.front().rfind("measured", 0) == 0);
    }

    void aCancelEndsItEarly()
    {
        QTemporaryDir dir;
        FakeZone fz(dir);
        QVERIFY(fz.ready());
        CounterOptions o;
        o.rapl_zone = fz.zone.toStdString();
        auto c = openCounter("rapl", o);
        QVERIFY(c.ok());
        auto load = flagFileLoad(fz.flag.toStdString());
        QVERIFY(load->start().ok());
        std::atomic<bool> cancel{false};
        CharacterizeOptions co;
        co.seconds = 120;
        co.cancel = &cancel;
        int feeds = 0;
        co.feed = [&](const CharacterizeFeed& f) {
            ++feeds;
            if (f.phase == CharacterizePhase::Steps)
                cancel.store(true);  // mid-run: in the long loads
        };
        QElapsedTimer t;
        t.start();
        auto p = characterize(**c, *load, co);
        QVERIFY(!p.ok());
        QCOMPARE(p.error(), std::string(kCharacterizeCancelled));
        QVERIFY(feeds > 0);
        // Far from its 120 s budget (a cancel that went unseen runs it all).
        QVERIFY2(t.elapsed() < 60'000, qPrintable(QString::number(t.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TstCharacterizeLive)
#include "tst_characterizelive.moc"
