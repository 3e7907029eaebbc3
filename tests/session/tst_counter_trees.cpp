// Every RAPL zone and hwmon channel against fake sysfs trees written here: a two-socket Intel
// box (packages with core/uncore/dram, psys, an MMIO zone), an AMD box (powercap package plus
// hwmon zenergy with a mirrored channel), an Intel GPU hwmon, an amdgpu with power only, and
// counters that stall, jump, go backwards and wrap. Each measurement gives the injected
// energy where the counter is sound and the named fault where it is not.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "../Sanitized.h"
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/HwmonCounter.h>
#include <jb/counters/RaplCounter.h>
#include <jb/sampling/Sampler.h>
#include <jb/session/Session.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace jb;

namespace {

QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}

bool contains(const std::string& hay, const std::string& needle)
{
    return hay.find(needle) != std::string::npos;
}

bool writeText(const QString& path, const QByteArray& content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content) == content.size();
}

bool writeZone(const QString& dir, const QByteArray& name, qint64 range_uj, qint64 energy_uj)
{
    return QDir().mkpath(dir) && writeText(dir + QStringLiteral("/name"), name + '\n') &&
           writeText(dir + QStringLiteral("/max_energy_range_uj"), QByteArray::number(range_uj) + '\n') &&
           writeText(dir + QStringLiteral("/energy_uj"), QByteArray::number(energy_uj) + '\n');
}

// The two-socket Intel box: intel-rapl:0 and :1 with core/uncore/dram, psys, intel-rapl-mmio:0.
void writeTwoSocketIntel(const QString& root)
{
    for (int p = 0; p < 2; ++p) {
        const QString pkg = root + QStringLiteral("/intel-rapl:%1").arg(p);
        QVERIFY(writeZone(pkg, "package-" + QByteArray::number(p), 262143328850, 1000));
        const char* subs[] = {"core", "uncore", "dram"};
        for (int s = 0; s < 3; ++s)
            QVERIFY(writeZone(pkg + QStringLiteral("/intel-rapl:%1:%2").arg(p).arg(s), subs[s], 262143328850, 10));
    }
    QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:2"), "psys", 262143328850, 5));
    QVERIFY(writeZone(root + QStringLiteral("/intel-rapl-mmio:0"), "package-0", 262143328850, 7));
}

// A fakezone process; stopped when the test ends.
class Zone {
public:
    Zone(const QString& dir, QStringList args)
        : dir_(dir)
    {
        QDir().mkpath(dir);
        proc_.start(testBin("fakezone"), QStringList{dir, QStringLiteral("--tick-ms"), QStringLiteral("1"),
                                                     QStringLiteral("--seconds"), QStringLiteral("120")} +
                                             args);
        proc_.waitForStarted();
    }
    ~Zone()
    {
        proc_.kill();
        proc_.waitForFinished();
    }
    bool ready(const QString& file) const { return QFile::exists(dir_ + QLatin1Char('/') + file); }

private:
    QString dir_;
    QProcess proc_;
};

Record run(Session& s, int timeout_ms = 90000)
{
    QSignalSpy done(&s, &Session::finished);
    s.start();
    if (done.isEmpty() && !done.wait(timeout_ms))
        return {};
    return done.takeFirst().at(0).value<Record>();
}

Plan plan(const QString& flag, std::vector<std::string> counters, double busy_w)
{
    Plan p;
    p.label = "tree";
    p.rounds = 3;
    p.k = 1;
    p.idle_s = 0.6;
    p.sample_ms = 20;
    p.counters = std::move(counters);
    p.child = {testBin("fakechild").toStdString(), "serve", "--jobs", "2", "--job-ms", "500",
               "--flag", flag.toStdString(), "--busy-w", std::to_string(busy_w)};
    return p;
}

