// measure with several children (-- A ::: B): one fake zone whose busy power is that of the
// child running (fakechild --busy-w writes it into the flag, fakezone --busy-from-flag reads
// it), so each child's true energy is known; the run interleaves them in balanced blocks.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "CliTestKit.h"
#include <jb/stats/Statistics.h>

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <vector>

using namespace jbclitest;
using nlohmann::json;

namespace {

struct Zone {
    // growth: the busy power grows by this fraction per second (a chip that warms).
    explicit Zone(const QString& root, const char* growth = "0")
        : dir(root + QStringLiteral("/zone")), flag(root + QStringLiteral("/busy.flag"))
    {
        QDir().mkpath(dir);
        proc.start(testBin("fakezone"), {dir, QStringLiteral("--idle-w"), QStringLiteral("20"), QStringLiteral("--busy-w"),
                                         QStringLiteral("1"), QStringLiteral("--busy-from-flag"), QStringLiteral("--flag"),
                                         flag, QStringLiteral("--tick-ms"), QStringLiteral("1"), QStringLiteral("--seconds"),
                                         QStringLiteral("200"), QStringLiteral("--busy-growth"), QString::fromLatin1(growth)});
        proc.waitForStarted();
    }
    ~Zone()
    {
        proc.kill();
        proc.waitForFinished();
    }
    QString dir, flag;
    QProcess proc;
};

QStringList child(const Zone& z, const char* watts, QStringList extra = {})
{
    return QStringList{testBin("fakechild"), QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("4"),
                       QStringLiteral("--job-ms"), QStringLiteral("100"), QStringLiteral("--flag"), z.flag,
                       QStringLiteral("--busy-w"), QString::fromLatin1(watts)} +
           extra;
}

QStringList measure(const Zone& z, const QString& out, const QStringList& flags)
{
    return QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("rapl"),
                       QStringLiteral("--rapl-zone"), z.dir, QStringLiteral("--sample-ms"), QStringLiteral("25"),
                       QStringLiteral("--idle-s"), QStringLiteral("0.5"), QStringLiteral("--no-library"),
                       QStringLiteral("--out-dir"), out} +
           flags;
}

json readJson(const QString& path)
{
    std::ifstream f(path.toStdString());
    return json::parse(f);
}

// The median over the rounds of each round's truth per decode: the figure a record's
// median_j_per_decode estimates. truth_nj is the child's busy W x the time between its flag's
// two edges, which the fake zone books exactly (tests/clients/BusyFlag.h). A round that the
// machine slows is longer and costs more, so the truth is taken from the rounds as they ran,
// not from the nominal watts.
double medianTruthPerDecode(const json& rec)
{
    std::vector<double> v;
    for (const json& r : rec.at("rounds")) {
        const std::string note = r.at("child_note").get<std::string>();
        v.push_back(std::stod(note.substr(note.find('=') + 1)) / 1e9 / r.at("decodes").get<double>());
    }
    return jb::median(v);
}

struct RatioCi {
    double low, high;
};

}  // namespace

