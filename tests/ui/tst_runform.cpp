// The run form: the first start on a machine without a readable counter offers the simulated
// counter and the bundled demo decoder; the form remembers its values; meta JSON is checked as
// it is typed; Start is refused with a message naming the field.
#include "measure/CounterModel.h"
#include "measure/RunForm.h"
#include <jb/record/Record.h>

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using jb::RunForm;

class TestRunForm : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void firstStartWithoutACounterRunsTheDemo();
    void remembersItsLastValues();
    void metaIsCheckedAsTyped();
    void startIsRefusedWithAReason();
    void commandLineRoundTrips_data();
    void commandLineRoundTrips();

private:
    jb::CounterOptions noCounters() const;
    QTemporaryDir dir_;
};

void TestRunForm::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_runform"));
    QVERIFY(dir_.isValid());
}

void TestRunForm::init()
{
    QSettings().clear();
}

jb::CounterOptions TestRunForm::noCounters() const
{
    // An empty powercap folder: no RAPL zone, as on a VM or a Mac.
    jb::CounterOptions o;
    o.powercap_root = dir_.path().toStdString();
    o.rapl_zone.clear();
    return o;
}

void TestRunForm::firstStartWithoutACounterRunsTheDemo()
{
    RunForm form(noCounters());
    form.show();
    form.loadSettings();
    const auto plan = form.plan();
    QVERIFY2(plan, plan ? "" : plan.error().c_str());
    const jb::Plan& p = plan.value();
    QCOMPARE(p.counters, std::vector<std::string>{"sim"});
    QCOMPARE(p.rounds, 5);
    QCOMPARE(p.k, 2);
    QCOMPARE(p.idle_s, 3.0);
    QCOMPARE(p.sample_ms, 100.0);
    QVERIFY(p.with_samples);
    QCOMPARE(p.child.size(), std::size_t(4));
    QCOMPARE(QString::fromStdString(p.child[0]),
             QCoreApplication::applicationDirPath() + QStringLiteral("/joulebench-demo-decoder"));
    QCOMPARE(p.child[1], std::string("serve"));
    QCOMPARE(p.child[3], std::string("4"));
    // The note says the counter is simulated, and why no real one could be read.
    QVERIFY(form.simNote()->isVisibleTo(&form));
    QVERIFY(form.simNote()->text().contains(QStringLiteral("simulated")));
    // ... and the line under the counters says why the real one cannot be read, and the fix.
    const QString detail = form.counterDetail()->text();
    QVERIFY2(detail.contains(QStringLiteral("rapl")) && detail.contains(QStringLiteral("unavailable")),
             qPrintable(detail));
    QVERIFY(form.startButton()->isEnabled());
    QVERIFY(!form.stopButton()->isEnabled());
    // The unreadable counter is listed with its reason, not hidden.
    const jb::CounterStatus* rapl = form.counterModel()->find(QStringLiteral("rapl"));
    QVERIFY(rapl && !rapl->available && !rapl->reason.empty());
}

void TestRunForm::remembersItsLastValues()
{
    jb::Plan want;
    want.label = "remembered";
    want.rounds = 9;
    want.k = 3;
    want.idle_s = 1.5;
    want.sample_ms = 20;
    want.counters = {"sim", "task"};
    want.meta = jb::ojson{{"codec", "demo"}, {"q", 3}};
    want.child = {"/bin/sh", "-c", "echo \"ready 1\""};
    want.workdir = dir_.path().toStdString();
    {
        RunForm form(noCounters());
        form.applyPlan(want);
        QSignalSpy start(&form, &RunForm::startRequested);
        QTest::mouseClick(form.startButton(), Qt::LeftButton);  // Start saves the values
        QCOMPARE(start.count(), 1);
    }
    RunForm again(noCounters());
    again.loadSettings();
    const auto got = again.plan();
    QVERIFY2(got, got ? "" : got.error().c_str());
    QCOMPARE(got->label, want.label);
    QCOMPARE(got->rounds, 9);
    QCOMPARE(got->k, 3);
    QCOMPARE(got->idle_s, 1.5);
    QCOMPARE(got->sample_ms, 20.0);
    auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    QCOMPARE(sorted(got->counters), sorted(want.counters));  // in the list's order
    QCOMPARE(got->meta, want.meta);
    QCOMPARE(got->child, want.child);
    QCOMPARE(got->workdir, want.workdir);
    QVERIFY(!again.simNote()->isHidden());  // sim is among them
}