// The injected energy over the rounds (the child's truth_nj notes) and the measured marginal.
// Every sound counter is held to 1 %. What limits a fake tree's precision is the fake zone: a
// read sees a count up to one zone tick old, or tens of ms old where the zone lost the CPU, and
// that age at a round's edges moves its marginal by the idle power times the age, against the
// round's busy energy (docs/COUNTERS.md). So each fake zone's busy power is 3 to 3.3 times its
// idle power, as a loaded socket's or GPU's is; at 30 W idle and 12 W busy the same fake
// socket spread to -0.44..+0.30 % in 50 runs, with a 25 ms hiccup worth 2 %; at 5 W idle and 9 W
// busy the fake i915 measured -0.99 % once in 27 runs (a read about 50 ms stale). Under
// AddressSanitizer every process of the test runs several times slower and its hiccups are
// longer; that build is for memory errors, and holds the counters it has widened before to 5 %
// (Esocket0 to 10 %).
constexpr double kWidenedBound = kSanitized ? 0.05 : 0.01;  // the counters widened under ASan

void checkMarginal(const Record& r, const std::string& spec, double scale, double tolerance)
{
    QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
    double truth = 0, measured = 0;
    for (const Round& round : r.rounds) {
        QVERIFY(round.child_note.has_value());
        truth += scale * std::stod(round.child_note->substr(round.child_note->find('=') + 1));
        const CounterRound* c = round.counter(spec);
        QVERIFY2(c && c->has_marginal, spec.c_str());
        measured += c->marginal_nj;
    }
    QVERIFY2(truth > 0, spec.c_str());
    qInfo("%s: marginal %+.2f %% from the injected energy (held to %.0f %%)", spec.c_str(),
          100.0 * (measured - truth) / truth, 100.0 * tolerance);
    QVERIFY2(std::abs(measured - truth) < tolerance * truth,
             qPrintable(QStringLiteral("%1: marginal %2 nJ vs injected %3 nJ")
                            .arg(QString::fromStdString(spec))
                            .arg(measured)
                            .arg(truth)));
}

// Samples a counter until `done` holds (or 10 s pass) and returns the sampler's integrity.
nlohmann::ordered_json sampleUntil(const std::string& spec, const CounterOptions& o, int period_ms,
                                   const std::function<bool(const Sampler&)>& done)
{
    auto c = openCounter(spec, o);
    if (!c)
        return {{"error", c.error()}};
    Sampler s(std::move(c.value()), std::int64_t(period_ms) * 1'000'000);
    if (!s.start())
        return {{"error", "start"}};
    const bool reached = QTest::qWaitFor([&] { return done(s); }, 10000);
    s.stop();
    if (!reached)
        return {{"error", "the condition was not reached in 10 s"}, {"integrity", s.integrity()}};
    nlohmann::ordered_json j = s.integrity();
    std::int64_t total = 0;
    for (const Interval& iv : s.store()->all())
        total += iv.nj;
    j["total_nj"] = total;
    j["warnings"] = s.integrityWarnings();
    return j;
}

}  // namespace

class TestCounterTrees : public QObject {
    Q_OBJECT
private slots:
    void twoSocketIntelListsEveryZoneWithScope()
    {
        QTemporaryDir tmp;
        writeTwoSocketIntel(tmp.path());
        std::vector<std::string> specs;
        for (const RaplZone& z : findRaplZones(tmp.path().toStdString())) {
            specs.push_back(z.spec);
            QVERIFY2(!z.scope.empty(), z.spec.c_str());
        }
        QCOMPARE(specs, (std::vector<std::string>{"rapl:package-0", "rapl:package-0/core", "rapl:package-0/uncore",
                                                  "rapl:package-0/dram", "rapl:package-1", "rapl:package-1/core",
                                                  "rapl:package-1/uncore", "rapl:package-1/dram", "rapl:psys",
                                                  "rapl:mmio/package-0"}));
        CounterOptions o;
        o.powercap_root = tmp.path().toStdString();
        o.hwmon_root = tmp.filePath(QStringLiteral("no-hwmon")).toStdString();
        // A bare name a second socket repeats means the first socket's zone.
        QCOMPARE(*raplZoneFor("rapl:dram", o), tmp.filePath(QStringLiteral("intel-rapl:0/intel-rapl:0:2")).toStdString());
        QCOMPARE(*raplZoneFor("rapl:package-1/dram", o),
                 tmp.filePath(QStringLiteral("intel-rapl:1/intel-rapl:1:2")).toStdString());
        QCOMPARE(*raplZoneFor("rapl:mmio/package-0", o), tmp.filePath(QStringLiteral("intel-rapl-mmio:0")).toStdString());
        const auto list = listCounters(o);
        bool sum = false;
        for (const CounterStatus& s : list)
            sum = sum || (s.spec == "rapl:packages" && s.available);
        QVERIFY(sum);
        QVERIFY(contains(counterDetails("rapl:psys", o).scope, "contains every package"));
        QVERIFY(contains(counterDetails("rapl:package-1/dram", o).scope, "separate from package-1"));
        QVERIFY(contains(counterDetails("rapl:mmio/package-0", o).scope, "mirror"));
        QCOMPARE(counterDetails("rapl:package-1", o).wrap_range, std::int64_t(262143328850));
        auto c = openCounter("rapl:package-1/core", o);
        QVERIFY(c.ok());
        QVERIFY(contains(c.value()->info()["scope"].get<std::string>(), "package-1"));
    }

