#include "common/RecordFiles.h"

#include <jb/record/AtomicWrite.h>
#include <jb/record/RecordJson.h>

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace jb {

QString autosaveFolder()
{
    const QString set = QSettings().value(QStringLiteral("records/folder")).toString();
    if (!set.isEmpty())
        return set;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/records");
}

QString autosaveName(const Record& r, const QDateTime& when)
{
    QString base;
    for (const QChar c : QString::fromStdString(r.label.value_or("")))
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.'))
            base += c;
    while (base.startsWith(QLatin1Char('.')))
        base.remove(0, 1);
    if (base.isEmpty())
        base = QStringLiteral("run");
    base = base.left(60) + QLatin1Char('-') + when.toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (r.isAborted())
        base += QStringLiteral("-aborted");
    return base + QStringLiteral(".json");
}

Status writeTextFile(const QString& path, const std::string& bytes)
{
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir))
        return Error{"cannot create the folder " + dir.toStdString()};
    return writeFileAtomic(path.toStdString(), bytes);
}

Status saveRecordFile(const Record& r, const QString& path)
{
    return writeTextFile(path, dumpRecord(r));
}

Result<Record> openRecordFile(const QString& path)
{
    return loadRecord(path.toStdString());
}

}  // namespace jb
