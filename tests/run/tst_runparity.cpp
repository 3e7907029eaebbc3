// One plan through core/run's MeasureRun as `joulebench-cli measure` maps its flags and as the
// Measure page maps its form: the same files (the record, no journal left; an interleaved run's
// records and comparison.json), the same records (timestamps and samples aside) and the same
// library rows. One job file through the CLI's and the Jobs page's JobRunOptions: the same
// executor, with the same counter options (where RAPL and hwmon are read).
#include "RunOptions.h"
#include "jobs/JobsPage.h"
#include "measure/ChildrenPanel.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"
#include <jb/jobs/JobFile.h>
#include <jb/library/Library.h>
#include <jb/library/LibraryQuery.h>
#include <jb/record/RecordJson.h>
#include <jb/run/JobRun.h>
#include <jb/run/MeasureRun.h>

#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QSettings>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

namespace {

const QString kDemo = QStringLiteral(JB_BIN_DIR "/joulebench-demo-decoder");
const QString kFakeChild = QStringLiteral(JB_TEST_BIN_DIR "/fakechild");

QStringList measureArgs(const QStringList& mid)
{
    QStringList a{QStringLiteral("joulebench-cli measure"), QStringLiteral("--label"), QStringLiteral("parity"),
                  QStringLiteral("--rounds"), QStringLiteral("2"), QStringLiteral("--k"), QStringLiteral("3"),
                  QStringLiteral("--idle-s"), QStringLiteral("0.2"), QStringLiteral("--sample-ms"),
                  QStringLiteral("50"), QStringLiteral("--counter"), QStringLiteral("sim"),
                  QStringLiteral("--samples"), QStringLiteral("--meta"), QStringLiteral("{\"suite\": \"parity\"}")};
    return a + mid;
}

// The CLI's mapping of these arguments.
jbcli::MeasureCli cliOptions(QStringList args)
{
    auto params = jbcli::takeParameterFlags(args);
    if (!params)
        qFatal("parameter flags: %s", params.error().c_str());
    QCommandLineParser p;
    jbcli::addMeasureOptions(p);
    jbcli::addCounterOptions(p);
    if (!p.parse(args))
        qFatal("parse: %s", qPrintable(p.errorText()));
    auto m = jbcli::measureOptionsFrom(p, args, *params);
    if (!m)
        qFatal("measure flags: %s", m.error().c_str());
    return *m;
}

// The page's mapping of the same plan typed into its form, records kept in folder.
jb::MeasureRunOptions pageOptions(const jb::Plan& plan, const QString& folder, const QString& library)
{
    QSettings().setValue(QStringLiteral("records/folder"), folder);
    jb::RunForm form;
    form.applyPlan(plan);
    if (plan.children.size() >= 2) {  // the workloads typed into Compare workloads, after the form's own
        form.compareBox()->setChecked(true);
        std::vector<jb::ChildrenModel::Row> rows;
        for (std::size_t i = 1; i < plan.children.size(); ++i)
            rows.push_back({QString::fromStdString(plan.children[i].name),
                            jb::RunForm::joinCommand(plan.children[i].argv),
                            QString::fromStdString(plan.children[i].workdir)});
        form.childrenPanel()->model()->setRows(std::move(rows));
        form.childrenPanel()->setWarmup(plan.warmup);
    }
    auto typed = form.plan();
    if (!typed)
        qFatal("form: %s", typed.error().c_str());
    jb::MeasurePage page;
    page.setLibrary(library.toStdString());
    return page.runOptions(*typed);
}

jb::MeasureOutcome run(const jb::MeasureRunOptions& o, jb::MeasureRun::Thread where = jb::MeasureRun::Thread::Caller)
{
    jb::MeasureRun run(where);
    QSignalSpy done(&run, &jb::MeasureRun::finished);
    const jb::Status st = run.start(o);
    if (!st)
        qFatal("start: %s", st.error().c_str());
    if (!done.wait(120000))
        qFatal("the run did not finish");
    return run.outcome();
}

// The files under dir, relative, a record's dated name as "RECORD" (its folder likewise).
std::set<QString> files(const QString& dir, const QString& record_name)
{
    std::set<QString> out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QString rel = QDir(dir).relativeFilePath(it.next());
        if (!record_name.isEmpty())
            rel.replace(record_name, QStringLiteral("RECORD"));
        out.insert(rel);
    }
    return out;
}

