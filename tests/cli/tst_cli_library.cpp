// joulebench-cli library as CI uses it: records of a fake child on a fake zone, measured with
// `measure --out` (which adds them to the library), then `library check` as the gate.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include "CliTestKit.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace jbclitest;

namespace {

QString s(const char* t)
{
    return QString::fromUtf8(t);
}

// One gate run: 6 rounds of 3 decodes of 100 ms on the zone; the record at out, added to lib.
Run measure(const FakeZone& z, const QString& out, const QString& lib, const QStringList& extra = {})
{
    QStringList args{s("measure"), s("--label"), s("gate"), s("--rounds"), s("6"), s("--idle-s"), s("0.4"),
                     s("--sample-ms"), s("20"), s("--counter"), s("rapl"), s("--rapl-zone"), z.zone,
                     s("--meta"), s("{\"q\": 3}"), s("--out"), out};
    if (!lib.isEmpty())
        args << s("--library") << lib;
    args << extra;
    args << s("--") << testBin("fakechild") << s("serve") << s("--jobs") << s("3") << s("--job-ms") << s("100")
         << s("--flag") << z.flag;
    return cli(args);
}

Run check(const QString& record, const QString& lib)
{
    return cli({s("library"), s("check"), record, s("--against"), s("label=gate meta.q=3"), s("--max-increase"),
                s("3"), s("--library"), lib});
}

Run git(const QString& dir, const QStringList& args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(s("git"), args);
    Run r;
    if (p.waitForFinished(30000))
        r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace

class TestCliLibrary : public QObject {
    Q_OBJECT
private slots:
    // Three records at 15 W pass the gate; a fourth at 16.5 W (+10 %) fails it with exit 1.
    void gatePassesThreeAndFailsTheFourth()
    {
        QTemporaryDir dir;
        const QString lib = dir.path() + s("/library.sqlite");
        {
            FakeZone z(dir.path() + s("/at15"), s("15"));
            QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
            for (int i = 1; i <= 3; ++i) {
                const QString rec = dir.path() + QStringLiteral("/r%1.json").arg(i);
                const Run m = measure(z, rec, lib);
                QVERIFY2(m.code == 0, m.err.constData());
                const Run c = check(rec, lib);
                QVERIFY2(c.code == 0, QByteArray(c.out + c.err).constData());
                QVERIFY2(c.out.contains(i == 1 ? "no baseline" : "ok:"), c.out.constData());
            }
        }
        FakeZone z(dir.path() + s("/at16.5"), s("16.5"));
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
        const QString rec = dir.path() + s("/r4.json");
        const Run m = measure(z, rec, lib);
        QVERIFY2(m.code == 0, m.err.constData());
        const Run c = check(rec, lib);
        QVERIFY2(c.code == 1, QByteArray(c.out + c.err).constData());
        QVERIFY2(c.out.contains("REGRESSION") && c.out.contains("3 baseline record(s)"), c.out.constData());

        // The library saw all four (measure --out added them); list and the exports agree.
        const Run l = cli({s("library"), s("list"), s("--json"), s("--label"), s("gate"), s("--library"), lib});
        QCOMPARE(l.code, 0);
        const auto entries = nlohmann::json::parse(l.out.toStdString());
        QCOMPARE(entries.size(), std::size_t(4));
        const Run bmf = cli({s("library"), s("export"), s("--format"), s("bmf"), s("--library"), lib});
        QCOMPARE(bmf.code, 0);
        const auto b = nlohmann::json::parse(bmf.out.toStdString());
        QVERIFY(b.at("gate/rapl").at("joules-per-decode").at("value").get<double>() > 0);
        const Run csv = cli({s("library"), s("export"), s("--format"), s("csv"), s("--library"), lib});
        QCOMPARE(csv.out.count('\n'), 5);  // header + 4
        const Run t = cli({s("library"), s("trend"), s("gate"), s("--json"), s("--library"), lib});
        QCOMPARE(t.code, 0);
        const auto trend = nlohmann::json::parse(t.out.toStdString());
        QCOMPARE(trend.at("points").size(), std::size_t(4));
        // The step shows in the trend: the fourth point about 10 % above the third. Whether it is
        // marked a regression rests on 6 rounds against 6 (the gate above compares 6 with the 18
        // of its baseline), which a loaded machine's noise can leave open; the marking itself is
        // tested on fixed records in tst_librarypage and tst_library.
        const double step = trend.at("points").at(3).at("ratio_to_previous").get<double>();
        QVERIFY2(step > 1.04 && step < 1.17, qPrintable(QString::number(step)));
    }

    // measure --source records the commit; --require-clean refuses a dirty tree; --no-library.
    void sourceProvenanceAndRequireClean()
    {
        QTemporaryDir dir;
        const QString repo = dir.path() + s("/repo");
        QDir().mkpath(repo);
        QVERIFY(git(repo, {s("init"), s("-q"), s("-b"), s("work")}).code == 0);
        {
            QFile f(repo + s("/decoder.c"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("int main(void) { return 0; }\n");
        }
        QVERIFY(git(repo, {s("add"), s("decoder.c")}).code == 0);
        QVERIFY(git(repo, {s("-c"), s("user.name=t"), s("-c"), s("user.email=t@t"), s("commit"), s("-q"), s("-m"), s("one")})
                    .code == 0);
        const QString head = QString::fromUtf8(git(repo, {s("rev-parse"), s("HEAD")}).out).trimmed();
        QCOMPARE(head.size(), 40);

        const QString lib = dir.path() + s("/library.sqlite");
        FakeZone z(dir.path() + s("/zone"));
        QTRY_VERIFY_WITH_TIMEOUT(z.ready(), 5000);
        const QString rec = dir.path() + s("/r.json");
        Run m = measure(z, rec, lib, {s("--source"), repo, s("--require-clean")});
        QVERIFY2(m.code == 0, m.err.constData());
        QFile rf(rec);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(rf.readAll().toStdString());
        QCOMPARE(QString::fromStdString(j.at("source").at("git_commit").get<std::string>()), head);
        QCOMPARE(j.at("source").at("git_branch").get<std::string>(), std::string("work"));
        QCOMPARE(j.at("source").at("git_dirty").get<bool>(), false);
        const Run byCommit = cli({s("library"), s("list"), s("--json"), s("--commit"), head.left(8), s("--library"), lib});
        QCOMPARE(nlohmann::json::parse(byCommit.out.toStdString()).size(), std::size_t(1));

        // A dirty tree: refused before anything runs, nothing written.
        {
            QFile f(repo + s("/decoder.c"));
            QVERIFY(f.open(QIODevice::Append));
            f.write("/* edit */\n");
        }
        const QString dirty = dir.path() + s("/dirty.json");
        m = measure(z, dirty, lib, {s("--source"), repo, s("--require-clean")});
        QCOMPARE(m.code, 2);
        QVERIFY2(m.err.contains("uncommitted changes"), m.err.constData());
        QVERIFY(!QFile::exists(dirty));
        // Without --require-clean it runs and says the tree was dirty; --no-library keeps it out.
        m = measure(z, dirty, {}, {s("--source"), repo, s("--no-library")});
        QVERIFY2(m.code == 0, m.err.constData());
        const Run all = cli({s("library"), s("list"), s("--json"), s("--library"), lib});
        QCOMPARE(nlohmann::json::parse(all.out.toStdString()).size(), std::size_t(1));
    }

    // `library add` takes comparison records (their records) and job manifests, as files or in folders.
    void addTakesComparisonsAndManifests()
    {
        QTemporaryDir dir;
        const QString lib = dir.path() + s("/library.sqlite");
        QVERIFY(QDir().mkpath(dir.path() + s("/run")) && QDir().mkpath(dir.path() + s("/jobs/x")));
        QVERIFY(QFile::copy(s(JB_FIXTURES "/records/joulebench-rapl.json"), dir.path() + s("/run/a.json")));
        QVERIFY(QFile::copy(s(JB_FIXTURES "/jobs/reference_manifest.json"), dir.path() + s("/jobs/x/manifest.json")));
        auto writeText = [](const QString& path, const QByteArray& text) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
        };
        QVERIFY(writeText(dir.path() + s("/run/comparison.json"),
                          R"({"kind": "joulebench-interleaved-comparison", "version": 1,
                              "children": [{"name": "a", "record": "a.json"}, {"name": "b", "record": null}]})"));
        Run r = cli({s("library"), s("add"), dir.path() + s("/run/comparison.json"), s("--library"), lib});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray addedA = QByteArray("added  ") + QString(dir.path() + s("/run/a.json")).toUtf8();
        QVERIFY2(r.out.contains(addedA), r.out.constData());
        QVERIFY2(r.out.contains("1 added"), r.out.constData());
        r = cli({s("library"), s("add"), dir.path() + s("/jobs"), s("--library"), lib});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("manifest.json (job manifest)") && r.out.contains("1 added"), r.out.constData());
        r = cli({s("library"), s("list"), s("label=p2_vgg16_dfa_seed0"), s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("jobs/x/manifest.json") && r.out.contains("completed"), r.out.constData());
        // A comparison naming a record that is not there: exit 1, the file named.
        QVERIFY(writeText(dir.path() + s("/other.json"),
                          R"({"kind": "joulebench-interleaved-comparison", "children": [{"name": "g", "record": "gone.json"}]})"));
        r = cli({s("library"), s("add"), dir.path() + s("/other.json"), s("--library"), lib});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("gone.json"), r.err.constData());
    }

    void badInputsAreNamed()
    {
        QTemporaryDir dir;
        const QString lib = dir.path() + s("/library.sqlite");
        Run r = cli({s("library"), s("list"), s("colour=red"), s("--library"), lib});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("unknown key 'colour'"), r.err.constData());
        r = cli({s("library"), s("add"), dir.path() + s("/nothing.json"), s("--library"), lib});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no such file"), r.err.constData());
        r = cli({s("library"), s("list"), s("--library"), s("mysql://x/y")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("postgresql://"), r.err.constData());
        r = cli({s("library"), s("frobnicate")});
        QCOMPARE(r.code, 2);
        // A fixture record (the reference's keys) is indexed like any other.
        r = cli({s("library"), s("add"), s(JB_FIXTURES "/records/joulebench-rapl.json"), s("--library"), lib});
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({s("library"), s("check"), s(JB_FIXTURES "/records/joulebench-rapl.json"), s("--against"),
                 s("label=synthetic"), s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("no baseline"), QByteArray(r.out + r.err).constData());  // itself excluded
    }

    // Items 6, 7 and 10 of issue 30: a library path that is not there is an error where it is
    // only read (a misspelt gate never passes on an empty library); rows say when their file is
    // gone or unreadable, and the gate leaves them out and says so; --against takes a quoted
    // label with a space. Item 4: an export that standard output loses fails.
    void rowsSayWhenTheirFileIsGoneOrUnreadable()
    {
        QTemporaryDir dir;
        const QString lib = dir.path() + s("/library.sqlite");
        const QString misspelt = dir.path() + s("/libary.sqlite");
        auto record = [&](const char* name, int seed) {
            QFile in(s(JB_FIXTURES "/records/joulebench-rapl.json"));
            if (!in.open(QIODevice::ReadOnly))
                return QString();
            nlohmann::ordered_json j = nlohmann::ordered_json::parse(in.readAll().toStdString());
            j["label"] = "nightly run";
            j["meta"] = {{"seed", seed}};
            const QString path = dir.path() + s("/") + s(name);
            QFile out(path);
            const std::string text = j.dump(1);
            if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), qint64(text.size())) != qint64(text.size()))
                return QString();
            return path;
        };
        const QString a = record("a.json", 1), b = record("b.json", 2), c = record("c.json", 3);
        QVERIFY(!a.isEmpty() && !b.isEmpty() && !c.isEmpty());
        const QString against = s("label='nightly run'");

        Run r = cli({s("library"), s("list"), s("--library"), misspelt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("libary.sqlite does not exist"), r.err.constData());
        r = cli({s("library"), s("check"), c, s("--against"), against, s("--library"), misspelt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("does not exist"), r.err.constData());
        QVERIFY(!QFile::exists(misspelt));
        r = cli({s("library"), s("list"), s("--create"), s("--library"), misspelt});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(misspelt));

        r = cli({s("library"), s("add"), a, b, s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("2 added"), QByteArray(r.out + r.err).constData());
        r = cli({s("library"), s("check"), c, s("--against"), against, s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("of 2 baseline record(s)") && !r.out.contains("left out"),
                 QByteArray(r.out + r.err).constData());

        // Gone before any refresh: left out of list and of the gate, which says so.
        QVERIFY(QFile::remove(b));
        r = cli({s("library"), s("list"), s("--json"), s("--library"), lib});
        QCOMPARE(nlohmann::json::parse(r.out.toStdString()).size(), std::size_t(1));
        r = cli({s("library"), s("list"), s("--json"), s("--include-missing"), s("--library"), lib});
        nlohmann::json rows = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[1]["missing"].get<bool>(), true);
        r = cli({s("library"), s("check"), c, s("--against"), against, s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("of 1 baseline record(s)") &&
                     r.out.contains("1 record(s) of the query left out, their file gone or unreadable"),
                 QByteArray(r.out + r.err).constData());

        // Unreadable: refresh says so and the row says so; the gate has no baseline left.
        {
            QFile f(a);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{\"not\": \"a record\"}\n");
        }
        r = cli({s("library"), s("refresh"), s("--library"), lib});
        QVERIFY2(r.out.contains("unreadable now"), QByteArray(r.out + r.err).constData());
        r = cli({s("library"), s("list"), s("--json"), s("--library"), lib});
        QCOMPARE(nlohmann::json::parse(r.out.toStdString()).size(), std::size_t(0));
        r = cli({s("library"), s("list"), s("--json"), s("--include-missing"), s("--library"), lib});
        rows = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].value("unreadable", false), true);
        r = cli({s("library"), s("check"), c, s("--against"), against, s("--library"), lib});
        QVERIFY2(r.code == 0 && r.out.contains("no baseline") && r.out.contains("2 record(s) of the query left out"),
                 QByteArray(r.out + r.err).constData());

        r = cli({s("library"), s("export"), s("--format"), s("csv"), s("--include-missing"), s("--library"), lib},
                CliSetup{s("/dev/full"), {}, {}});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot write to standard output: "), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliLibrary)
#include "tst_cli_library.moc"
