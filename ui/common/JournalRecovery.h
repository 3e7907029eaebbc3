#pragma once
// The dashboard's answer to a crash: on start it looks for journals that a run left behind
// (the dashboard keeps one beside the records while a run goes) and rebuilds each into an
// aborted record with every round that finished, written next to it; the journal is then
// removed. Widget-free, so it is tested without a window.
#include <QString>
#include <QStringList>

namespace jb {

struct RecoveredJournal {
    QString journal;      // the journal that was found
    QString record;       // the record written from it (empty where recovery failed)
    int rounds = 0;       // finished rounds it held
    QString error;        // why it could not be recovered (the journal is then left alone)
};

// Every *.journal file in folder, recovered. Journals being written by a live run are
// skipped: a run holds an advisory lock on its journal (see Journal).
QList<RecoveredJournal> recoverJournals(const QString& folder);

}  // namespace jb
