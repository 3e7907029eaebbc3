// The macOS glue against real chips' Energy Model channel lists (tests/fixtures/apple, from
// published captures: M1 on macOS 11, M1 Max, M1 Ultra, a window of an M4 Pro's, M5 Max), served
// by the fake libIOReport in their order with their units and duplicates: the channels each chip
// lists, the overlap rules on every list (totals and parts, the GPU rail published twice, the
// channels whose place is not published), the CPU total (ioreport:cpu) and the names an Ultra
// publishes twice. Then the publication modes of real chips (a coarse channel, a frozen one, a
// dead one) as the counter's counter_info names them.
#include "FakeApple.h"
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/IOReportGpu.h>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>

using namespace jb;
using namespace jbtest;

namespace {

QString fixture(const char* chip)
{
    return QStringLiteral(JB_FIXTURES "/apple/ioreport-") + QLatin1String(chip) + QStringLiteral(".txt");
}

// The fixture's channels as written: (unit, name) in order, duplicates kept.
std::vector<std::pair<std::string, std::string>> fixtureChannels(const char* chip)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::ifstream in(fixture(chip).toStdString());
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto sp = line.find(' ');
        out.emplace_back(line.substr(0, sp), line.substr(sp + 1));
    }
    return out;
}

bool has(const std::string& hay, const std::string& needle)
{
    return hay.find(needle) != std::string::npos;
}

const CounterStatus* find(const std::vector<CounterStatus>& list, const std::string& spec)
{
    for (const CounterStatus& s : list)
        if (s.spec == spec)
            return &s;
    return nullptr;
}
// A pointer into a temporary list would dangle (AddressSanitizer caught one): keep the list.
const CounterStatus* find(std::vector<CounterStatus>&& list, const std::string& spec) = delete;

std::string overlap(std::initializer_list<std::string> specs)
{
    const Status st = checkIOReportOverlap(specs);
    return st.ok() ? std::string() : st.error();
}

}  // namespace

