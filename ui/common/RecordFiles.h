#pragma once
// Records on disk, for the dashboard: the same JSON the CLI writes (jb::dumpRecord), written
// atomically; the folder where every finished run is saved by itself, so nothing measured is
// lost even if the user never presses Save.
#include <jb/base/Result.h>
#include <jb/record/Record.h>

#include <QDateTime>
#include <QString>

namespace jb {

// <AppDataLocation>/records, or the "records/folder" setting.
QString autosaveFolder();
// "<label>-20250101-120000.json" ("run-..." without a label, "-aborted" for aborted runs);
// only letters, digits, '-', '_' and '.' from the label.
QString autosaveName(const Record& r, const QDateTime& when);

Status saveRecordFile(const Record& r, const QString& path);  // creates the folder
Result<Record> openRecordFile(const QString& path);
Status writeTextFile(const QString& path, const std::string& bytes);

}  // namespace jb