class TestCliInterleaved : public QObject {
    Q_OBJECT
private slots:
    void twoChildrenInterleavedAndCompared()
    {
        QTemporaryDir dir;
        Zone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString md = dir.filePath(QStringLiteral("table.md")), csv = dir.filePath(QStringLiteral("table.csv"));
        const Run r = cli(measure(z, out,
                                  {QStringLiteral("--rounds"), QStringLiteral("6"), QStringLiteral("--warmup"),
                                   QStringLiteral("1"), QStringLiteral("--name"), QStringLiteral("low"), QStringLiteral("--name"),
                                   QStringLiteral("high"), QStringLiteral("--export-markdown"), md,
                                   QStringLiteral("--export-csv"), csv, QStringLiteral("--")}) +
                          child(z, "15") + QStringList{QStringLiteral(":::")} + child(z, "18"));
        QVERIFY2(r.code == 0, r.err.constData());
        const json low = readJson(out + QStringLiteral("/low.json"));
        const json high = readJson(out + QStringLiteral("/high.json"));
        const json cmp = readJson(out + QStringLiteral("/comparison.json"));
        // Each record is a single-child record: its own argv, its measured rounds; the warm-up
        // block's round is kept aside.
        QCOMPARE(low.at("rounds").size(), std::size_t(6));
        QCOMPARE(high.at("rounds").size(), std::size_t(6));
        QCOMPARE(low.at("warmup_rounds").size(), std::size_t(1));
        QCOMPARE(low.at("child").back().get<std::string>(), std::string("15"));
        QCOMPARE(high.at("child").back().get<std::string>(), std::string("18"));
        QCOMPARE(low.at("status").get<std::string>(), std::string("complete"));
        // Each child's median energy per decode within 1 % of the median of its rounds' truths.
        const double lowJ = cmp.at("children")[0].at("median_j_per_decode").get<double>();
        const double highJ = cmp.at("children")[1].at("median_j_per_decode").get<double>();
        const double lowTruth = medianTruthPerDecode(low), highTruth = medianTruthPerDecode(high);
        qInfo("low %+.2f %%, high %+.2f %% from the truth", 100 * (lowJ / lowTruth - 1), 100 * (highJ / highTruth - 1));
        QVERIFY2(std::fabs(lowJ / lowTruth - 1) < 0.01, std::to_string(lowJ / lowTruth).c_str());
        QVERIFY2(std::fabs(highJ / highTruth - 1) < 0.01, std::to_string(highJ / highTruth).c_str());
        // The ratio is the true one (about 18 / 15, as the rounds ran) within 1 %; its 95 %
        // interval covers it (each edge held to the truth within the same 1 %: six blocks give a
        // coarse bootstrap) and excludes "no difference".
        const json& e = cmp.at("pairs")[0].at("energy");
        QCOMPARE(cmp.at("baseline").get<std::string>(), std::string("low"));
        QCOMPARE(e.at("blocks").get<int>(), 6);
        const double truth = highTruth / lowTruth;
        qInfo("ratio %+.2f %% from the truth, interval [%.4f, %.4f] for %.4f", 100 * (e.at("ratio").get<double>() / truth - 1),
              e.at("ratio_ci95")[0].get<double>(), e.at("ratio_ci95")[1].get<double>(), truth);
        QVERIFY2(std::fabs(e.at("ratio").get<double>() / truth - 1) < 0.01, e.dump().c_str());
        QVERIFY2(e.at("ratio_ci95")[0].get<double>() <= truth * 1.01 && e.at("ratio_ci95")[1].get<double>() >= truth * 0.99,
                 e.dump().c_str());
        QVERIFY2(e.at("ratio_ci95")[0].get<double>() > 1.1, e.dump().c_str());
        QVERIFY(e.at("significant").get<bool>());
        // The order is balanced: of the 6 measured blocks, each child ran first in 3.
        QCOMPARE(cmp.at("order").size(), std::size_t(7));
        int lowFirst = 0;
        for (std::size_t b = 1; b < 7; ++b)
            lowFirst += cmp.at("order")[b][0] == "low";
        QCOMPARE(lowFirst, 3);
        // The table on stdout and in both exports.
        QVERIFY(r.out.contains("| high |"));
        QFile m(md), c(csv);
        QVERIFY(m.open(QIODevice::ReadOnly) && c.open(QIODevice::ReadOnly));
        QVERIFY(m.readAll().contains("| low |"));
        QVERIFY(c.readAll().startsWith("child,median_j_per_decode,energy_ratio"));
    }

    void parameterListExpandsOneCommand()
    {
        QTemporaryDir dir;
        Zone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
        const QString out = dir.filePath(QStringLiteral("out"));
        QStringList c = child(z, "{w}");
        const Run r = cli(measure(z, out,
                                  {QStringLiteral("--rounds"), QStringLiteral("2"), QStringLiteral("--parameter-list"),
                                   QStringLiteral("w"), QStringLiteral("10,20"), QStringLiteral("--baseline"),
                                   c.join(QLatin1Char(' ')).replace(QStringLiteral("{w}"), QStringLiteral("20")),
                                   QStringLiteral("--")}) +
                          c);
        QVERIFY2(r.code == 0, r.err.constData());
        const json cmp = readJson(out + QStringLiteral("/comparison.json"));
        QCOMPARE(cmp.at("children").size(), std::size_t(2));
        QVERIFY(cmp.at("baseline").get<std::string>().find("--busy-w 20") != std::string::npos);
        // 10 W against the 20 W baseline: about half the energy.
        const double ratio = cmp.at("pairs")[0].at("energy").at("ratio").get<double>();
        QVERIFY2(ratio > 0.4 && ratio < 0.6, std::to_string(ratio).c_str());
    }

