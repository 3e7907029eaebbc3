// `joulebench-cli summary` and `plan` on a record from a coarse counter: a fake powercap zone
// whose energy_uj advances only every 400 ms, measured by JouleBench every 100 ms (the record
// as JouleBench writes it, and the same record cut down to the reference harness's keys). Both
// commands name the coarse counter in the Inspector's words (jb::coarseCounter), and plan
// recommends sampling no faster than the counter updates instead of a quieter machine. Records
// from fine counters get no such message.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "CliTestKit.h"

#include <jb/record/RecordJson.h>
#include <jb/stats/CounterResolution.h>

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace {

using namespace jbclitest;
using ojson = nlohmann::ordered_json;

// The reference harness's keys (tests/fixtures/reference): a record cut down to them is one
// the harness could have written.
const std::set<std::string> kReferenceKeys = {"label", "meta", "rounds", "jobs", "k", "counters",
                                              "idle_s", "sample_s", "host", "child"};
const std::set<std::string> kReferenceRoundKeys = {"load_avg_before", "decodes", "child_wall_ns", "window_ns",
                                                   "child_note", "load_avg_after"};

bool writeReferenceCut(const QString& from, const QString& to)
{
    std::ifstream in(from.toStdString());
    ojson j = ojson::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return false;
    ojson cut;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (kReferenceKeys.count(it.key()))
            cut[it.key()] = it.value();
    ojson host;  // the reference's host keys (JouleBench adds the hostname)
    for (const char* k : {"system", "machine", "node_cpu"})
        if (cut["host"].contains(k))
            host[k] = cut["host"][k];
    cut["host"] = host;
    std::set<std::string> counters;
    for (const auto& c : cut["counters"])
        counters.insert(c.get<std::string>());
    for (auto& round : cut["rounds"]) {
        ojson r;
        for (auto it = round.begin(); it != round.end(); ++it)
            if (kReferenceRoundKeys.count(it.key()) || counters.count(it.key()))
                r[it.key()] = it.value();
        round = r;
    }
    std::ofstream(to.toStdString()) << cut.dump(1) << "\n";
    return true;
}

// The number after "--sample-ms " in plan's "run it with" line; -1 where there is none.
double runItWithSampleMs(const QString& out)
{
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("run it with .*--sample-ms ([0-9.]+)")).match(out);
    return m.hasMatch() ? m.captured(1).toDouble() : -1.0;
}

}  // namespace

