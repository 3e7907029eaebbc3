// The record reader (jb::loadRecord, jb::loadRecordFile): the samples scanner reads exactly what
// the general reader (jb::parseRecordTree) reads, hands everything unusual to it, and every
// error is the general reader's own message.
#include "../ui_inspector/MakeRecord.h"
#include <jb/record/RecordJson.h>
#include <jb/record/RecordLoad.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace jb;

namespace {

const std::string kGolden = std::string(JB_REFERENCE_DIR) + "/reference-record-rapl.json";
const std::string kJbFixture = std::string(JB_FIXTURES) + "/records/joulebench-rapl.json";
const std::string kBroken = std::string(JB_FIXTURES) + "/records/broken/";

QByteArray slurp(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

void replaceOnce(std::string& s, const std::string& from, const std::string& to)
{
    const auto at = s.find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    s.replace(at, from.size(), to);
}

// A small record with samples, as the writer lays it out.
std::string smallRecordText()
{
    jbtest::RunShape s;
    s.rounds = 2;
    s.idle_s = 0.3;
    s.busy_s = 0.3;
    return dumpRecord(jbtest::makeRecord(s));
}

}  // namespace

class TestRecordLoad : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& text)
    {
        const QString p = dir_.filePath(QString::fromStdString(name));
        QFile f(p);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text.data(), qint64(text.size()));
        return p.toStdString();
    }

    // The general reader over a whole file, as loadRecord read before the scanner was its own.
    static Result<Record> treeLoad(const std::string& path)
    {
        Result<std::string> text = readWholeFile(path);
        if (!text)
            return Error{text.error()};
        if (text->empty())
            return Error{path + ": the file is empty"};
        Result<Record> r = parseRecordTree(*text);
        if (!r)
            return Error{path + ": " + r.error()};
        return r;
    }

    // The fast reading and the general reader's agree: the same record, or the same message;
    // and loadRecord is the fast reading.
    void agrees(const std::string& path, bool* fast = nullptr)
    {
        const LoadedFile mine = loadRecordFile(path);
        const Result<Record> theirs = treeLoad(path);
        const Result<Record> viaLoadRecord = loadRecord(path);
        QCOMPARE(viaLoadRecord.ok(), mine.record.ok());
        if (viaLoadRecord.ok())
            QCOMPARE(QString::fromStdString(dumpRecord(*viaLoadRecord)), QString::fromStdString(dumpRecord(*mine.record)));
        if (fast)
            *fast = mine.fast_samples;
        QCOMPARE(mine.record.ok(), theirs.ok());
        if (!theirs.ok()) {
            QCOMPARE(QString::fromStdString(mine.record.error()), QString::fromStdString(theirs.error()));
            return;
        }
        QCOMPARE(QByteArray::fromStdString(mine.bytes), slurp(path));
        QCOMPARE(QString::fromStdString(dumpRecord(*mine.record)),
                 QString::fromStdString(dumpRecord(*theirs)));
        QCOMPARE(mine.record->samples.size(), theirs->samples.size());
        for (std::size_t i = 0; i < theirs->samples.size(); ++i) {
            QCOMPARE(mine.record->samples[i].first, theirs->samples[i].first);
            QVERIFY(mine.record->samples[i].second == theirs->samples[i].second);
        }
        QCOMPARE(mine.record->loaded_summary.has_value(), theirs->loaded_summary.has_value());
        if (theirs->loaded_summary)
            QVERIFY(*mine.record->loaded_summary == *theirs->loaded_summary);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void referenceRecordHasNoSamples()
    {
        bool fast = true;
        agrees(kGolden, &fast);
        QVERIFY(!fast);  // nothing to scan: loadRecord reads it
        const LoadedFile f = loadRecordFile(kGolden);
        QVERIFY(f.record.ok());
        QVERIFY(f.record->samples.empty());
    }

    void joulebenchFixtureGoesThroughTheScanner()
    {
        bool fast = false;
        agrees(kJbFixture, &fast);
        QVERIFY(fast);
    }

    void twoCounters()
    {
        Record r = jbtest::makeRecord({});
        r.samples.emplace_back("rapl:psys", r.samples.front().second);
        r.counters.push_back("rapl:psys");
        bool fast = false;
        agrees(write("two.json", dumpRecord(r)), &fast);
        QVERIFY(fast);
    }

    void brokenCorpus_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(QString::fromStdString(kBroken)).entryList(QDir::Files);
        QVERIFY(files.size() > 20);
        for (const QString& f : files)
            if (f != QLatin1String("README.md"))
                QTest::newRow(qPrintable(f)) << f;
    }
    void brokenCorpus()
    {
        QFETCH(QString, file);
        const std::string path = kBroken + file.toStdString();
        agrees(path);
        const LoadedFile f = loadRecordFile(path);
        QVERIFY(!f.record.ok());
        QVERIFY(f.bytes.empty());
    }

    void missingFile()
    {
        const std::string path = dir_.filePath(QStringLiteral("nope.json")).toStdString();
        agrees(path);
        QVERIFY(QString::fromStdString(loadRecordFile(path).record.error())
                    .contains(QStringLiteral("cannot read")));
    }

    // Edits of a record's samples section: (from, to) text replacements, whether the scanner
    // may take it, whether it loads at all.
    void samplesOddities_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("fast");
        QTest::addColumn<bool>("loads");
        auto row = [](const char* name, const char* from, const char* to, bool fast, bool loads) {
            QTest::newRow(name) << QString::fromUtf8(from) << QString::fromUtf8(to) << fast << loads;
        };
        row("as written", "", "", true, true);
        row("escaped key", "\"samples\": {\n  \"rapl\"", "\"samples\": {\n  \"rap\\u006c\"", false, true);
        row("fraction in a column", "\"nj\": [\n   ", "\"nj\": [\n   1.5, ", false, false);
        row("exponent in a column", "\"nj\": [\n   ", "\"nj\": [\n   1e3, ", false, false);
        row("leading zero", "\"nj\": [\n   ", "\"nj\": [\n   01, ", false, false);
        row("minus zero", "\"t0_ns\": [\n   ", "\"t0_ns\": [\n   -0, ", false, false);
        row("too big for 64 bits", "\"nj\": [\n   ", "\"nj\": [\n   99999999999999999999, ", false, false);
        row("extra key in a counter", "\"t0_ns\": [", "\"unit\": \"ns\", \"t0_ns\": [", false, true);
        row("empty samples", "", "", true, true);  // (built below)
        row("cut short", "", "", false, false);    // (built below)
        row("a second samples key", "\"label\":", "\"samples\": {},\n \"label\":", false, true);
        row("compact", "", "", true, true);  // (built below)
    }
    void samplesOddities()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, fast);
        QFETCH(bool, loads);
        std::string text = smallRecordText();
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        if (tag == QLatin1String("empty samples")) {
            Record r = *parseRecord(text);
            r.samples.clear();
            text = dumpRecord(r);
            replaceOnce(text, "\n}", ",\n \"samples\": {}\n}");
        } else if (tag == QLatin1String("cut short")) {
            text = text.substr(0, text.find("\"nj\": [") + 40);
        } else if (tag == QLatin1String("compact")) {
            text = dumpJson(*parseJsonText(text), -1);
        } else if (!from.isEmpty()) {
            replaceOnce(text, from.toStdString(), to.toStdString());
        }
        const std::string path = write("odd.json", text);
        bool wasFast = false;
        agrees(path, &wasFast);
        QCOMPARE(wasFast, fast);
        QCOMPARE(loadRecordFile(path).record.ok(), loads);
    }

    void columnsInAnyOrder()
    {
        Record r = jbtest::makeRecord({});
        ojson j = toJson(r);
        ojson cols = ojson::object();
        cols["nj"] = j["samples"]["rapl"]["nj"];
        cols["t1_ns"] = j["samples"]["rapl"]["t1_ns"];
        cols["t0_ns"] = j["samples"]["rapl"]["t0_ns"];
        j["samples"]["rapl"] = cols;
        bool fast = false;
        agrees(write("order.json", dumpJson(j) + "\n"), &fast);
        QVERIFY(fast);
    }

    // Every prefix of a record, and the record with single bytes changed: the scanner either
    // declines or reads exactly what parseRecordTree reads, and never reads past the text.
    void damagedTexts()
    {
        const std::string text = smallRecordText();
        const auto at = findTopLevelValue(text, "samples");
        QVERIFY(at);
        auto same = [](std::string_view t) {
            const auto fast = parseRecordFast(t);
            if (!fast)
                return true;
            const auto full = parseRecordTree(t);
            return full.ok() && dumpRecord(*fast) == dumpRecord(*full);
        };
        for (std::size_t cut = 0; cut < text.size(); cut += 7)
            QVERIFY2(same(std::string_view(text).substr(0, cut)), qPrintable(QString::number(cut)));
        jbtest::Lcg rng{99};
        const char kBytes[] = {'0', '9', '-', ',', ']', '[', '{', '}', '"', ' ', '\\', 'e', '.', '\0', 'x'};
        int declined = 0;
        for (int k = 0; k < 400; ++k) {
            std::string t = text;
            // Mostly inside the samples, where the scanner works.
            const std::size_t pos = *at + std::size_t(rng.next01() * double(t.size() - *at));
            t[pos] = kBytes[std::size_t(rng.next01() * double(sizeof kBytes))];
            QVERIFY2(same(t), qPrintable(QStringLiteral("byte %1").arg(pos)));
            declined += !parseRecordFast(t);
        }
        QVERIFY(declined > 0);  // the damage did reach the scanner
    }

    void scannerPieces()
    {
        QCOMPARE(findTopLevelValue("{\"a\": [1, {\"samples\": 2}], \"samples\" : {}}", "samples").value_or(0),
                 std::size_t(39));
        QVERIFY(!findTopLevelValue("[1, 2]", "samples"));
        QVERIFY(!findTopLevelValue("{\"a\": \"x\\\"}\"}", "samples"));
        QVERIFY(findTopLevelValue("{\"a\": \"x\\\"}\", \"samples\": {}}", "samples"));
        const auto s = scanSamples("{\"c\": {\"t0_ns\": [1, 5], \"t1_ns\": [2,9], \"nj\": [-3, 4]}}", 0);
        QVERIFY(s);
        QCOMPARE(int(s->samples.size()), 1);
        QVERIFY(s->samples[0].second == (std::vector<Interval>{{1, 2, -3}, {5, 9, 4}}));
        QVERIFY(!scanSamples("{\"c\": {\"t0_ns\": [1], \"t1_ns\": [2]}}", 0));  // a column missing
        QVERIFY(!scanSamples("{\"c\": {\"t0_ns\": [1], \"t1_ns\": [2], \"nj\": [3, 4]}}", 0));  // lengths
        QVERIFY(!scanSamples("{\"c\": {}, \"c\": {}}", 0));
    }
};

QTEST_GUILESS_MAIN(TestRecordLoad)
#include "tst_recordload.moc"