    void overlapsAreRefused_data()
    {
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QString>("message");
        QTest::newRow("psys+package") << QStringList{QStringLiteral("rapl:psys"), QStringLiteral("rapl:package-0")}
                                      << QStringLiteral("psys is the whole platform and contains rapl:package-0");
        QTest::newRow("package+core") << QStringList{QStringLiteral("rapl:package-1"), QStringLiteral("rapl:package-1/core")}
                                      << QStringLiteral("package-1 contains its subzone 'core'");
        QTest::newRow("mmio+package") << QStringList{QStringLiteral("rapl:mmio/package-0"), QStringLiteral("rapl:package-0")}
                                      << QStringLiteral("keep rapl:package-0 and drop rapl:mmio/package-0");
        QTest::newRow("packages+package") << QStringList{QStringLiteral("rapl:packages"), QStringLiteral("rapl:package-1")}
                                          << QStringLiteral("rapl:packages is the sum of every package");
        QTest::newRow("rapl+package-0") << QStringList{QStringLiteral("rapl"), QStringLiteral("rapl:package-0")}
                                        << QStringLiteral("read the same RAPL zone");
    }
    void overlapsAreRefused()
    {
        QFETCH(QStringList, specs);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        writeTwoSocketIntel(tmp.path());
        Plan p;
        p.child = {"x"};
        p.counter_options.powercap_root = tmp.path().toStdString();
        for (const QString& s : specs)
            p.counters.push_back(s.toStdString());
        const Status v = validatePlan(p);
        QVERIFY(!v.ok());
        QVERIFY2(contains(v.error(), message.toStdString()), v.error().c_str());
        QVERIFY2(contains(v.error(), specs[0].toStdString()) && contains(v.error(), specs[1].toStdString()),
                 v.error().c_str());
    }

    void separateZonesMayBeMeasuredTogether()
    {
        QTemporaryDir tmp;
        writeTwoSocketIntel(tmp.path());
        Plan p;
        p.child = {"x"};
        p.counter_options.powercap_root = tmp.path().toStdString();
        for (auto set : {std::vector<std::string>{"rapl:package-0", "rapl:dram"},
                         std::vector<std::string>{"rapl:package-0", "rapl:package-1", "rapl:package-1/dram"},
                         std::vector<std::string>{"rapl:packages", "rapl:package-0/dram", "rapl:package-1/dram"},
                         std::vector<std::string>{"rapl:package-0/core", "rapl:package-0/uncore"}}) {
            p.counters = set;
            const Status v = validatePlan(p);
            QVERIFY2(v.ok(), v.ok() ? "" : v.error().c_str());
        }
    }

