// The record library, the same tests on both drivers: SQLite in a temporary folder, and
// PostgreSQL on a private server this test starts (initdb + pg_ctl in a temporary folder,
// its Unix socket there, no TCP port) and stops at the end.
#include "../record/SyntheticRecord.h"
#include <jb/jobs/Manifest.h>
#include <jb/library/Library.h>
#include <jb/library/LibraryReport.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Interleaved.h>
#include <jb/record/RecordJson.h>
#include <jb/record/RecordLoad.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <unistd.h>

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Debian keeps initdb and pg_ctl out of PATH, under /usr/lib/postgresql/<major>/bin.
QString pgBinDir()
{
    if (!QStandardPaths::findExecutable(QStringLiteral("initdb")).isEmpty())
        return QFileInfo(QStandardPaths::findExecutable(QStringLiteral("initdb"))).absolutePath();
    QDir base(QStringLiteral("/usr/lib/postgresql"));
    QStringList majors = base.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    std::sort(majors.begin(), majors.end(), [](const QString& a, const QString& b) { return a.toInt() > b.toInt(); });
    for (const QString& m : majors)
        if (QFile::exists(base.filePath(m + QStringLiteral("/bin/initdb"))))
            return base.filePath(m + QStringLiteral("/bin"));
    return {};
}

