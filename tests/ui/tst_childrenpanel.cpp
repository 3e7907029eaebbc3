// The Measure page's workload list: a parameter expands one command into several (the CLI's
// --parameter-list and --parameter-scan), and the rows become the plan's children after the
// form's own command, with their folders; bad rows name themselves.
#include "measure/ChildrenPanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>

using namespace jb;

class TestChildrenPanel : public QObject {
    Q_OBJECT
private slots:
    void aListExpandsTheSelectedRow()
    {
        ChildrenPanel panel;
        panel.model()->addRow({QStringLiteral("q{Q}"), QStringLiteral("./dec serve --q {Q}"), QStringLiteral("/tmp")});
        panel.parameterName()->setText(QStringLiteral("Q"));
        panel.parameterValues()->setText(QStringLiteral("3,6"));
        const Status s = panel.expandSelected();  // the only row
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().c_str());
        const auto& rows = panel.model()->rows();
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].name, QStringLiteral("q3"));
        QCOMPARE(rows[1].command, QStringLiteral("./dec serve --q 6"));
        QCOMPARE(rows[1].folder, QStringLiteral("/tmp"));
    }

    void aScanWithAStep()
    {
        auto v = parameterValuesFromText("Q", QStringLiteral("1..9 step 4"));
        QVERIFY(v.ok());
        QCOMPARE(v.value(), (std::vector<std::string>{"1", "5", "9"}));
        auto bad = parameterValuesFromText("Q", QStringLiteral("1..x"));
        QVERIFY(!bad.ok());
        QVERIFY2(QString::fromStdString(bad.error()).startsWith(QStringLiteral("values: ")), bad.error().c_str());
        QVERIFY(!parameterValuesFromText("Q", QStringLiteral("")).ok());
    }

    void expandingACommandWithoutThePlaceholderIsRefused()
    {
        ChildrenPanel panel;
        panel.model()->addRow({{}, QStringLiteral("./dec serve"), {}});
        panel.parameterName()->setText(QStringLiteral("Q"));
        panel.parameterValues()->setText(QStringLiteral("3,6"));
        const Status s = panel.expandSelected();
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error()).contains(QStringLiteral("row 1")), s.error().c_str());
        QCOMPARE(panel.model()->rows().size(), std::size_t(1));
    }

    void rowsBecomeChildrenAfterTheFirst()
    {
        ChildrenModel m;
        m.addRow({QStringLiteral("b"), QStringLiteral("./decb --q 3"), QStringLiteral("/srv/b")});
        m.addRow({{}, QStringLiteral("./decc \"two words\""), {}});
        const PlanChild first{"a", {"./deca"}, {}};
        auto c = m.children(first);
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE(c->size(), std::size_t(3));
        QCOMPARE(c->at(0).name, std::string("a"));
        QCOMPARE(c->at(1).workdir, std::string("/srv/b"));
        QCOMPARE(c->at(2).argv, (std::vector<std::string>{"./decc", "two words"}));
        QCOMPARE(c->at(2).name, std::string("./decc \"two words\""));
    }

    void badRowsNameThemselves()
    {
        ChildrenModel m;
        m.addRow({QStringLiteral("a"), QStringLiteral("./other"), {}});
        auto dup = m.children({"a", {"./deca"}, {}});
        QVERIFY(!dup.ok());
        QVERIFY2(QString::fromStdString(dup.error()).contains(QStringLiteral("workload 2")), dup.error().c_str());
        m.setRows({{{}, QStringLiteral("./dec --q {Q}"), {}}});
        auto open = m.children({"a", {"./deca"}, {}});
        QVERIFY(!open.ok());
        QVERIFY2(QString::fromStdString(open.error()).contains(QStringLiteral("{NAME}")), open.error().c_str());
        m.setRows({{{}, QStringLiteral("   "), {}}});
        QVERIFY(!m.children({"a", {"./deca"}, {}}).ok());
    }
};

QTEST_MAIN(TestChildrenPanel)
#include "tst_childrenpanel.moc"
