// base/JsonReader: the one path style and wording every JSON file's errors use, for both JSON
// types JouleBench reads into (records keep key order, job files need not).
#include <jb/base/JsonReader.h>

#include <QtTest>

using namespace jb;
using namespace jb::jsonread;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// The message read throws, or "" where it throws none.
template <class F>
std::string failure(F&& read)
{
    try {
        read();
    } catch (const JsonReadError& e) {
        return e.message;
    }
    return "";
}

}  // namespace

class TestJsonReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paths()
    {
        QCOMPARE(jsonPathKey("$", "jobs"), std::string("$.jobs"));
        QCOMPARE(jsonPathIndex(jsonPathKey("$", "jobs"), 2), std::string("$.jobs[2]"));
        QCOMPARE(jsonPathKey("$.rounds[0]", "rapl:psys"), std::string("$.rounds[0][\"rapl:psys\"]"));
        QCOMPARE(jsonPathKey("$.env", "MY-VAR"), std::string("$.env[\"MY-VAR\"]"));
        QCOMPARE(jsonPathKey("$", "2x"), std::string("$[\"2x\"]"));  // a name cannot start with a digit
        QCOMPARE(jsonPathKey("$", ""), std::string("$[\"\"]"));
        QCOMPARE(jsonPathKey("$", "a\"b"), std::string("$[\"a\\\"b\"]"));
    }

    void describesTheValue()
    {
        QCOMPARE(describe(json(5)), std::string("5"));
        QCOMPARE(describe(json(8.5)), std::string("8.5"));
        QCOMPARE(describe(json("abc")), std::string("\"abc\""));
        QCOMPARE(describe(json(nullptr)), std::string("null"));
        QCOMPARE(describe(json::array()), std::string("an empty array"));
        QCOMPARE(describe(json::array({1, 2, 3})), std::string("an array of 3"));
        QCOMPARE(describe(ojson::object()), std::string("an empty object"));
        QCOMPARE(describe(ojson{{"a", 1}}), std::string("an object"));
        const std::string longText = describe(json(std::string(100, 'x')));
        QCOMPARE(longText.size(), std::size_t(48));
        QVERIFY(longText.ends_with("...\""));
    }

    void typedReads()
    {
        const json j = json::parse(R"({"n": 3, "f": 0.5, "s": "", "l": ["a", 1], "b": true, "big": 18446744073709551615})");
        QCOMPARE(asInt(j["n"], "$.n"), std::int64_t(3));
        QCOMPARE(failure([&] { asInt(j["f"], "$.f"); }), std::string("$.f: expected an integer, found 0.5"));
        QCOMPARE(failure([&] { asInt(j["big"], "$.big"); }),
                 std::string("$.big: expected an integer, found 18446744073709551615, which does not fit in 64 bits"));
        QCOMPARE(failure([&] { asIntAtLeast(j["n"], "$.n", 4); }),
                 std::string("$.n: expected an integer >= 4, found 3"));
        QCOMPARE(asNumberAtLeast(j["f"], "$.f", 0.5), 0.5);
        QCOMPARE(failure([&] { asNumberAtLeast(j["f"], "$.f", 0.5, true); }),
                 std::string("$.f: expected a number > 0.5, found 0.5"));
        QCOMPARE(failure([&] { asString(j["n"], "$.n"); }), std::string("$.n: expected a string, found 3"));
        QCOMPARE(asString(j["s"], "$.s"), std::string());
        QCOMPARE(failure([&] { asString(j["s"], "$.s", true); }),
                 std::string("$.s: expected a non-empty string, found \"\""));
        QCOMPARE(failure([&] { asStrings(j["l"], "$.l"); }), std::string("$.l[1]: expected a string, found 1"));
        QCOMPARE(failure([&] { asStrings(json::array(), "$.e", true); }),
                 std::string("$.e: expected a non-empty array of strings, found an empty array"));
        QCOMPARE(asBool(j["b"], "$.b"), true);
        QCOMPARE(failure([&] { asBool(j["n"], "$.n"); }), std::string("$.n: expected true or false, found 3"));
        QVERIFY(!asNumberOrNull(json(nullptr), "$.x").has_value());
        QCOMPARE(failure([&] { need(j, "$", "x", "a number"); }), std::string("$: missing key \"x\" (a number)"));
        QVERIFY(member(j, "x") == nullptr);
        QVERIFY(member(j, "n") != nullptr);
    }

    void onlyKnownKeys()
    {
        const ojson o = ojson::parse(R"({"a": 1, "comment": "kept out of the check", "my key": 2})");
        QCOMPARE(failure([&] { onlyKeys(o, "$.defaults", {"a", "b"}); }),
                 std::string("$.defaults[\"my key\"]: unknown key; expected one of a, b (or comment)"));
        QCOMPARE(failure([&] { onlyKeys(o, "$", {"a", "my key"}); }), std::string());
    }

    void readJsonNamesTheOrigin()
    {
        const json j = json::parse(R"({"jobs": [{"argv": ["x", 1]}]})");
        auto argv = [&] { return asStrings(j["jobs"][0]["argv"], "$.jobs[0].argv"); };
        Result<std::vector<std::string>> r = readJson("jobs.json", argv);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), std::string("jobs.json: $.jobs[0].argv[1]: expected a string, found 1"));
        QCOMPARE(readJson("", argv).error(), std::string("$.jobs[0].argv[1]: expected a string, found 1"));
        Result<std::int64_t> fine = readJson("jobs.json", [] { return asInt(json(7), "$.n"); });
        QVERIFY(fine.ok());
        QCOMPARE(*fine, std::int64_t(7));
    }
};

QTEST_GUILESS_MAIN(TestJsonReader)
#include "tst_jsonreader.moc"
