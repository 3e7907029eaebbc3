// The dashboard's tab widget: a widget on a page that changes its size hint (a status label's
// text during a run) repaints itself and not the whole page; a page that grows still makes the
// window above grow, and a tab bar that grows still pushes the page down.
#include "common/PageTabs.h"

#include <QLabel>
#include <QTabBar>
#include <QVBoxLayout>
#include <QtTest>

namespace {

// A widget that counts its paint events.
class Painted : public QWidget {
public:
    using QWidget::QWidget;
    int paints = 0;
    QSize sizeHint() const override { return {400, 200}; }

protected:
    void paintEvent(QPaintEvent*) override { ++paints; }
};

// A window holding a tab widget whose first page has a label above a painted widget.
struct Window {
    explicit Window(QTabWidget* t) : tabs(t)
    {
        auto* v = new QVBoxLayout(&top);
        v->addWidget(tabs);
        page = new QWidget;
        auto* pv = new QVBoxLayout(page);
        label = new QLabel(QStringLiteral("0:01 elapsed"));
        painted = new Painted;
        pv->addWidget(label);
        pv->addWidget(painted, 1);
        tabs->addTab(page, QStringLiteral("Measure"));
        tabs->addTab(new QWidget, QStringLiteral("Inspector"));
        top.resize(600, 400);
        top.show();
    }
    void settle() const
    {
        for (int i = 0; i < 5; ++i) {
            QCoreApplication::sendPostedEvents();
            QTest::qWait(20);
        }
    }
    // The painted sibling's paints while the label's text grows, one step at a time.
    int siblingPaintsWhileLabelChanges()
    {
        settle();
        painted->paints = 0;
        QString text = QStringLiteral("0:0");
        for (int i = 0; i < 6; ++i) {
            text += QStringLiteral(" elapsed");  // a longer text each time: a new size hint
            label->setText(text);
            settle();
        }
        return painted->paints;
    }

    QWidget top;
    QTabWidget* tabs;
    QWidget* page = nullptr;
    QLabel* label = nullptr;
    Painted* painted = nullptr;
};

}  // namespace

class TestPageTabs : public QObject {
    Q_OBJECT
private slots:
    void labelChangeRepaintsOnlyTheLabel();
    void plainTabWidgetRepaintsTheWholePage();
    void pageThatGrowsGrowsTheWindow();
    void tabBarThatGrowsMovesThePage();
};

void TestPageTabs::labelChangeRepaintsOnlyTheLabel()
{
    auto* tabs = new jb::PageTabs;
    Window w(tabs);
    QVERIFY(QTest::qWaitForWindowExposed(&w.top));
    const int passed = tabs->layoutsPassed();
    QCOMPARE(w.siblingPaintsWhileLabelChanges(), 0);
    QCOMPARE(tabs->layoutsPassed(), passed);
    QVERIFY(w.label->text().endsWith(QStringLiteral("elapsed elapsed")));
    QCOMPARE(w.label->width(), w.painted->width());  // the page's own layout still lays it out
}

// Why PageTabs exists: the plain QTabWidget repaints every widget on the page for the same
// label changes. (Should a Qt release stop doing so, this fails and PageTabs can go.)
void TestPageTabs::plainTabWidgetRepaintsTheWholePage()
{
    Window w(new QTabWidget);
    QVERIFY(QTest::qWaitForWindowExposed(&w.top));
    QVERIFY2(w.siblingPaintsWhileLabelChanges() >= 6,
             "QTabWidget no longer repaints its page on a layout request; PageTabs is not needed");
}

void TestPageTabs::pageThatGrowsGrowsTheWindow()
{
    auto* tabs = new jb::PageTabs;
    Window w(tabs);
    QVERIFY(QTest::qWaitForWindowExposed(&w.top));
    w.settle();
    QVERIFY(w.top.width() < 900);
    w.painted->setMinimumWidth(900);  // the page's minimum size hint grows
    w.settle();
    QVERIFY2(w.top.minimumSize().width() >= 900, qPrintable(QString::number(w.top.minimumSize().width())));
    QVERIFY(w.top.width() >= 900);
    QVERIFY(w.page->width() >= 900);
}

void TestPageTabs::tabBarThatGrowsMovesThePage()
{
    auto* tabs = new jb::PageTabs;
    Window w(tabs);
    QVERIFY(QTest::qWaitForWindowExposed(&w.top));
    w.settle();
    const int before = tabs->tabBar()->height();
    const int passed = tabs->layoutsPassed();
    QFont big = tabs->tabBar()->font();
    big.setPointSizeF(big.pointSizeF() * 3);
    tabs->tabBar()->setFont(big);  // the bar's size hint grows; QTabWidget is not told directly
    w.settle();
    QVERIFY(tabs->layoutsPassed() > passed);
    QVERIFY2(tabs->tabBar()->height() > before, qPrintable(QString::number(tabs->tabBar()->height())));
    QVERIFY(w.page->mapTo(tabs, QPoint(0, 0)).y() >= tabs->tabBar()->geometry().bottom());
}

QTEST_MAIN(TestPageTabs)
#include "tst_pagetabs.moc"
