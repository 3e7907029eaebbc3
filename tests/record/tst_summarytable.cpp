// The text table of `joulebench-cli summary`: one row per record and counter, aligned columns.
#include "SyntheticRecord.h"
#include <jb/record/SummaryTable.h>

#include <QtTest>

using namespace jb;

class TestSummaryTable : public QObject {
    Q_OBJECT
private slots:
    void rowsPerRecordAndCounter()
    {
        Record a = jbtest::syntheticRecord(3);
        for (Round& r : a.rounds)
            r.counters.emplace_back("nvml:0", r.counters[0].second);
        a.rounds[2].counters[1].second.verdict = jb::Verdict::Noisy;
        Record b;  // a reference record of a task-only run: no whole-device counter
        b.label = "task only";
        b.counters = {"task"};
        b.rounds.resize(2);
        Record c = jbtest::syntheticRecord(1);
        c.status = "aborted";
        c.label.reset();
        const std::string t = summaryTable({{"a.json", a}, {"b.json", b}, {"c.json", c}});
        const QStringList lines = QString::fromStdString(t).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        const auto cells = [&](int i) { return lines[i].split(QLatin1Char(' '), Qt::SkipEmptyParts); };
        QCOMPARE(cells(0).mid(0, 6),
                 QStringList({QStringLiteral("file"), QStringLiteral("label"), QStringLiteral("counter"),
                              QStringLiteral("status"), QStringLiteral("rounds"), QStringLiteral("clean")}));
        QCOMPARE(cells(1).mid(0, 10),
                 QStringList({QStringLiteral("a.json"), QStringLiteral("synthetic"), QStringLiteral("rapl"),
                              QStringLiteral("complete"), QStringLiteral("3"), QStringLiteral("3"),
                              QStringLiteral("0"), QStringLiteral("0"), QStringLiteral("0"),
                              QStringLiteral("0")}));
        QCOMPARE(cells(2).mid(2, 8),
                 QStringList({QStringLiteral("nvml:0"), QStringLiteral("complete"), QStringLiteral("3"),
                              QStringLiteral("2"), QStringLiteral("0"), QStringLiteral("1"),
                              QStringLiteral("0"), QStringLiteral("0")}));
        QCOMPARE(
            cells(3),
            QStringList({QStringLiteral("b.json"), QStringLiteral("task"), QStringLiteral("only"),
                         QStringLiteral("-"), QStringLiteral("complete"), QStringLiteral("2"),
                         QStringLiteral("-"), QStringLiteral("-"), QStringLiteral("-"), QStringLiteral("-"),
                         QStringLiteral("-"), QStringLiteral("-"), QStringLiteral("-")}));
        QCOMPARE(cells(4).mid(0, 4),
                 QStringList({QStringLiteral("c.json"), QStringLiteral("-"), QStringLiteral("rapl"),
                              QStringLiteral("aborted")}));
        // Median [min, max] as summaryOf gives them, 4 significant digits.
        const CounterSummary s = summaryOf(a, "rapl");
        const QString j = QString::number(*s.median_j_per_decode, 'g', 4) + QStringLiteral(" [") +
            QString::number(*s.min_j_per_decode, 'g', 4) + QStringLiteral(", ") +
            QString::number(*s.max_j_per_decode, 'g', 4) + QStringLiteral("]");
        QVERIFY2(lines[1].contains(j), qPrintable(lines[1] + QStringLiteral(" lacks ") + j));
        // Columns line up: "counter" starts where every counter cell starts.
        const int col = int(lines[0].indexOf(QStringLiteral("counter")));
        QCOMPARE(lines[1].indexOf(QStringLiteral("rapl")), col);
        QCOMPARE(lines[2].indexOf(QStringLiteral("nvml:0")), col);
    }

    void outliersAreOneBased()
    {
        Record r = jbtest::syntheticRecord(7, 7, 35.0, 0.01);
        // Round 5 (0-based 4) spends twice the energy: a clear outlier.
        r.rounds[4].counters[0].second.marginal_nj *= 2;
        QCOMPARE(summaryOf(r, "rapl").outlier_rounds, std::vector<int>{4});
        const QString t = QString::fromStdString(summaryTable({{"r.json", r}}));
        QVERIFY2(t.split(QLatin1Char('\n'))[1].trimmed().endsWith(QStringLiteral(" 5")), qPrintable(t));
    }
};

QTEST_GUILESS_MAIN(TestSummaryTable)
#include "tst_summarytable.moc"
