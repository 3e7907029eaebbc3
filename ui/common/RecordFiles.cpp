#include "common/RecordFiles.h"

#include <jb/record/AtomicWrite.h>
#include <jb/record/RecordJson.h>
#include <jb/run/MeasureRun.h>

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
    return QString::fromStdString(recordFileName(r, when));  // the run's own naming (core/run)
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
