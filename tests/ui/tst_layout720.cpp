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
