// The library's counter profiles (issue 31): table jb_profiles, one row per host and spec.
#include <jb/library/Library.h>

#include <jb/base/QtText.h>

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace jb {

namespace {

std::string why(const QSqlQuery& q)
{
    return q.lastError().text().toStdString();
}

}  // namespace

Status Library::storeProfile(const std::string& host, const std::string& spec, const std::string& measured_at,
                             const std::string& profile_json)
{
    if (Status st = exec("CREATE TABLE IF NOT EXISTS jb_profiles (host TEXT NOT NULL, spec TEXT NOT NULL, "
                         "measured_at TEXT NOT NULL, profile TEXT NOT NULL, PRIMARY KEY (host, spec))");
        !st)
        return Error{"library " + loc_.display + ": " + st.error()};
    if (Status st = begin(); !st)
        return Error{"library " + loc_.display + ": " + st.error()};
    QSqlDatabase db = QSqlDatabase::database(connection_);
    QSqlQuery del(db);
    del.prepare(QStringLiteral("DELETE FROM jb_profiles WHERE host = ? AND spec = ?"));
    del.addBindValue(qtext(host));
    del.addBindValue(qtext(spec));
    QSqlQuery ins(db);
    ins.prepare(QStringLiteral("INSERT INTO jb_profiles (host, spec, measured_at, profile) VALUES (?, ?, ?, ?)"));
    ins.addBindValue(qtext(host));
    ins.addBindValue(qtext(spec));
    ins.addBindValue(qtext(measured_at));
    ins.addBindValue(qtext(profile_json));
    if (!del.exec() || !ins.exec()) {
        const std::string e = why(del.lastError().isValid() ? del : ins);
        rollback();
        return Error{"library " + loc_.display + ": storing the profile of " + spec + ": " + e};
    }
    if (Status st = commit(); !st)
        return Error{"library " + loc_.display + ": " + st.error()};
    return Ok{};
}

Result<std::optional<std::string>> Library::profileFor(const std::string& host, const std::string& spec)
{
    QSqlDatabase db = QSqlDatabase::database(connection_);
    if (!db.tables().contains(QStringLiteral("jb_profiles")))
        return std::optional<std::string>();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT profile FROM jb_profiles WHERE host = ? AND spec = ?"));
    q.addBindValue(qtext(host));
    q.addBindValue(qtext(spec));
    if (!q.exec())
        return Error{"library " + loc_.display + ": reading the profile of " + spec + ": " + why(q)};
    if (!q.next())
        return std::optional<std::string>();
    return std::optional<std::string>(q.value(0).toString().toStdString());
}

}  // namespace jb
