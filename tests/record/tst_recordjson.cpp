// The record's JSON both ways: the reference's golden record reads and writes back as the
// same bytes, JouleBench's additions are new keys only, and every broken file gets a message
// that says what and where.
#include "SyntheticRecord.h"
#include <jb/record/RecordJson.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace jb;

namespace {

const std::string kGolden = std::string(JB_REFERENCE_DIR) + "/reference-record-rapl.json";
const std::string kJbFixture = std::string(JB_FIXTURES) + "/records/joulebench-rapl.json";
const std::string kBroken = std::string(JB_FIXTURES) + "/records/broken/";

std::string slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string> keysOf(const ojson& o)
{
    std::vector<std::string> k;
    for (const auto& [key, _] : o.items())
        k.push_back(key);
    return k;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QStringList qlist(const std::vector<std::string>& v)
{
    QStringList l;
    for (const auto& s : v)
        l << q(s);
    return l;
}

}  // namespace

class TestRecordJson : public QObject {
    Q_OBJECT
private slots:
    void goldenLoads()
    {
        const Result<Record> r = loadRecord(kGolden);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->label.value_or(""), std::string("reference"));
        QCOMPARE(r->rounds.size(), std::size_t(3));
        QCOMPARE(r->jobs, 4);
        QCOMPARE(r->k, 2);
        QCOMPARE(r->idle_s, 1.0);
        QCOMPARE(r->sample_s, 0.1);
        QCOMPARE(r->counters, std::vector<std::string>{"rapl"});
        QCOMPARE(r->host.node_cpu, 2);
        QCOMPARE(r->child.size(), std::size_t(11));
        QCOMPARE(r->rounds[0].child_note.value_or(""), std::string("truth_nj=12003648465"));
        const CounterRound* c = r->rounds[2].counter("rapl");
        QVERIFY(c);
        QVERIFY(c->has_marginal);
        QCOMPARE(c->window_nj, 30049494000);
        QCOMPARE(c->busy->intervals, 7);
        QCOMPARE(c->idle_after->sd_w, 0.0810437317991332);
        QCOMPARE(c->ratio.value_or(0), 147.5658417896396);
        QVERIFY(c->verdict == Verdict::Clean);
        QVERIFY(!r->tool && !r->status && r->samples.empty() && r->extra.empty());
    }

    void goldenRoundTripsAsValueKeysAndBytes()
    {
        const std::string text = slurp(kGolden);
        const ojson golden = ojson::parse(text);
        const Result<Record> r = parseRecord(text);
        QVERIFY(r.ok());
        const ojson back = toJson(*r);
        QVERIFY(back == golden);
        // Value equality ignores key order and 1 versus 1.0; the one-line dumps do not.
        QCOMPARE(dumpJson(back, -1), dumpJson(golden, -1));
        QCOMPARE(keysOf(back), keysOf(golden));
        QCOMPARE(keysOf(back["rounds"][0]), keysOf(golden["rounds"][0]));
        QCOMPARE(keysOf(back["rounds"][0]["rapl"]), keysOf(golden["rounds"][0]["rapl"]));
        QCOMPARE(dumpRecord(*r), text);  // json.dump(indent=1) + print()
    }