class PgServer {
public:
    bool start(QString& why)
    {
        const QString bin = pgBinDir();
        if (bin.isEmpty()) {
            why = QStringLiteral("initdb not found (Debian: apt-get install postgresql; ./dev installs it)");
            return false;
        }
        initdb_ = bin + QStringLiteral("/initdb");
        pgctl_ = bin + QStringLiteral("/pg_ctl");
        // PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
        if (::geteuid() == 0) {
            const passwd* pw = ::getpwnam("postgres");
            if (!pw) {
                why = QStringLiteral("running as root and there is no 'postgres' user to run the server as");
                return false;
            }
            if (::chown(QFile::encodeName(dir_.path()).constData(), pw->pw_uid, pw->pw_gid) != 0) {
                why = QStringLiteral("cannot hand the temporary folder to the postgres user");
                return false;
            }
            prefix_ = {QStringLiteral("runuser"), QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--")};
        }
        const QString data = dir_.path() + QStringLiteral("/data");
        if (!runTool({initdb_, QStringLiteral("-D"), data, QStringLiteral("-U"), QStringLiteral("jb"),
                      QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("--no-sync"),
                      QStringLiteral("-E"), QStringLiteral("UTF8")},
                     why))
            return false;
        if (!runTool({pgctl_, QStringLiteral("-D"), data, QStringLiteral("-l"), dir_.path() + QStringLiteral("/log"),
                      QStringLiteral("-w"), QStringLiteral("-o"),
                      QStringLiteral("-k %1 -c listen_addresses= -F").arg(dir_.path()), QStringLiteral("start")},
                     why))
            return false;
        started_ = true;
        return true;
    }
    ~PgServer()
    {
        if (started_) {
            QString why;
            runTool({pgctl_, QStringLiteral("-D"), dir_.path() + QStringLiteral("/data"), QStringLiteral("-m"),
                     QStringLiteral("fast"), QStringLiteral("-w"), QStringLiteral("stop")},
                    why);
        }
    }
    // A fresh database on the server, as a library URL.
    QString newDatabase(const QString& name)
    {
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
            db.setHostName(dir_.path());
            db.setUserName(QStringLiteral("jb"));
            db.setDatabaseName(QStringLiteral("postgres"));
            if (db.open()) {
                QSqlQuery(db).exec(QStringLiteral("CREATE DATABASE ") + name);
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(QStringLiteral("admin"));
        return QStringLiteral("postgresql://jb@/%1?host=%2").arg(name, dir_.path());
    }
    QString log() const
    {
        QFile f(dir_.path() + QStringLiteral("/log"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().right(2000)) : QString();
    }

private:
    bool runTool(const QStringList& argv, QString& why)
    {
        QStringList full = prefix_ + argv;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(full.takeFirst(), full);
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            why = argv.value(0) + QStringLiteral(" failed: ") + QString::fromUtf8(p.readAll().right(1500));
            return false;
        }
        return true;
    }
    QTemporaryDir dir_{QStringLiteral("/tmp/jbpg-XXXXXX")};  // short: a socket path has ~100 bytes
    QString initdb_, pgctl_;
    QStringList prefix_;
    bool started_ = false;
};

// Raw SQL against a library, for building old schemas and breaking things on purpose.
bool rawExec(const QString& spec, const QStringList& statements, QString* error = nullptr)
{
    auto loc = jb::parseLibraryLocation(spec.toStdString());
    if (!loc)
        return false;
    bool ok = true;
    {
        const bool pg = loc->kind == jb::LibraryLocation::Kind::PostgreSQL;
        QSqlDatabase db = QSqlDatabase::addDatabase(pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
                                                    QStringLiteral("raw"));
        if (pg) {
            db.setHostName(q(loc->host));
            db.setUserName(q(loc->user));
            db.setDatabaseName(q(loc->database));
        } else {
            db.setDatabaseName(q(loc->file));
        }
        ok = db.open();
        for (const QString& s : statements) {
            QSqlQuery query(db);
            if (ok && !query.exec(s)) {
                ok = false;
                if (error)
                    *error = query.lastError().text() + QStringLiteral(" in ") + s;
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return ok;
}

// A record file: synthetic rounds at busy_w (idle 20 W), with label, meta and provenance.
QString writeRecord(const QString& path, const std::string& label, double busy_w, std::uint64_t seed,
                    const std::string& commit = {}, const std::string& started = {}, int q_meta = 3)
{
    jb::Record r = jbtest::syntheticRecord(5, seed, busy_w);
    r.label = label;
    r.meta = jb::ojson{{"q", q_meta}, {"codec", "demo"}};
    if (!commit.empty())
        r.extra["source"] = jb::ojson{{"git_commit", commit}, {"git_branch", "main"}, {"git_dirty", false}};
    if (!started.empty())
        r.extra["started_at"] = started;
    r.host.extra["hostname"] = "bench-1";
    QDir().mkpath(QFileInfo(path).absolutePath());
    const jb::Status st = jb::writeFileAtomic(path.toStdString(), jb::dumpRecord(r));
    return st ? path : QString();
}

}  // namespace

class TestLibrary : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    std::unique_ptr<PgServer> pg_;
    QString pgProblem_;
    int dbs_ = 0;

    // A fresh, empty library of the row's driver.
    QString freshLibrary()
    {
        QFETCH(QString, driver);
        if (driver == QLatin1String("sqlite"))
            return tmp_.path() + QStringLiteral("/lib%1/library.sqlite").arg(++dbs_);
        return pg_ ? pg_->newDatabase(QStringLiteral("jb%1").arg(++dbs_)) : QString();
    }
    void drivers()
    {
        QTest::addColumn<QString>("driver");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
#define NEED_DRIVER()                                                                   \
    do {                                                                                \
        QFETCH(QString, driver);                                                        \
        if (driver == QLatin1String("postgresql") && !pg_)                              \
            QFAIL(qPrintable(QStringLiteral("no PostgreSQL server: ") + pgProblem_));   \
    } while (0)

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        pg_ = std::make_unique<PgServer>();
        if (!pg_->start(pgProblem_))
            pg_.reset();
    }
    void cleanupTestCase() { pg_.reset(); }  // stops exactly the server it started

    void addListAndFilter_data() { drivers(); }
    void addListAndFilter()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY2(lib.ok(), lib.ok() ? "" : lib.error().c_str());
        const QString d = tmp_.path() + QStringLiteral("/add-%1").arg(dbs_);
        const QString a = writeRecord(d + QStringLiteral("/a.json"), "gate", 35, 1, "aaaa1111", "2026-01-10T10:00:00Z");
        const QString b = writeRecord(d + QStringLiteral("/sub/b.json"), "gate", 36, 2, "bbbb2222", "2026-02-10T10:00:00Z", 5);
        const QString c = writeRecord(d + QStringLiteral("/c.json"), "other", 30, 3, {}, "2026-03-10T10:00:00Z");
        QVERIFY(!a.isEmpty() && !b.isEmpty() && !c.isEmpty());
        for (const std::string& f : jb::recordFilesUnder(d.toStdString())) {
            auto r = (*lib)->addFile(f);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            QCOMPARE(int(r->outcome), int(jb::AddOutcome::Added));
        }
        auto all = (*lib)->list({});
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(3));
        QCOMPARE(q(all->front().path), QFileInfo(a).absoluteFilePath());  // oldest first
        // The stored figures are the record's own statistics.
        const jb::Record ra = *jb::loadRecord(a.toStdString());
        const jb::CounterSummary want = jb::summaryOf(ra, "rapl");
        const jb::CounterFigures* f = all->front().figuresOf("rapl");
        QVERIFY(f);
        QCOMPARE(f->summary.clean, want.clean);
        QCOMPARE(*f->summary.median_j_per_decode, *want.median_j_per_decode);
        QCOMPARE(*f->summary.max_j_per_decode, *want.max_j_per_decode);
        QVERIFY(f->s_per_decode && *f->s_per_decode > 0);
        QCOMPARE(all->front().commit.value_or(""), std::string("aaaa1111"));
        QCOMPARE(all->front().host, std::string("bench-1"));

        auto count = [&](const std::string& terms) -> int {
            auto query = jb::parseQuery(terms);
            if (!query)
                return -100;
            auto r = (*lib)->list(*query);
            return r ? int(r->size()) : -1;
        };
        QCOMPARE(count("label=gate"), 2);
        QCOMPARE(count("label=gate meta.q=3"), 1);
        QCOMPARE(count("meta.codec=demo"), 3);
        QCOMPARE(count("meta.q=5"), 1);
        QCOMPARE(count("host=bench-1"), 3);
        QCOMPARE(count("host=Linux"), 3);
        QCOMPARE(count("host=elsewhere"), 0);
        QCOMPARE(count("counter=rapl"), 3);
        QCOMPARE(count("counter=nvml:0"), 0);
        QCOMPARE(count("commit=bbbb"), 1);
        QCOMPARE(count("branch=main"), 2);
        QCOMPARE(count("since=2026-02-01"), 2);
        QCOMPARE(count("until=2026-02-10"), 2);  // a bare date: the whole day
        QCOMPARE(count("since=2026-02-01 until=2026-02-28"), 1);
        QVERIFY(!jb::parseQuery("colour=red").ok());
        QVERIFY(!jb::parseQuery("commit=xyz").ok());
        QVERIFY(!jb::parseQuery("since=yesterday").ok());
        // Item 10 of issue 30: a quoted value keeps its spaces; an open quote is named.
        const auto quoted = jb::parseQuery("label='nightly run' meta.note=\"a b\"c branch=main");
        QVERIFY2(quoted.ok(), quoted.ok() ? "" : quoted.error().c_str());
        QCOMPARE(quoted->label.value_or(""), std::string("nightly run"));
        QCOMPARE(quoted->meta.size(), std::size_t(1));
        QCOMPARE(quoted->meta[0].second, std::string("a bc"));
        QCOMPARE(quoted->branch.value_or(""), std::string("main"));
        const auto open = jb::parseQuery("label='nightly run");
        QVERIFY(!open.ok());
        QCOMPARE(open.error(), std::string("query term 'label='nightly run': the quote ' is not closed"));

        // The table's list (details false) reads only what it shows, and reads it the same.
        auto table = (*lib)->list({}, false, false);
        QVERIFY(table.ok());
        QCOMPARE(table->size(), all->size());
        for (std::size_t i = 0; i < all->size(); ++i) {
            const jb::LibraryEntry &t = (*table)[i], &e = (*all)[i];
            QCOMPARE(t.id, e.id);
            QCOMPARE(t.path, e.path);
            QCOMPARE(t.label, e.label);
            QCOMPARE(t.host, e.host);
            QCOMPARE(t.status, e.status);
            QCOMPARE(t.started_ms, e.started_ms);
            QCOMPARE(t.commit, e.commit);
            QCOMPARE(t.dirty, e.dirty);
            QVERIFY(t.sha256.empty() && t.meta.empty() && t.counters.empty() && t.tool.empty());
            QCOMPARE(t.figures.size(), e.figures.size());
            for (std::size_t k = 0; k < e.figures.size(); ++k) {
                const jb::CounterSummary &ts = t.figures[k].summary, &es = e.figures[k].summary;
                QCOMPARE(t.figures[k].counter, e.figures[k].counter);
                QCOMPARE(ts.rounds, es.rounds);
                QCOMPARE(ts.clean, es.clean);
                QCOMPARE(ts.no_verdict, es.no_verdict);
                QCOMPARE(ts.median_j_per_decode, es.median_j_per_decode);
                QCOMPARE(ts.min_j_per_decode, es.min_j_per_decode);
                QCOMPARE(ts.max_j_per_decode, es.max_j_per_decode);
                QCOMPARE(t.figures[k].s_per_decode, e.figures[k].s_per_decode);
            }
        }
        QCOMPARE(jb::libraryTable(*table), jb::libraryTable(*all));

        // Adding again changes nothing.
        auto again = (*lib)->addFile(a.toStdString());
        QVERIFY(again.ok());
        QCOMPARE(int(again->outcome), int(jb::AddOutcome::Unchanged));
        QCOMPARE(*(*lib)->count(), std::int64_t(3));
    }

    void isoTimeIsQtsIsoDate()
    {
        // `library list` formats each row's time by hand; it must read as Qt::ISODate does.
        for (const std::int64_t ms : {std::int64_t(0), std::int64_t(1), std::int64_t(999), std::int64_t(-1),
                                      std::int64_t(-86'400'001), std::int64_t(951'782'400'000) /* 2000-02-29 */,
                                      std::int64_t(1'764'574'741'123), std::int64_t(4'102'444'799'999),
                                      std::int64_t(253'402'300'799'000) /* 9999-12-31T23:59:59 */}) {
            const QString want = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
            QCOMPARE(QString::fromStdString(jb::isoTimeMs(ms)), want);
        }
    }

    void addsComparisonsAndManifests_data() { drivers(); }
    void addsComparisonsAndManifests()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY2(lib.ok(), lib.ok() ? "" : lib.error().c_str());
        const QString d = tmp_.path() + QStringLiteral("/kinds-%1").arg(dbs_);

        // A comparison record as `measure --out-dir` writes it: its children's records by name,
        // in its folder; a child without a record (null) is left out.
        const QString ra = writeRecord(d + QStringLiteral("/base.json"), "pair", 35, 1);
        const QString rb = writeRecord(d + QStringLiteral("/other.json"), "pair", 38, 2);
        QVERIFY(!ra.isEmpty() && !rb.isEmpty());
        jb::InterleavedInput in;
        for (const QString& f : {ra, rb, ra})
            in.records.push_back(*jb::loadRecord(f.toStdString()));
        in.names = {"base", "other", "lost"};
        in.files = {"base.json", "other.json", ""};
        for (int b = 0; b < 5; ++b)
            in.order.push_back({0, 1, 2});
        in.resamples = 200;
        const QString cmp = d + QStringLiteral("/comparison.json");
        QVERIFY(jb::writeFileAtomic(cmp.toStdString(), jb::interleavedComparison(in).dump(2) + "\n"));
        auto added = (*lib)->add(cmp.toStdString());
        QVERIFY2(added.ok(), added.ok() ? "" : added.error().c_str());
        QCOMPARE(int(added->kind), int(jb::LibraryFileKind::Comparison));
        QVERIFY(!added->result);
        QCOMPARE(added->members.size(), std::size_t(2));
        QCOMPARE(q(added->members[0].path), QFileInfo(ra).absoluteFilePath());
        QCOMPARE(q(added->members[1].path), QFileInfo(rb).absoluteFilePath());
        for (const jb::AddedMember& m : added->members) {
            QVERIFY2(m.result, m.error.c_str());
            QCOMPARE(int(m.result->outcome), int(jb::AddOutcome::Added));
        }
        QCOMPARE(*(*lib)->count(), std::int64_t(2));
        // A comparison naming a file that is not there: that member says so, the rest are added.
        jb::ojson broken = jb::interleavedComparison(in);
        broken["children"][1]["record"] = "gone.json";
        const QString cmp2 = d + QStringLiteral("/other-comparison.json");
        QVERIFY(jb::writeFileAtomic(cmp2.toStdString(), broken.dump(2)));
        auto part = (*lib)->addComparison(cmp2.toStdString());
        QVERIFY(part.ok());
        QCOMPARE(part->size(), std::size_t(2));
        QCOMPARE(int((*part)[0].result->outcome), int(jb::AddOutcome::Unchanged));
        QVERIFY(!(*part)[1].result);
        QVERIFY2(QString::fromStdString((*part)[1].error).contains(QLatin1String("gone.json")), (*part)[1].error.c_str());
        // A record is not a comparison.
        auto notCmp = (*lib)->addComparison(ra.toStdString());
        QVERIFY(!notCmp.ok());
        QVERIFY2(QString::fromStdString(notCmp.error()).contains(QLatin1String("not a comparison")), notCmp.error().c_str());

        // A job manifest (ours): one entry, the job the unit.
        jb::JobManifest m;
        m.job = {{"name", "train-a"}, {"argv", {"python", "train.py"}}};
        m.status = jb::JobStatus::Completed;
        m.return_code = 0;
        m.started_unix_time = 1785100000.5;
        m.completed_unix_time = 1785100012.0;
        m.driver_wall_seconds = 12.5;
        m.hardware.name = "NVIDIA H200";
        m.source = {{"git_commit", "cccc3333"}, {"git_branch", "main"}, {"git_dirty", true}};
        jb::JobEnergy energy;
        energy.idle_seconds = 5.0;
        jb::CounterEnergy rapl;
        rapl.spec = "rapl";
        rapl.marginal_j = 1234.5;
        rapl.verdict = jb::Verdict::Clean;
        jb::CounterEnergy nvml;
        nvml.spec = "nvml:0";
        nvml.available = false;
        nvml.reason = "no NVML";
        energy.counters = {{"rapl", rapl}, {"nvml:0", nvml}};
        m.energy = energy;
        m.joulebench_version = "0.1.0";
        const QString man = d + QStringLiteral("/run/train-a/manifest.json");
        QDir().mkpath(QFileInfo(man).absolutePath());
        QVERIFY(jb::writeJsonAtomic(man.toStdString(), m.toJson()));
        auto am = (*lib)->add(man.toStdString());
        QVERIFY2(am.ok(), am.ok() ? "" : am.error().c_str());
        QCOMPARE(int(am->kind), int(jb::LibraryFileKind::Manifest));
        QVERIFY(am->result);
        QCOMPARE(int(am->result->outcome), int(jb::AddOutcome::Added));
        auto jobs = (*lib)->list(*jb::parseQuery("label=train-a"), true);
        QVERIFY(jobs.ok());
        QCOMPARE(jobs->size(), std::size_t(1));
        const jb::LibraryEntry& je = jobs->front();
        QCOMPARE(je.status, std::string("completed"));
        QCOMPARE(je.started_ms, std::int64_t(1785100000500));
        QCOMPARE(je.commit.value_or(""), std::string("cccc3333"));
        QVERIFY(je.dirty && *je.dirty);
        QCOMPARE(je.host, std::string("local"));
        QCOMPARE(je.counters, (std::vector<std::string>{"nvml:0", "rapl"}));
        QCOMPARE(je.figures.size(), std::size_t(1));  // the unavailable counter has no figure
        const jb::CounterFigures& jf = je.figures.front();
        QCOMPARE(jf.counter, std::string("rapl"));
        QCOMPARE(jf.summary.clean, 1);
        QCOMPARE(*jf.summary.median_j_per_decode, 1234.5);
        QCOMPARE(jf.rounds.size(), std::size_t(1));
        QCOMPARE(*jf.s_per_decode, 12.5);
        // The same manifest again: unchanged; refresh knows it is a manifest, not a bad record.
        QCOMPARE(int((*lib)->addManifest(man.toStdString())->outcome), int(jb::AddOutcome::Unchanged));
        auto rep = (*lib)->refresh();
        QVERIFY(rep.ok());
        QCOMPARE(rep->unchanged, 3);
        QCOMPARE(rep->missing, 0);

        // The reference driver's manifest (no energy report): indexed by its experiment name.
        auto refm = (*lib)->add(JB_FIXTURES "/jobs/reference_manifest.json");
        QVERIFY2(refm.ok(), refm.ok() ? "" : refm.error().c_str());
        QCOMPARE(int(refm->kind), int(jb::LibraryFileKind::Manifest));
        auto refEntries = (*lib)->list(*jb::parseQuery("label=p2_vgg16_dfa_seed0"));
        QVERIFY(refEntries.ok());
        QCOMPARE(refEntries->size(), std::size_t(1));
        QCOMPARE(refEntries->front().status, std::string("completed"));

        // Something else: the record reader's message, naming the file.
        const QString other = d + QStringLiteral("/settings.json");
        QVERIFY(jb::writeFileAtomic(other.toStdString(), "{\"colour\": \"red\"}\n"));
        auto none = (*lib)->add(other.toStdString());
        QVERIFY(!none.ok());
        QVERIFY2(QString::fromStdString(none.error()).contains(QLatin1String("settings.json")), none.error().c_str());
        // A manifest missing what a manifest must have is refused with the reader's reason.
        QFile manFile(man);
        QVERIFY(manFile.open(QIODevice::ReadOnly));
        jb::ojson bad = jb::ojson::parse(manFile.readAll().toStdString());
        bad["status"] = "exploded";
        const QString badPath = d + QStringLiteral("/bad-manifest.json");
        QVERIFY(jb::writeFileAtomic(badPath.toStdString(), bad.dump(2)));
        auto badAdd = (*lib)->addManifest(badPath.toStdString());
        QVERIFY(!badAdd.ok());
        QVERIFY2(QString::fromStdString(badAdd.error()).contains(QLatin1String("bad-manifest.json")), badAdd.error().c_str());
        QCOMPARE(*(*lib)->count(), std::int64_t(4));
    }

    void changedMovedMissing_data() { drivers(); }
    void changedMovedMissing()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY2(lib.ok(), lib.ok() ? "" : lib.error().c_str());
        const QString d = tmp_.path() + QStringLiteral("/moves-%1").arg(dbs_);
        const QString a = writeRecord(d + QStringLiteral("/a.json"), "m", 35, 1);
        QVERIFY((*lib)->addFile(a.toStdString()).ok());
        // Changed in place: re-indexed, its figures follow the new content.
        writeRecord(a, "m", 45, 1);
        auto r = (*lib)->addFile(a.toStdString());
        QVERIFY(r.ok());
        QCOMPARE(int(r->outcome), int(jb::AddOutcome::Reindexed));
        auto one = (*lib)->list({});
        QCOMPARE(one->size(), std::size_t(1));
        QCOMPARE(*one->front().figuresOf("rapl")->summary.median_j_per_decode,
                 *jb::summaryOf(*jb::loadRecord(a.toStdString()), "rapl").median_j_per_decode);
        // Moved: same bytes, new path, old one gone.
        const QString moved = d + QStringLiteral("/moved.json");
        QVERIFY(QFile::rename(a, moved));
        r = (*lib)->addFile(moved.toStdString());
        QVERIFY(r.ok());
        QCOMPARE(int(r->outcome), int(jb::AddOutcome::Moved));
        QCOMPARE(q(r->moved_from), QFileInfo(a).absoluteFilePath());
        QCOMPARE(*(*lib)->count(), std::int64_t(1));
        // Gone: refresh marks it missing; list leaves it out unless asked.
        const QString b = writeRecord(d + QStringLiteral("/b.json"), "m", 35, 2);
        QVERIFY((*lib)->addFile(b.toStdString()).ok());
        QVERIFY(QFile::remove(moved));
        writeRecord(b, "m", 50, 2);
        auto rep = (*lib)->refresh();
        QVERIFY2(rep.ok(), rep.ok() ? "" : rep.error().c_str());
        QCOMPARE(rep->missing, 1);
        QCOMPARE(rep->reindexed, 1);
        QCOMPARE((*lib)->list({})->size(), std::size_t(1));
        jb::LibraryQuery withMissing;
        withMissing.include_missing = true;
        auto both = (*lib)->list(withMissing);
        QCOMPARE(both->size(), std::size_t(2));
        QVERIFY(both->front().missing);
    }

