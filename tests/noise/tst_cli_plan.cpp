// `joulebench-cli plan` as a user runs it: on the reference record, on a JouleBench record
// with samples, on a simulated record whose truth is known (the CLI's plan is the library's),
// from typed figures, and with bad flags (exit 2, the flag named).
#include <jb/counters/CounterProfile.h>
#include <jb/noise/Planner.h>
#include <jb/noise/RecordNoise.h>
#include <jb/noise/SimRun.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/Paired.h>

#include "../RunProgram.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace jb;

using Run = jbtest::Ran;

namespace {

Run cli(const QStringList& args)
{
    return jbtest::runProgram(QStringLiteral(JB_BIN_DIR "/joulebench-cli"), QStringList{QStringLiteral("plan")} + args);
}

QString reference()
{
    return QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json");
}

nlohmann::json parse(const QString& s)
{
    return nlohmann::json::parse(s.toStdString(), nullptr, false);
}

}  // namespace

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
    void referenceRecordText()
    {
        const Run r = cli({reference()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("counter rapl")));
        QVERIFY(r.out.contains(QStringLiteral("from the stored bracket figures")));  // no samples there
        QVERIFY(r.out.contains(QStringLiteral("clean")));
        QVERIFY(r.out.contains(QStringLiteral("run it with   --idle-s ")));
        QVERIFY(r.out.contains(QStringLiteral("--counter rapl")));
    }

    // A record whose counter profile samples (25 ms sensed of every 100 ms, as the H200's energy
    // counter): plan asks for rounds of at least 10 updates and says how many rounds reach +-10%.
    void aSamplingCountersProfileSizesThePlan()
    {
        CounterProfile prof = defaultProfile(std::string("nvml:0"));
        prof.spec = "sim";
        prof.measured = true;
        prof.host = "testhost";
        QTemporaryDir dir;
        auto write = [&](const Record& rec, const QString& name) {
            const QString path = dir.filePath(name);
            QFile f(path);
            if (f.open(QIODevice::WriteOnly))
                f.write(QByteArray::fromStdString(dumpRecord(rec)));
            return path;
        };
        SimRunSpec spec;
        spec.noise_sd_w = 0.25;
        spec.marginal_w = 5.0;
        spec.idle_s = 2.0;
        spec.busy_s = 0.3;  // 3 updates of the counter: too short
        spec.k = 1;
        spec.rounds = 5;
        Record shortRounds = simulateRun(spec);
        shortRounds.extra["counter_profiles"]["sim"] = prof.toJson();
        const Run c = cli({write(shortRounds, QStringLiteral("short.json")), QStringLiteral("--json")});
        QCOMPARE(c.code, 1);  // no plan from this record: the counter's needs instead
        const auto cj = parse(c.out);
        QVERIFY2(!cj.is_discarded(), qPrintable(c.out));
        QCOMPARE(cj["coarse_counter"]["cadence_from"].get<std::string>(), std::string("profile"));
        QVERIFY(cj["plan"]["busy_s"].get<double>() >= 1.0 - 1e-9);  // 10 updates of 100 ms
        QVERIFY(cj["sampling"]["rounds_for_10_percent"].get<int>() >= 1);
        const Run ct = cli({dir.filePath(QStringLiteral("short.json"))});
        QVERIFY2(ct.out.contains(QStringLiteral("sim samples (it senses about 25% of each 100 ms period)")),
                 qPrintable(ct.out));
        QVERIFY2(ct.out.contains(QStringLiteral("as recorded   sim samples")), qPrintable(ct.out));
        QVERIFY2(ct.out.contains(QStringLiteral(" +-10% at 95%")), qPrintable(ct.out));

        // Long enough rounds: a plan, whose busy windows hold at least 10 updates.
        spec.busy_s = 1.5;
        Record longRounds = simulateRun(spec);
        longRounds.extra["counter_profiles"]["sim"] = prof.toJson();
        const Run l = cli({write(longRounds, QStringLiteral("long.json")), QStringLiteral("--target"),
                           QStringLiteral("noisy"), QStringLiteral("--json")});
        QVERIFY2(l.code == 0, qPrintable(l.err + l.out));
        const auto lj = parse(l.out);
        QCOMPARE(lj["profile"]["min_busy_s"].get<double>(), 1.0);
        QVERIFY(lj["plan"]["busy_s"].get<double>() >= 1.0 - 1e-9);
        QVERIFY(lj["plan"]["sampling"]["rel_sd"].is_number());
    }

    void simulatedRecordMatchesTheLibrary()
    {
        // A record with samples whose truth is known, written as a file: the CLI's figures are
        // the library's, and its plan reaches relative-only from 1 W over 0.25 W noise.
        SimRunSpec spec;
        spec.noise_sd_w = 0.25;
        spec.marginal_w = 1.0;
        spec.idle_s = 2.0;
        spec.busy_s = 0.9;
        spec.k = 3;
        spec.rounds = 5;
        spec.seed = 4;
        const Record rec = simulateRun(spec);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sim.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(dumpRecord(rec)));
        }
        const Run r = cli({path, QStringLiteral("--target"), QStringLiteral("relative-only"), QStringLiteral("--confidence"),
                           QStringLiteral("0.95"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        const auto j = parse(r.out);
        QVERIFY(!j.is_discarded());

        auto loaded = loadRecord(path.toStdString());
        QVERIFY(loaded.ok());
        const auto noise = recordNoise(*loaded);
        QVERIFY(noise.ok());
        PlanInputs in = planInputsFrom(*noise, *loaded);
        in.target = jb::Verdict::RelativeOnly;
        in.confidence = 0.95;
        const PlanOutcome o = planRun(in);
        QVERIFY(o.reachable);

        QCOMPARE(QString::fromStdString(j["source"]["idle_from"].get<std::string>()), QStringLiteral("samples"));
        QCOMPARE(j["source"]["idle_brackets"].get<int>(), 6);
        QCOMPARE(j["inputs"]["idle_sd_w"].get<double>(), noise->idle_sd_w);
        QCOMPARE(j["inputs"]["marginal_w"].get<double>(), *noise->marginal_w);
        QCOMPARE(j["inputs"]["busy_s_per_k"].get<double>(), 0.3);
        const auto& plan = j["plan"];
        QVERIFY(plan["reachable"].get<bool>());
        QCOMPARE(plan["idle_intervals"].get<int>(), o.idle_intervals);
        QCOMPARE(plan["k"].get<int>(), o.k);
        QCOMPARE(plan["rounds"].get<int>(), o.rounds);
        QCOMPARE(plan["total_s"].get<double>(), o.total_s);
        QVERIFY(plan["round_probability"].get<double>() >= 0.95);
        QVERIFY(!j["idle_allan"].empty());
        QCOMPARE(j["resolution"]["rows"].size(), std::size_t(3));
        QCOMPARE(j["resolution"]["rows"][1]["min_marginal_w"].get<double>(), 3.0 * noise->idle_sd_w);
    }

    void idleOnlyRecordNeedsTheSignalTyped()
    {
        // A record of idle brackets only (no rounds): its noise, but no marginal power and no
        // busy window; the CLI asks for them by flag, then plans.
        SimRunSpec spec;
        spec.rounds = 0;
        spec.idle_s = 10.0;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("idle.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(dumpRecord(simulateRun(spec))));
        }
        Run r = cli({path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no round has a marginal figure for 'sim': give --marginal-w")), qPrintable(r.err));
        r = cli({path, QStringLiteral("--marginal-w"), QStringLiteral("3")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("give --busy-s-per-k")), qPrintable(r.err));
        r = cli({path, QStringLiteral("--marginal-w"), QStringLiteral("3"), QStringLiteral("--busy-s-per-k"), QStringLiteral("0.5")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("pooled over 1 bracket (")));
        QVERIFY(r.out.contains(QStringLiteral("marginal    3 W (given)")));
    }

    void typedFigures()
    {
        const Run r = cli({QStringLiteral("--idle-sd-w"), QStringLiteral("0.15"), QStringLiteral("--marginal-w"), QStringLiteral("2"),
                           QStringLiteral("--busy-s-per-k"), QStringLiteral("0.4"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = parse(r.out);
        QVERIFY(j["source"].is_null());
        QVERIFY(j["plan"]["reachable"].get<bool>());
        QVERIFY(j["plan"]["round_probability"].get<double>() >= 0.9);
        QCOMPARE(j["inputs"]["period_s"].get<double>(), 0.1);
    }

    void unreachableExitsOne()
    {
        const QStringList typed{QStringLiteral("--idle-sd-w"), QStringLiteral("0.2"), QStringLiteral("--marginal-w"),
                                QStringLiteral("1.9"), QStringLiteral("--busy-s-per-k"), QStringLiteral("0.4")};
        Run r = cli(typed);
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.contains(QStringLiteral("unreachable")));
        QVERIFY(r.out.contains(QStringLiteral("idle sd below 0.19 W")));
        r = cli(typed + QStringList{QStringLiteral("--json")});
        QCOMPARE(r.code, 1);
        const auto j = parse(r.out);
        QVERIFY(!j["plan"]["reachable"].get<bool>());
        QCOMPARE(j["plan"]["needed_marginal_w"].get<double>(), 2.0);
    }

    void resolveRatioSaysHowManyBlocks()
    {
        // The comparative question: the blocks follow from the plan's own per-round spread.
        const Run r = cli({reference(), QStringLiteral("--target"), QStringLiteral("relative-only"),
                           QStringLiteral("--resolve-ratio"), QStringLiteral("0.002"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = parse(r.out);
        QVERIFY(j.contains("compare") && j["compare"].is_object());
        const double cv = j["compare"]["rel_sd_per_round"].get<double>();
        QCOMPARE(cv, j["plan"]["rel_sd_per_round"].get<double>());
        const auto want = blocksToResolve(cv, 0.002);
        QVERIFY(want);
        QCOMPARE(j["compare"]["blocks"].get<int>(), want->blocks);
        // A 0.2% difference on a 0.8% spread needs far more than the floor of 6.
        QVERIFY(j["compare"]["blocks"].get<int>() > 6);
        // Text: the sentence with the count.
        const Run t = cli({reference(), QStringLiteral("--resolve-ratio"), QStringLiteral("0.05")});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("compare     a 5% difference")), qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral("6 interleaved blocks")));
        const Run bad = cli({reference(), QStringLiteral("--resolve-ratio"), QStringLiteral("0")});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains(QStringLiteral("--resolve-ratio takes a number > 0")));
    }

    void badFlags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString ref = reference();
        QTest::newRow("target") << QStringList{ref, QStringLiteral("--target"), QStringLiteral("great")}
                                << QStringLiteral("--target takes clean, relative-only or noisy, not 'great'");
        QTest::newRow("confidence text") << QStringList{ref, QStringLiteral("--confidence"), QStringLiteral("high")}
                                         << QStringLiteral("--confidence takes a number");
        QTest::newRow("confidence 1") << QStringList{ref, QStringLiteral("--confidence"), QStringLiteral("1")}
                                      << QStringLiteral("--confidence must be below 1");
        QTest::newRow("confidence 0.3") << QStringList{ref, QStringLiteral("--confidence"), QStringLiteral("0.3")}
                                        << QStringLiteral("--confidence takes a number > 0.5");
        QTest::newRow("negative marginal") << QStringList{ref, QStringLiteral("--marginal-w"), QStringLiteral("-2")}
                                           << QStringLiteral("--marginal-w takes a number >= 0");
        QTest::newRow("min rounds") << QStringList{ref, QStringLiteral("--min-rounds"), QStringLiteral("0")}
                                    << QStringLiteral("--min-rounds takes an integer from 1");
        QTest::newRow("unknown flag") << QStringList{ref, QStringLiteral("--rounds"), QStringLiteral("3")}
                                      << QStringLiteral("Unknown option 'rounds'");
        QTest::newRow("no record") << QStringList{QStringLiteral("--marginal-w"), QStringLiteral("3")}
                                   << QStringLiteral("give a RECORD, or all of --idle-sd-w, --marginal-w and --busy-s-per-k");
        QTest::newRow("two records") << QStringList{ref, ref} << QStringLiteral("takes one record");
        QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/r.json")} << QStringLiteral("/nonexistent/r.json");
        QTest::newRow("unknown counter") << QStringList{ref, QStringLiteral("--counter"), QStringLiteral("nvml:0")}
                                         << QStringLiteral("the record has no counter 'nvml:0' (it has: rapl)");
        QTest::newRow("counter without record")
            << QStringList{QStringLiteral("--idle-sd-w"), QStringLiteral("0.1"), QStringLiteral("--marginal-w"), QStringLiteral("1"),
                           QStringLiteral("--busy-s-per-k"), QStringLiteral("1"), QStringLiteral("--counter"), QStringLiteral("rapl")}
            << QStringLiteral("--counter picks a record's counter");
    }
    void badFlags()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.err.startsWith(QStringLiteral("joulebench-cli plan: ")));
        QVERIFY(r.out.isEmpty());
    }

    void brokenRecordNamesWhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"rounds\": [");
        f.close();
        const Run r = cli({path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(path), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"
