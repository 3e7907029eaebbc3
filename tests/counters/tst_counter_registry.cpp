// The registry against a fixture powercap root: listing, rapl:NAME resolution (nested zones,
// names repeated by a second socket, sysfs's duplicate links), default spec, errors.
#include "FakeZone.h"
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/RaplCounter.h>

#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace jb;
using namespace jbtest;

namespace {

const std::string kFixtureRoot = JB_FIXTURES "/counters/powercap";

CounterOptions fixtureOptions()
{
    CounterOptions o;
    o.powercap_root = kFixtureRoot;
    o.hwmon_root = JB_FIXTURES "/counters/no-hwmon";  // no such folder: no hwmon channels
    o.nvml_library = JB_FIXTURES "/counters/no-such-libnvidia-ml.so";
    return o;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

const CounterStatus* find(const std::vector<CounterStatus>& list, const std::string& spec)
{
    for (const CounterStatus& s : list)
        if (s.spec == spec)
            return &s;
    return nullptr;
}

}  // namespace

class TestCounterRegistry : public QObject {
    Q_OBJECT
private slots:
    void wholeDeviceSpecs()
    {
        for (const char* spec : {"rapl", "rapl:psys", "sim", "ioreport-gpu", "nvml", "nvml:0"})
            QVERIFY2(isWholeDeviceSpec(spec), spec);
        for (const char* spec : {"task", "", "raplx", "bogus"})
            QVERIFY2(!isWholeDeviceSpec(spec), spec);
    }

    void findsTopAndNestedZonesInOrder()
    {
        const auto zones = findRaplZones(kFixtureRoot);
        std::vector<std::string> names;
        for (const RaplZone& z : zones)
            names.push_back(z.name);
        QCOMPARE(names, (std::vector<std::string>{"package-0", "core", "uncore", "psys"}));
        QCOMPARE(zones[1].path, kFixtureRoot + "/intel-rapl:0/intel-rapl:0:0");
    }

    void listsEveryCounterOfTheFixture()
    {
        const auto list = listCounters(fixtureOptions());
        std::vector<std::string> specs;
        for (const CounterStatus& s : list)
            specs.push_back(s.spec);
        // The NVML entries come last; their content is the NVML reader's business.
        QVERIFY(specs.size() > 10);
        specs.resize(10);
        QCOMPARE(specs, (std::vector<std::string>{"rapl", "rapl:package-0", "rapl:core", "rapl:uncore", "rapl:psys",
                                                  "rapl:packages", "task", "ioreport-gpu", "ioreport:cpu", "sim"}));
        for (const char* rapl : {"rapl", "rapl:package-0", "rapl:core", "rapl:uncore", "rapl:psys"}) {
            const CounterStatus* s = find(list, rapl);
            QVERIFY2(s->available, s->reason.c_str());
            QVERIFY(s->whole_device);
            QVERIFY(s->reason.empty());
        }
        QVERIFY2(contains(find(list, "rapl:core")->description, "intel-rapl:0:0"),
                 find(list, "rapl:core")->description.c_str());
        QVERIFY(contains(find(list, "rapl")->description, "'package-0'"));
        QVERIFY(!find(list, "task")->whole_device);
        QVERIFY(find(list, "sim")->available);
        QVERIFY(contains(find(list, "sim")->description, "20 W idle"));
#ifdef Q_OS_LINUX
        QVERIFY(!find(list, "ioreport-gpu")->available);
        QCOMPARE(find(list, "ioreport-gpu")->reason,
                 std::string("ioreport-gpu needs macOS (IOReport); this machine runs Linux"));
#endif
        for (const CounterStatus& s : list) {
            QVERIFY2(s.available == s.reason.empty(), s.spec.c_str());
            QVERIFY2(!s.description.empty(), s.spec.c_str());
        }
        QVERIFY(find(list, "nvml") || find(list, "nvml:0"));
    }