    void aChildThatDiesEndsTheRunWithEveryRecord()
    {
        QTemporaryDir dir;
        Zone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run r = cli(measure(z, out, {QStringLiteral("--rounds"), QStringLiteral("3"), QStringLiteral("--name"),
                                           QStringLiteral("ok"), QStringLiteral("--name"), QStringLiteral("dies"),
                                           QStringLiteral("--")}) +
                          child(z, "15") + QStringList{QStringLiteral(":::")} +
                          child(z, "18", {QStringLiteral("--mode"), QStringLiteral("exit"), QStringLiteral("--fail-round"),
                                          QStringLiteral("2")}));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("child 2 (dies)"), r.err.constData());
        const json ok = readJson(out + QStringLiteral("/ok.json"));
        const json dies = readJson(out + QStringLiteral("/dies.json"));
        QCOMPARE(ok.at("status").get<std::string>(), std::string("aborted"));
        QCOMPARE(dies.at("status").get<std::string>(), std::string("aborted"));
        QVERIFY(ok.at("rounds").size() >= 1);
        QVERIFY(QFile::exists(out + QStringLiteral("/comparison.json")));
    }

    void keepGoingDropsTheChildThatDies()
    {
        // Three children; the second crashes in its second round. With --keep-going it is
        // dropped there and the two others run every block.
        QTemporaryDir dir;
        Zone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString md = dir.filePath(QStringLiteral("table.md"));
        const Run r = cli(measure(z, out,
                                  {QStringLiteral("--rounds"), QStringLiteral("4"), QStringLiteral("--keep-going"),
                                   QStringLiteral("--name"), QStringLiteral("ok"), QStringLiteral("--name"),
                                   QStringLiteral("dies"), QStringLiteral("--name"), QStringLiteral("other"),
                                   QStringLiteral("--export-markdown"), md, QStringLiteral("--")}) +
                          child(z, "15") + QStringList{QStringLiteral(":::")} +
                          child(z, "18", {QStringLiteral("--mode"), QStringLiteral("exit"), QStringLiteral("--fail-round"),
                                          QStringLiteral("2")}) +
                          QStringList{QStringLiteral(":::")} + child(z, "18"));
        QCOMPARE(r.code, 1);  // a record is aborted: the dropped child's
        QVERIFY2(r.err.contains("dies was dropped at block 2"), r.err.constData());
        QVERIFY2(!r.err.contains(": aborted:"), r.err.constData());
        const json ok = readJson(out + QStringLiteral("/ok.json"));
        const json dies = readJson(out + QStringLiteral("/dies.json"));
        const json other = readJson(out + QStringLiteral("/other.json"));
        // The survivors' records are complete; the dropped one keeps its round and says why.
        QCOMPARE(ok.at("status").get<std::string>(), std::string("complete"));
        QCOMPARE(other.at("status").get<std::string>(), std::string("complete"));
        QCOMPARE(ok.at("rounds").size(), std::size_t(4));
        QCOMPARE(other.at("rounds").size(), std::size_t(4));
        QCOMPARE(dies.at("status").get<std::string>(), std::string("aborted"));
        QCOMPARE(dies.at("rounds").size(), std::size_t(1));
        const std::string error = dies.at("error").get<std::string>();
        QVERIFY2(error.find("dropped at block 2 (--keep-going): child 2 (dies)") == 0, error.c_str());
        QVERIFY2(!ok.contains("error") || ok.at("error").is_null(), ok.dump().c_str());
        // The comparison marks it dropped and pairs each child over the blocks both measured.
        const json cmp = readJson(out + QStringLiteral("/comparison.json"));
        const json& d = cmp.at("children")[1];
        QCOMPARE(d.at("name").get<std::string>(), std::string("dies"));
        QCOMPARE(d.at("dropped").at("block").get<int>(), 2);
        QVERIFY2(d.at("dropped").at("reason").get<std::string>().find("child 2 (dies)") == 0, d.dump().c_str());
        QVERIFY(!cmp.at("children")[0].contains("dropped"));
        QVERIFY(!cmp.at("children")[2].contains("dropped"));
        QCOMPARE(cmp.at("pairs").size(), std::size_t(2));
        QCOMPARE(cmp.at("pairs")[0].at("name").get<std::string>(), std::string("dies"));
        QCOMPARE(cmp.at("pairs")[0].at("energy").at("blocks").get<int>(), 1);
        QCOMPARE(cmp.at("pairs")[1].at("name").get<std::string>(), std::string("other"));
        QCOMPARE(cmp.at("pairs")[1].at("energy").at("blocks").get<int>(), 4);
        QCOMPARE(cmp.at("pairs")[1].at("time").at("blocks").get<int>(), 4);
        // The survivors' ratio against the truth as their rounds ran (2 %: four blocks).
        const double ratio = cmp.at("pairs")[1].at("energy").at("ratio").get<double>();
        const double truth = medianTruthPerDecode(other) / medianTruthPerDecode(ok);
        qInfo("keep-going ratio %+.2f %% from the truth", 100 * (ratio / truth - 1));
        QVERIFY2(std::fabs(ratio / truth - 1) < 0.02, std::to_string(ratio / truth).c_str());
        // The order as run: all three in the first block, the survivors after.
        const json& order = cmp.at("order");
        QCOMPARE(order.size(), std::size_t(4));
        QCOMPARE(order[0].size(), std::size_t(3));
        for (std::size_t b = 1; b < 4; ++b) {
            QCOMPARE(order[b].size(), std::size_t(2));
            QVERIFY(order[b][0] != "dies" && order[b][1] != "dies");
        }
        QFile m(md);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY(m.readAll().contains("dies was dropped at block 2 (--keep-going)"));
    }

    void keepGoingDropsAChildThatTimesOut()
    {
        // The second child hangs in its first round: --round-timeout ends its round, --keep-going
        // drops it, and the first runs every block.
        QTemporaryDir dir;
        Zone z(dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run r = cli(measure(z, out, {QStringLiteral("--rounds"), QStringLiteral("3"), QStringLiteral("--keep-going"),
                                           QStringLiteral("--round-timeout"), QStringLiteral("2"), QStringLiteral("--name"),
                                           QStringLiteral("ok"), QStringLiteral("--name"), QStringLiteral("hangs"),
                                           QStringLiteral("--")}) +
                          child(z, "15") + QStringList{QStringLiteral(":::")} +
                          child(z, "18", {QStringLiteral("--mode"), QStringLiteral("hang"), QStringLiteral("--fail-round"),
                                          QStringLiteral("1")}));
        QCOMPARE(r.code, 1);
        const json ok = readJson(out + QStringLiteral("/ok.json"));
        const json hangs = readJson(out + QStringLiteral("/hangs.json"));
        QCOMPARE(ok.at("status").get<std::string>(), std::string("complete"));
        QCOMPARE(ok.at("rounds").size(), std::size_t(3));
        QCOMPARE(hangs.at("rounds").size(), std::size_t(0));
        QVERIFY2(hangs.at("error").get<std::string>().find("did not answer 'go 1' within") != std::string::npos,
                 hangs.dump().c_str());
        const json cmp = readJson(out + QStringLiteral("/comparison.json"));
        QCOMPARE(cmp.at("children")[1].at("dropped").at("block").get<int>(), 1);
        QCOMPARE(cmp.at("pairs")[0].at("energy").at("blocks").get<int>(), 0);
        // The survivor's rounds are whole: each has its busy window and both brackets.
        for (const json& round : ok.at("rounds"))
            QVERIFY2(round.at("decodes").get<int>() > 0, round.dump().c_str());
    }

    void interleavingRemovesTheBiasOfAWarmingChip()
    {
        // Two identical workloads (15 W busy) on a chip whose busy power grows 3% per second.
        // Run back to back, the second one costs more only because it ran later: `compare`
        // reports a difference that is not there. Interleaved, both see the same chip.
        const QStringList shape{QStringLiteral("--rounds"), QStringLiteral("6")};
        double backToBack = 0, interleaved = 0;
        RatioCi ci{0, 0};
        {
            QTemporaryDir dir;
            Zone z(dir.path(), "0.03");
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
            QStringList files;
            for (const char* name : {"first", "second"}) {
                const QString f = dir.filePath(QString::fromLatin1(name) + QStringLiteral(".json"));
                const Run r = cli(QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("rapl"),
                                              QStringLiteral("--rapl-zone"), z.dir, QStringLiteral("--sample-ms"),
                                              QStringLiteral("25"), QStringLiteral("--idle-s"), QStringLiteral("0.5"),
                                              QStringLiteral("--no-library"), QStringLiteral("--out"), f} +
                                  shape + QStringList{QStringLiteral("--")} + child(z, "15"));
                QVERIFY2(r.code == 0, r.err.constData());
                files << f;
            }
            const Run c = cli({QStringLiteral("compare"), files[1], files[0], QStringLiteral("--json")});
            QVERIFY2(c.code == 0, c.err.constData());
            const json cmp = json::parse(c.out.toStdString());
            backToBack = cmp.at("ratio").get<double>();
            QVERIFY2(cmp.at("ci95")[0].get<double>() > 1.02, cmp.dump().c_str());  // "significantly" dearer
        }
        {
            QTemporaryDir dir;
            Zone z(dir.path(), "0.03");
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(z.dir + QStringLiteral("/energy_uj")), 5000);
            const QString out = dir.filePath(QStringLiteral("out"));
            const Run r = cli(measure(z, out, shape + QStringList{QStringLiteral("--name"), QStringLiteral("first"),
                                                                 QStringLiteral("--name"), QStringLiteral("second"),
                                                                 QStringLiteral("--")}) +
                              child(z, "15") + QStringList{QStringLiteral(":::")} + child(z, "15"));
            QVERIFY2(r.code == 0, r.err.constData());
            const json e = readJson(out + QStringLiteral("/comparison.json")).at("pairs")[0].at("energy");
            interleaved = e.at("ratio").get<double>();
            ci = {e.at("ratio_ci95")[0].get<double>(), e.at("ratio_ci95")[1].get<double>()};
        }
        qInfo("warming chip, identical workloads: back to back %.4f, interleaved %.4f (95%% CI %.4f - %.4f)",
              backToBack, interleaved, ci.low, ci.high);
        // About 18% over the ~13 s between the two runs' middles; interleaved, the truth (1) is
        // inside the interval and the estimate is at most half as far from it.
        QVERIFY2(backToBack > 1.1, std::to_string(backToBack).c_str());
        QVERIFY2(ci.low <= 1.0 && 1.0 <= ci.high, std::to_string(interleaved).c_str());
        QVERIFY2(std::fabs(interleaved - 1.0) < (backToBack - 1.0) / 2, std::to_string(interleaved).c_str());
    }

    void badUsageIsExitTwoWithAMessage()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        struct Case {
            QStringList args;
            const char* says;
        };
        const QString fc = testBin("fakechild");
        const std::vector<Case> cases{
            {{QStringLiteral("--"), fc, QStringLiteral(":::")}, "nothing comes after the last one"},
            {{QStringLiteral("--"), QStringLiteral(":::"), fc}, "nothing comes before the first one"},
            {{QStringLiteral("--parameter-scan"), QStringLiteral("q"), QStringLiteral("1"), QStringLiteral("--"), fc},
             "--parameter-scan takes NAME MIN MAX"},
            {{QStringLiteral("--parameter-list"), QStringLiteral("q"), QStringLiteral("1,,2"), QStringLiteral("--"), fc,
              QStringLiteral("{q}")},
             "value 2 is empty"},
            {{QStringLiteral("--parameter-list"), QStringLiteral("q"), QStringLiteral("1,2"), QStringLiteral("--"), fc},
             "no child's command line uses {q}"},
            {{QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--"), fc}, "--warmup is for several children"},
            {{QStringLiteral("--keep-going"), QStringLiteral("--"), fc}, "--keep-going is for several children"},
            {{QStringLiteral("--baseline"), QStringLiteral("nope"), QStringLiteral("--"), fc, QStringLiteral(":::"), fc,
              QStringLiteral("x")},
             "no child has that name"},
            {{QStringLiteral("--parameter-step"), QStringLiteral("2"), QStringLiteral("--"), fc},
             "--parameter-step goes with --parameter-scan"},
        };
        for (const Case& c : cases) {
            const Run r = cli(QStringList{QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("sim"),
                                          QStringLiteral("--out-dir"), out} +
                              c.args);
            QVERIFY2(r.code == 2, (c.args.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::fromUtf8(r.err))
                                      .toUtf8()
                                      .constData());
            QVERIFY2(r.err.contains(c.says), r.err.constData());
        }
        // Several children need somewhere to put their records.
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--counter"), QStringLiteral("sim"), QStringLiteral("--"),
                           fc, QStringLiteral(":::"), fc, QStringLiteral("x")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("give --out-dir DIR"));
    }
};

QTEST_GUILESS_MAIN(TestCliInterleaved)
#include "tst_cli_interleaved.moc"
