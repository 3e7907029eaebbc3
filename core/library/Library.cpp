#include <jb/library/Library.h>

#include <jb/base/QtText.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/RecordJson.h>
#include <jb/record/RecordLoad.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <unordered_map>

namespace jb {

namespace {

QVariant nullText()
{
    return QVariant(QMetaType::fromType<QString>());
}
QVariant nullReal()
{
    return QVariant(QMetaType::fromType<double>());
}
QVariant opt(const std::optional<std::string>& v)
{
    return v ? QVariant(qtext(*v)) : nullText();
}
QVariant opt(const std::optional<double>& v)
{
    return v ? QVariant(*v) : nullReal();
}
std::optional<std::string> optText(const QVariant& v)
{
    return v.isNull() ? std::nullopt : std::optional(stdtext(v.toString()));
}
std::optional<double> optReal(const QVariant& v)
{
    return v.isNull() ? std::nullopt : std::optional(v.toDouble());
}

std::string sqlError(const QSqlError& e)
{
    std::string t = stdtext(e.text().trimmed());
    return t.empty() ? "unknown database error" : t;
}

std::string rebuildHint(const LibraryLocation& loc)
{
    return "; to rebuild it from the record files, run: joulebench-cli library rebuild --library " + loc.display +
        " [FOLDER...] (the record files it lists are read again" +
        (loc.kind == LibraryLocation::Kind::SQLite ? std::string(", the old file is kept as FILE.broken-TIME)")
                                                   : std::string(")"));
}

// Where writing a SQLite library fails for its folder's sake (read-only, another user's), the
// folder is named: SQLite makes its journal file beside the library, so the file itself may be
// writable and still take no change. Empty where the folder takes files (or for PostgreSQL).
std::string folderNote(const LibraryLocation& loc)
{
    if (loc.kind != LibraryLocation::Kind::SQLite)
        return {};
    const std::string folder = parentFolder(loc.file);
    if (Status st = checkFolderTakesFiles(folder); !st)
        return " (the folder " + folder + " takes no new file: " + st.error().substr(st.error().rfind(": ") + 2) +
            "; SQLite writes a journal file beside the library)";
    return {};
}

// ---- schema: one step per version; step v makes version v from version v-1.

std::vector<std::string> schemaStep(int to, bool pg)
{
    const std::string id = pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY";
    if (to == 1)
        return {
            "CREATE TABLE jb_schema (version INTEGER NOT NULL)",
            "CREATE TABLE jb_records (id " + id +
                ", path TEXT NOT NULL UNIQUE, sha256 TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
                " missing INTEGER NOT NULL DEFAULT 0, label TEXT, meta TEXT NOT NULL, host TEXT NOT NULL,"
                " host_system TEXT NOT NULL, host_machine TEXT NOT NULL, counters TEXT NOT NULL,"
                " status TEXT NOT NULL, started_ms BIGINT NOT NULL, tool TEXT NOT NULL, commit_id TEXT,"
                " branch TEXT, dirty INTEGER, indexed_ms BIGINT NOT NULL)",
            "CREATE INDEX jb_records_label ON jb_records (label, started_ms)",
            "CREATE INDEX jb_records_started ON jb_records (started_ms)",
            "CREATE INDEX jb_records_sha ON jb_records (sha256)",
            "CREATE TABLE jb_figures (record_id BIGINT NOT NULL, counter TEXT NOT NULL, rounds INTEGER NOT NULL,"
            " clean INTEGER NOT NULL, relative_only INTEGER NOT NULL, noisy INTEGER NOT NULL,"
            " unusable INTEGER NOT NULL, no_verdict INTEGER NOT NULL, median_j DOUBLE PRECISION,"
            " min_j DOUBLE PRECISION, max_j DOUBLE PRECISION, s_per_decode DOUBLE PRECISION,"
            " outliers TEXT NOT NULL, PRIMARY KEY (record_id, counter))",
            "CREATE TABLE jb_rounds (record_id BIGINT NOT NULL, counter TEXT NOT NULL, round_index INTEGER NOT NULL,"
            " j_per_decode DOUBLE PRECISION NOT NULL, PRIMARY KEY (record_id, counter, round_index))",
        };
    if (to == 2)  // meta terms as rows, so `meta.KEY=V` is an indexed look-up; filled by migrateMeta
        return {
            "CREATE TABLE jb_meta (record_id BIGINT NOT NULL, meta_key TEXT NOT NULL, meta_value TEXT NOT NULL,"
            " PRIMARY KEY (record_id, meta_key))",
            "CREATE INDEX jb_meta_kv ON jb_meta (meta_key, meta_value)",
        };
    return {};
}

// jb_records.missing: 0 the file is there, 1 it was gone, 2 it was there but unreadable.
constexpr int kMissingUnreadable = 2;

// A record file missing from a folder this machine sees. A library may hold paths of other
// machines (a shared database, a copied file): where the folder is not here, nothing is judged.
bool fileGoneHere(const std::string& path)
{
    const QFileInfo f(qtext(path));
    return !f.exists() && f.absoluteDir().exists();
}

Status run(QSqlQuery& query, const char* what)
{
    if (!query.exec())
        return Error{std::string(what) + ": " + sqlError(query.lastError())};
    return Ok{};
}

std::int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

std::string countersText(const std::vector<std::string>& c)
{
    return dumpJson(ojson(c), -1);
}

// The WHERE clause of a query, with its values in binding order.
struct Where {
    QString sql;
    QVariantList values;
};
Where whereOf(const LibraryQuery& lq)
{
    QStringList terms;
    Where w;
    auto add = [&](const QString& t, std::initializer_list<QVariant> vs) {
        terms << t;
        for (const QVariant& v : vs)
            w.values << v;
    };
    if (!lq.include_missing)
        terms << QStringLiteral("r.missing = 0");
    if (lq.label)
        add(QStringLiteral("r.label = ?"), {qtext(*lq.label)});
    if (lq.host)
        add(QStringLiteral("(r.host = ? OR r.host_system = ? OR r.host_machine = ?)"),
            {qtext(*lq.host), qtext(*lq.host), qtext(*lq.host)});
    if (lq.counter)
        add(QStringLiteral("EXISTS (SELECT 1 FROM jb_figures f2 WHERE f2.record_id = r.id AND f2.counter = ?)"),
            {qtext(*lq.counter)});
    if (lq.commit)
        add(QStringLiteral("r.commit_id LIKE ?"), {QString(qtext(*lq.commit) + QLatin1Char('%'))});
    if (lq.branch)
        add(QStringLiteral("r.branch = ?"), {qtext(*lq.branch)});
    if (lq.status)
        add(QStringLiteral("r.status = ?"), {qtext(*lq.status)});
    for (const auto& [k, v] : lq.meta)
        add(QStringLiteral("EXISTS (SELECT 1 FROM jb_meta m WHERE m.record_id = r.id AND m.meta_key = ? AND "
                           "m.meta_value = ?)"),
            {qtext(k), qtext(v)});
    if (lq.since_ms)
        add(QStringLiteral("r.started_ms >= ?"), {qint64(*lq.since_ms)});
    if (lq.until_ms)
        add(QStringLiteral("r.started_ms <= ?"), {qint64(*lq.until_ms)});
    for (const std::string& sha : lq.exclude_sha256)
        add(QStringLiteral("r.sha256 <> ?"), {qtext(sha)});
    w.sql = terms.isEmpty() ? QString() : QStringLiteral(" WHERE ") + terms.join(QStringLiteral(" AND "));
    return w;
}

void bindAll(QSqlQuery& query, const QVariantList& values)
{
    for (const QVariant& v : values)
        query.addBindValue(v);
}

}  // namespace

// ---- location

Result<LibraryLocation> parseLibraryLocation(const std::string& spec)
{
    LibraryLocation loc;
    if (spec.empty())
        return Error{"no library given (an empty --library or JOULEBENCH_LIBRARY)"};
    const QString text = qtext(spec);
    if (text.startsWith(QLatin1String("postgresql://")) || text.startsWith(QLatin1String("postgres://"))) {
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid())
            return Error{"library URL '" + spec + "' is not a valid URL: " + stdtext(url.errorString())};
        loc.kind = LibraryLocation::Kind::PostgreSQL;
        loc.host = stdtext(url.host());
        loc.port = url.port(-1);
        loc.user = stdtext(url.userName());
        loc.password = stdtext(url.password());
        loc.database = stdtext(url.path().mid(1));
        const QUrlQuery query(url);
        if (query.hasQueryItem(QStringLiteral("host")))  // a Unix socket folder, as libpq takes it
            loc.host = stdtext(query.queryItemValue(QStringLiteral("host"), QUrl::FullyDecoded));
        if (loc.database.empty())
            return Error{"library URL '" + spec + "' names no database (postgresql://USER@HOST:PORT/DATABASE)"};
        QUrl shown = url;
        shown.setPassword(QString());
        loc.display = stdtext(shown.toString());
        return loc;
    }
    if (text.contains(QLatin1String("://")))
        return Error{"library '" + spec + "': only files and postgresql:// URLs are libraries"};
    loc.file = stdtext(QFileInfo(text).absoluteFilePath());
    loc.display = loc.file;
    return loc;
}

