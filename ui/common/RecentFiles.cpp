#include "common/RecentFiles.h"

#include <QFileInfo>
#include <QSettings>

namespace jb {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent)
{
    files_ = QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    files_.removeAll(abs);
    files_.prepend(abs);
    while (files_.size() > kMax)
        files_.removeLast();
    store();
}

void RecentFiles::remove(const QString& path)
{
    if (files_.removeAll(QFileInfo(path).absoluteFilePath()) + files_.removeAll(path) > 0)
        store();
}

void RecentFiles::clear()
{
    files_.clear();
    store();
}

void RecentFiles::store()
{
    QSettings().setValue(kKey, files_);
    emit changed();
}

}  // namespace jb
