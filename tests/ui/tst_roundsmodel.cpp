// The rounds table model: QAbstractItemModelTester through live updates, a record's rounds,
// a counter switch; the figures it shows for people and the raw ones behind them.
#include "common/RoundsModel.h"
#include <jb/stats/Statistics.h>

#include <QAbstractItemModelTester>
#include <QtTest>

using jb::RoundsModel;

namespace {

jb::Bracket br(double mean, double sd)
{
    jb::Bracket b;
    b.intervals = 10;
    b.advanced = 10;
    b.longest_run = 10;
    b.span_ns = 1'000'000'000;
    b.mean_w = mean;
    b.sd_w = sd;
    return b;
}

// A round whose `sim` figures are as a live session computes them: marginal and ratio from
// the brackets by jb::counterRound's rules.
jb::Round round(std::int64_t decodes, double busy_w, double idle_sd = 0.1)
{
    jb::Round r;
    r.decodes = decodes;
    r.child_wall_ns = 800'000'000;
    r.window_ns = 801'000'000;
    jb::CounterRound c;
    c.idle_before = br(20.0, idle_sd);
    c.idle_after = br(20.2, idle_sd / 2);
    c.busy = br(busy_w, 0.3);
    c.window_nj = std::int64_t(busy_w * 0.9e9);
    c.covered_ns = 900'000'000;
    c.has_marginal = true;
    c.marginal_nj = double(c.window_nj) - 20.1 * double(c.covered_ns);
    c.ratio = (busy_w - 20.1) / idle_sd;
    c.verdict = jb::verdict(c.ratio);
    r.counters.emplace_back("sim", c);
    return r;
}

}  // namespace

class TestRoundsModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester();
    void showsFiguresForPeople();
    void rawFiguresAndVerdicts_data();
    void rawFiguresAndVerdicts();
    void roundWithoutTheCounter();
    void verdictTipNamesTheRoundsLimit();
};

void TestRoundsModel::passesTheModelTester()
{
    RoundsModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setCounter("sim");
    QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
    m.setRound(0, round(8, 35.0));
    m.setRound(1, round(8, 20.5));
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(m.rowCount(), 2);
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    m.setRound(1, round(8, 36.0));  // a round again replaces its row
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(changed.count(), 1);
    m.setRound(3, round(4, 30.0));  // a gap keeps row i as round i
    QCOMPARE(m.rowCount(), 4);
    m.setCounter("rapl");
    m.setCounter("sim");
    m.setRounds({round(1, 21.0), round(2, 22.0), round(3, 23.0)});
    QCOMPARE(m.rowCount(), 3);
    m.clear();
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.columnCount(), int(RoundsModel::ColumnCount));
    QCOMPARE(m.rowCount(m.index(0, 0)), 0);
}

void TestRoundsModel::showsFiguresForPeople()
{
    RoundsModel m;
    m.setCounter("sim");
    m.setRound(0, round(8, 35.0));
    auto text = [&](int col) { return m.index(0, col).data().toString(); };
    QCOMPARE(text(RoundsModel::RoundCol), QStringLiteral("1"));
    QCOMPARE(text(RoundsModel::DecodesCol), QStringLiteral("8"));
    QCOMPARE(text(RoundsModel::ChildWallCol), QStringLiteral("0.800"));
    QCOMPARE(text(RoundsModel::WindowCol), QStringLiteral("0.801"));
    QCOMPARE(text(RoundsModel::IdleBeforeCol), QStringLiteral("20.00 ± 0.10"));
    QCOMPARE(text(RoundsModel::IdleAfterCol), QStringLiteral("20.20 ± 0.05"));
    QCOMPARE(text(RoundsModel::BusyCol), QStringLiteral("35.00 ± 0.30"));
    // marginal = 31.5 J - 20.1 W x 0.9 s = 13.41 J; per decode 1.67625 J
    QCOMPARE(text(RoundsModel::MarginalCol), QStringLiteral("13.410"));
    QCOMPARE(text(RoundsModel::JPerDecodeCol), QStringLiteral("1.676"));
    QCOMPARE(text(RoundsModel::RatioCol), QStringLiteral("149"));
    QCOMPARE(text(RoundsModel::VerdictCol), QStringLiteral("clean"));
    const QString tip = m.index(0, RoundsModel::VerdictCol).data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QString::fromStdString(jb::verdictThresholdsText())));
    QVERIFY(tip.contains(QStringLiteral("149")));
    QVERIFY(m.headerData(RoundsModel::VerdictCol, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("clean")));
    QCOMPARE(m.headerData(RoundsModel::JPerDecodeCol, Qt::Horizontal).toString(),
             QStringLiteral("J / decode"));
}

