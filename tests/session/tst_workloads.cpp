// The children of an interleaved run: ':::' splitting, parameter lists and scans, names.
#include <jb/session/Workloads.h>

#include <QtTest>

using namespace jb;
using Argv = std::vector<std::string>;

class TestWorkloads : public QObject {
    Q_OBJECT
private slots:
    void splitsAtTheSeparator()
    {
        const auto c = splitCommands({"decA", "--q", "3", ":::", "decB", "--q", "3"});
        QVERIFY(c);
        QCOMPARE(c->size(), std::size_t(2));
        QCOMPARE(c->at(0), (Argv{"decA", "--q", "3"}));
        QCOMPARE(c->at(1), (Argv{"decB", "--q", "3"}));
        const auto one = splitCommands({"dec", "serve"});
        QVERIFY(one);
        QCOMPARE(one->size(), std::size_t(1));
    }

    void emptyCommandsAreErrorsNamingWhere()
    {
        QVERIFY(splitCommands({":::", "b"}).error().find("before the first") != std::string::npos);
        QVERIFY(splitCommands({"a", ":::"}).error().find("after the last") != std::string::npos);
        QVERIFY(splitCommands({"a", ":::", ":::", "b"}).error().find("child 2 is empty") != std::string::npos);
        QVERIFY(!splitCommands({}));
    }

    void parameterListValues()
    {
        const auto a = parameterList("q", "3,6,9");
        QVERIFY(a);
        QCOMPARE(a->values, (Argv{"3", "6", "9"}));
        QVERIFY(parameterList("q", "3,,9").error().find("value 2 is empty") != std::string::npos);
        QVERIFY(!parameterList("q", ""));
    }

    void parameterScanValues()
    {
        QCOMPARE(parameterScan("q", "1", "4", std::nullopt)->values, (Argv{"1", "2", "3", "4"}));
        QCOMPARE(parameterScan("q", "0", "1", std::string("0.25"))->values,
                 (Argv{"0.00", "0.25", "0.50", "0.75", "1.00"}));
        QCOMPARE(parameterScan("t", "0.1", "0.3", std::string("0.1"))->values, (Argv{"0.1", "0.2", "0.3"}));
        QCOMPARE(parameterScan("q", "2", "9", std::string("3"))->values, (Argv{"2", "5", "8"}));
        QVERIFY(parameterScan("q", "x", "4", std::nullopt).error().find("MIN 'x' is not a number") != std::string::npos);
        QVERIFY(parameterScan("q", "4", "1", std::nullopt).error().find("MAX is below MIN") != std::string::npos);
        QVERIFY(parameterScan("q", "1", "4", std::string("0")).error().find("above 0") != std::string::npos);
        QVERIFY(parameterScan("q", "1", "1e6", std::nullopt).error().find("more than the 1000") != std::string::npos);
    }

    void expandsTheProductOfParameters()
    {
        const std::vector<Argv> cmds{{"dec", "--q", "{q}", "--t", "{t}"}};
        const std::vector<ParameterAxis> axes{{"q", {"3", "6"}}, {"t", {"1", "2"}}};
        const auto w = expandWorkloads(cmds, axes, {});
        QVERIFY(w);
        QCOMPARE(w->size(), std::size_t(4));
        QCOMPARE(w->at(0).argv, (Argv{"dec", "--q", "3", "--t", "1"}));
        QCOMPARE(w->at(1).argv, (Argv{"dec", "--q", "3", "--t", "2"}));
        QCOMPARE(w->at(3).argv, (Argv{"dec", "--q", "6", "--t", "2"}));
        QCOMPARE(w->at(0).name, std::string("dec --q 3 --t 1"));
        QCOMPARE(w->at(2).parameters.at("q"), std::string("6"));
    }

    void namesTakePlaceholdersOrGetTheValueAppended()
    {
        const std::vector<Argv> cmds{{"decA", "{q}"}, {"decB", "{q}"}};
        const std::vector<ParameterAxis> axes{{"q", {"3", "6"}}};
        const auto w = expandWorkloads(cmds, axes, {"A q{q}", "B"});
        QVERIFY(w);
        QCOMPARE(w->size(), std::size_t(4));
        QCOMPARE(w->at(0).name, std::string("A q3"));
        QCOMPARE(w->at(1).name, std::string("A q6"));
        QCOMPARE(w->at(2).name, std::string("B q=3"));
        QCOMPARE(w->at(3).name, std::string("B q=6"));
        // A command without the parameter runs once, not once per value.
        const auto mixed = expandWorkloads({{"ref"}, {"dec", "{q}"}}, axes, {});
        QVERIFY(mixed);
        QCOMPARE(mixed->size(), std::size_t(3));
        QCOMPARE(mixed->at(0).name, std::string("ref"));
    }

    void badUsageSaysWhat()
    {
        const std::vector<ParameterAxis> axes{{"q", {"3"}}};
        QVERIFY(expandWorkloads({{"dec", "{x}"}}, axes, {}).error().find("no --parameter-list or --parameter-scan defines x") !=
                std::string::npos);
        QVERIFY(expandWorkloads({{"dec"}}, axes, {}).error().find("no child's command line uses {q}") != std::string::npos);
        QVERIFY(expandWorkloads({{"a"}, {"b"}}, {}, {"only"}).error().find("1 time for 2 children") != std::string::npos);
        QVERIFY(expandWorkloads({{"a"}, {"b"}}, {}, {"same", "same"}).error().find("two children are named 'same'") !=
                std::string::npos);
        QVERIFY(expandWorkloads({{"a"}}, {{"q", {"1"}}, {"q", {"2"}}}, {}).error().find("defined twice") != std::string::npos);
        // Braces that are not a placeholder stay as they are (a JSON argument, say).
        const auto json = expandWorkloads({{"dec", "{\"a\": 1}"}}, {}, {});
        QVERIFY(json);
        QCOMPARE(json->at(0).argv[1], std::string("{\"a\": 1}"));
    }
};

QTEST_APPLESS_MAIN(TestWorkloads)
#include "tst_workloads.moc"