// A record's JSON without what differs between two runs of one plan: times, samples, the
// rounds' measured figures (their count and keys stay), the sampler's figures.
jb::ojson comparable(const jb::Record& r);

// Where two records differ (a JSON patch from a to b), empty when they do not.
QString differences(const jb::Record& a, const jb::Record& b)
{
    const jb::ojson d = jb::ojson::diff(comparable(a), comparable(b));
    return d.empty() ? QString() : QString::fromStdString(d.dump());
}

// Every number replaced by "(number)", recursively: what was measured differs from run to run,
// the shape of the record (its keys, strings, flags) does not.
void maskNumbers(jb::ojson& j)
{
    if (j.is_number())
        j = "(number)";
    else if (j.is_structured())
        for (auto& v : j)
            maskNumbers(v);
}

jb::ojson comparable(const jb::Record& r)
{
    jb::ojson j = jb::ojson::parse(jb::dumpRecord(r));
    // The run's warnings are measured too: whether a round's idle drift exceeds the brackets'
    // noise, and by how much, differs from run to run on the simulated counter.
    for (const char* k : {"started_at", "finished_at", "samples", "host", "warnings"})
        if (j.contains(k))
            j[k] = "(differs)";
    maskNumbers(j);
    // A round's counter figures are there where its busy window was long enough: measured too.
    if (j.contains("rounds"))
        for (auto& round : j["rounds"])
            for (auto it = round.begin(); it != round.end(); ++it)
                if (it.value().is_object())
                    it.value() = "(measured)";
    // What the plan fixes stays, numbers and all.
    j["plan"] = {{"k", r.k}, {"idle_s", r.idle_s}, {"sample_s", r.sample_s}, {"rounds", r.rounds.size()}};
    return j;
}

std::vector<jb::LibraryEntry> rows(const QString& library)
{
    auto lib = jb::Library::open(library.toStdString(), false);
    if (!lib)
        qFatal("library %s: %s", qPrintable(library), lib.error().c_str());
    auto l = (*lib)->list(jb::LibraryQuery{});
    if (!l)
        qFatal("list: %s", l.error().c_str());
    return *l;
}

}  // namespace