    void jouleBenchKeysAreNewKeysAfterTheReferenceOnes()
    {
        const ojson j = toJson(jbtest::syntheticRecord(2));
        const std::vector<std::string> expected{
            "label", "meta", "rounds", "jobs",         "k",       "counters", "idle_s", "sample_s", "host",
            "child", "tool", "status", "counter_info", "sampler", "summary",  "samples"};
        QCOMPARE(qlist(keysOf(j)), qlist(expected));
        QCOMPARE(qlist(keysOf(j["rounds"][0])),
                 qlist({"load_avg_before", "decodes", "child_wall_ns", "window_ns", "child_note",
                        "load_avg_after", "rapl", "window", "brackets"}));
        QCOMPARE(qlist(keysOf(j["rounds"][1])),
                 qlist({"load_avg_before", "decodes", "child_wall_ns", "window_ns", "load_avg_after", "rapl",
                        "window", "brackets"}));
        QCOMPARE(qlist(keysOf(j["rounds"][0]["rapl"])),
                 qlist({"busy", "idle_before", "idle_after", "window_nj", "covered_ns", "marginal_nj",
                        "ratio", "verdict"}));
        QCOMPARE(qlist(keysOf(j["sampler"]["rapl"])),
                 qlist({"period_s", "intervals", "lateness_p50_ns", "lateness_p99_ns", "lateness_max_ns",
                        "missed_deadlines", "read_errors", "update_cadence_ms"}));
        QCOMPARE(qlist(keysOf(j["summary"]["rapl"])),
                 qlist({"rounds", "verdicts", "median_j_per_decode", "min_j_per_decode", "max_j_per_decode",
                        "outlier_rounds"}));
        QCOMPARE(qlist(keysOf(j["summary"]["rapl"]["verdicts"])),
                 qlist({"clean", "relative-only", "noisy", "unusable", "none"}));
        QCOMPARE(qlist(keysOf(j["samples"]["rapl"])), qlist({"t0_ns", "t1_ns", "nj"}));
        QCOMPARE(j["tool"]["name"].get<std::string>(), std::string("joulebench"));
        QVERIFY(j["rounds"][0]["window"].is_array() && j["rounds"][0]["window"].size() == 2);
        QVERIFY(j["rounds"][0]["brackets"][1].size() == 2);
    }

    void typesAreTheReferences()
    {
        Record r = jbtest::syntheticRecord(1);
        r.label.reset();
        r.idle_s = 5.0;  // a whole number still written as a float
        r.error = "stopped";
        r.sampler[0].second.last_error = "read failed";
        r.sampler[0].second.update_cadence_ms.reset();
        Round& round = r.rounds[0];
        round.task = ojson{{"cpu_ns", 123}};
        round.gpu_time = GpuTime{5, 10, 0.5, {42}};
        CounterRound& c = round.counters[0].second;
        c.ratio.reset();
        c.verdict.reset();
        Round bare = round;
        bare.counters[0].second = CounterRound{};  // brackets under 2 intervals: null, no marginal
        bare.counters[0].second.window_nj = 10;
        r.rounds.push_back(bare);
        const ojson j = toJson(r);
        QVERIFY(j["label"].is_null());
        QVERIFY(j["idle_s"].is_number_float());
        QCOMPARE(dumpJson(j["idle_s"]), std::string("5.0"));
        QVERIFY(j["sample_s"].is_number_float());
        QVERIFY(j["jobs"].is_number_integer() && j["k"].is_number_integer());
        QCOMPARE(j["error"].get<std::string>(), std::string("stopped"));
        QCOMPARE(j["sampler"]["rapl"]["last_error"].get<std::string>(), std::string("read failed"));
        QVERIFY(j["sampler"]["rapl"]["update_cadence_ms"].is_null());
        const ojson& r0 = j["rounds"][0];
        QVERIFY(r0["decodes"].is_number_integer());
        QVERIFY(r0["load_avg_before"][0].is_number_float());
        QVERIFY(r0["rapl"]["window_nj"].is_number_integer());
        QVERIFY(r0["rapl"]["marginal_nj"].is_number_float());
        QVERIFY(r0["rapl"]["ratio"].is_null());
        QVERIFY(r0["rapl"]["verdict"].is_null());
        QVERIFY(r0["rapl"]["busy"]["mean_w"].is_number_float());
        QVERIFY(r0["rapl"]["busy"]["intervals"].is_number_integer());
        QCOMPARE(qlist(keysOf(r0)),
                 qlist({"load_avg_before", "decodes", "child_wall_ns", "window_ns", "child_note", "task",
                        "gpu_time", "load_avg_after", "rapl", "window", "brackets"}));
        QCOMPARE(qlist(keysOf(r0["gpu_time"])), qlist({"child_ns", "all_clients_ns", "share", "vanished"}));
        const ojson& r1 = j["rounds"][1];
        QVERIFY(r1["rapl"]["busy"].is_null());
        QVERIFY(r1["rapl"]["idle_before"].is_null());
        QVERIFY(!r1["rapl"].contains("marginal_nj") && !r1["rapl"].contains("ratio") &&
                !r1["rapl"].contains("verdict"));
        // And all of it reads back to the same JSON.
        const Result<Record> back = parseRecord(dumpRecord(r));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(dumpJson(toJson(*back), -1), dumpJson(j, -1));
        QVERIFY(back->rounds[1].counters[0].second.has_marginal == false);
        QCOMPARE(back->rounds[0].gpu_time->vanished, std::vector<std::int64_t>{42});
    }