void TestRunForm::metaIsCheckedAsTyped()
{
    RunForm form(noCounters());
    form.show();
    form.loadSettings();
    QVERIFY(form.startButton()->isEnabled());
    QLabel* status = form.findChild<QLabel*>(QStringLiteral("metaStatus"));
    QVERIFY(status);
    form.metaEdit()->setFocus();
    QTest::keyClicks(form.metaEdit(), QStringLiteral("{\"codec\": \"demo\","));
    QVERIFY(!form.startButton()->isEnabled());
    QVERIFY2(status->text().contains(QStringLiteral("meta")) &&
                 status->text().contains(QStringLiteral("line 1")),
             qPrintable(status->text()));
    QTest::keyClicks(form.metaEdit(), QStringLiteral(" \"q\": 3}"));
    QVERIFY2(form.startButton()->isEnabled(), qPrintable(form.problem()));
    QVERIFY(status->text().contains(QStringLiteral("Valid")));
    QCOMPARE(form.plan()->meta, (jb::ojson{{"codec", "demo"}, {"q", 3}}));
    form.metaEdit()->setPlainText(QStringLiteral("[1, 2]"));
    QVERIFY(!form.startButton()->isEnabled());
    QVERIFY(status->text().contains(QStringLiteral("JSON object")));
    form.metaEdit()->clear();  // no meta is fine: {}
    QVERIFY(form.startButton()->isEnabled());
    QCOMPARE(form.plan()->meta, jb::ojson::object());
}

void TestRunForm::startIsRefusedWithAReason()
{
    RunForm form(noCounters());
    form.loadSettings();
    QSignalSpy start(&form, &RunForm::startRequested);
    form.counterModel()->setChecked({});
    QVERIFY(!form.startButton()->isEnabled());
    QVERIFY(form.problem().startsWith(QStringLiteral("counters:")));
    form.counterModel()->setChecked({QStringLiteral("sim")});
    form.commandEdit()->clear();
    QVERIFY(form.problem().startsWith(QStringLiteral("command:")));
    form.commandEdit()->setText(QStringLiteral("./decoder serve"));
    form.findChild<QLineEdit*>(QStringLiteral("workdirEdit"))
        ->setText(dir_.filePath(QStringLiteral("missing")));
    QVERIFY(form.problem().contains(QStringLiteral("not a folder")));
    QTest::mouseClick(form.startButton(), Qt::LeftButton);
    QCOMPARE(start.count(), 0);
    form.setRunning(true);  // while running the fields are locked and Stop is the way out
    QVERIFY(!form.commandEdit()->isEnabled());
    QVERIFY(form.stopButton()->isEnabled());
}

void TestRunForm::commandLineRoundTrips_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::newRow("plain") << QStringList{QStringLiteral("/usr/bin/dec"), QStringLiteral("serve"),
                                          QStringLiteral("--jobs"), QStringLiteral("4")};
    QTest::newRow("spaces") << QStringList{QStringLiteral("/My Apps/dec"), QStringLiteral("a b")};
    QTest::newRow("quotes") << QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                                           QStringLiteral("echo \"ready 1\"")};
}

void TestRunForm::commandLineRoundTrips()
{
    QFETCH(QStringList, argv);
    std::vector<std::string> v;
    for (const QString& a : argv)
        v.push_back(a.toStdString());
    QCOMPARE(QProcess::splitCommand(RunForm::joinCommand(v)), argv);
}

QTEST_MAIN(TestRunForm)
#include "tst_runform.moc"