    void transactionLeavesNothingHalfDone_data() { drivers(); }
    void transactionLeavesNothingHalfDone()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY(lib.ok());
        const jb::Record r = jbtest::syntheticRecord(3, 1, 35);
        jb::LibraryEntry good = jb::entryFromRecord(r, "/x/good.json", "11", 10, 0);
        jb::LibraryEntry bad = jb::entryFromRecord(r, "/x/bad.json", "22", 10, 0);
        bad.figures.push_back(bad.figures.front());  // the same counter twice: the insert fails midway
        std::vector<jb::LibraryEntry> batch{good, bad};
        const jb::Status st = (*lib)->addEntries(batch);
        QVERIFY(!st.ok());
        QCOMPARE(*(*lib)->count(), std::int64_t(0));  // the good one went with it
        QVERIFY((*lib)->addEntries({good}).ok());     // and the library still works
        QCOMPARE(*(*lib)->count(), std::int64_t(1));
    }

    void migratesFromEveryEarlierVersion_data() { drivers(); }
    void migratesFromEveryEarlierVersion()
    {
        NEED_DRIVER();
        for (int v = 1; v < jb::Library::kSchemaVersion; ++v) {
            const QString spec = freshLibrary();
            QVERIFY(jb::Library::createAtVersion(spec.toStdString(), v).ok());
            // Records indexed by that version (the columns of version 1, which all later keep).
            QString error;
            QStringList rows;
            for (const char* name : {"r", "s", "t"})
                rows << QStringLiteral("INSERT INTO jb_records (path, sha256, size_bytes, missing, label, meta, host, "
                                       "host_system, host_machine, counters, status, started_ms, tool, indexed_ms) "
                                       "VALUES ('/old/%1.json', 'ab', 1, 0, 'old', '{\"q\":3,\"c\":\"%1\"}', "
                                       "'h', 'Linux', 'x86_64', '[\"rapl\"]', 'complete', 1000, 'joulebench 0.1.0', "
                                       "1000)")
                            .arg(QString::fromLatin1(name));
            QVERIFY2(rawExec(spec, rows, &error), qPrintable(error));
            auto lib = jb::Library::open(spec.toStdString());
            QVERIFY2(lib.ok(), lib.ok() ? "" : lib.error().c_str());
            QCOMPARE((*lib)->schemaVersionFound(), v);
            auto found = (*lib)->list(*jb::parseQuery("label=old meta.q=3"));
            QVERIFY2(found.ok(), found.ok() ? "" : found.error().c_str());
            QCOMPARE(found->size(), std::size_t(3));  // every row's meta migrated
            QCOMPARE((*lib)->list(*jb::parseQuery("meta.c=t"))->size(), std::size_t(1));
            lib->reset();
            auto reopened = jb::Library::open(spec.toStdString());
            QVERIFY(reopened.ok());
            QCOMPARE((*reopened)->schemaVersionFound(), jb::Library::kSchemaVersion);
        }
    }

    void newerSchemaIsRefusedAndRebuilt_data() { drivers(); }
    void newerSchemaIsRefusedAndRebuilt()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        const QString d = tmp_.path() + QStringLiteral("/newer-%1").arg(dbs_);
        const QString a = writeRecord(d + QStringLiteral("/a.json"), "n", 35, 1);
        {
            auto lib = jb::Library::open(spec.toStdString());
            QVERIFY(lib.ok());
            QVERIFY((*lib)->addFile(a.toStdString()).ok());
        }
        QVERIFY(rawExec(spec, {QStringLiteral("UPDATE jb_schema SET version = 99")}));
        auto refused = jb::Library::open(spec.toStdString());
        QVERIFY(!refused.ok());
        QVERIFY2(q(refused.error()).contains(QLatin1String("schema version 99, newer")), refused.error().c_str());
        QVERIFY2(q(refused.error()).contains(QLatin1String("library rebuild")), refused.error().c_str());
        auto rebuilt = jb::rebuildLibrary(spec.toStdString(), {});
        QVERIFY2(rebuilt.ok(), rebuilt.ok() ? "" : rebuilt.error().c_str());
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY2(lib.ok(), lib.ok() ? "" : lib.error().c_str());
        QCOMPARE(*(*lib)->count(), std::int64_t(1));  // from the paths the old library listed
    }

    void corruptFileIsRefusedAndRebuilt()
    {
        const QString dir = tmp_.path() + QStringLiteral("/corrupt");
        QDir().mkpath(dir);
        const QString file = dir + QStringLiteral("/library.sqlite");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'x'));
        }
        auto refused = jb::Library::open(file.toStdString());
        QVERIFY(!refused.ok());
        QVERIFY2(q(refused.error()).contains(QLatin1String("not a readable SQLite database")), refused.error().c_str());
        QVERIFY2(q(refused.error()).contains(QLatin1String("library rebuild --library ") + file), refused.error().c_str());
        // A SQLite database of something else is not taken over either.
        const QString foreign = dir + QStringLiteral("/foreign.sqlite");
        QVERIFY(rawExec(foreign, {QStringLiteral("CREATE TABLE photos (id INTEGER)")}));
        auto notOurs = jb::Library::open(foreign.toStdString());
        QVERIFY(!notOurs.ok());
        QVERIFY2(q(notOurs.error()).contains(QLatin1String("not a JouleBench library")), notOurs.error().c_str());
        // Rebuild from a folder: the broken file is kept aside.
        const QString recs = dir + QStringLiteral("/records");
        writeRecord(recs + QStringLiteral("/a.json"), "c", 35, 1);
        writeRecord(recs + QStringLiteral("/b.json"), "c", 35, 2);
        auto rebuilt = jb::rebuildLibrary(file.toStdString(), {recs.toStdString()});
        QVERIFY2(rebuilt.ok(), rebuilt.ok() ? "" : rebuilt.error().c_str());
        QCOMPARE(QDir(dir).entryList({QStringLiteral("library.sqlite.broken-*")}).size(), qsizetype(1));
        auto lib = jb::Library::open(file.toStdString());
        QVERIFY(lib.ok());
        QCOMPARE(*(*lib)->count(), std::int64_t(2));
    }

    void twoProcessesAddAtOnce_data() { drivers(); }
    void twoProcessesAddAtOnce()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        const QString d = tmp_.path() + QStringLiteral("/busy-%1").arg(dbs_);
        constexpr int kEach = 25;
        for (int i = 0; i < kEach; ++i) {
            QVERIFY(!writeRecord(d + QStringLiteral("/one/r%1.json").arg(i), "p1", 35, std::uint64_t(i + 1)).isEmpty());
            QVERIFY(!writeRecord(d + QStringLiteral("/two/r%1.json").arg(i), "p2", 35, std::uint64_t(i + 100)).isEmpty());
        }
        // Both start on an empty library (neither has made the schema yet).
        QProcess one, two;
        const QString cli = QStringLiteral(JB_BIN_DIR "/joulebench-cli");
        one.start(cli, {QStringLiteral("library"), QStringLiteral("add"), QStringLiteral("--quiet"),
                        QStringLiteral("--library"), spec, d + QStringLiteral("/one")});
        two.start(cli, {QStringLiteral("library"), QStringLiteral("add"), QStringLiteral("--quiet"),
                        QStringLiteral("--library"), spec, d + QStringLiteral("/two")});
        QVERIFY(one.waitForFinished(120000));
        QVERIFY(two.waitForFinished(120000));
        QVERIFY2(one.exitCode() == 0, one.readAllStandardError().constData());
        QVERIFY2(two.exitCode() == 0, two.readAllStandardError().constData());
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY(lib.ok());
        QCOMPARE(*(*lib)->count(), std::int64_t(2 * kEach));  // nothing lost
        QCOMPARE((*lib)->list(*jb::parseQuery("label=p2"))->size(), std::size_t(kEach));
    }

    void gateUsesTheStatisticsOfCompare_data() { drivers(); }
    void gateUsesTheStatisticsOfCompare()
    {
        NEED_DRIVER();
        const QString spec = freshLibrary();
        auto lib = jb::Library::open(spec.toStdString());
        QVERIFY(lib.ok());
        const QString d = tmp_.path() + QStringLiteral("/gate-%1").arg(dbs_);
        const QString base = writeRecord(d + QStringLiteral("/base.json"), "g", 35, 1);
        QVERIFY((*lib)->addFile(base.toStdString()).ok());
        const QString worse = writeRecord(d + QStringLiteral("/worse.json"), "g", 38, 2);  // +20 % marginal
        const QString same = writeRecord(d + QStringLiteral("/same.json"), "g", 35, 3);
        auto baseline = (*lib)->list(*jb::parseQuery("label=g"), true);
        QVERIFY(baseline.ok());
        QCOMPARE(baseline->front().figuresOf("rapl")->rounds.size(), std::size_t(5));
        const jb::Record rw = *jb::loadRecord(worse.toStdString());
        const jb::GateResult g = jb::energyGate(rw, *baseline, "rapl", 5);
        // One baseline record: the same numbers as `compare worse base`.
        const jb::Comparison c = jb::compareRecords(rw, *jb::loadRecord(base.toStdString()), "rapl");
        QCOMPARE(*g.comparison.ratio, *c.ratio);
        QCOMPARE(*g.comparison.ci_low, *c.ci_low);
        QVERIFY2(g.regression, g.reason.c_str());
        const jb::GateResult ok = jb::energyGate(*jb::loadRecord(same.toStdString()), *baseline, "rapl", 5);
        QVERIFY2(!ok.regression && ok.compared, ok.reason.c_str());
        const jb::GateResult none = jb::energyGate(rw, {}, "rapl", 5);
        QVERIFY(!none.regression && !none.compared);
    }
};

QTEST_GUILESS_MAIN(TestLibrary)
#include "tst_library.moc"
