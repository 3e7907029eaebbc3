#include "MainWindow.h"

#include "common/PageTabs.h"
#include "common/RecentFiles.h"
#include "common/RecordFiles.h"
#include "measure/ConnectDialog.h"
#include "measure/MeasurePage.h"
#include "measure/StatusLine.h"
#include <jb/record/Record.h>
#include <jb/stats/Statistics.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>

#include <algorithm>

namespace jb {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      tabs_(new PageTabs(this)),
      measure_(new MeasurePage({}, this)),
      recent_(new RecentFiles(this))
{
    setWindowTitle(tr("JouleBench"));
    setAcceptDrops(true);
    tabs_->setDocumentMode(true);
    tabs_->addTab(measure_, tr("Measure"));
    setCentralWidget(tabs_);
    buildMenus();

    confirmStopRun = [this] {
        return QMessageBox::question(
                   this, tr("A run is going"), tr("Stop the run, save what it has measured, and close?"),
                   QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Yes;
    };
    connect(measure_, &MeasurePage::runningChanged, this, &MainWindow::updateActions);
    connect(measure_, &MeasurePage::checkingChanged, this, &MainWindow::updateActions);
    connect(measure_, &MeasurePage::hasRecordChanged, this, &MainWindow::updateActions);
    connect(measure_, &MeasurePage::watchingChanged, this, &MainWindow::updateActions);
    connect(measure_, &MeasurePage::recordSaved, recent_, &RecentFiles::add);
    connect(measure_, &MeasurePage::recordOpened, recent_, &RecentFiles::add);
    connect(recent_, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
    connect(measure_, &MeasurePage::readyToClose, this, [this] {
        if (closeAfterRun_)
            close();
    });

    const QByteArray geometry = QSettings().value(QStringLiteral("window/geometry")).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(1400, 860);
    // Never wider or taller than the screen it opens on (a bare X server is 1280x1024; a saved
    // geometry may come from a larger monitor): the right edge and the status line stay in sight.
    if (const QScreen* s = screen())
        resize(fitToScreen(size(), minimumSizeHint(), s->availableGeometry().size()));
    updateActions();
}

MainWindow::~MainWindow() = default;

QSize MainWindow::fitToScreen(QSize wanted, QSize minimum, QSize available)
{
    // A window frame takes a few pixels around the client area; keep it inside as well.
    constexpr int kFrame = 16;
    const int w = std::max(minimum.width(), std::min(wanted.width(), available.width() - kFrame));
    const int h = std::max(minimum.height(), std::min(wanted.height(), available.height() - kFrame));
    return {w, h};
}

void MainWindow::addPage(QWidget* page, const QString& title)
{
    tabs_->addTab(page, title);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Record…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    connect_ = file->addAction(tr("&Connect to a Run…"), this, &MainWindow::connectDialog);
    connect_->setToolTip(tr("Watch a run served by joulebench-cli --serve (docs/REMOTE.md)"));
    file->addSeparator();
    QAction* save = file->addAction(tr("&Save Record As…"), this, &MainWindow::saveAsDialog);
    save->setShortcut(QKeySequence::Save);
    needRecord_ << save;
    QMenu* exp = file->addMenu(tr("&Export"));
    auto addExport = [&](const QString& text, const QString& filter, const QString& suffix,
                         std::function<Status(const QString&)> fn) {
        QAction* a = exp->addAction(text, this, [=, this] {
            exportDialog(text, filter, suffix, [fn](const QString& path, QString* error) {
                const Status st = fn(path);
                if (!st)
                    *error = QString::fromStdString(st.error());
                return bool(st);
            });
        });
        needRecord_ << a;
    };
    MeasurePage* m = measure_;
    addExport(tr("Rounds as CSV…"), tr("CSV files (*.csv)"), QStringLiteral("-rounds.csv"),
              [m](const QString& p) { return m->exportRoundsCsv(p); });
    addExport(tr("Samples as CSV…"), tr("CSV files (*.csv)"), QStringLiteral("-samples.csv"),
              [m](const QString& p) { return m->exportSamplesCsv(p); });
    addExport(tr("Chart as PNG…"), tr("PNG images (*.png)"), QStringLiteral(".png"),
              [m](const QString& p) { return m->exportChartPng(p); });
    addExport(tr("Chart as SVG…"), tr("SVG images (*.svg)"), QStringLiteral(".svg"),
              [m](const QString& p) { return m->exportChartSvg(p); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    start_ = run->addAction(tr("&Start"), measure_, &MeasurePage::start);
    start_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    stop_ = run->addAction(tr("S&top"), measure_, &MeasurePage::stop);
    stop_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Verdicts"), this, [this] {
        QMessageBox::information(this, tr("Verdicts"), QString::fromStdString(verdictThresholdsText()));
    });
    help->addAction(tr("&About JouleBench"), this, [this] {
        QMessageBox::about(
            this, tr("About JouleBench"),
            tr("<b>JouleBench %1</b><p>Live energy measurement of decoders and GPU jobs: idle brackets "
               "around measured rounds, marginal energy per decode, and a verdict on how far the "
               "signal stands above the idle noise.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recent_->files();
    for (const QString& f : files) {
        QAction* a = recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openRecord(f); });
        a->setToolTip(f);
        a->setStatusTip(f);
    }
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear List"), recent_, &RecentFiles::clear);
}

void MainWindow::updateActions()
{
    const bool running = measure_->running();
    const bool watching = measure_->watching();  // a served run: its controls are over there
    for (QAction* a : needRecord_)
        a->setEnabled(!running && !watching && measure_->hasRecord());
    start_->setEnabled(!running && !watching && !measure_->checking());  // no second Start while the check probes
    stop_->setEnabled(running);
    recentMenu_->setEnabled(!running && !watching);
    connect_->setEnabled(!running && !measure_->checking());
}

void MainWindow::showError(const QString& what, const QString& message)
{
    QMessageBox::warning(this, what, message);
}

void MainWindow::showPage(QWidget* page)
{
    tabs_->setCurrentWidget(page);
}

bool MainWindow::openRecord(const QString& path)
{
    if (openRecordsHook) {
        openRecordsHook({path});
        return true;
    }
    const Status st = measure_->openRecord(path);
    if (!st) {
        if (!QFileInfo::exists(path))
            recent_->remove(path);
        showError(tr("Cannot open the record"), QString::fromStdString(st.error()));
        return false;
    }
    tabs_->setCurrentWidget(measure_);
    return true;
}

void MainWindow::connectDialog()
{
    ConnectDialog d(this);
    if (d.exec() != QDialog::Accepted)
        return;
    const auto target = d.target();
    if (!target)
        return;
    if (const Status st = measure_->watchRemote(target.value()); !st) {
        showError(tr("Cannot watch the run"), QString::fromStdString(st.error()));
        return;
    }
    tabs_->setCurrentWidget(measure_);
}

void MainWindow::openDialog()
{
    const QString start = recent_->files().isEmpty() ? autosaveFolder()
                                                     : QFileInfo(recent_->files().front()).absolutePath();
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Records"), start,
                                                            tr("JouleBench records (*.json);;All files (*)"));
    if (paths.isEmpty())
        return;
    if (openRecordsHook)
        openRecordsHook(paths);
    else
        openRecord(paths.front());
}

void MainWindow::saveAsDialog()
{
    QString suggestion = measure_->recordPath();
    if (suggestion.isEmpty())
        suggestion = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                         .filePath(QStringLiteral("record.json"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Record As"), suggestion,
                                                      tr("JouleBench records (*.json)"));
    if (path.isEmpty())
        return;
    if (const Status st = measure_->saveRecord(path); !st)
        showError(tr("Cannot save the record"), QString::fromStdString(st.error()));
}

void MainWindow::exportDialog(const QString& title, const QString& filter, const QString& suffix,
                              const std::function<bool(const QString&, QString*)>& write)
{
    QString base = measure_->recordPath();
    if (base.endsWith(QStringLiteral(".json")))
        base.chop(5);
    if (base.isEmpty())
        base = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                   .filePath(QStringLiteral("joulebench"));
    QString t = title;
    t.remove(QStringLiteral("…"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export %1").arg(t), base + suffix, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!write(path, &error))
        showError(tr("Cannot export"), error);
    else  // said where it went, as a save does
        measure_->statusLine()->setMessage(tr("Exported %1 to %2").arg(t.trimmed().toLower(), path),
                                           StatusLine::Tone::Good);
}

void MainWindow::closeForSignal(const QString& signalName)
{
    closeReason_ = tr("JouleBench received %1 during the run").arg(signalName);
    close();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    const bool ask = closeReason_.isEmpty();
    if (const QString busy = ask && busyElsewhere ? busyElsewhere() : QString(); !busy.isEmpty()) {
        if (QMessageBox::question(this, tr("Close JouleBench?"), busy, QMessageBox::Yes | QMessageBox::Cancel,
                                  QMessageBox::Cancel) != QMessageBox::Yes) {
            e->ignore();
            return;
        }
    }
    if (!measure_->running()) {
        QSettings().setValue(QStringLiteral("window/geometry"), saveGeometry());
        e->accept();
        return;
    }
    e->ignore();
    if (closeAfterRun_ || (ask && (!confirmStopRun || !confirmStopRun())))
        return;
    // Stop the child, save what was measured, then close (readyToClose).
    closeAfterRun_ = true;
    measure_->stopForClose(closeReason_);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (!measure_->running() && e->mimeData()->hasUrls()) {
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile()) {
                e->acceptProposedAction();
                return;
            }
    }
}

void MainWindow::dropEvent(QDropEvent* e)
{
    QStringList paths;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    if (paths.isEmpty())
        return;
    e->acceptProposedAction();
    if (openRecordsHook)
        openRecordsHook(paths);
    else
        openRecord(paths.front());
}

}  // namespace jb
