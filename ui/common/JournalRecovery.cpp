#include "common/JournalRecovery.h"

#include <jb/record/AtomicWrite.h>
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace jb {

QList<RecoveredJournal> recoverJournals(const QString& folder)
{
    QList<RecoveredJournal> out;
    const QDir dir(folder);
    const QStringList journals = dir.entryList({QStringLiteral("*.journal")}, QDir::Files, QDir::Name);
    for (const QString& name : journals) {
        RecoveredJournal r;
        r.journal = dir.filePath(name);
        const std::string path = r.journal.toStdString();
        if (journalInUse(path))
            continue;  // a run of another JouleBench is writing it
        auto rec = recoverJournal(path);
        if (!rec) {
            r.error = QString::fromStdString(rec.error());
            out << r;
            continue;
        }
        QString target = r.journal;
        target.replace(target.size() - int(qstrlen(".journal")), int(qstrlen(".journal")),
                       QStringLiteral("-recovered.json"));
        if (const Status st = writeFileAtomic(target.toStdString(), dumpRecord(rec.value())); !st) {
            r.error = QString::fromStdString(st.error());
            out << r;
            continue;
        }
        r.record = target;
        r.rounds = int(rec->rounds.size());
        QFile::remove(r.journal);  // its content is safe in the record now
        out << r;
    }
    return out;
}

}  // namespace jb