class TestRunParity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runparity"));
        QVERIFY2(QFile::exists(kDemo), "the demo decoder is built");
    }

    void oneChildSameFilesRecordsAndRows()
    {
        QTemporaryDir cliDir, pageDir;
        const QString cliLib = cliDir.filePath(QStringLiteral("library.sqlite"));
        const QString pageLib = pageDir.filePath(QStringLiteral("library.sqlite"));
        const jbcli::MeasureCli cli = cliOptions(measureArgs(
            {QStringLiteral("--out"), cliDir.filePath(QStringLiteral("parity.json")), QStringLiteral("--library"),
             cliLib, QStringLiteral("--"), kDemo, QStringLiteral("serve"), QStringLiteral("--jobs"),
             QStringLiteral("2")}));
        const jb::MeasureRunOptions page = pageOptions(cli.run.plan, pageDir.path(), pageLib);
        // Both keep a journal while they run, and both add to their library.
        QVERIFY(!cli.run.plan.journal_path.empty());
        QVERIFY(!page.plan.journal_path.empty());
        QVERIFY(cli.run.library && page.library);

        const jb::MeasureOutcome a = run(cli.run);
        const jb::MeasureOutcome b = run(page);
        QCOMPARE(a.records.size(), std::size_t(1));
        QCOMPARE(b.records.size(), std::size_t(1));
        QVERIFY2(a.errors.empty() && b.errors.empty(), "every file written");
        QVERIFY(a.journal_removed && b.journal_removed);
        QVERIFY(!QFile::exists(QString::fromStdString(cli.run.plan.journal_path)));
        QVERIFY(!QFile::exists(QString::fromStdString(page.plan.journal_path)));
        QCOMPARE(a.records.front().status, std::string("complete"));

        // The same files: the record (named by --out, or by the record in the folder) and the library.
        const auto fa = files(cliDir.path(), QStringLiteral("parity.json"));
        const auto fb = files(pageDir.path(), QFileInfo(QString::fromStdString(b.paths.front())).fileName());
        QCOMPARE(fa, (std::set<QString>{QStringLiteral("RECORD"), QStringLiteral("library.sqlite")}));
        QCOMPARE(fb, fa);

        // The same records on disk, timestamps and measured figures aside.
        auto ra = jb::loadRecord(a.paths.front());
        auto rb = jb::loadRecord(b.paths.front());
        QVERIFY(ra && rb);
        QCOMPARE(ra->rounds.size(), std::size_t(2));
        QCOMPARE(rb->rounds.size(), ra->rounds.size());
        QVERIFY(!ra->samples.empty() && !rb->samples.empty());
        QCOMPARE(differences(*ra, *rb), QString());

        // The same library rows: one each, the record written, its label, counters and status.
        const auto la = rows(cliLib);
        const auto lb = rows(pageLib);
        QCOMPARE(la.size(), std::size_t(1));
        QCOMPARE(lb.size(), la.size());
        QCOMPARE(QString::fromStdString(la.front().path), QFileInfo(QString::fromStdString(a.paths.front())).absoluteFilePath());
        QCOMPARE(QString::fromStdString(lb.front().path), QFileInfo(QString::fromStdString(b.paths.front())).absoluteFilePath());
        QCOMPARE(lb.front().label, la.front().label);
        QCOMPARE(lb.front().counters, la.front().counters);
        QCOMPARE(lb.front().status, la.front().status);
        QCOMPARE(lb.front().figures.size(), la.front().figures.size());
    }

    void interleavedSameFilesAndRows()
    {
        QTemporaryDir cliDir, pageDir;
        const QString cliLib = cliDir.filePath(QStringLiteral("library.sqlite"));
        const QString pageLib = pageDir.filePath(QStringLiteral("library.sqlite"));
        const jbcli::MeasureCli cli = cliOptions(measureArgs(
            {QStringLiteral("--out-dir"), cliDir.filePath(QStringLiteral("RECORD")), QStringLiteral("--library"),
             cliLib, QStringLiteral("--name"), QStringLiteral("parity"), QStringLiteral("--name"),
             QStringLiteral("three"), QStringLiteral("--"), kDemo, QStringLiteral("serve"), QStringLiteral("--jobs"),
             QStringLiteral("2"), QStringLiteral(":::"), kDemo, QStringLiteral("serve"), QStringLiteral("--jobs"),
             QStringLiteral("3")}));
        QCOMPARE(cli.run.plan.children.size(), std::size_t(2));
        const jb::MeasureRunOptions page = pageOptions(cli.run.plan, pageDir.path(), pageLib);
        QCOMPARE(page.plan.children.size(), std::size_t(2));

        const jb::MeasureOutcome a = run(cli.run);
        const jb::MeasureOutcome b = run(page);
        QVERIFY2(a.errors.empty() && b.errors.empty(), "every file written");
        QVERIFY(!a.comparison_path.empty() && !b.comparison_path.empty());
        QCOMPARE(a.records.size(), std::size_t(2));
        QCOMPARE(b.records.size(), a.records.size());

        // The same files: each workload's record and comparison.json in the run's folder.
        const auto fa = files(cliDir.path(), {});
        const auto fb = files(pageDir.path(), QFileInfo(QString::fromStdString(b.folder)).fileName());
        QCOMPARE(fa.size(), std::size_t(4));  // two records, comparison.json, the library
        QVERIFY(fa.count(QStringLiteral("RECORD/comparison.json")));
        QCOMPARE(fb, fa);
        for (std::size_t i = 0; i < a.records.size(); ++i) {
            auto ra = jb::loadRecord(a.paths[i]);
            auto rb = jb::loadRecord(b.paths[i]);
            QVERIFY(ra && rb);
            QCOMPARE(differences(*ra, *rb), QString());
        }
        // The comparison's shape: the same children, baseline and blocks.
        QCOMPARE(b.comparison.value("baseline", jb::ojson()).dump(), a.comparison.value("baseline", jb::ojson()).dump());
        QCOMPARE(b.comparison["children"].size(), a.comparison["children"].size());
        QCOMPARE(b.comparison.value("blocks", jb::ojson()).dump(), a.comparison.value("blocks", jb::ojson()).dump());

        // The same library rows: every written file.
        const auto la = rows(cliLib);
        const auto lb = rows(pageLib);
        QCOMPARE(la.size(), std::size_t(2));
        QCOMPARE(lb.size(), la.size());
        std::set<std::string> labelsA, labelsB;
        for (const auto& e : la)
            labelsA.insert(e.label.value_or(""));
        for (const auto& e : lb)
            labelsB.insert(e.label.value_or(""));
        QCOMPARE(labelsB, labelsA);
    }

    void keepGoingSameCourseOnEitherThread()
    {
        // Three children, the second crashes in its second round: with --keep-going it is dropped
        // at block 2. The run on the caller's thread (the CLI) and on a backend thread (the
        // dashboard) write the same comparison: the drop and the blocks' order as run.
        auto child = [](QStringList extra) {
            return QStringList{kFakeChild, QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("2"),
                               QStringLiteral("--job-ms"), QStringLiteral("20")} +
                   extra;
        };
        auto options = [&](const QString& dir) {
            return cliOptions(measureArgs(QStringList{QStringLiteral("--out-dir"), dir, QStringLiteral("--no-library"),
                                           QStringLiteral("--rounds"), QStringLiteral("3"), QStringLiteral("--keep-going"),
                                           QStringLiteral("--name"), QStringLiteral("ok"), QStringLiteral("--name"),
                                           QStringLiteral("dies"), QStringLiteral("--name"), QStringLiteral("other"),
                                           QStringLiteral("--")} +
                                          child({}) + QStringList{QStringLiteral(":::")} +
                                          child({QStringLiteral("--mode"), QStringLiteral("exit"),
                                                 QStringLiteral("--fail-round"), QStringLiteral("2")}) +
                                          QStringList{QStringLiteral(":::")} + child({})))
                .run;
        };
        QTemporaryDir callerDir, backendDir;
        const jb::MeasureOutcome a = run(options(callerDir.filePath(QStringLiteral("out"))));
        const jb::MeasureOutcome b =
            run(options(backendDir.filePath(QStringLiteral("out"))), jb::MeasureRun::Thread::Backend);
        for (const jb::MeasureOutcome* o : {&a, &b}) {
            QVERIFY(!o->comparison_path.empty());
            const jb::ojson& cmp = o->comparison;
            const jb::ojson& dies = cmp.at("children")[1];
            QCOMPARE(dies.at("name").get<std::string>(), std::string("dies"));
            QVERIFY2(dies.contains("dropped"), dies.dump().c_str());
            QCOMPARE(dies.at("dropped").at("block").get<int>(), 2);
            const jb::ojson& order = cmp.at("order");
            QCOMPARE(order.size(), std::size_t(3));
            QCOMPARE(order[0].size(), std::size_t(3));
            for (std::size_t blk = 1; blk < order.size(); ++blk) {
                QCOMPARE(order[blk].size(), std::size_t(2));  // as run: the dropped child left
                QVERIFY(order[blk][0] != "dies" && order[blk][1] != "dies");
            }
        }
        QCOMPARE(b.comparison.at("order").dump(), a.comparison.at("order").dump());
        QCOMPARE(b.comparison.at("children")[1].at("dropped").at("block"), a.comparison.at("children")[1].at("dropped").at("block"));
    }

    void jobsSameExecutorOptions()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("jobs.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"output_root": "runs", "allowed_gpus": [0], "nvml_library": "/opt/nvml/libnvidia-ml.so.1",
                        "defaults": {"timeout_seconds": 10, "gpu": "any"},
                        "jobs": [{"name": "a", "argv": ["/bin/true"]}]})");
        }
        auto file = jb::readJobFile(path.toStdString());
        QVERIFY2(file, file ? "" : file.error().c_str());

        // The CLI's flags: where RAPL and hwmon are read, and the library.
        const QString powercap = dir.filePath(QStringLiteral("powercap"));
        const QString hwmon = dir.filePath(QStringLiteral("hwmon"));
        const QString lib = dir.filePath(QStringLiteral("library.sqlite"));
        const QStringList args{QStringLiteral("joulebench-cli jobs"), QStringLiteral("run"), path,
                               QStringLiteral("--powercap-root"), powercap, QStringLiteral("--hwmon-root"), hwmon,
                               QStringLiteral("--library"), lib};
        QCommandLineParser p;
        p.addOption({QStringLiteral("dry-run"), QStringLiteral("")});
        p.addOption({QStringLiteral("nvidia-smi"), QStringLiteral(""), QStringLiteral("PATH")});
        p.addOption({QStringLiteral("library"), QStringLiteral(""), QStringLiteral("FILE|URL")});
        p.addOption({QStringLiteral("no-library"), QStringLiteral("")});
        jbcli::addCounterOptions(p);
        QVERIFY(p.parse(args));
        auto cli = jbcli::jobRunOptionsFrom(p);
        QVERIFY(cli);
        QCOMPARE(cli->counters.powercap_root, powercap.toStdString());

        // The dashboard started with the same counter settings and library.
        auto counters = jbcli::counterOptionsFrom(p);
        QVERIFY(counters);
        jb::JobsPage page;
        page.setCounterOptions(*counters);
        page.setLibrary(lib.toStdString());
        const jb::JobRunOptions gui = page.runOptions(false);

        const jb::LocalExecutorOptions ea = jb::localExecutorOptions(*file, *cli);
        const jb::LocalExecutorOptions eb = jb::localExecutorOptions(*file, gui);
        QCOMPARE(eb.counters.powercap_root, ea.counters.powercap_root);
        QCOMPARE(eb.counters.hwmon_root, ea.counters.hwmon_root);
        QCOMPARE(eb.counters.rapl_zone, ea.counters.rapl_zone);
        QCOMPARE(eb.counters.proc_root, ea.counters.proc_root);
        QCOMPARE(eb.counters.nvml_library, ea.counters.nvml_library);
        QCOMPARE(eb.counters.powercap_root, powercap.toStdString());
        QCOMPARE(eb.counters.hwmon_root, hwmon.toStdString());
        QCOMPARE(eb.nvml_library, ea.nvml_library);
        QCOMPARE(eb.nvml_library, std::string("/opt/nvml/libnvidia-ml.so.1"));  // the file's
        QCOMPARE(eb.nvidia_smi, ea.nvidia_smi);
        QCOMPARE(eb.proc_root, ea.proc_root);
        QCOMPARE(gui.library, cli->library);
        QCOMPARE(gui.dry_run, cli->dry_run);
        // The same executor for the same file.
        QVERIFY(std::dynamic_pointer_cast<jb::LocalExecutor>(jb::makeJobExecutor(*file, *cli)));
        QVERIFY(std::dynamic_pointer_cast<jb::LocalExecutor>(jb::makeJobExecutor(*file, gui)));
    }
};

QTEST_MAIN(TestRunParity)
#include "tst_runparity.moc"