class TestAppleChips : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    FakeCF cf_;
    FakeIOReport io_;

    QString config() const { return dir_.filePath(QStringLiteral("ioreport.conf")); }
    bool serve(const char* chip, const QByteArray& more = {})
    {
        return configureFakeIOReport(config(), "channels " + QFile::encodeName(fixture(chip)) + "\n" + more);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(cf_.loaded() && io_.loaded());
    }
    void init() { cf_.reset(); }
    void cleanup()
    {
        const std::string p = cf_.problems();
        QVERIFY2(p.empty(), p.c_str());
    }

    // Every published channel is listed once, in the chip's order, with its unit and how often
    // its name is published; each readable one is a counter, a name published twice is not.
    void eachChipListsItsChannels_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<int>("published");  // channels in the list, duplicates counted
        QTest::addColumn<int>("twice");      // names published twice
        QTest::newRow("M1 macOS 11") << QStringLiteral("m1-macos11") << 97 << 0;
        QTest::newRow("M1 Max") << QStringLiteral("m1-max") << 162 << 0;
        QTest::newRow("M1 Ultra") << QStringLiteral("m1-ultra") << 321 << 130;
        QTest::newRow("M4 Pro (two windows)") << QStringLiteral("m4-pro") << 62 << 0;
        QTest::newRow("M5 Max") << QStringLiteral("m5-max") << 364 << 0;
    }
    void eachChipListsItsChannels()
    {
        QFETCH(QString, chip);
        QFETCH(int, published);
        QFETCH(int, twice);
        const auto want = fixtureChannels(chip.toLatin1().constData());
        QCOMPARE(int(want.size()), published);
        QVERIFY(serve(chip.toLatin1().constData()));
        auto chans = ioreportEnergyChannels(fakeAppleLibraries());
        QVERIFY2(chans.ok(), chans.ok() ? "" : chans.error().c_str());
        std::vector<std::pair<std::string, std::string>> firsts;
        std::set<std::string> seen;
        for (const auto& w : want)
            if (seen.insert(w.second).second)
                firsts.push_back(w);
        QCOMPARE(chans->size(), firsts.size());
        int doubled = 0;
        for (std::size_t i = 0; i < firsts.size(); ++i) {
            QCOMPARE((*chans)[i].unit, firsts[i].first);
            QCOMPARE((*chans)[i].name, firsts[i].second);
            doubled += (*chans)[i].copies == 2;
        }
        QCOMPARE(doubled, twice);

        CounterOptions o;
        o.powercap_root = dir_.filePath(QStringLiteral("no-powercap")).toStdString();
        o.nvml_library = "/nonexistent/libnvidia-ml.so.1";
        o.apple = fakeAppleLibraries();
        const auto list = listCounters(o);
        for (const IOReportChannel& c : *chans) {
            const CounterStatus* s = find(list, "ioreport:" + c.name);
            QVERIFY2(s, c.name.c_str());
            QCOMPARE(s->available, c.copies == 1);
            if (c.copies > 1)
                QVERIFY2(has(s->reason,
                             "publishes '" + c.name + "' 2 times with nothing to tell the copies apart"),
                         s->reason.c_str());
        }
        // No chip publishes a package total; the old generic names are nowhere.
        for (const char* absent :
             {"ioreport:ANE", "ioreport:DRAM", "ioreport:GPU SRAM", "ioreport:Package Energy"})
            QVERIFY2(!find(list, absent), absent);
    }

    // The overlap rules on every published list: each chip's totals and parts, by its scheme.
    void overlapRulesOnEveryList_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("error");  // empty: accepted together
        const QString contains = QStringLiteral("is a total that includes");
        const QString unknown = QStringLiteral("is not published");
        const QString rail = QStringLiteral("read one rail");
        auto row = [](const char* chip, const char* a, const char* b, const QString& e) {
            QTest::addRow("%s: %s / %s", chip, a, b)
                << QString::fromLatin1(chip) << QString::fromLatin1(a) << QString::fromLatin1(b) << e;
        };
        row("m1-macos11", "CPU Energy", "ECPU", contains);
        row("m1-macos11", "ECPU", "ECPU3", contains);
        row("m1-macos11", "PCPU", "PCPU0", contains);
        row("m1-macos11", "CPU Energy", "ECPM", unknown);
        row("m1-macos11", "PCPU", "PCPM", unknown);
        row("m1-macos11", "CPU Energy", "PCPUDTL3e", unknown);
        row("m1-macos11", "ECPU", "PCPU", QString());
        row("m1-macos11", "CPU Energy", "GPU Energy", QString());
        row("m1-max", "CPU Energy", "PACC1_CPU", contains);
        row("m1-max", "PACC0_CPU", "PACC0_CPU3", contains);
        row("m1-max", "PACC1_CPU", "PACC0_CPU3", QString());
        row("m1-max", "EACC_CPU", "EACC_CPM", unknown);
        row("m1-max", "PACC1_CPU", "PACC0_CPM", QString());
        row("m1-max", "GPU Energy", "GPU0", rail);
        row("m1-max", "GPU Energy", "GPU SRAM0", QString());
        row("m1-max", "ANE0", "DRAM0", QString());
        row("m1-ultra", "DIE_0_CPU Energy", "DIE_0_PACC0_CPU", contains);
        row("m1-ultra", "DIE_0_CPU Energy", "DIE_0_PACC0_CPU2", contains);
        row("m1-ultra", "DIE_0_CPU Energy", "DIE_1_PACC0_CPU", QString());
        row("m1-ultra", "DIE_0_CPU Energy", "DIE_1_CPU Energy", QString());
        row("m1-ultra", "DIE_1_PACC1_CPU", "DIE_1_PACC1_CPU0", contains);
        row("m1-ultra", "DIE_1_PACC1_CPU", "DIE_0_PACC1_CPU0", QString());
        row("m1-ultra", "DIE_1_CPU Energy", "DIE_1_EACC_CPM", unknown);
        row("m1-ultra", "DIE_1_CPU Energy", "ECPUDTL00", unknown);  // no DIE_ prefix: either die
        row("m1-ultra", "GPU Energy", "GPU0_0", rail);
        row("m1-ultra", "ANE0_0", "ANE0_1", QString());
        row("m1-ultra", "DRAM0_0", "DRAM0_1", QString());
        row("m4-pro", "CPU Energy", "PACC0_CPU", contains);
        row("m4-pro", "PACC1_CPU", "PACC1_CPU5_SRAM", unknown);
        row("m4-pro", "CPU Energy", "EACC_CPM_SRAM", unknown);
        row("m4-pro", "EACC_CPU", "PACC1_CPU", QString());
        row("m5-max", "CPU Energy", "PACC_0", contains);
        row("m5-max", "CPU Energy", "MCPU0_0", contains);
        row("m5-max", "MCPU0", "MCPU0_0", contains);
        row("m5-max", "MCPU1", "MCPU0_5", QString());
        row("m5-max", "PCPU", "PACC_5", contains);
        row("m5-max", "MCPU0", "MCPM0", unknown);
        row("m5-max", "MCPU0_0", "MCPU0_0_SRAM", unknown);
        row("m5-max", "PCPU", "PCPU3_SRAM", unknown);
        row("m5-max", "CPU Energy", "MCPU1DTL5e", unknown);
        row("m5-max", "MCPU0", "MCPU1", QString());
        row("m5-max", "GPU Energy", "GPU0", rail);
        row("m5-max", "GPU0", "ANE0", QString());
    }
    void overlapRulesOnEveryList()
    {
        QFETCH(QString, chip);
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, error);
        // Both channels are on this chip's published list.
        std::set<std::string> names;
        for (const auto& c : fixtureChannels(chip.toLatin1().constData()))
            names.insert(c.second);
        QVERIFY2(names.count(a.toStdString()) && names.count(b.toStdString()),
                 "a channel the chip publishes");
        const std::string sa = "ioreport:" + a.toStdString();
        const std::string sb = "ioreport:" + b.toStdString();
        for (const std::string& e : {overlap({sa, sb}), overlap({sb, sa})}) {
            if (error.isEmpty()) {
                QVERIFY2(e.empty(), e.c_str());
            } else {
                QVERIFY2(has(e, error.toStdString()), e.c_str());
                QVERIFY2(has(e, sa) && has(e, sb), e.c_str());
            }
        }
    }

    void overlapMessagesSayWhatToDo()
    {
        QCOMPARE(overlap({"ioreport:CPU Energy", "ioreport:PACC_0"}),
                 std::string(
                     "--counter ioreport:CPU Energy and --counter ioreport:PACC_0 overlap: IOReport's 'CPU "
                     "Energy' is a total that includes 'PACC_0', so their energies would be counted twice; "
                     "keep ioreport:CPU Energy for the total, or ioreport:PACC_0 (with its sibling "
                     "channels) for the parts"));
        QCOMPARE(overlap({"ioreport:GPU0", "ioreport-gpu"}),
                 std::string(
                     "--counter ioreport-gpu and --counter ioreport:GPU0 read one rail: IOReport publishes "
                     "the GPU's energy twice, as 'GPU Energy' (nJ) and as 'GPU0' (mJ), so their energies "
                     "would be counted twice; keep one of them (ioreport-gpu: nJ, the finer unit)"));
        QCOMPARE(overlap({"ioreport:PACC0_CPM", "ioreport:CPU Energy"}),
                 std::string(
                     "--counter ioreport:CPU Energy and --counter ioreport:PACC0_CPM may overlap: whether "
                     "IOReport's 'CPU Energy' includes 'PACC0_CPM' is not published (Apple documents "
                     "neither), so their sum could count energy twice; measure ioreport:PACC0_CPM in a run "
                     "of its own"));
        // The CPU total against what it adds up.
        QVERIFY(has(overlap({"ioreport:cpu", "ioreport:CPU Energy"}), "read the same energy"));
        QVERIFY(has(overlap({"ioreport:DIE_1_CPU Energy", "ioreport:cpu"}),
                    "ioreport:cpu (the CPU total) is a total that includes 'DIE_1_CPU Energy'"));
        QVERIFY(has(overlap({"ioreport:cpu", "ioreport:MCPU0_3"}), "is a total that includes 'MCPU0_3'"));
        QVERIFY(has(overlap({"ioreport:cpu", "ioreport:PCPM"}), "is not published"));
        QVERIFY(overlap({"ioreport:cpu", "ioreport-gpu", "ioreport:DRAM0", "ioreport:ANE0", "task"}).empty());
    }

    // ioreport:cpu: CPU Energy where the chip publishes it, else the dies' totals added up.
    void cpuTotal_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("M1 macOS 11") << QStringLiteral("m1-macos11")
                                     << QStringList{QStringLiteral("CPU Energy")};
        QTest::newRow("M1 Max") << QStringLiteral("m1-max") << QStringList{QStringLiteral("CPU Energy")};
        QTest::newRow("M1 Ultra") << QStringLiteral("m1-ultra")
                                  << QStringList{QStringLiteral("DIE_0_CPU Energy"),
                                                 QStringLiteral("DIE_1_CPU Energy")};
        QTest::newRow("M5 Max") << QStringLiteral("m5-max") << QStringList{QStringLiteral("CPU Energy")};
    }
    void cpuTotal()
    {
        QFETCH(QString, chip);
        QFETCH(QStringList, parts);
        QVERIFY(serve(chip.toLatin1().constData()));
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        const auto list = ioreportStatuses(o.apple);
        const CounterStatus* s = find(list, kIOReportCpuSpec);
        QVERIFY(s);
        QVERIFY2(s->available, s->reason.c_str());
        for (const QString& p : parts)
            QVERIFY2(has(s->description, "'" + p.toStdString() + "'"), s->description.c_str());
        {
            auto c = openCounter(kIOReportCpuSpec, o);
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            const auto t0 = c.value()->readNj();
            QVERIFY(t0.ok());
            // Energy on every part, and on channels the total must not add (a cluster, a DTL).
            double joules = 0;
            for (int i = 0; i < parts.size(); ++i) {
                QVERIFY(io_.inject(parts[i].toUtf8().constData(), 1.5 + i));
                joules += 1.5 + i;
            }
            io_.inject("PACC0_CPU", 9.0);
            io_.inject("DIE_0_PACC0_CPU", 9.0);
            const auto t1 = c.value()->readNj();
            QVERIFY2(t1.ok(), t1.ok() ? "" : t1.error().c_str());
            QCOMPARE(*t1 - *t0, std::int64_t(std::llround(joules * 1e9)));
            const auto info = c.value()->info();
            QCOMPARE(info["channel"].get<std::string>(), parts.join(QStringLiteral(" + ")).toStdString());
            if (parts.size() > 1) {
                QCOMPARE(info["parts"].size(), std::size_t(parts.size()));
                QVERIFY2(has(info["total"].get<std::string>(), "the sum of the dies'"), info.dump().c_str());
            }
            QCOMPARE(info["unit"].get<std::string>(), std::string("mJ"));
        }
        QVERIFY(has(counterDetails(kIOReportCpuSpec, o).scope, "DIE_<n>_CPU Energy"));
    }

    void cpuTotalWhereThereIsNone()
    {
        QVERIFY(configureFakeIOReport(config(), "channel nJ 0 0 GPU Energy\nchannel mJ 0 0 ANE0\n"));
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        auto c = openCounter(kIOReportCpuSpec, o);
        QVERIFY(!c.ok());
        QVERIFY2(has(c.error(), "neither a 'CPU Energy' channel nor a 'DIE_<n>_CPU Energy' channel"),
                 c.error().c_str());
        const std::vector<CounterStatus> statuses = ioreportStatuses(o.apple);  // s points into it
        const CounterStatus* s = find(statuses, kIOReportCpuSpec);
        QVERIFY(s && !s->available);
        QCOMPARE(s->reason, c.error().substr(c.error().find("IOReport's")));
    }

    // An Ultra's DTL names come twice with nothing to tell them apart: refused, never summed.
    void duplicateNamesAreRefused()
    {
        QVERIFY(serve("m1-ultra"));
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        auto c = openCounter("ioreport:PCPU1DTL2a", o);
        QVERIFY(!c.ok());
        QCOMPARE(c.error(),
                 std::string("counter ioreport:PCPU1DTL2a: IOReport's 'Energy Model' group publishes "
                             "'PCPU1DTL2a' 2 times with nothing to tell the copies apart (as an M1 "
                             "Ultra's DTL channels); JouleBench reads no channel whose name is published "
                             "more than once rather than add the copies together"));
        // A name published once on the same chip reads as usual.
        auto ane = openCounter("ioreport:ANE0_1", o);
        QVERIFY2(ane.ok(), ane.ok() ? "" : ane.error().c_str());
    }

    // How a channel publishes, named in counter_info: every read, every P ms, frozen, dead.
    void publicationIsNamed()
    {
        QVERIFY(serve("m5-max",
                      "power 3 0 GPU Energy\npower 2 0 DRAM0\npower 4 0 ANE0\n"
                      "publish 150 DRAM0\nfrozen 8123456 CPU Energy\nzero ANE0\n"));
        CounterOptions o;
        o.apple = fakeAppleLibraries();
        std::vector<std::unique_ptr<EnergyCounter>> cs;
        for (const char* spec : {"ioreport:GPU Energy", "ioreport:DRAM0", "ioreport:cpu", "ioreport:ANE0"}) {
            auto c = openCounter(spec, o);
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            cs.push_back(std::move(c.value()));
        }
        // Read all four (the sampler's job in a run) until the coarse channel has published a
        // few times.
        auto pub = [&](std::size_t i) { return cs[i]->info()["publication"]; };
        auto readAll = [&] {
            for (auto& c : cs)
                if (!c->readNj())
                    return false;
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            readAll() && pub(1)["advances"].get<int>() >= 4 && pub(0)["reads"].get<int>() >= 12, 20000);
        QCOMPARE(pub(0)["state"].get<std::string>(), std::string("every-read"));
        QCOMPARE(pub(1)["state"].get<std::string>(), std::string("periodic"));
        const double gap = pub(1)["median_advance_gap_ms"].get<double>();
        // 150 ms seen through reads about 50 ms apart (QTRY's polls, longer on a loaded machine):
        // each gap seen is a whole number of reads, so the median lands near, not on, 150 ms.
        QVERIFY2(gap > 75 && gap < 400, pub(1).dump().c_str());
        QVERIFY2(has(pub(1)["note"].get<std::string>(), "publishes coarser than the sampling period"),
                 pub(1).dump().c_str());
        QCOMPARE(pub(2)["state"].get<std::string>(), std::string("frozen"));
        QCOMPARE(pub(2)["raw_value"].get<std::int64_t>(), std::int64_t(8123456));
        QVERIFY2(has(pub(2)["note"].get<std::string>(), "'CPU Energy' never advanced in ") &&
                     has(pub(2)["note"].get<std::string>(), " reads: frozen at 8123456"),
                 pub(2).dump().c_str());
        QCOMPARE(pub(3)["state"].get<std::string>(), std::string("zero"));
        QVERIFY2(has(pub(3)["note"].get<std::string>(), "'ANE0' read 0 at every read"),
                 pub(3).dump().c_str());
    }
};

QTEST_GUILESS_MAIN(TestAppleChips)
#include "tst_apple_chips.moc"