class TestCliCoarse : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString full_, cut_;

    QString fileFor(const QString& which) const
    {
        if (which == QStringLiteral("fixture"))
            return QStringLiteral(JB_FIXTURES "/records/coarse-400ms-reference.json");
        return which == QStringLiteral("full") ? full_ : cut_;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const QString zone = dir_.filePath(QStringLiteral("intel-rapl:0")), flag = dir_.filePath(QStringLiteral("busy.flag"));
        QDir().mkpath(zone);
        QProcess fz;
        fz.start(testBin("fakezone"), {zone, QStringLiteral("--idle-w"), QStringLiteral("20"), QStringLiteral("--busy-w"),
                                       QStringLiteral("15"), QStringLiteral("--flag"), flag, QStringLiteral("--tick-ms"),
                                       QStringLiteral("400"), QStringLiteral("--seconds"), QStringLiteral("120")});
        QVERIFY(fz.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(zone + QStringLiteral("/energy_uj")), 5000);
        // JB_KEEP_COARSE_RECORDS=DIR keeps both records there (how tests/fixtures/records/
        // coarse-400ms-reference.json was made).
        const QString keep = qEnvironmentVariable("JB_KEEP_COARSE_RECORDS");
        const QDir to(keep.isEmpty() ? dir_.path() : keep);
        full_ = to.filePath(QStringLiteral("coarse-400ms-joulebench.json"));
        // Busy windows of 0.8 s: two updates of a 400 ms counter each. Idle brackets of 1.3 s, so
        // a round (about 2.1 s) is no whole number of counter updates and the rounds see it at
        // different phases.
        const Run r = cli({QStringLiteral("measure"), QStringLiteral("--label"), QStringLiteral("coarse"),
                           QStringLiteral("--rounds"), QStringLiteral("3"), QStringLiteral("--k"), QStringLiteral("1"),
                           QStringLiteral("--idle-s"), QStringLiteral("1.3"), QStringLiteral("--sample-ms"),
                           QStringLiteral("100"), QStringLiteral("--counter"), QStringLiteral("rapl"),
                           QStringLiteral("--rapl-zone"), zone, QStringLiteral("--out"), full_,
                           QStringLiteral("--no-library"), QStringLiteral("--"), testBin("fakechild"),
                           QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("4"),
                           QStringLiteral("--job-ms"), QStringLiteral("200"), QStringLiteral("--flag"), flag,
                           QStringLiteral("--busy-w"), QStringLiteral("15")});
        fz.kill();
        fz.waitForFinished();
        QVERIFY2(r.code == 0, r.err.constData());
        cut_ = to.filePath(QStringLiteral("coarse-400ms-reference.json"));
        QVERIFY(writeReferenceCut(full_, cut_));
        // The cut record really has no cadence figure: the brackets alone must tell.
        const auto rec = jb::loadRecord(cut_.toStdString());
        QVERIFY2(bool(rec), rec ? "" : rec.error().c_str());
        QVERIFY(rec->sampler.empty() && rec->counter_info.empty() && !rec->tool);
    }

    void summaryNamesTheCoarseCounter_data()
    {
        QTest::addColumn<QString>("which");
        QTest::newRow("JouleBench record") << QStringLiteral("full");
        QTest::newRow("reference keys only") << QStringLiteral("cut");
        QTest::newRow("committed fixture") << QStringLiteral("fixture");
    }
    void summaryNamesTheCoarseCounter()
    {
        QFETCH(QString, which);
        const QString file = fileFor(which);
        const Run r = cli({QStringLiteral("summary"), file});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        // Core's sentence, the one the Inspector's banner shows, printed as it is.
        const auto rec = jb::loadRecord(file.toStdString());
        QVERIFY(bool(rec));
        const jb::CoarseCounter c = jb::coarseCounter(*rec, "rapl");
        QVERIFY(c.coarse());
        QCOMPARE(c.coarse_rounds, 3);
        QVERIFY2(out.contains(file + QStringLiteral(": ") + QString::fromStdString(c.text())), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("Coarse counter (rapl): in 3 of 3 rounds the busy window saw fewer than 10 "
                                             "counter updates (coarse counter: ")),
                 qPrintable(out));
    }

    void planRecommendsTheCountersCadence_data()
    {
        summaryNamesTheCoarseCounter_data();
    }
    void planRecommendsTheCountersCadence()
    {
        QFETCH(QString, which);
        const QString file = fileFor(which);
        const Run r = cli({QStringLiteral("plan"), file});
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(r.code == 1, qPrintable(out + QString::fromUtf8(r.err)));
        QVERIFY2(out.contains(QStringLiteral("counter     Coarse counter (rapl): in 3 of 3 rounds")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("the idle sd is its quantisation, not the machine's noise")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("quieter")), qPrintable(out));
        const double sampleMs = runItWithSampleMs(out);
        QVERIFY2(sampleMs >= 400, qPrintable(out));

        const Run j = cli({QStringLiteral("plan"), QStringLiteral("--json"), file});
        QCOMPARE(j.code, 1);
        const ojson doc = ojson::parse(j.out.toStdString(), nullptr, false);
        QVERIFY2(!doc.is_discarded(), j.out.constData());
        const ojson& cc = doc["coarse_counter"];
        QCOMPARE(QString::fromStdString(cc["counter"].get<std::string>()), QStringLiteral("rapl"));
        // JouleBench's record carries the counter's measured cadence; the reference's only brackets.
        const QString from = QString::fromStdString(cc["cadence_from"].get<std::string>());
        if (which == QStringLiteral("full"))
            QVERIFY2(from == QStringLiteral("counter_info") || from == QStringLiteral("sampler"), qPrintable(from));
        else
            QCOMPARE(from, QStringLiteral("brackets"));
        const double cadence = cc["update_cadence_ms"].get<double>();
        // The brackets alone tell it to about an update each: near 400 ms, not at it.
        QVERIFY2(cadence > 300 && cadence < 700, j.out.constData());
        const ojson& plan = doc["plan"];
        QVERIFY(!plan["reachable"].get<bool>());
        QVERIFY2(plan["suggested_sample_s"].get<double>() >= 0.4 - 1e-9, j.out.constData());
        QVERIFY2(plan["suggested_sample_s"].get<double>() * 1e3 >= 0.99 * cadence, j.out.constData());
        QCOMPARE(plan["suggested_sample_s"].get<double>() * 1e3, sampleMs);
        // Rounds matched to the cadence: ten updates in every busy window and idle bracket.
        QVERIFY2(plan["busy_s"].get<double>() >= 10 * cadence / 1e3 - 1e-9, j.out.constData());
        QVERIFY2(plan["idle_s"].get<double>() >= 10 * cadence / 1e3 - 1e-9, j.out.constData());
        QVERIFY(plan["k"].get<int>() >= 5);
    }

    void fineCountersGetNoCoarseMessage_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("reference record") << QStringLiteral(JB_REFERENCE_DIR "/reference-record-rapl.json");
        QTest::newRow("JouleBench record") << QStringLiteral(JB_FIXTURES "/records/joulebench-rapl.json");
    }
    void fineCountersGetNoCoarseMessage()
    {
        QFETCH(QString, file);
        const auto rec = jb::loadRecord(file.toStdString());
        QVERIFY(bool(rec));
        QVERIFY(!jb::coarseCounter(*rec, "rapl").coarse());
        const Run s = cli({QStringLiteral("summary"), file});
        QCOMPARE(s.code, 0);
        QVERIFY(s.out.contains("rapl"));
        QVERIFY2(!s.out.contains("oarse"), s.out.constData());
        const Run p = cli({QStringLiteral("plan"), file});
        QVERIFY2(p.code == 0, p.out.constData());
        QVERIFY(p.out.contains("run it with"));
        QVERIFY2(!p.out.contains("oarse") && !p.out.contains("quantisation"), p.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCoarse)
#include "tst_cli_coarse.moc"