    void noPowercapMeansSim()
    {
        QTemporaryDir empty;
        CounterOptions o = fixtureOptions();
        o.powercap_root = s(empty.path());
        QCOMPARE(defaultCounterSpec(o), std::string("sim"));
        const auto list = listCounters(o);
        QCOMPARE(list.front().spec, std::string("rapl"));
        QVERIFY(!list.front().available);
        QVERIFY2(contains(list.front().reason, "no such RAPL zone"), list.front().reason.c_str());
        QCOMPARE(list[1].spec, std::string("task"));  // no rapl:NAME entries
        QCOMPARE(defaultCounterSpec(fixtureOptions()), std::string("rapl"));
    }

    void unreadableRaplMeansSim()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 1000, 1));
        QVERIFY(writeText(zone + QStringLiteral("/energy_uj"), "n/a\n"));
        CounterOptions o = fixtureOptions();
        o.powercap_root = s(tmp.path());
        QCOMPARE(defaultCounterSpec(o), std::string("sim"));
        const auto list = listCounters(o);
        QVERIFY2(contains(find(list, "rapl:package-0")->reason, "'n/a\\n', not a number"),
                 find(list, "rapl:package-0")->reason.c_str());
    }

    void opensNestedZoneByName()
    {
        auto c = openCounter("rapl:uncore", fixtureOptions());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE(c.value()->spec(), std::string("rapl:uncore"));
        QCOMPARE(c.value()->info()["path"].get<std::string>(), kFixtureRoot + "/intel-rapl:0/intel-rapl:0:1");
        QCOMPARE(*c.value()->readNj(), std::int64_t(0));
    }

    void plainRaplHonoursRaplZone()
    {
        CounterOptions o = fixtureOptions();
        auto def = openCounter("rapl", o);
        QVERIFY(def.ok());
        QCOMPARE(def.value()->info()["name"].get<std::string>(), std::string("package-0"));
        o.rapl_zone = kFixtureRoot + "/intel-rapl:1";
        auto psys = openCounter("rapl", o);
        QVERIFY(psys.ok());
        QCOMPARE(psys.value()->info()["name"].get<std::string>(), std::string("psys"));
        QCOMPARE(psys.value()->spec(), std::string("rapl"));
    }

    void unknownZoneNameListsTheNamesFound()
    {
        auto c = openCounter("rapl:dram", fixtureOptions());
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), "no RAPL zone named 'dram'") &&
                     contains(c.error(), "package-0 (intel-rapl:0), core (intel-rapl:0:0), uncore "
                                         "(intel-rapl:0:1), psys (intel-rapl:1)"),
                 c.error().c_str());
        QTemporaryDir empty;
        CounterOptions o = fixtureOptions();
        o.powercap_root = s(empty.path());
        auto none = openCounter("rapl:psys", o);
        QVERIFY(!none.ok());
        QVERIFY2(contains(none.error(), "exposes no powercap RAPL zones under " + s(empty.path())),
                 none.error().c_str());
        auto blank = openCounter("rapl:", o);
        QVERIFY(!blank.ok());
        QVERIFY2(contains(blank.error(), "needs a zone name"), blank.error().c_str());
    }

    void secondSocketAndSysfsLinksListedOnce()
    {
        // sysfs lists intel-rapl:0:0 both at the top (a link) and inside intel-rapl:0; a
        // second socket repeats the name "core".
        QTemporaryDir tmp;
        const QString root = tmp.path();
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:0"), "package-0", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:0/intel-rapl:0:0"), "core", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:1"), "package-1", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:1/intel-rapl:1:0"), "core", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:10"), "psys", 1000, 1));
        QCOMPARE(::symlink("intel-rapl:0/intel-rapl:0:0", s(root + QStringLiteral("/intel-rapl:0:0")).c_str()), 0);
        const auto zones = findRaplZones(s(root));
        std::vector<std::string> names;
        for (const RaplZone& z : zones)
            names.push_back(z.name);
        // Numeric order: intel-rapl:10 after intel-rapl:1.
        QCOMPARE(names, (std::vector<std::string>{"package-0", "core", "package-1", "core", "psys"}));
        CounterOptions o = fixtureOptions();
        o.powercap_root = s(root);
        // "core" repeats: each socket's is listed qualified by its package, once.
        std::vector<std::string> cores;
        for (const CounterStatus& st : listCounters(o))
            if (contains(st.spec, "core"))
                cores.push_back(st.spec);
        QCOMPARE(cores, (std::vector<std::string>{"rapl:package-0/core", "rapl:package-1/core"}));
        auto core = openCounter("rapl:core", o);
        QVERIFY(core.ok());
        QVERIFY2(contains(core.value()->info()["path"].get<std::string>(), "intel-rapl:0:0"),
                 core.value()->info()["path"].get<std::string>().c_str());
    }

    void mirrorCandidatesByKind()
    {
        // Two packages, a subzone and an MMIO mirror: rapl:packages stands for each top-level
        // package; hwmon channels and RAPL zones are candidates; sim and task never are.
        QTemporaryDir tmp;
        const QString root = tmp.path();
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:0"), "package-0", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:0/intel-rapl:0:0"), "core", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl:1"), "package-1", 1000, 1));
        QVERIFY(writeZone(root + QStringLiteral("/intel-rapl-mmio:0"), "package-0", 1000, 1));
        CounterOptions o = fixtureOptions();
        o.powercap_root = s(root);
        using Pairs = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(mirrorCandidates({"rapl:packages", "hwmon:amdgpu:PPT"}, o),
                 (Pairs{{"rapl:package-0", "rapl:packages"}, {"rapl:package-1", "rapl:packages"},
                        {"hwmon:amdgpu:PPT", "hwmon:amdgpu:PPT"}}));
        QCOMPARE(mirrorCandidates({"rapl:core", "hwmon:amdgpu:PPT", "sim"}, o),
                 (Pairs{{"rapl:core", "rapl:core"}, {"hwmon:amdgpu:PPT", "hwmon:amdgpu:PPT"}}));
        // One candidate cannot mirror anything.
        QVERIFY(mirrorCandidates({"rapl", "sim", "task"}, o).empty());
        QVERIFY(mirrorCandidates({"nvml:0", "nvml-power:0"}, o).empty());
    }

    void unknownSpecListsTheKnownOnes()
    {
        auto c = openCounter("watts", fixtureOptions());
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), "unknown counter 'watts'") &&
                     contains(c.error(), "rapl, rapl:NAME (here: rapl:package-0, rapl:core, rapl:uncore, rapl:psys)") &&
                     contains(c.error(), "task, ioreport-gpu, ioreport:cpu, sim, nvml"),
                 c.error().c_str());
    }

    void taskIsNotWholeDevice()
    {
        auto c = openCounter("task", fixtureOptions());
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), "not a whole-device counter"), c.error().c_str());
    }

    void simOpensWithItsParameters()
    {
        CounterOptions o = fixtureOptions();
        o.sim.idle_w = 3.5;
        o.sim.seed = 9;
        auto c = openCounter("sim", o);
        QVERIFY(c.ok());
        QCOMPARE(c.value()->info()["idle_w"].get<double>(), 3.5);
        QCOMPARE(c.value()->info()["seed"].get<std::uint64_t>(), std::uint64_t(9));
        QVERIFY(c.value()->readNj().ok());
    }

#ifdef Q_OS_LINUX
    void ioreportGpuNeedsMac()
    {
        auto c = openCounter("ioreport-gpu", fixtureOptions());
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), "ioreport-gpu needs macOS (IOReport); this machine runs Linux"), c.error().c_str());
    }
#endif
};

QTEST_GUILESS_MAIN(TestCounterRegistry)
#include "tst_counter_registry.moc"