    void jouleBenchFixtureIsPinned()
    {
        const std::string made = dumpRecord(jbtest::syntheticRecord(3));
        if (qEnvironmentVariableIsSet("JB_REGENERATE_FIXTURES")) {
            std::ofstream(kJbFixture, std::ios::binary) << made;
            qWarning("rewrote %s", kJbFixture.c_str());
        }
        const std::string text = slurp(kJbFixture);
        QVERIFY2(!text.empty(), "tests/fixtures/records/joulebench-rapl.json is missing");
        // A change to the writer shows here as a diff of the committed file.
        QCOMPARE(made, text);
        const Result<Record> r = parseRecord(text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(dumpRecord(*r), text);
        QVERIFY(r->loaded_summary.has_value());
        QCOMPARE(r->samples.size(), std::size_t(1));
        QCOMPARE(r->samples[0].second, jbtest::syntheticRecord(3).samples[0].second);
        QCOMPARE(r->rounds[1].window, jbtest::syntheticRecord(3).rounds[1].window);
        QCOMPARE(r->rounds[1].brackets, jbtest::syntheticRecord(3).rounds[1].brackets);
    }

    void summaryIsComputedNotCopied()
    {
        Record r = jbtest::syntheticRecord(3);
        r.loaded_summary = ojson{{"rapl", {{"rounds", 999}}}};
        const ojson j = toJson(r);
        QCOMPARE(j["summary"]["rapl"]["rounds"].get<int>(), 3);
        const CounterSummary s = summaryOf(r, "rapl");
        QCOMPARE(j["summary"]["rapl"]["median_j_per_decode"].get<double>(), *s.median_j_per_decode);
        QCOMPARE(j["summary"]["rapl"]["verdicts"]["clean"].get<int>(), s.clean);
    }

    void unknownKeysAreKept()
    {
        ojson g = ojson::parse(slurp(kGolden));
        g["rounds"][0]["future_round_key"] = ojson{{"x", 1}};
        g["host"]["kernel"] = "6.1";
        g["host"]["node_cpu"] = nullptr;
        g["zz_extra"] = ojson::array({1, 2.5, "three"});
        const Result<Record> r = recordFromJson(g);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QVERIFY(r->host.node_cpu_unknown);
        const ojson back = toJson(*r);
        QVERIFY(back == g);
        QCOMPARE(back["zz_extra"], g["zz_extra"]);
        QVERIFY(back["host"]["node_cpu"].is_null());
        QCOMPARE(back["rounds"][0]["future_round_key"]["x"].get<int>(), 1);
    }

    void counterFoundByShapeAndByName()
    {
        ojson g = ojson::parse(slurp(kGolden));
        // A counter the "counters" list lacks is still a counter by its shape.
        g["rounds"][0]["rapl:psys"] = g["rounds"][0]["rapl"];
        Result<Record> r = recordFromJson(g);
        QVERIFY(r.ok());
        QVERIFY(r->rounds[0].counter("rapl:psys"));
        // A named counter whose value is wrong is an error with a quoted path.
        g["counters"] = ojson::array({"rapl", "rapl:psys"});
        g["rounds"][0]["rapl:psys"]["busy"]["mean_w"] = "abc";
        r = recordFromJson(g);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(),
                 std::string("$.rounds[0][\"rapl:psys\"].busy.mean_w: expected a number, found \"abc\""));
    }

    void fractionalWindowNjOfAPicojouleRailIsRounded()
    {
        ojson g = ojson::parse(slurp(kGolden));
        g["rounds"][0]["rapl"]["window_nj"] = 30080054000.4;
        const Result<Record> r = recordFromJson(g);
        QVERIFY(r.ok());
        QCOMPARE(r->rounds[0].counter("rapl")->window_nj, 30080054000);
    }

