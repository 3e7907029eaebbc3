// The crash-safe journal: every complete round comes back, a torn last line is ignored,
// damage elsewhere and foreign files are named with their line.
#include "SyntheticRecord.h"
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>
#include <jb/record/Verify.h>

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/resource.h>

using namespace jb;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void appendBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

// Journals `full` round by round as the session does: each round with the samples up to
// the end of its idle bracket after, that were not journaled before.
std::unique_ptr<Journal> journalOf(const Record& full, const std::string& path, int rounds)
{
    auto j = Journal::create(path, full);
    if (!j.ok())
        qFatal("%s", j.error().c_str());
    const std::vector<Interval>& all = full.samples[0].second;
    std::size_t done = 0;
    for (int i = 0; i < rounds; ++i) {
        const std::int64_t upto = (*full.rounds[std::size_t(i)].brackets)[1][1];
        std::vector<Interval> now;
        while (done < all.size() && all[done].t1_ns <= upto)
            now.push_back(all[done++]);
        const Status st = (*j)->appendRound(full.rounds[std::size_t(i)], {{full.samples[0].first, now}});
        if (!st.ok())
            qFatal("%s", st.error().c_str());
    }
    return std::move(*j);
}

std::size_t lineCount(const std::string& path)
{
    const std::string s = slurp(path);
    return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

class TestJournal : public QObject {
    Q_OBJECT
private slots:
    void everyRoundComesBackAndVerifies()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        const Record full = jbtest::syntheticRecord(4);
        auto j = journalOf(full, path, 4);
        QCOMPARE(j->roundsWritten(), 4);
        QCOMPARE(lineCount(path), std::size_t(5));
        j.reset();

        const Result<Record> r = recoverJournal(path);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->rounds.size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(dumpJson(roundToJson(r->rounds[i]), -1), dumpJson(roundToJson(full.rounds[i]), -1));
        QCOMPARE(r->status.value_or(""), std::string("aborted"));
        QCOMPARE(r->error.value_or(""), "recovered from journal " + path + ": the run did not finish");
        QCOMPARE(r->label, full.label);
        QCOMPARE(r->tool, full.tool);
        QCOMPARE(r->counters, full.counters);
        QCOMPARE(r->counter_info.size(), std::size_t(1));
        QCOMPARE(r->sampler.size(), std::size_t(1));
        // The journaled samples are those up to the last bracket's end, in order, once each.
        QCOMPARE(r->samples.size(), std::size_t(1));
        const auto& got = r->samples[0].second;
        QVERIFY(!got.empty());
        QVERIFY(got.size() < full.samples[0].second.size());
        QVERIFY(std::equal(got.begin(), got.end(), full.samples[0].second.begin()));
        QVERIFY(verifyRecord(*r).agrees());
    }

    void tornLastLineIsIgnored_data()
    {
        QTest::addColumn<QByteArray>("tail");
        QTest::newRow("half a round") << QByteArray("{\"index\":3,\"round\":{\"load_avg_before\":[0.1,");
        QTest::newRow("zeros") << QByteArray(37, '\0');
        QTest::newRow("one brace") << QByteArray("{");
    }
    void tornLastLineIsIgnored()
    {
        QFETCH(QByteArray, tail);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        const Record full = jbtest::syntheticRecord(3);
        journalOf(full, path, 3).reset();
        appendBytes(path, tail.toStdString());
        const Result<Record> r = recoverJournal(path);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->rounds.size(), std::size_t(3));
    }

    void wholeLastLineWithoutItsNewlineIsKept()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(3), path, 3).reset();
        std::string s = slurp(path);
        s.pop_back();
        std::ofstream(path, std::ios::binary | std::ios::trunc) << s;
        const Result<Record> r = recoverJournal(path);
        QVERIFY(r.ok());
        QCOMPARE(r->rounds.size(), std::size_t(3));
    }

    void headerOnlyGivesNoRounds()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(2), path, 0).reset();
        const Result<Record> r = recoverJournal(path);
        QVERIFY(r.ok());
        QVERIFY(r->rounds.empty());
        QVERIFY(r->samples.empty());
        QVERIFY(r->isAborted());
    }

    void damagedMiddleLineIsNamed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(3), path, 3).reset();
        std::string s = slurp(path);
        // Spoil line 3 (round 1): cut its closing brace.
        std::size_t at = 0;
        for (int i = 0; i < 3; ++i)
            at = s.find('\n', at) + 1;
        s.erase(at - 2, 1);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << s;
        const Result<Record> r = recoverJournal(path);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).startsWith(
                     QString::fromStdString(path + ": line 3: broken JSON at column ")),
                 r.error().c_str());
        QVERIFY(QString::fromStdString(r.error()).contains(
            QStringLiteral("only the last line of a journal may be torn")));
    }

    void wrongRoundLineIsNamedByPath()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(1), path, 0).reset();
        appendBytes(path, "{\"index\":0,\"round\":{\"decodes\":1}}\n{\"index\":1}\n");
        const Result<Record> r = recoverJournal(path);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(),
                 path + ": line 2: $.round: missing key \"load_avg_before\" (an array of 3 numbers)");
    }

    void roundsOutOfOrderAndSamplesBackwards()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        const Record full = jbtest::syntheticRecord(2);
        {
            auto j = Journal::create(path, full);
            QVERIFY(j.ok());
            const auto& iv = full.samples[0].second;
            QVERIFY((*j)->appendRound(full.rounds[0], {{"rapl", {iv.begin() + 10, iv.begin() + 20}}}).ok());
            QVERIFY((*j)->appendRound(full.rounds[1], {{"rapl", {iv.begin() + 15, iv.begin() + 30}}}).ok());
        }
        Result<Record> r = recoverJournal(path);
        QVERIFY(!r.ok());
        QCOMPARE(r.error(),
                 path +
                     ": line 3: $.samples.rapl: starts before the samples of the line before it end "
                     "(times must not go backwards)");
        std::string s = slurp(path);
        s.replace(s.find("{\"index\":1"), 10, "{\"index\":0");
        std::ofstream(path, std::ios::binary | std::ios::trunc) << s;
        r = recoverJournal(path);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).contains(
                     QStringLiteral("line 3: $.index: expected 1 or more, found 0")),
                 r.error().c_str());
    }

    void neverOverwritesAJournal()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(1), path, 1).reset();
        const std::string before = slurp(path);
        const auto again = Journal::create(path, jbtest::syntheticRecord(1));
        QVERIFY(!again.ok());
        QVERIFY2(QString::fromStdString(again.error()).contains(QStringLiteral("the file exists")),
                 again.error().c_str());
        QVERIFY(QString::fromStdString(again.error())
                    .contains(QString::fromStdString("joulebench-cli recover " + path)));
        QCOMPARE(slurp(path), before);
    }

    void missingFolderIsNamed()
    {
        const auto j = Journal::create("/nonexistent-folder/run.journal", jbtest::syntheticRecord(1));
        QVERIFY(!j.ok());
        QCOMPARE(
            j.error(),
            std::string("cannot create journal /nonexistent-folder/run.journal: No such file or directory"));
    }

    void foreignEmptyAndTornHeader_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral(": the journal is empty");
        QTest::newRow("a record") << QByteArray("{\n \"label\": null,\n")
                                  << QStringLiteral(
                                         ": line 1: not a JouleBench journal: broken JSON at column ");
        QTest::newRow("a whole record")
            << QByteArray("{\n \"label\": null,\n \"rounds\": []\n}\n")
            << QStringLiteral(": not a JouleBench journal but a record: it needs no recovering");
        QTest::newRow("other json lines")
            << QByteArray("{\"event\":\"start\"}\n")
            << QStringLiteral(
                   ": line 1: not a JouleBench journal (its first line has no \"journal\": \"joulebench\")");
        QTest::newRow("torn header") << QByteArray("{\"journal\":\"joulebench\",\"version\":1,\"rec")
                                     << QStringLiteral(": line 1: the journal's header is incomplete");
        QTest::newRow("newer version")
            << QByteArray("{\"journal\":\"joulebench\",\"version\":2,\"record\":{}}\n")
            << QStringLiteral(": line 1: a journal of version 2; this JouleBench reads version 1");
        QTest::newRow("bad record")
            << QByteArray(
                   "{\"journal\":\"joulebench\",\"version\":1,\"record\":{\"rounds\":[],\"counters\":[]}}\n")
            << QStringLiteral(": line 1: in \"record\": $: missing key \"label\"");
    }
    void foreignEmptyAndTornHeader()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("x.journal")).toStdString();
        appendBytes(path, content.toStdString());
        const Result<Record> r = recoverJournal(path);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).startsWith(QString::fromStdString(path) + expected),
                 r.error().c_str());
    }

    void failedWriteLeavesNoTornLineBehind()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        const Record full = jbtest::syntheticRecord(3);
        const std::vector<Interval>& all = full.samples[0].second;
        // Each round's intervals up to the end of its idle bracket after, as the session hands them.
        std::size_t done = 0;
        auto since = [&](int round) {
            const std::int64_t upto = (*full.rounds[std::size_t(round)].brackets)[1][1];
            std::vector<Interval> now;
            while (done < all.size() && all[done].t1_ns <= upto)
                now.push_back(all[done++]);
            return SamplesBySpec{{full.samples[0].first, now}};
        };
        auto created = Journal::create(path, full);
        QVERIFY(created.ok());
        std::unique_ptr<Journal> j = std::move(*created);
        QVERIFY(j->appendRound(full.rounds[0], since(0)).ok());
        const std::size_t size = slurp(path).size();

        // A file size limit makes the next line's write stop half-way (as a full disk would).
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &old) == 0);
        rlimit small = old;
        small.rlim_cur = rlim_t(size + 100);
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        const Status st = j->appendRound(full.rounds[1], since(1));
        QVERIFY(setrlimit(RLIMIT_FSIZE, &old) == 0);
        QVERIFY(!st.ok());
        QCOMPARE(st.error(), "cannot write journal " + path + ": File too large");
        QCOMPARE(slurp(path).size(), size);  // the partial line was cut off
        QCOMPARE(j->roundsWritten(), 1);

        // The run goes on: the next round lands under its own index, with the lost line's
        // intervals, and the recovered record verifies (its brackets have their samples).
        QVERIFY(j->appendRound(full.rounds[2], since(2)).ok());
        j.reset();
        QVERIFY(slurp(path).find("{\"index\":2,") != std::string::npos);
        const Result<Record> r = recoverJournal(path);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->rounds.size(), std::size_t(2));
        QCOMPARE(dumpJson(roundToJson(r->rounds[1]), -1), dumpJson(roundToJson(full.rounds[2]), -1));
        QCOMPARE(r->error.value_or(""), "recovered from journal " + path +
                     ": the run did not finish; round 2 was not journaled (the write failed)");
        QVERIFY(std::equal(r->samples[0].second.begin(), r->samples[0].second.end(), all.begin()));
        const VerifyReport v = verifyRecord(*r);
        QVERIFY(v.agrees());
    }

    // A run removes its journal once the record is safe, but never a file it did not create:
    // an earlier run's journal, or any file named as the journal.
    void removesOnlyTheJournalItCreated()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.journal")).toStdString();
        appendBytes(path, "keep\n");
        QVERIFY(!removeOwnJournal(path));
        QCOMPARE(slurp(path), std::string("keep\n"));
        QVERIFY(!Journal::create(path, jbtest::syntheticRecord(1)).ok());
        QVERIFY(!removeOwnJournal(path));
        QCOMPARE(slurp(path), std::string("keep\n"));

        const std::string mine = dir.filePath(QStringLiteral("mine.journal")).toStdString();
        auto live = journalOf(jbtest::syntheticRecord(1), mine, 1);
        // Replaced under the same name by another file: not the journal this process created.
        const std::string moved = mine + ".moved";
        QVERIFY(std::rename(mine.c_str(), moved.c_str()) == 0);
        appendBytes(mine, "another file\n");
        QVERIFY(!removeOwnJournal(mine));
        QVERIFY(QFile::exists(QString::fromStdString(mine)));
        QVERIFY(removeOwnJournal(moved));
        QVERIFY(!QFile::exists(QString::fromStdString(moved)));
        QVERIFY(!removeOwnJournal(moved));
        live.reset();

        // Once its Journal is gone, a journal is not this run's to remove any more.
        const std::string ended = dir.filePath(QStringLiteral("ended.journal")).toStdString();
        journalOf(jbtest::syntheticRecord(1), ended, 1).reset();
        QVERIFY(!removeOwnJournal(ended));
        QVERIFY(QFile::exists(QString::fromStdString(ended)));
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
