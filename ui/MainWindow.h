#pragma once
// The dashboard's window: its pages in tabs, the menus, recent files, opening records by
// drag and drop; nothing else (each page does its own work).
#include <QMainWindow>

#include <functional>

class QMenu;
class QTabWidget;

namespace jb {

class MeasurePage;
class RecentFiles;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    // The window's size on a screen of `available` pixels: `wanted`, cut to the screen less a
    // frame, never below `minimum` (the layout's own floor).
    static QSize fitToScreen(QSize wanted, QSize minimum, QSize available);

    MeasurePage* measurePage() const { return measure_; }
    // Another page (Inspector, Noise, Jobs: their own libraries, added by the app's main).
    void addPage(QWidget* page, const QString& title);
    QTabWidget* pages() const { return tabs_; }
    RecentFiles* recentFiles() const { return recent_; }
    // Opens a record on the Measure page; a failure is shown and returned false.
    bool openRecord(const QString& path);
    // Asked when the window is closed during a run; tests replace it. Default: a question box.
    std::function<bool()> confirmStopRun;
    // Where File > Open, recent files, drag and drop and the command line send records. Unset:
    // the Measure page shows the record read-only. The GUI's main routes them to the Inspector.
    std::function<void(const QStringList&)> openRecordsHook;
    // Other pages' work that closing the window would end (e.g. GPU jobs): a question for the
    // user, or empty when nothing runs. The window asks it before closing.
    std::function<QString()> busyElsewhere;
    void showPage(QWidget* page);
    // A stop signal (SIGTERM from a logout or `kill`, SIGINT, SIGHUP; the GUI's main routes
    // them here): close without asking. A run is ended and what it measured is saved first,
    // as when the window is closed; running GPU jobs are ended and recorded.
    void closeForSignal(const QString& signalName);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void updateActions();
    void showError(const QString& what, const QString& message);
    void openDialog();
    void connectDialog();  // File > Connect to a Run... (a served run, in the Measure page)
    void saveAsDialog();
    void exportDialog(const QString& title, const QString& filter, const QString& suffix,
                      const std::function<bool(const QString&, QString*)>& write);

    QTabWidget* tabs_;
    MeasurePage* measure_;
    RecentFiles* recent_;
    QMenu* recentMenu_ = nullptr;
    QList<QAction*> needRecord_;
    QAction* start_ = nullptr;
    QAction* connect_ = nullptr;
    QAction* stop_ = nullptr;
    bool closeAfterRun_ = false;
    QString closeReason_;  // set: a signal closes the window, nobody is asked
};

}  // namespace jb