    void pythonLayout()
    {
        QCOMPARE(dumpJson(ojson(1e15)), std::string("1000000000000000.0"));
        QCOMPARE(dumpJson(ojson(-1.5e15)), std::string("-1500000000000000.0"));
        QCOMPARE(dumpJson(ojson(1234567890123456.2)), std::string("1234567890123456.2"));
        QCOMPARE(dumpJson(ojson(4503599627370497.0)), std::string("4503599627370497.0"));
        QCOMPARE(dumpJson(ojson(9.999999999999998e15)), std::string("9999999999999998.0"));
        QCOMPARE(dumpJson(ojson(1e16)), std::string("1e+16"));
        QCOMPARE(dumpJson(ojson(1e14)), std::string("100000000000000.0"));
        QCOMPARE(dumpJson(ojson(0.0001)), std::string("0.0001"));
        QCOMPARE(dumpJson(ojson(0.00001)), std::string("1e-05"));
        QCOMPARE(dumpJson(ojson(2.0)), std::string("2.0"));
        QCOMPARE(dumpJson(ojson("caf\xc3\xa9")), std::string("\"caf\\u00e9\""));
        const ojson nested = ojson::parse(R"({"a": [], "b": {}, "c": [1, {"d": null}]})");
        QCOMPARE(
            dumpJson(nested),
            std::string("{\n \"a\": [],\n \"b\": {},\n \"c\": [\n  1,\n  {\n   \"d\": null\n  }\n ]\n}"));
        QCOMPARE(dumpJson(nested, -1), std::string(R"({"a":[],"b":{},"c":[1,{"d":null}]})"));
    }