void TestRoundsModel::rawFiguresAndVerdicts_data()
{
    QTest::addColumn<double>("busyW");
    QTest::addColumn<double>("idleSd");
    QTest::addColumn<QString>("verdict");
    // marginal W = busy - 20.1; ratio = marginal / 0.1 (the larger idle sd)
    QTest::newRow("clean") << 21.2 << 0.1 << QStringLiteral("clean");
    QTest::newRow("relative-only") << 20.6 << 0.1 << QStringLiteral("relative-only");
    QTest::newRow("noisy") << 20.25 << 0.1 << QStringLiteral("noisy");
    QTest::newRow("unusable") << 20.15 << 0.1 << QStringLiteral("unusable");
    QTest::newRow("no ratio: idle sd 0") << 25.0 << 0.0 << QString();
}

void TestRoundsModel::rawFiguresAndVerdicts()
{
    QFETCH(double, busyW);
    QFETCH(double, idleSd);
    QFETCH(QString, verdict);
    RoundsModel m;
    m.setCounter("sim");
    jb::Round r = round(4, busyW, idleSd);
    if (idleSd == 0) {  // as jb::counterRound: no ratio, no verdict
        r.counters[0].second.ratio.reset();
        r.counters[0].second.verdict.reset();
    }
    m.setRound(0, r);
    QCOMPARE(m.index(0, RoundsModel::VerdictCol).data(RoundsModel::VerdictRole).toString(), verdict);
    QCOMPARE(m.index(0, RoundsModel::VerdictCol).data().toString(),
             verdict.isEmpty() ? QStringLiteral("no verdict") : verdict);
    const auto& c = r.counters[0].second;
    QCOMPARE(m.index(0, RoundsModel::MarginalCol).data(RoundsModel::SortRole).toDouble(),
             c.marginal_nj / 1e9);
    QCOMPARE(m.index(0, RoundsModel::JPerDecodeCol).data(RoundsModel::SortRole).toDouble(),
             c.marginal_nj / 1e9 / 4);
    QCOMPARE(m.index(0, RoundsModel::BusyCol).data(RoundsModel::SortRole).toDouble(), busyW);
    QCOMPARE(m.index(0, RoundsModel::RatioCol).data(RoundsModel::SortRole).isValid(), bool(c.ratio));
}

void TestRoundsModel::roundWithoutTheCounter()
{
    RoundsModel m;
    m.setCounter("rapl");
    jb::Round r = round(8, 35.0);
    r.decodes = 0;
    m.setRound(0, r);
    QCOMPARE(m.index(0, RoundsModel::DecodesCol).data().toString(), QStringLiteral("0"));
    for (int col : {int(RoundsModel::IdleBeforeCol), int(RoundsModel::BusyCol), int(RoundsModel::MarginalCol),
                    int(RoundsModel::JPerDecodeCol), int(RoundsModel::RatioCol)})
        QCOMPARE(m.index(0, col).data().toString(), QStringLiteral("–"));
    QCOMPARE(m.index(0, RoundsModel::VerdictCol).data().toString(), QStringLiteral("no verdict"));
    m.setCounter("sim");  // the same round, another counter: its figures appear
    QCOMPARE(m.index(0, RoundsModel::BusyCol).data().toString(), QStringLiteral("35.00 ± 0.30"));
    QCOMPARE(m.index(0, RoundsModel::JPerDecodeCol).data().toString(), QStringLiteral("–"));  // 0 decodes
    // A tiny sd gets the decimals it needs rather than showing as 0.
    jb::Round quiet = round(8, 35.0, 0.004);
    m.setRound(0, quiet);
    QCOMPARE(m.index(0, RoundsModel::IdleBeforeCol).data().toString(), QStringLiteral("20.00 ± 0.004"));
}

// The round's limit text (core's `limits.<spec>`, the CLI's indented line) heads the verdict's
// tooltip for that counter only.
void TestRoundsModel::verdictTipNamesTheRoundsLimit()
{
    RoundsModel m;
    m.setCounter("sim");
    jb::Round r = round(8, 35.0);
    const QString dead = QStringLiteral("sim never advanced in this round: its energy is missing");
    r.extra["limits"]["sim"] = dead.toStdString();
    r.extra["limits"]["rapl"] = "too short for rapl: 3 updates, needs 10";
    m.setRound(0, r);
    for (int col : {int(RoundsModel::VerdictCol), int(RoundsModel::RatioCol)}) {
        const QString tip = m.index(0, col).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(dead + QStringLiteral("\n\n")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("rapl")), qPrintable(tip));
        QVERIFY(tip.contains(QString::fromStdString(jb::verdictThresholdsText())));
    }
    m.setRound(0, round(8, 35.0));
    QVERIFY(!m.index(0, RoundsModel::VerdictCol).data(Qt::ToolTipRole).toString().contains(dead));
}

QTEST_MAIN(TestRoundsModel)
#include "tst_roundsmodel.moc"
