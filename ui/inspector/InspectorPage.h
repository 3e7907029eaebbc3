#pragma once
// The Inspector page: saved records opened in tabs (off the GUI thread, with a progress line
// in the tab), each inspected in a RecordTab, and a Compare tab once two are open.
//
// A comparison record (comparison.json of measure -- A ::: B) opens its children's records,
// each in its tab, and an InterleavedView of its figures in a tab of its own.
//
// For MainWindow: openRecords() from File > Open and the command line, recordOpened for the
// recent-files list, openFailed when a file cannot be read (the page also shows the message
// in a dialog unless showError is replaced, as tests do). A failed file never disturbs the
// tabs already open.
#include <QStringList>
#include <QWidget>

#include <QHash>
#include <QPointer>

#include <functional>
#include <memory>

class QLabel;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace jb {

class CompareView;
class InterleavedView;
class RecordLoader;
struct LoadedRecord;
class RecordTab;

class InspectorPage : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPage(QWidget* parent = nullptr);
    ~InspectorPage() override;

    // Opens each file in its own tab, in this order (a file already open is brought forward).
    // A comparison record opens as openComparison().
    void openRecords(const QStringList& paths);
    void openRecord(const QString& path);
    // Opens comparison.json: its children's records (paths relative to its folder), and its view.
    // A child record that is missing is named in a message (and the view's banner); the
    // others still open.
    void openComparison(const QString& path);

    // The comparison views open, in tab order.
    int comparisonCount() const;
    InterleavedView* comparisonView(int i) const;

    // Record tabs (loading or loaded), in tab order; the Compare tab is not one of them.
    int tabCount() const;
    RecordTab* recordTab(int i) const;
    RecordTab* currentRecordTab() const;
    int indexOfPath(const QString& path) const;  // -1 where not open
    void setCurrentRecordTab(int i);
    void closeRecordTab(int i);
    bool isLoading() const;

    // The Compare tab (shown once two records are loaded).
    CompareView* compareView() const { return compare_; }
    bool compareVisible() const;
    // Shows the Compare tab; the pair is the two records opened last (A the older), unless none
    // was opened since the last pair was shown (then A and B stay as the user left them).
    void showCompare();
    QTabWidget* tabs() const { return tabs_; }

    // Export from the current record tab through a save dialog (for menus), or to a path.
    void exportCurrent(int kind);

    // How messages are shown: default a warning box (non-blocking). Tests replace it.
    std::function<void(const QString& title, const QString& message)> showError;
    // Where an export is saved: default a file dialog. Tests replace it; empty: cancelled.
    std::function<QString(const QString& caption, const QString& suggestion, const QString& filter)>
        askSavePath;
    // Which files to open: default a file dialog.
    std::function<QStringList()> askOpenPaths;

    // The library's answer to addToLibraryRequested: shown in the page's status line.
    void libraryAdded(const QString& path, const QString& error);

signals:
    void recordOpened(const QString& path);
    // The user asked for the current record to join the library (records are not added on
    // opening: test fixtures and others' files stay out unless asked for).
    void addToLibraryRequested(const QString& path);
    void openFailed(const QString& path, const QString& message);
    void loadingChanged(bool loading);
    void currentRecordChanged();

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void onLoaded(int id, const std::shared_ptr<const LoadedRecord>& r);
    void onFailed(int id, const QString& path, const QString& message);
    void exportFrom(RecordTab* tab, int kind);
    void refreshCompare();
    void updateEmpty();
    void updateTabText(RecordTab* tab);

    RecordLoader* loader_;
    QStackedWidget* stack_;
    QTabWidget* tabs_;
    // Record paths in the order they were opened (or brought forward), newest last: "Compare
    // two…" compares the two newest, until the user picks others.
    QStringList openOrder_;
    bool pairPicked_ = false;
    CompareView* compare_;
    QLabel* status_;
    QToolButton* compareButton_;
    QToolButton* addToLibrary_;
    QWidget* compareHolder_;
    QHash<int, QPointer<RecordTab>> loads_;  // load id -> the tab waiting for it
};

}  // namespace jb