    void syntaxErrorsByLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty: no JSON at all");
        QTest::newRow("blank") << QByteArray(" \n\t\n") << QStringLiteral("only white space: no JSON at all");
        QTest::newRow("double comma")
            << QByteArray("{\n \"a\": [1,\n 2,,]}") << QStringLiteral("broken JSON at line 3, column 4: ");
        QTest::newRow("first byte") << QByteArray("rounds = 3\n")
                                    << QStringLiteral("broken JSON at line 1, column 1: ");
        QTest::newRow("cut short") << QByteArray("{\n \"label\": \"x\",\n \"rounds\": [\n")
                                   << QStringLiteral("broken JSON at line 4, column 1: ");
        QTest::newRow("NaN") << QByteArray("{\n \"ratio\": NaN\n}")
                             << QStringLiteral("broken JSON at line 2, column 11: ");
        QTest::newRow("too large") << QByteArray("{\n \"k\": 2,\n \"x\": 1e400}")
                                   << QStringLiteral(
                                          "broken JSON at line 3, column 7: number overflow parsing '1e400'");
        QTest::newRow("NaN hint") << QByteArray("{\n \"ratio\": NaN\n}")
                                  << QStringLiteral("NaN and Infinity are not JSON");
    }
    void syntaxErrorsByLineAndColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Result<Record> r = parseRecord(std::string_view(text.constData(), std::size_t(text.size())));
        QVERIFY(!r.ok());
        QVERIFY2(q(r.error()).contains(expected), r.error().c_str());
    }

    // Each file in tests/fixtures/records/broken/ and the words its message must hold.
    void brokenFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* f, const char* e) {
            QTest::newRow(f) << QString::fromLatin1(f) << QString::fromUtf8(e);
        };
        row("empty.json", "the file is empty");
        row("whitespace.json", "only white space: no JSON at all");
        row("truncated.json",
            "broken JSON at line 78, column 1: syntax error while parsing object - unexpected end of input");
        row("trailing-comma.json",
            "broken JSON at line 4, column 1: syntax error while parsing object key - unexpected '}'");
        row("not-json.txt",
            "broken JSON at line 1, column 1: syntax error while parsing value - invalid literal");
        row("binary.bin", "broken JSON at line 1, column 1");
        row("bad-utf8.json",
            "broken JSON at line 2, column 16: syntax error while parsing value - invalid string: ill-formed UTF-8 byte");
        row("nan.json", "broken JSON at line 51, column 14");
        row("top-array.json", "not a record: the top level is an array of 3, not a JSON object");
        row("foreign.json",
            "not a record of JouleBench or of the reference harness: the top-level object has no "
            "\"rounds\" and \"counters\" keys (its keys: name, version, dependencies)");
        row("rounds-object.json", "$.rounds: expected an array of rounds, found an empty object");
        row("mean-w-string.json", "$.rounds[2].rapl.busy.mean_w: expected a number, found \"abc\"");
        row("decodes-missing.json", "$.rounds[1]: missing key \"decodes\" (an integer)");
        row("decodes-fraction.json", "$.rounds[0].decodes: expected an integer, found 8.5");
        row("decodes-huge.json", "$.rounds[0].decodes: expected an integer, found 1e+20");
        row("load-avg-two.json",
            "$.rounds[0].load_avg_before: expected an array of 3 numbers, found an array of 2");
        row("counters-string.json", "$.counters: expected an array of strings, found \"rapl\"");
        row("label-number.json", "$.label: expected a string or null, found 5");
        row("sd-missing.json", "$.rounds[0].rapl.idle_after: missing key \"sd_w\" (a number)");
        row("ratio-alone.json", "$.rounds[0].rapl.ratio: present without \"marginal_nj\"");
        row("verdict-unknown.json",
            "$.rounds[1].rapl.verdict: expected one of \"clean\", \"relative-only\", \"noisy\", "
            "\"unusable\" or null, found \"great\"");
        row("node-cpu-string.json", "$.host.node_cpu: expected an integer or null, found \"2\"");
        row("host-missing.json", "$: missing key \"host\" (an object)");
        row("window-reversed.json", "$.rounds[1].window: ends (");
        row("brackets-one.json",
            "$.rounds[0].brackets: expected an array of 2 brackets [t0_ns, t1_ns] (idle before, "
            "idle after), found an array of 1");
        row("sampler-string.json", "$.sampler.rapl.intervals: expected an integer, found \"67\"");
        row("samples-lengths.json", "$.samples.rapl: the columns differ in length (t0_ns ");
        row("samples-backwards.json", "$.samples.rapl.t0_ns[5]: ");
        row("samples-inverted.json", "$.samples.rapl.t1_ns[3]: ");
        row("samples-not-int.json", "$.samples.rapl.nj[2]: expected an integer, found 1.5");
        row("deep-nesting.json", "JSON nested deeper than 256 levels at line 1, column 287: not a record");
        row("tool-no-version.json", "$.tool: missing key \"version\" (a string)");
    }
    void brokenFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const std::string path = kBroken + file.toStdString();
        QVERIFY2(QFile::exists(q(path)), path.c_str());
        const Result<Record> r = loadRecord(path);
        QVERIFY2(!r.ok(), "a broken file loaded");
        const QString msg = q(r.error());
        QVERIFY2(msg.startsWith(q(path) + QStringLiteral(": ")), qPrintable(msg));
        QVERIFY2(msg.contains(expected), qPrintable(msg));
    }

    void everyBrokenFileIsInTheTable()
    {
        // A file added to the corpus without its expected message would test nothing.
        QDir dir(q(kBroken));
        QStringList files = dir.entryList(QDir::Files);
        files.removeAll(QStringLiteral("README.md"));
        QCOMPARE(files.size(), 32);
    }

    void missingFileAndFolder()
    {
        Result<Record> r = loadRecord("/nonexistent/record.json");
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), std::string("cannot read /nonexistent/record.json: No such file or directory"));
        QTemporaryDir dir;
        r = loadRecord(dir.path().toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(q(r.error()).endsWith(QStringLiteral("it is a folder, not a file")), r.error().c_str());
    }

    void samplesReadBackAndAreChecked()
    {
        Record r = jbtest::syntheticRecord(1);
        const Result<std::vector<Interval>> iv = intervalsFromJson(intervalsToJson(r.samples[0].second),
                                                                   "$.x");
        QVERIFY(iv.ok());
        QCOMPARE(*iv, r.samples[0].second);
        std::vector<Interval> bad{{0, 10, 1}, {10, 20, 1}, {15, 30, 1}};
        const Status st = checkIntervals(bad, "$.samples.rapl");
        QVERIFY(!st.ok());
        QCOMPARE(st.error(),
                 std::string("$.samples.rapl.t0_ns[2]: 15 is before the end of the interval before it "
                             "(t1_ns[1] 20): times must not go backwards"));
    }

    void pathsQuoteOddKeys()
    {
        QCOMPARE(jsonPathKey("$", "rounds"), std::string("$.rounds"));
        QCOMPARE(jsonPathKey("$.summary", "rapl:psys"), std::string("$.summary[\"rapl:psys\"]"));
        QCOMPARE(jsonPathKey("$", "relative-only"), std::string("$[\"relative-only\"]"));
        QCOMPARE(jsonPathIndex("$.rounds", 3), std::string("$.rounds[3]"));
    }
};

QTEST_GUILESS_MAIN(TestRecordJson)
#include "tst_recordjson.moc"
