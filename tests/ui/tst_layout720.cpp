// Nothing clipped at the laptop size, 1280x720 (and at 1600x1000), by geometry: the Measure
// page's form with "Compare workloads" ticked and a long workload row keeps every button, spin
// box and one-line label at the width its text needs and within reach (a scroll bar where the
// form is wider than its pane), and the chart keeps a usable height and its texts whole.
#include "../UiClip.h"
#include "MainWindow.h"
#include "chart/PowerChart.h"
#include "common/RecordView.h"
#include "measure/ChildrenPanel.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"

#include <QGroupBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

class TestLayout720 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("JouleBenchTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_layout720"));
        QSettings().clear();
    }

    // A bare X server's 1280x1024 screen (Xvfb without -geometry) or a laptop's 1280x720: the
    // window opens inside it, its right edge in sight; a large screen gets the designed size.
    void windowFitsTheScreen()
    {
        const QSize minimum(900, 560);
        const QSize small = jb::MainWindow::fitToScreen(QSize(1400, 860), minimum, QSize(1280, 1024));
        QVERIFY2(small.width() <= 1280 && small.width() >= 1200, qPrintable(QString::number(small.width())));
        QCOMPARE(small.height(), 860);
        const QSize laptop = jb::MainWindow::fitToScreen(QSize(1400, 860), minimum, QSize(1280, 720));
        QVERIFY(laptop.width() <= 1280 && laptop.height() <= 720);
        QCOMPARE(jb::MainWindow::fitToScreen(QSize(1400, 860), minimum, QSize(2560, 1440)), QSize(1400, 860));
        // Never below the layout's floor, even on a tiny screen.
        QCOMPARE(jb::MainWindow::fitToScreen(QSize(1400, 860), minimum, QSize(640, 480)), minimum);
        // The window itself, on the test's screen: inside it (or at the layout's floor).
        QSettings().remove(QStringLiteral("window/geometry"));
        jb::MainWindow w;
        const QSize avail = w.screen()->availableGeometry().size();
        QVERIFY2(w.width() <= std::max(avail.width(), w.minimumSizeHint().width()),
                 qPrintable(QStringLiteral("%1 wide on a %2 screen").arg(w.width()).arg(avail.width())));
        QVERIFY(w.height() <= std::max(avail.height(), w.minimumSizeHint().height()));
    }

    void measurePageWithWorkloads_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }
    void measurePageWithWorkloads()
    {
        QFETCH(QSize, size);
        jb::MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        jb::RunForm* form = w.measurePage()->form();
        QVERIFY(jbtest::clippedWidgets(w.measurePage()).isEmpty());
        form->compareBox()->setChecked(true);
        form->childrenPanel()->model()->addRow(
            {QStringLiteral("jpeg"),
             QStringLiteral(
                 "/usr/lib/joulebench/joulebench-demo-decoder serve --jobs 4 --format jpeg --quality 90"),
             {}});
        QCoreApplication::processEvents();
        QTest::qWait(0);
        const QStringList clipped = jbtest::clippedWidgets(w.measurePage());
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
        // The form stays in its pane: Start and Stop in sight.
        QVERIFY(form->startButton()->isVisible());
        const QRect start(form->startButton()->mapTo(&w, QPoint(0, 0)), form->startButton()->size());
        QVERIFY(w.rect().contains(start));
        // The chart's own texts (title, ticks, axis titles, legend) whole, not cut to "...".
        const QStringList cut = jbtest::elidedChartTexts(w.measurePage());
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        // The chart keeps room to be read.
        QVERIFY2(w.measurePage()->view()->chart()->height() >= 180,
                 qPrintable(QString::number(w.measurePage()->view()->chart()->height())));
    }
};

QTEST_MAIN(TestLayout720)
#include "tst_layout720.moc"