std::string defaultLibraryPath()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return stdtext(base + QStringLiteral("/joulebench/library.sqlite"));
}

std::string librarySpec(const std::string& flag)
{
    if (!flag.empty())
        return flag;
    const QByteArray env = qgetenv("JOULEBENCH_LIBRARY");
    if (!env.isEmpty())
        return env.toStdString();
    return defaultLibraryPath();
}

const char* addOutcomeName(AddOutcome o)
{
    switch (o) {
    case AddOutcome::Added: return "added";
    case AddOutcome::Unchanged: return "unchanged";
    case AddOutcome::Reindexed: return "re-indexed";
    case AddOutcome::Moved: return "moved";
    }
    return "?";
}

std::vector<std::string> recordFilesUnder(const std::string& path)
{
    const QFileInfo fi(qtext(path));
    if (!fi.isDir())
        return {path};
    std::vector<std::string> out;
    QDirIterator it(qtext(path), {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.push_back(stdtext(it.next()));
    std::sort(out.begin(), out.end());
    return out;
}

// ---- connection

Library::~Library()
{
    {
        QSqlDatabase db = QSqlDatabase::database(connection_, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(connection_);
}

Status Library::connect()
{
    static std::atomic<int> counter{0};
    connection_ = QStringLiteral("jb-library-%1").arg(++counter);
    const bool pg = loc_.kind == LibraryLocation::Kind::PostgreSQL;
    QSqlDatabase db = QSqlDatabase::addDatabase(pg ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), connection_);
    if (!db.isValid())
        return Error{pg ? "Qt's PostgreSQL driver (QPSQL) is not installed (Debian: libqt6sql6-psql)"
                        : "Qt's SQLite driver (QSQLITE) is not installed (Debian: libqt6sql6-sqlite)"};
    if (pg) {
        db.setHostName(qtext(loc_.host));
        if (loc_.port > 0)
            db.setPort(loc_.port);
        db.setUserName(qtext(loc_.user));
        db.setPassword(qtext(loc_.password));
        db.setDatabaseName(qtext(loc_.database));
        db.setConnectOptions(QStringLiteral("connect_timeout=10"));
    } else {
        const QFileInfo fi(qtext(loc_.file));
        if (fi.exists() && !fi.isFile())
            return Error{"library " + loc_.display + " is not a file"};
        if (!QDir().mkpath(fi.absolutePath()))
            return Error{"library " + loc_.display + ": cannot make the folder " + stdtext(fi.absolutePath())};
        db.setDatabaseName(qtext(loc_.file));
        // A writer waits up to 60 s for another one (two `library add` at once) instead of failing.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=60000"));
    }
    if (!db.open())
        return Error{"cannot open library " + loc_.display + ": " + sqlError(db.lastError()) + folderNote(loc_)};
    return Ok{};
}

Status Library::exec(const std::string& sql)
{
    QSqlQuery query(QSqlDatabase::database(connection_));
    if (!query.exec(qtext(sql)))
        return Error{sqlError(query.lastError()) + " (in: " + sql.substr(0, 60) + ")"};
    return Ok{};
}

Status Library::begin()
{
    if (loc_.kind == LibraryLocation::Kind::SQLite)
        return exec("BEGIN IMMEDIATE");  // the write lock now, so writers queue instead of deadlocking
    if (Status st = exec("BEGIN"); !st)
        return st;
    // Writers of a shared database queue on one advisory lock (released at COMMIT/ROLLBACK).
    if (Status st = exec("SELECT pg_advisory_xact_lock(7242018)"); !st) {
        rollback();
        return st;
    }
    return Ok{};
}

Status Library::commit()
{
    return exec("COMMIT");
}

void Library::rollback()
{
    (void)exec("ROLLBACK");
}

Status Library::prepareSchema()
{
    const bool pg = loc_.kind == LibraryLocation::Kind::PostgreSQL;
    QSqlDatabase db = QSqlDatabase::database(connection_);
    auto hasSchemaTable = [&]() { return db.tables().contains(QStringLiteral("jb_schema")); };
    auto readVersion = [&]() -> Result<int> {
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SELECT version FROM jb_schema")))
            return Error{sqlError(query.lastError())};
        if (!query.next())
            return Error{"its jb_schema table is empty"};
        return query.value(0).toInt();
    };
    if (!hasSchemaTable()) {
        // A SQLite file that is not a database fails here, with SQLite's reason.
        if (!pg) {
            QSqlQuery probe(db);
            if (!probe.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")))
                return Error{"library " + loc_.display + " is not a readable SQLite database (" +
                             sqlError(probe.lastError()) + ")" + rebuildHint(loc_)};
            const QStringList others = db.tables();
            // jb_schema among them: another process made the library since the look above (two
            // first adds at once); the transaction below reads its version under the lock.
            // Another program's database: not JouleBench's to rebuild (that would move it aside).
            if (!others.isEmpty() && !others.contains(QStringLiteral("jb_schema")))
                return Error{"library " + loc_.display + " is a SQLite database but not a JouleBench library (it has " +
                             "tables " + stdtext(others.join(QStringLiteral(", "))) + " and no jb_schema): it may be " +
                             "another program's; give JouleBench a library file of its own (--library FILE or " +
                             "JOULEBENCH_LIBRARY), and leave this one as it is"};
        }
        found_version_ = 0;
    } else {
        auto v = readVersion();
        if (!v)
            return Error{"library " + loc_.display + " has no readable schema version (" + v.error() + ")" +
                         rebuildHint(loc_)};
        found_version_ = *v;
        if (*v > kSchemaVersion)
            return Error{"library " + loc_.display + " has schema version " + std::to_string(*v) +
                         ", newer than this JouleBench's (" + std::to_string(kSchemaVersion) +
                         "): use a newer JouleBench with it" + rebuildHint(loc_)};
        if (*v == kSchemaVersion)
            return Ok{};
    }
    // Create or migrate, in one transaction; another process may have done it meanwhile.
    if (Status st = begin(); !st)
        return Error{"library " + loc_.display + ": " + st.error()};
    int v = 0;
    if (hasSchemaTable()) {
        auto rv = readVersion();
        if (!rv) {
            rollback();
            return Error{"library " + loc_.display + ": " + rv.error() + rebuildHint(loc_)};
        }
        v = *rv;
    }
    for (int to = v + 1; to <= kSchemaVersion; ++to) {
        for (const std::string& sql : schemaStep(to, pg))
            if (Status st = exec(sql); !st) {
                rollback();
                return Error{"library " + loc_.display + ": migrating to schema version " + std::to_string(to) +
                             " failed: " + st.error() + rebuildHint(loc_)};
            }
        if (to == 2) {  // version 2's data: every record's meta keys as jb_meta rows
            // All rows read first: PostgreSQL's driver cannot keep a result open across inserts.
            std::vector<std::pair<QVariant, std::string>> rows;
            {
                QSqlQuery read(db);
                read.setForwardOnly(true);
                if (!read.exec(QStringLiteral("SELECT id, meta FROM jb_records"))) {
                    rollback();
                    return Error{"library " + loc_.display + ": migrating meta: " + sqlError(read.lastError())};
                }
                while (read.next())
                    rows.emplace_back(read.value(0), stdtext(read.value(1).toString()));
            }
            QSqlQuery ins(db);
            ins.prepare(QStringLiteral("INSERT INTO jb_meta (record_id, meta_key, meta_value) VALUES (?, ?, ?)"));
            for (const auto& [id, text] : rows) {
                const ojson meta = ojson::parse(text, nullptr, false);
                if (!meta.is_object())
                    continue;
                for (auto it = meta.begin(); it != meta.end(); ++it) {
                    ins.addBindValue(id);
                    ins.addBindValue(qtext(it.key()));
                    ins.addBindValue(qtext(metaValueText(it.value())));
                    if (!ins.exec()) {
                        rollback();
                        return Error{"library " + loc_.display + ": migrating meta: " + sqlError(ins.lastError())};
                    }
                }
            }
        }
    }
    Status st = v == 0 ? exec("INSERT INTO jb_schema (version) VALUES (" + std::to_string(kSchemaVersion) + ")")
                       : exec("UPDATE jb_schema SET version = " + std::to_string(kSchemaVersion));
    if (!st) {
        rollback();
        return Error{"library " + loc_.display + ": " + st.error()};
    }
    if (Status c = commit(); !c)
        return Error{"library " + loc_.display + ": " + c.error()};
    return Ok{};
}

Result<std::unique_ptr<Library>> Library::open(const std::string& spec, bool create)
{
    auto loc = parseLibraryLocation(spec);
    if (!loc)
        return Error{loc.error()};
    if (!create && loc->kind == LibraryLocation::Kind::SQLite && !QFileInfo::exists(qtext(loc->file)))
        return Error{"library " + loc->display + " does not exist (a misspelt path?); 'library add' makes one, "
                     "or pass --create to start an empty one"};
    std::unique_ptr<Library> lib(new Library);
    lib->loc_ = *loc;
    if (Status st = lib->connect(); !st)
        return Error{st.error()};
    if (Status st = lib->prepareSchema(); !st)
        return Error{st.error()};
    return lib;
}

Status Library::createAtVersion(const std::string& spec, int version)
{
    auto loc = parseLibraryLocation(spec);
    if (!loc)
        return Error{loc.error()};
    std::unique_ptr<Library> lib(new Library);
    lib->loc_ = *loc;
    if (Status st = lib->connect(); !st)
        return st;
    const bool pg = loc->kind == LibraryLocation::Kind::PostgreSQL;
    if (Status st = lib->begin(); !st)
        return st;
    for (int to = 1; to <= version; ++to)
        for (const std::string& sql : schemaStep(to, pg))
            if (Status st = lib->exec(sql); !st) {
                lib->rollback();
                return st;
            }
    if (Status st = lib->exec("INSERT INTO jb_schema (version) VALUES (" + std::to_string(version) + ")"); !st) {
        lib->rollback();
        return st;
    }
    return lib->commit();
}

// ---- writing

Status Library::insertDetails(const LibraryEntry& e)
{
    // On an error, the transaction is rolled back here, before the prepared statements are freed:
    // PostgreSQL refuses to free them inside an aborted transaction.
    auto failed = [this](const Status& st) {
        rollback();
        return st;
    };
    QSqlDatabase db = QSqlDatabase::database(connection_);
    QSqlQuery fig(db), rnd(db), meta(db);
    fig.prepare(QStringLiteral(
        "INSERT INTO jb_figures (record_id, counter, rounds, clean, relative_only, noisy, unusable, no_verdict,"
        " median_j, min_j, max_j, s_per_decode, outliers) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    rnd.prepare(QStringLiteral(
        "INSERT INTO jb_rounds (record_id, counter, round_index, j_per_decode) VALUES (?, ?, ?, ?)"));
    meta.prepare(QStringLiteral("INSERT INTO jb_meta (record_id, meta_key, meta_value) VALUES (?, ?, ?)"));
    for (const CounterFigures& f : e.figures) {
        const CounterSummary& m = f.summary;
        for (const QVariant& v :
             {QVariant(qint64(e.id)), QVariant(qtext(f.counter)), QVariant(m.rounds), QVariant(m.clean),
              QVariant(m.relative_only), QVariant(m.noisy), QVariant(m.unusable), QVariant(m.no_verdict),
              opt(m.median_j_per_decode), opt(m.min_j_per_decode), opt(m.max_j_per_decode), opt(f.s_per_decode),
              QVariant(qtext(dumpJson(ojson(m.outlier_rounds), -1)))})
            fig.addBindValue(v);
        if (Status st = run(fig, "storing figures"); !st)
            return failed(st);
        for (const RoundJ& r : f.rounds) {
            rnd.addBindValue(qint64(e.id));
            rnd.addBindValue(qtext(f.counter));
            rnd.addBindValue(r.round);
            rnd.addBindValue(r.j_per_decode);
            if (Status st = run(rnd, "storing rounds"); !st)
                return failed(st);
        }
    }
    if (e.meta.is_object())
        for (auto it = e.meta.begin(); it != e.meta.end(); ++it) {
            meta.addBindValue(qint64(e.id));
            meta.addBindValue(qtext(it.key()));
            meta.addBindValue(qtext(metaValueText(it.value())));
            if (Status st = run(meta, "storing meta"); !st)
                return failed(st);
        }
    return Ok{};
}

namespace {

const char* kRecordColumns =
    "path, sha256, size_bytes, missing, label, meta, host, host_system, host_machine, counters, status,"
    " started_ms, tool, commit_id, branch, dirty, indexed_ms";

void bindRecord(QSqlQuery& query, const LibraryEntry& e)
{
    for (const QVariant& v :
         {QVariant(qtext(e.path)), QVariant(qtext(e.sha256)), QVariant(qint64(e.size_bytes)), QVariant(e.missing ? 1 : 0),
          opt(e.label), QVariant(qtext(dumpJson(e.meta, -1))), QVariant(qtext(e.host)), QVariant(qtext(e.host_system)),
          QVariant(qtext(e.host_machine)), QVariant(qtext(countersText(e.counters))), QVariant(qtext(e.status)),
          QVariant(qint64(e.started_ms)), QVariant(qtext(e.tool)), opt(e.commit), opt(e.branch),
          e.dirty ? QVariant(*e.dirty ? 1 : 0) : QVariant(QMetaType::fromType<int>()), QVariant(qint64(nowMs()))})
        query.addBindValue(v);
}

}  // namespace

Result<AddResult> Library::store(LibraryEntry e, bool allow_move)
{
    QSqlDatabase db = QSqlDatabase::database(connection_);
    AddResult res;
    auto fail = [&](const std::string& what) -> Result<AddResult> {
        rollback();
        return Error{"library " + loc_.display + ": " + what + folderNote(loc_)};
    };
    QSqlQuery find(db);
    find.prepare(QStringLiteral("SELECT id, sha256, missing FROM jb_records WHERE path = ?"));
    find.addBindValue(qtext(e.path));
    if (Status st = run(find, "looking up the path"); !st)
        return fail(st.error());
    std::int64_t existing = 0;
    if (find.next()) {
        existing = find.value(0).toLongLong();
        if (stdtext(find.value(1).toString()) == e.sha256 && find.value(2).toInt() == 0) {
            res.outcome = AddOutcome::Unchanged;
            res.id = existing;
            return res;
        }
        res.outcome = AddOutcome::Reindexed;
    } else if (allow_move) {
        // The same bytes under a path that is gone, in a folder this machine sees: a move.
        QSqlQuery same(db);
        same.prepare(QStringLiteral("SELECT id, path FROM jb_records WHERE sha256 = ?"));
        same.addBindValue(qtext(e.sha256));
        if (Status st = run(same, "looking up the hash"); !st)
            return fail(st.error());
        while (same.next()) {
            const QFileInfo old(same.value(1).toString());
            if (!old.exists() && old.absoluteDir().exists()) {
                existing = same.value(0).toLongLong();
                res.outcome = AddOutcome::Moved;
                res.moved_from = stdtext(old.filePath());
                break;
            }
        }
    }
    QSqlQuery write(db);
    if (existing) {
        write.prepare(QStringLiteral("UPDATE jb_records SET (%1) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                     "WHERE id = ?")
                          .arg(QString::fromLatin1(kRecordColumns)));
        bindRecord(write, e);
        write.addBindValue(qint64(existing));
        if (Status st = run(write, "updating the record"); !st)
            return fail(st.error());
        for (const char* t : {"jb_figures", "jb_rounds", "jb_meta"})
            if (Status st = exec(std::string("DELETE FROM ") + t + " WHERE record_id = " + std::to_string(existing));
                !st)
                return fail(st.error());
        e.id = existing;
    } else {
        write.prepare(QStringLiteral("INSERT INTO jb_records (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                     "?, ?) RETURNING id")
                          .arg(QString::fromLatin1(kRecordColumns)));
        bindRecord(write, e);
        if (Status st = run(write, "adding the record"); !st)
            return fail(st.error());
        if (!write.next())
            return fail("the database returned no id for the new record");
        e.id = write.value(0).toLongLong();
        res.outcome = AddOutcome::Added;
    }
    write.finish();
    if (Status st = insertDetails(e); !st)  // rolled back there
        return Error{"library " + loc_.display + ": " + st.error()};
    res.id = e.id;
    return res;
}

Result<AddResult> Library::addFile(const std::string& path)
{
    const QFileInfo fi(qtext(path));
    const std::string abs = stdtext(fi.absoluteFilePath());
    LoadedFile file = loadRecordFile(abs);
    if (!file.record)
        return Error{file.record.error()};
    const Result<Record>& r = file.record;
    const std::string& bytes = file.bytes;
    const std::string sha = stdtext(QString::fromLatin1(
        QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256)
            .toHex()));
    LibraryEntry e = entryFromRecord(*r, abs, sha, std::int64_t(bytes.size()),
                                     fi.lastModified().toMSecsSinceEpoch());
    return storeOne(std::move(e));
}

Result<AddResult> Library::storeOne(LibraryEntry e)
{
    if (Status st = begin(); !st)
        return Error{"library " + loc_.display + ": " + st.error()};
    auto res = store(std::move(e), true);
    if (!res)
        return res;  // store rolled back
    if (Status st = commit(); !st) {
        rollback();
        return Error{"library " + loc_.display + ": " + st.error()};
    }
    return res;
}

namespace {

struct JsonFile {
    std::string abs, bytes, sha256;
    std::int64_t mtime_ms = 0;
    nlohmann::json top;
};

Result<JsonFile> readJsonFile(const std::string& path)
{
    JsonFile f;
    const QFileInfo fi(qtext(path));
    f.abs = stdtext(fi.absoluteFilePath());
    QFile file(fi.absoluteFilePath());
    if (!file.open(QIODevice::ReadOnly))
        return Error{"cannot read '" + f.abs + "': " + stdtext(file.errorString())};
    const QByteArray bytes = file.readAll();
    f.bytes.assign(bytes.constData(), std::size_t(bytes.size()));
    f.sha256 = stdtext(QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
    f.mtime_ms = fi.lastModified().toMSecsSinceEpoch();
    f.top = nlohmann::json::parse(f.bytes, nullptr, false);
    if (f.top.is_discarded())
        return Error{f.abs + ": not valid JSON"};
    return f;
}

}  // namespace

Result<AddResult> Library::addManifest(const std::string& path)
{
    auto f = readJsonFile(path);
    if (!f)
        return Error{f.error()};
    auto e = entryFromManifest(f->top, f->abs, f->sha256, std::int64_t(f->bytes.size()), f->mtime_ms);
    if (!e)
        return Error{e.error()};
    return storeOne(std::move(*e));
}

Result<std::vector<AddedMember>> Library::addComparison(const std::string& path)
{
    auto f = readJsonFile(path);
    if (!f)
        return Error{f.error()};
    if (libraryFileKindOf(f->top) != LibraryFileKind::Comparison)
        return Error{f->abs + ": not a comparison record (no \"kind\": \"joulebench-interleaved-comparison\")"};
    auto paths = comparisonRecordPaths(f->top, f->abs);
    if (!paths)
        return Error{paths.error()};
    std::vector<AddedMember> out;
    for (const std::string& p : *paths) {
        AddedMember m;
        m.path = p;
        if (auto r = addFile(p))
            m.result = *r;
        else
            m.error = r.error();
        out.push_back(std::move(m));
    }
    return out;
}

Result<AddedFile> Library::add(const std::string& path)
{
    // A record first (the fast reader; most files are records); only a file that is not one is
    // looked at as a comparison or a manifest.
    auto asRecord = addFile(path);
    if (asRecord) {
        AddedFile a;
        a.result = *asRecord;
        return a;
    }
    auto f = readJsonFile(path);
    if (!f)
        return Error{asRecord.error()};
    AddedFile a;
    a.kind = libraryFileKindOf(f->top);
    switch (a.kind) {
    case LibraryFileKind::Record:
        return Error{asRecord.error()};
    case LibraryFileKind::Comparison: {
        auto m = addComparison(path);
        if (!m)
            return Error{m.error()};
        a.members = std::move(*m);
        return a;
    }
    case LibraryFileKind::Manifest: {
        auto r = addManifest(path);
        if (!r)
            return Error{r.error()};
        a.result = *r;
        return a;
    }
    }
    return Error{asRecord.error()};
}

Result<AddedFile> addToLibrary(const std::string& path, const std::string& spec)
{
    auto lib = Library::open(librarySpec(spec));
    if (!lib)
        return Error{lib.error()};
    return (*lib)->add(path);
}

Status Library::addEntries(std::vector<LibraryEntry> entries)
{
    if (Status st = begin(); !st)
        return st;
    for (LibraryEntry& e : entries)
        if (auto r = store(std::move(e), false); !r)
            return Error{r.error()};
    return commit();
}

// ---- reading

Result<std::int64_t> Library::count()
{
    QSqlQuery query(QSqlDatabase::database(connection_));
    if (!query.exec(QStringLiteral("SELECT count(*) FROM jb_records")) || !query.next())
        return Error{"library " + loc_.display + ": " + sqlError(query.lastError())};
    return query.value(0).toLongLong();
}

Result<std::vector<LibraryEntry>> Library::list(const LibraryQuery& lq, bool rounds, bool details)
{
    QSqlDatabase db = QSqlDatabase::database(connection_);
    const Where w = whereOf(lq);
    auto fail = [&](const QSqlQuery& query) -> Result<std::vector<LibraryEntry>> {
        return Error{"library " + loc_.display + ": " + sqlError(query.lastError())};
    };
    std::vector<LibraryEntry> out;
    std::unordered_map<std::int64_t, std::size_t> at;
    QVariantList values;
    QString counterTerm;
    if (lq.counter) {
        counterTerm = QStringLiteral(" AND f.counter = ?");
        values << qtext(*lq.counter);
    }
    values << w.values;
    // One pass: each record with its figures (a row per counter; none: one row of nulls). The
    // table (details false) asks only for the columns it shows: the driver turns every column of
    // every row into a value, so the hash, the JSON columns and the rest would cost it (the
    // `library list` benchmark, docs/BENCHMARKS.md).
    const QString recordColumns = details
        ? QStringLiteral("r.path, r.sha256, r.size_bytes, r.missing, r.label, r.meta, r.host, r.host_system, "
                         "r.host_machine, r.counters, r.status, r.started_ms, r.tool, r.commit_id, r.branch, r.dirty")
        : QStringLiteral("r.path, r.missing, r.label, r.host, r.status, r.started_ms, r.commit_id, r.dirty");
    const QString figureColumns = details
        ? QStringLiteral("f.counter, f.rounds, f.clean, f.relative_only, f.noisy, f.unusable, f.no_verdict, "
                         "f.median_j, f.min_j, f.max_j, f.s_per_decode, f.outliers")
        : QStringLiteral("f.counter, f.rounds, f.clean, f.relative_only, f.noisy, f.unusable, f.no_verdict, "
                         "f.median_j, f.min_j, f.max_j, f.s_per_decode");
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT r.id, %1, %2 FROM jb_records r LEFT JOIN jb_figures f ON f.record_id = r.id%3%4"
                                 " ORDER BY r.started_ms, r.id, f.counter")
                      .arg(recordColumns, figureColumns, counterTerm, w.sql));
    bindAll(query, values);
    if (!query.exec())
        return fail(query);
    // Where each column is in this statement (-1: not asked for).
    struct Columns {
        int id, path, sha256, size_bytes, missing, label, meta, host, host_system, host_machine, counters, status,
            started_ms, tool, commit_id, branch, dirty, counter, rounds, clean, relative_only, noisy, unusable,
            no_verdict, median_j, min_j, max_j, s_per_decode, outliers;
    };
    const QSqlRecord names = query.record();
    auto at_ = [&](const char* name) { return names.indexOf(QLatin1String(name)); };
    const Columns c{at_("id"),         at_("path"),          at_("sha256"),    at_("size_bytes"), at_("missing"),
                    at_("label"),      at_("meta"),          at_("host"),      at_("host_system"),
                    at_("host_machine"), at_("counters"),    at_("status"),    at_("started_ms"), at_("tool"),
                    at_("commit_id"),  at_("branch"),        at_("dirty"),     at_("counter"),    at_("rounds"),
                    at_("clean"),      at_("relative_only"), at_("noisy"),     at_("unusable"),   at_("no_verdict"),
                    at_("median_j"),   at_("min_j"),         at_("max_j"),     at_("s_per_decode"),
                    at_("outliers")};
    auto text = [&](int i) { return i < 0 ? std::string() : stdtext(query.value(i).toString()); };
    auto integer = [&](int i) { return i < 0 ? 0 : query.value(i).toInt(); };
    std::int64_t last = -1;
    while (query.next()) {
        const std::int64_t id = query.value(c.id).toLongLong();
        if (id != last) {
            last = id;
            LibraryEntry e;
            e.id = id;
            e.path = text(c.path);
            e.sha256 = text(c.sha256);
            if (c.size_bytes >= 0)
                e.size_bytes = query.value(c.size_bytes).toLongLong();
            e.missing = integer(c.missing) != 0;
            e.unreadable = integer(c.missing) == kMissingUnreadable;
            e.label = optText(query.value(c.label));
            if (c.meta >= 0) {  // JSON columns: parsed only where asked for (not for the table)
                e.meta = ojson::parse(text(c.meta), nullptr, false);
                if (e.meta.is_discarded())
                    e.meta = ojson::object();
            }
            if (c.counters >= 0) {
                const ojson cs = ojson::parse(text(c.counters), nullptr, false);
                if (cs.is_array())
                    for (const ojson& x : cs)
                        if (x.is_string())
                            e.counters.push_back(x.get<std::string>());
            }
            e.host = text(c.host);
            e.host_system = text(c.host_system);
            e.host_machine = text(c.host_machine);
            e.status = text(c.status);
            e.started_ms = query.value(c.started_ms).toLongLong();
            e.tool = text(c.tool);
            e.commit = optText(query.value(c.commit_id));
            if (c.branch >= 0)
                e.branch = optText(query.value(c.branch));
            if (const QVariant d = query.value(c.dirty); !d.isNull())
                e.dirty = d.toInt() != 0;
            at[e.id] = out.size();
            out.push_back(std::move(e));
        }
        if (query.isNull(c.counter))
            continue;  // a record without whole-device figures
        CounterFigures f;
        f.counter = text(c.counter);
        CounterSummary& m = f.summary;
        m.clean = integer(c.clean);
        m.relative_only = integer(c.relative_only);
        m.noisy = integer(c.noisy);
        m.unusable = integer(c.unusable);
        m.no_verdict = integer(c.no_verdict);
        m.rounds = integer(c.rounds);
        m.median_j_per_decode = optReal(query.value(c.median_j));
        m.min_j_per_decode = optReal(query.value(c.min_j));
        m.max_j_per_decode = optReal(query.value(c.max_j));
        f.s_per_decode = optReal(query.value(c.s_per_decode));
        if (c.outliers >= 0) {
            const QString outliers = query.value(c.outliers).toString();
            if (outliers != QLatin1String("[]")) {
                const ojson o = ojson::parse(stdtext(outliers), nullptr, false);
                if (o.is_array())
                    for (const ojson& x : o)
                        if (x.is_number_integer())
                            m.outlier_rounds.push_back(x.get<int>());
            }
        }
        out.back().figures.push_back(std::move(f));
    }
    query.finish();
    // A file gone since the last refresh is gone now: its row says so, and is left out as the
    // rows a refresh marked are (where its folder is here: see fileGoneHere).
    for (LibraryEntry& e : out)
        if (!e.missing && fileGoneHere(e.path))
            e.missing = e.gone_now = true;
    if (!lq.include_missing)
        std::erase_if(out, [](const LibraryEntry& e) { return e.missing; });
    at.clear();
    for (std::size_t i = 0; i < out.size(); ++i)
        at[out[i].id] = i;
    if (out.empty())
        return out;
    if (rounds) {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        QVariantList rv = w.values;
        if (lq.counter)
            rv << qtext(*lq.counter);
        query.prepare(QStringLiteral("SELECT f.record_id, f.counter, f.round_index, f.j_per_decode FROM jb_rounds f "
                                     "WHERE f.record_id IN (SELECT r.id FROM jb_records r%1)%2 "
                                     "ORDER BY f.record_id, f.counter, f.round_index")
                          .arg(w.sql, counterTerm));
        bindAll(query, rv);
        if (!query.exec())
            return fail(query);
        while (query.next()) {
            auto it = at.find(query.value(0).toLongLong());
            if (it == at.end())
                continue;
            LibraryEntry& e = out[it->second];
            const std::string counter = stdtext(query.value(1).toString());
            for (CounterFigures& f : e.figures)
                if (f.counter == counter) {
                    f.rounds.push_back({query.value(2).toInt(), query.value(3).toDouble()});
                    break;
                }
        }
    }
    return out;
}

Result<RefreshReport> Library::refresh()
{
    LibraryQuery all;
    all.include_missing = true;
    auto entries = list(all);
    if (!entries)
        return Error{entries.error()};
    RefreshReport rep;
    for (const LibraryEntry& e : *entries) {
        if (!QFileInfo::exists(qtext(e.path))) {
            if (!e.missing || e.gone_now || e.unreadable) {  // not marked gone yet
                if (Status st = exec("UPDATE jb_records SET missing = 1 WHERE id = " + std::to_string(e.id)); !st)
                    return Error{"library " + loc_.display + ": " + st.error()};
                rep.notes.push_back("missing: " + e.path);
            }
            ++rep.missing;
            continue;
        }
        auto added = add(e.path);  // a record or a manifest (what an entry can be)
        Result<AddResult> r = !added ? Result<AddResult>(Error{added.error()})
            : added->result              ? Result<AddResult>(*added->result)
                                         : Result<AddResult>(Error{e.path + ": now a comparison record, not an entry"});
        if (!r) {
            // Its row stays (the file may be mended) but says so, and is left out like a gone one.
            if (!e.unreadable)
                if (Status st = exec("UPDATE jb_records SET missing = " + std::to_string(kMissingUnreadable) +
                                     " WHERE id = " + std::to_string(e.id));
                    !st)
                    return Error{"library " + loc_.display + ": " + st.error()};
            rep.notes.push_back("unreadable now (left out of list and check until it reads again): " + r.error());
            ++rep.missing;
            continue;
        }
        if (r->outcome == AddOutcome::Unchanged) {
            ++rep.unchanged;
        } else if (e.missing) {
            ++rep.returned;
            rep.notes.push_back("back: " + e.path);
        } else {
            ++rep.reindexed;
            rep.notes.push_back("changed, re-indexed: " + e.path);
        }
    }
    return rep;
}

// ---- rebuild

Result<std::vector<std::string>> rebuildLibrary(const std::string& spec, const std::vector<std::string>& paths)
{
    auto loc = parseLibraryLocation(spec);
    if (!loc)
        return Error{loc.error()};
    std::vector<std::string> lines, files;
    // The paths the old library lists, as far as it can be read.
    {
        const QString name = QStringLiteral("jb-library-rebuild");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(
                loc->kind == LibraryLocation::Kind::PostgreSQL ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
                name);
            bool usable = true;
            if (loc->kind == LibraryLocation::Kind::PostgreSQL) {
                db.setHostName(qtext(loc->host));
                if (loc->port > 0)
                    db.setPort(loc->port);
                db.setUserName(qtext(loc->user));
                db.setPassword(qtext(loc->password));
                db.setDatabaseName(qtext(loc->database));
            } else {
                usable = QFileInfo::exists(qtext(loc->file));
                db.setDatabaseName(qtext(loc->file));
                db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
            }
            if (usable && db.open()) {
                QSqlQuery query(db);
                if (query.exec(QStringLiteral("SELECT path FROM jb_records"))) {
                    while (query.next())
                        files.push_back(stdtext(query.value(0).toString()));
                    lines.push_back("the old library lists " + std::to_string(files.size()) + " file(s)");
                } else {
                    lines.push_back("the old library's list of files cannot be read (" + sqlError(query.lastError()) +
                                    "); only the paths given are indexed");
                }
                if (loc->kind == LibraryLocation::Kind::PostgreSQL) {
                    for (const char* t : {"jb_rounds", "jb_figures", "jb_meta", "jb_records", "jb_schema"}) {
                        QSqlQuery drop(db);
                        if (!drop.exec(QStringLiteral("DROP TABLE IF EXISTS %1").arg(QString::fromLatin1(t))))
                            return Error{"library " + loc->display + ": dropping " + t + ": " +
                                         sqlError(drop.lastError())};
                    }
                }
                query.finish();
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    if (loc->kind == LibraryLocation::Kind::SQLite && QFileInfo::exists(qtext(loc->file))) {
        const std::string aside =
            loc->file + ".broken-" + stdtext(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddTHHmmssZ")));
        if (!QFile::rename(qtext(loc->file), qtext(aside)))
            return Error{"library " + loc->display + ": cannot move it aside to " + aside};
        lines.push_back("the old file is kept as " + aside);
    }
    auto lib = Library::open(spec);
    if (!lib)
        return Error{lib.error()};
    for (const std::string& p : paths)
        for (const std::string& f : recordFilesUnder(p))
            files.push_back(f);
    int added = 0, skipped = 0;
    for (const std::string& f : files) {
        auto r = (*lib)->add(f);
        if (r && r->result)
            ++added;
        else if (r) {  // a comparison: its records (found in the folders too, or named by it)
            for (const AddedMember& m : r->members)
                if (!m.result)
                    lines.push_back("skipped: " + m.error);
        } else {
            ++skipped;
            lines.push_back("skipped: " + r.error());
        }
    }
    lines.push_back("rebuilt " + loc->display + ": " + std::to_string(added) + " record(s) indexed, " +
                    std::to_string(skipped) + " skipped");
    return lines;
}

}  // namespace jb
