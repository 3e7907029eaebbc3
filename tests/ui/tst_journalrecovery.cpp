// The dashboard's crash recovery: journals left beside the records become aborted records with
// every finished round; a journal a live run still holds is left alone; a broken one says why.
#include "common/JournalRecovery.h"
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace jb;

namespace {
Record header()
{
    Record r;
    r.label = "crashed";
    r.counters = {"sim"};
    r.jobs = 2;
    r.tool = std::make_pair(std::string("joulebench"), std::string("test"));
    return r;
}
Round makeRound(std::int64_t t0)
{
    Round r;
    r.decodes = 2;
    r.child_wall_ns = 1000;
    r.window_ns = 1000;
    r.window = std::array<std::int64_t, 2>{t0, t0 + 1000};
    return r;
}
}  // namespace

class TestJournalRecovery : public QObject {
    Q_OBJECT
private slots:
    void recoversLeftJournalsAndSkipsLiveOnes()
    {
        QTemporaryDir dir;
        const QString left = dir.filePath(QStringLiteral("run-a.journal"));
        {
            auto j = Journal::create(left.toStdString(), header());
            QVERIFY2(j.ok(), j.ok() ? "" : j.error().c_str());
            QVERIFY(j.value()->appendRound(makeRound(0), {{"sim", {{0, 500, 10}, {500, 1000, 10}}}}).ok());
            QVERIFY(j.value()->appendRound(makeRound(2000), {{"sim", {{1000, 2000, 10}}}}).ok());
        }  // closed without a final record: as after a crash
        const QString live = dir.filePath(QStringLiteral("run-b.journal"));
        auto held = Journal::create(live.toStdString(), header());
        QVERIFY(held.ok());
        QFile broken(dir.filePath(QStringLiteral("run-c.journal")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("this is not a journal\n");
        broken.close();

        const auto out = recoverJournals(dir.path());
        QCOMPARE(out.size(), 2);  // the live one is skipped
        const RecoveredJournal& a = out.at(0);
        QCOMPARE(a.journal, left);
        QCOMPARE(a.rounds, 2);
        QVERIFY(a.error.isEmpty());
        QCOMPARE(a.record, dir.filePath(QStringLiteral("run-a-recovered.json")));
        QVERIFY(!QFile::exists(left));
        const auto rec = loadRecord(a.record.toStdString());
        QVERIFY2(rec.ok(), rec.ok() ? "" : rec.error().c_str());
        QVERIFY(rec->isAborted());
        QCOMPARE(rec->rounds.size(), std::size_t(2));
        QCOMPARE(rec->samplesOf("sim")->size(), std::size_t(3));

        const RecoveredJournal& c = out.at(1);
        QVERIFY(c.record.isEmpty());
        QVERIFY(!c.error.isEmpty());
        QVERIFY(QFile::exists(c.journal));  // left alone for the user to look at
        QVERIFY(QFile::exists(live));
    }
};

QTEST_GUILESS_MAIN(TestJournalRecovery)
#include "tst_journalrecovery.moc"