    // Two packages and a dram zone in one run; package-0 wraps every 0.45 to 1.8 s (a 36 J range:
    // shorter, a fake zone descheduled for a wrap period on a loaded machine would lose a wrap
    // a real counter keeps). Busy powers three times the idle ones, as a loaded socket draws:
    // see the comment at checkMarginal below.
    void twoSocketRunSumsPackagesAndWraps()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path(), flag = tmp.filePath(QStringLiteral("busy.flag"));
        // One writer for the whole tree (--zone): every zone sees the busy edges at once, as
        // a real package and its dram do.
        const QString p1_dir = root + QStringLiteral("/intel-rapl:1");
        const QString dram_dir = root + QStringLiteral("/intel-rapl:0/intel-rapl:0:2");
        Zone p0(root + QStringLiteral("/intel-rapl:0"),
                {QStringLiteral("--name"), QStringLiteral("package-0"), QStringLiteral("--idle-w"), QStringLiteral("20"),
                 QStringLiteral("--busy-w"), QStringLiteral("60"), QStringLiteral("--flag"), flag,
                 QStringLiteral("--range-uj"), QStringLiteral("36000000"),
                 QStringLiteral("--zone"), p1_dir, QStringLiteral("package-1"), QStringLiteral("15"), QStringLiteral("45"),
                 QStringLiteral("262143328850"),
                 QStringLiteral("--zone"), dram_dir, QStringLiteral("dram"), QStringLiteral("4"), QStringLiteral("12"),
                 QStringLiteral("262143328850")});
        QTRY_VERIFY_WITH_TIMEOUT(p0.ready(QStringLiteral("energy_uj")) && QFile::exists(p1_dir + QStringLiteral("/energy_uj")) &&
                                     QFile::exists(dram_dir + QStringLiteral("/energy_uj")),
                                 5000);
        Plan p = plan(flag, {"rapl:packages", "rapl:dram", "rapl:package-0"}, 117);
        p.counter_options.powercap_root = root.toStdString();
        // rapl:packages with rapl:package-0 is refused; the valid set measures the rest.
        QVERIFY(!validatePlan(p).ok());
        p.counters = {"rapl:packages", "rapl:dram"};
        Session s(p);
        const Record r = run(s);
        // One process writes the tree and books the busy power edge to edge (BusyFlag.h).
        checkMarginal(r, "rapl:packages", 105.0 / 117.0, kWidenedBound);
        checkMarginal(r, "rapl:dram", 12.0 / 117.0, kWidenedBound);
        QCOMPARE(r.counter_info.size(), std::size_t(2));
        QCOMPARE(r.counter_info[0].second["kind"].get<std::string>(), std::string("rapl-sum"));
        QCOMPARE(r.counter_info[0].second["zones"].size(), std::size_t(2));
        QCOMPARE(r.counter_info[0].second["integrity"]["read_faults"].get<int>(), 0);
        QVERIFY(contains(r.counter_info[1].second["scope"].get<std::string>(), "memory"));
        QVERIFY(r.rounds[0].extra.contains("integrity"));
        QVERIFY(!r.rounds[0].extra["integrity"]["rapl:dram"]["idle_drift"].get<bool>());
    }

    // AMD: hwmon zenergy per-core and per-socket channels, one socket channel mirrored.
    void amdZenergyMeasuresAndRefusesTheMirror()
    {
        QTemporaryDir tmp;
        const QString hw = tmp.filePath(QStringLiteral("hwmon3")), flag = tmp.filePath(QStringLiteral("busy.flag"));
        QVERIFY(QDir().mkpath(hw));
        QVERIFY(writeText(hw + QStringLiteral("/name"), "zenergy\n"));
        QVERIFY(writeText(hw + QStringLiteral("/energy1_label"), "Ecore000\n"));
        QVERIFY(writeText(hw + QStringLiteral("/energy17_label"), "Esocket0\n"));
        QVERIFY(writeText(hw + QStringLiteral("/energy18_label"), "Esocket1\n"));
        Zone core(hw, {QStringLiteral("--no-meta"), QStringLiteral("--file"), QStringLiteral("energy1_input"),
                       QStringLiteral("--idle-w"), QStringLiteral("2"), QStringLiteral("--busy-w"), QStringLiteral("6"),
                       QStringLiteral("--flag"), flag});
        // Esocket1 mirrors Esocket0: the same counter behind two channel files.
        QVERIFY(QFile::link(QStringLiteral("energy17_input"), hw + QStringLiteral("/energy18_input")));
        Zone sock(hw, {QStringLiteral("--no-meta"), QStringLiteral("--file"), QStringLiteral("energy17_input"),
                       QStringLiteral("--idle-w"),
                       QStringLiteral("30"), QStringLiteral("--busy-w"), QStringLiteral("90"), QStringLiteral("--flag"), flag});
        QTRY_VERIFY_WITH_TIMEOUT(core.ready(QStringLiteral("energy1_input")) && sock.ready(QStringLiteral("energy18_input")),
                                 5000);
        CounterOptions o;
        o.powercap_root = tmp.filePath(QStringLiteral("none")).toStdString();
        o.hwmon_root = tmp.path().toStdString();
        std::vector<std::string> specs;
        for (const HwmonChannel& c : findHwmonChannels(o.hwmon_root))
            specs.push_back(c.spec);
        QCOMPARE(specs, (std::vector<std::string>{"hwmon:zenergy:Ecore000", "hwmon:zenergy:Esocket0",
                                                  "hwmon:zenergy:Esocket1"}));
        QVERIFY(contains(counterDetails("hwmon:zenergy:Esocket0", o).scope, "contains its Ecore"));
        QCOMPARE(counterDetails("hwmon:zenergy:Ecore000", o).unit, std::string("uJ"));

        Plan p = plan(flag, {"hwmon:zenergy:Ecore000", "hwmon:zenergy:Esocket0"}, 6);
        p.counter_options = o;
        {
            Session s(p);
            const Record r = run(s);
            checkMarginal(r, "hwmon:zenergy:Ecore000", 1.0, 0.01);
            // 30 W idle, the most a late read at an idle bracket's edge can move. Under
            // AddressSanitizer every process here (the fake zones too) runs several times slower,
            // and this counter measured -3.7 % and +5.89 % there at a 12 W busy power: it is held
            // to 10 % in that build, whose purpose is memory errors, not precision.
            checkMarginal(r, "hwmon:zenergy:Esocket0", 15.0, kSanitized ? 0.10 : 0.01);
            QCOMPARE(r.counter_info[0].second["kind"].get<std::string>(), std::string("hwmon"));
        }
        p.counters = {"hwmon:zenergy:Esocket0", "hwmon:zenergy:Esocket1"};
        Session s(p);
        QSignalSpy finished(&s, &Session::finished);
        const Record r = run(s);
        // finished comes from the session's thread: run()'s own spy can wake it before this one
        // has recorded the same emission.
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("aborted"));
        QVERIFY2(contains(r.error.value_or(""), "advanced identically") &&
                     contains(r.error.value_or(""), "keep hwmon:zenergy:Esocket0 and drop hwmon:zenergy:Esocket1"),
                 r.error.value_or("").c_str());
    }

    // A per-die mirror in powercap: intel-rapl:1 reads the same counter as intel-rapl:0. The
    // names differ (package-0, package-1), so only the readings can tell; rapl:packages would
    // add the one counter twice, and two specs for the two zones would count it twice.
    void raplPackageMirrorIsRefusedFromReadings()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path(), flag = tmp.filePath(QStringLiteral("busy.flag"));
        Zone p0(root + QStringLiteral("/intel-rapl:0"),
                {QStringLiteral("--name"), QStringLiteral("package-0"), QStringLiteral("--idle-w"), QStringLiteral("25"),
                 QStringLiteral("--busy-w"), QStringLiteral("10"), QStringLiteral("--flag"), flag});
        QTRY_VERIFY_WITH_TIMEOUT(p0.ready(QStringLiteral("energy_uj")) && p0.ready(QStringLiteral("max_energy_range_uj")),
                                 5000);
        const QString p1 = root + QStringLiteral("/intel-rapl:1");
        QVERIFY(QDir().mkpath(p1));
        QVERIFY(writeText(p1 + QStringLiteral("/name"), "package-1\n"));
        QVERIFY(QFile::copy(root + QStringLiteral("/intel-rapl:0/max_energy_range_uj"),
                            p1 + QStringLiteral("/max_energy_range_uj")));
        QVERIFY(QFile::link(QStringLiteral("../intel-rapl:0/energy_uj"), p1 + QStringLiteral("/energy_uj")));

        Plan p = plan(flag, {"rapl:packages"}, 10);
        p.counter_options.powercap_root = root.toStdString();
        {
            Session s(p);
            const Record r = run(s);
            QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("aborted"));
            QVERIFY2(contains(r.error.value_or(""), "--counter rapl:packages sums rapl:package-0 and rapl:package-1") &&
                         contains(r.error.value_or(""), "per-die mirror") &&
                         contains(r.error.value_or(""), "measure --counter rapl:package-0 instead"),
                     r.error.value_or("").c_str());
        }
        p.counters = {"rapl:package-0", "rapl:package-1"};
        Session s(p);
        const Record r = run(s);
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("aborted"));
        QVERIFY2(contains(r.error.value_or(""), "advanced identically") &&
                     contains(r.error.value_or(""), "keep rapl:package-0 and drop rapl:package-1"),
                 r.error.value_or("").c_str());
    }

    void intelGpuHwmonEnergy()
    {
        QTemporaryDir tmp;
        const QString hw = tmp.filePath(QStringLiteral("hwmon1")), flag = tmp.filePath(QStringLiteral("busy.flag"));
        QVERIFY(QDir().mkpath(hw));
        QVERIFY(writeText(hw + QStringLiteral("/name"), "i915\n"));
        Zone gpu(hw, {QStringLiteral("--no-meta"), QStringLiteral("--file"), QStringLiteral("energy1_input"),
                      QStringLiteral("--idle-w"), QStringLiteral("5"), QStringLiteral("--busy-w"), QStringLiteral("15"),
                      QStringLiteral("--flag"), flag});
        QTRY_VERIFY_WITH_TIMEOUT(gpu.ready(QStringLiteral("energy1_input")), 5000);
        Plan p = plan(flag, {"hwmon:i915:energy1"}, 15);
        p.counter_options.hwmon_root = tmp.path().toStdString();
        Session s(p);
        const Record r = run(s);
        checkMarginal(r, "hwmon:i915:energy1", 1.0, 0.01);
        QVERIFY(contains(r.counter_info[0].second["scope"].get<std::string>(), "Intel GPU"));
    }

    void amdgpuPowerOnlyIsIntegrated()
    {
        QTemporaryDir tmp;
        const QString hw = tmp.filePath(QStringLiteral("hwmon2")), flag = tmp.filePath(QStringLiteral("busy.flag"));
        QVERIFY(QDir().mkpath(hw));
        QVERIFY(writeText(hw + QStringLiteral("/name"), "amdgpu\n"));
        QVERIFY(writeText(hw + QStringLiteral("/power1_label"), "PPT\n"));
        QVERIFY(writeText(hw + QStringLiteral("/power1_average_interval"), "10\n"));
        Zone gpu(hw, {QStringLiteral("--no-meta"), QStringLiteral("--power"), QStringLiteral("--file"),
                      QStringLiteral("power1_average"), QStringLiteral("--idle-w"), QStringLiteral("12"),
                      QStringLiteral("--busy-w"), QStringLiteral("40"), QStringLiteral("--flag"), flag});
        QTRY_VERIFY_WITH_TIMEOUT(gpu.ready(QStringLiteral("power1_average")), 5000);
        CounterOptions o;
        o.hwmon_root = tmp.path().toStdString();
        const auto list = listCounters(o);
        const auto it = std::find_if(list.begin(), list.end(), [](const CounterStatus& c) { return c.spec == "hwmon:amdgpu:PPT"; });
        QVERIFY(it != list.end());
        QVERIFY2(contains(it->description, "integrated from power readings (the sensor averages over 10 ms)"),
                 it->description.c_str());
        QCOMPARE(counterDetails("hwmon:amdgpu:PPT", o).unit, std::string("uW (integrated from power readings)"));
        Plan p = plan(flag, {"hwmon:amdgpu:PPT"}, 40);
        p.counter_options = o;
        Session s(p);
        const Record r = run(s);
        // Power read every 20 ms and integrated: an edge can cost up to a period, but the edges of
        // a round mostly cancel (docs/COUNTERS.md lists the runs).
        checkMarginal(r, "hwmon:amdgpu:PPT", 1.0, kWidenedBound);
        QVERIFY(r.counter_info[0].second["integrated_from_power_readings"].get<bool>());
        QCOMPARE(r.counter_info[0].second["sensor_average_ms"].get<int>(), 10);
        // An averaged reading: its profile (the kind's default, with the sensor's own 10 ms window)
        // is in the record, and its brackets waited the window and one update out.
        QVERIFY(r.extra.contains("counter_profiles"));
        const auto& prof = r.extra["counter_profiles"]["hwmon:amdgpu:PPT"];
        QCOMPARE(prof["averaging_window_ms"].get<double>(), 10.0);
        QVERIFY(r.extra.contains("averaged_brackets"));
        QCOMPARE(r.extra["averaged_brackets"]["hwmon:amdgpu:PPT"]["tail_ms"].get<double>(),
                 10.0 + prof["update_period_ms"].get<double>());
    }

    void stallIsDetected()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        Zone z(zone, {QStringLiteral("--stall-at"), QStringLiteral("0.5"), QStringLiteral("--stall-s"), QStringLiteral("30")});
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(QStringLiteral("energy_uj")), 5000);
        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        const auto j = sampleUntil("rapl", o, 20, [](const Sampler& s) { return s.integrity()["stalls"].get<int>() > 0; });
        QVERIFY2(!j.contains("error"), j.dump().c_str());
        QVERIFY(j["stalled_at_end"].get<bool>());
        QVERIFY2(contains(j["warnings"].dump(), "stalled"), j.dump().c_str());
    }

    void jumpIsAReadFault()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        Zone z(zone, {QStringLiteral("--jump-at"), QStringLiteral("0.3"), QStringLiteral("--jump-uj"),
                      QStringLiteral("1000000000")});
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(QStringLiteral("energy_uj")), 5000);
        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        const auto j = sampleUntil("rapl", o, 20, [](const Sampler& s) {
            return s.integrity()["read_faults"].get<int>() > 0 && s.store()->size() > 40;
        });
        QVERIFY2(!j.contains("error"), j.dump().c_str());
        QCOMPARE(j["read_faults"].get<int>(), 1);
        QVERIFY(contains(j["last_fault"].get<std::string>(), "above the 2000 W"));
        QVERIFY2(j["total_nj"].get<std::int64_t>() < std::int64_t(100e9), j.dump().c_str());  // not the 1000 J jump
    }

    void backwardsWithoutWrapRangeIsAReadFault()
    {
        QTemporaryDir tmp;
        const QString hw = tmp.filePath(QStringLiteral("hwmon0"));
        QVERIFY(QDir().mkpath(hw));
        QVERIFY(writeText(hw + QStringLiteral("/name"), "zenergy\n"));
        Zone z(hw, {QStringLiteral("--no-meta"), QStringLiteral("--file"), QStringLiteral("energy1_input"),
                    QStringLiteral("--start-uj"), QStringLiteral("50000000"), QStringLiteral("--back-at"),
                    QStringLiteral("0.3"), QStringLiteral("--back-uj"), QStringLiteral("40000000")});
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(QStringLiteral("energy1_input")), 5000);
        CounterOptions o;
        o.hwmon_root = tmp.path().toStdString();
        const auto j = sampleUntil("hwmon:zenergy:energy1", o, 20, [](const Sampler& s) {
            return s.integrity()["read_faults"].get<int>() > 0 && s.store()->size() > 40;
        });
        QVERIFY2(!j.contains("error"), j.dump().c_str());
        QCOMPARE(j["read_faults"].get<int>(), 1);
        QVERIFY(contains(j["last_fault"].get<std::string>(), "went backwards"));
        QVERIFY(j["total_nj"].get<std::int64_t>() > 0);
    }

    void coarseCounterNamesThePeriodToUse()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        Zone z(zone, {QStringLiteral("--tick-ms"), QStringLiteral("200")});
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(QStringLiteral("energy_uj")), 5000);
        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        const auto j = sampleUntil("rapl", o, 20, [](const Sampler& s) { return s.store()->size() > 100; });
        QVERIFY2(j["period_shorter_than_cadence"].get<bool>(), j.dump().c_str());
        QVERIFY2(j["suggested_sample_ms"].get<double>() >= 200, j.dump().c_str());
        QVERIFY2(contains(j["warnings"].dump(), "use --sample-ms"), j.dump().c_str());
        QVERIFY(j["resolution_nj"].get<std::int64_t>() > 0);
    }

    void idleDriftIsFlaggedOnTheRound()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0")), flag = tmp.filePath(QStringLiteral("busy.flag")),
                      drift = tmp.filePath(QStringLiteral("drift.flag"));
        // 20 W: well clear of the brackets' noise even when a loaded machine (a sanitizer run)
        // delays the fake zone's ticks; with 8 W, 4 standard errors reached it there.
        Zone z(zone, {QStringLiteral("--flag"), flag, QStringLiteral("--drift-flag"), drift, QStringLiteral("--drift-w"),
                      QStringLiteral("20")});
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(QStringLiteral("energy_uj")), 5000);
        Plan p = plan(flag, {"rapl"}, 15);
        p.rounds = 1;
        p.counter_options.rapl_zone = zone.toStdString();
        Session s(p);
        // The idle power rises by 20 W while the round runs (a background job starting).
        connect(&s, &Session::phase, this, [&](const PhaseEvent& e) {
            if (e.kind == PhaseEvent::BusyStarted)
                writeText(drift, "1");
        });
        QSignalSpy warnings(&s, &Session::warning);
        const Record r = run(s);
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
        QVERIFY2(r.rounds.at(0).extra["integrity"]["rapl"]["idle_drift"].get<bool>(),
                 r.rounds.at(0).extra["integrity"].dump().c_str());
        QVERIFY2(std::abs(r.rounds.at(0).extra["integrity"]["rapl"]["drift_w"].get<double>() - 20.0) < 2.5,
                 r.rounds.at(0).extra["integrity"].dump().c_str());
        bool warned = false;
        for (const auto& w : warnings)
            warned = warned || w.at(0).toString().contains(QLatin1String("idle drift"));
        QVERIFY(warned);
    }

    void badFilesNameTheFile()
    {
        QTemporaryDir tmp;
        const QString hw = tmp.filePath(QStringLiteral("hwmon0"));
        QVERIFY(QDir().mkpath(hw));
        QVERIFY(writeText(hw + QStringLiteral("/name"), "i915\n"));
        const std::string file = QString(hw + QStringLiteral("/energy1_input")).toStdString();
        CounterOptions o;
        o.hwmon_root = tmp.path().toStdString();
        QVERIFY(writeText(hw + QStringLiteral("/energy1_input"), ""));
        auto empty = openCounter("hwmon:i915:energy1", o);
        QVERIFY(!empty.ok());
        QVERIFY2(contains(empty.error(), file + " is empty"), empty.error().c_str());
        QVERIFY(writeText(hw + QStringLiteral("/energy1_input"), "lots\n"));
        auto nan = openCounter("hwmon:i915:energy1", o);
        QVERIFY(!nan.ok());
        QVERIFY2(contains(nan.error(), file + " holds 'lots\\n', not a number"), nan.error().c_str());
        QVERIFY(writeText(hw + QStringLiteral("/energy1_input"), "100\n"));
        auto c = openCounter("hwmon:i915:energy1", o);
        QVERIFY(c.ok());
        QVERIFY(QFile::remove(hw + QStringLiteral("/energy1_input")));
        auto gone = c.value()->readNj();
        QVERIFY(!gone.ok());
        QVERIFY2(contains(gone.error(), file + " does not exist (it vanished"), gone.error().c_str());
        const std::string perm = hwmonFileError(file, EACCES);
        QVERIFY(contains(perm, file + ": permission denied"));
        QVERIFY(contains(perm, "60-joulebench-powercap.rules covers hwmon energy files"));
        QVERIFY(contains(perm, "--subsystem-match=hwmon"));
    }
};

QTEST_GUILESS_MAIN(TestCounterTrees)
#include "tst_counter_trees.moc"
