#pragma once
// The Library page: every record of the user's library (core/library) in a sortable table,
// filtered by query terms (`label=gate meta.q=3`, as `joulebench-cli library list` takes
// them). Double-click opens the record in the Inspector (openRecords); two selected records
// open as a comparison there (Compare, a button and the context menu: compareRecords). Below
// the table, the trend of the current row's label and counter (within the filter): median J
// per decode by date or by commit with its 95% interval, regressions marked; the figures are
// core/library's trendOf, as `joulebench-cli library trend` prints them.
//
// The library is read and written on the page's own worker thread, one job at a time and in
// order: the query behind the table (60 ms for 10,000 records), the files added (hashing and
// reading a record), the trend (a bootstrap per point, over 100 ms for a long history). The
// GUI thread only shows results, so a filter, a click or a save never waits on them; a request
// made while one of its kind is under way runs after it, and the older result is dropped.
#include <QStringList>
#include <QThreadPool>
#include <QWidget>

#include <string>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace jb {

class LibraryModel;
class TrendChart;

class LibraryPage : public QWidget {
    Q_OBJECT
public:
    // spec: the library (a file or postgresql:// URL), as librarySpec() gives it.
    explicit LibraryPage(std::string spec, QWidget* parent = nullptr);
    const std::string& spec() const { return spec_; }
    LibraryModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QLineEdit* filter() const { return filter_; }
    QString status() const;

    // The distinct files of the selected rows, in the table's order.
    QStringList selectedPaths() const;
    QPushButton* compareButton() const { return compareButton_; }
    QAction* compareAction() const { return compareAction_; }
    QAction* openAction() const { return openAction_; }

    // The trend below the table: of which label and counter (empty: none shown), by commit or date.
    TrendChart* trendChart() const { return trend_; }
    QComboBox* trendBy() const { return trendBy_; }
    QString trendLabel() const { return trendLabel_; }
    QString trendCounter() const { return trendCounter_; }
    void showTrend(const QString& label, const QString& counter);
    // True while a trend is being computed (the chart still shows the one before).
    bool trendBusy() const;
    // True while the worker has a list, an add or a trend to deliver.
    bool busy() const;

public slots:
    void reload();            // runs the filter's query again (the table changes when it is done)
    void compareSelected();   // two selected records: compareRecords
    // Adds a file the dashboard wrote or opened (a record, comparison or job manifest) to the
    // library, and shows it when the page is on screen (else at the next show). A library that
    // cannot take it changes nothing but the status line.
    void addFile(const QString& path);

signals:
    // addFile's answer: error empty where the file joined the library.
    void fileAdded(const QString& path, const QString& error);
    void openRecords(const QStringList& paths);
    // a and b as the table shows them; counter: the first selected row's (empty: any).
    void compareRecords(const QString& a, const QString& b, const QString& counter);
    // The trend chart shows the latest request's trend (or its error).
    void trendShown();
    // The table shows the latest query's rows (or the status line its error).
    void listed();

protected:
    void showEvent(QShowEvent* e) override;

private:
    void selectionChanged();
    void fitColumns();
    void refreshTrend();
    void startTrend();
    void startList();
    // Runs work() on the worker and done(its result) on the GUI thread; work must own what it reads.
    template <typename R, typename Work, typename Done>
    void onWorker(Work work, Done done);

    std::string spec_;
    LibraryModel* model_;
    QTableView* view_;
    QLineEdit* filter_;
    QLabel* status_;
    QPushButton* compareButton_;
    QAction* compareAction_;
    QAction* openAction_;
    QLabel* trendTitle_;
    QComboBox* trendBy_;
    TrendChart* trend_;
    QString trendLabel_, trendCounter_;
    bool stale_ = false;  // files were added while hidden
    int adding_ = 0;             // files on the worker to add
    bool listing_ = false;       // a query on the worker
    bool listAgain_ = false;     // the filter changed while it ran
    bool trending_ = false;      // a trend on the worker
    bool trendAgain_ = false;    // a request came while one was computing
    bool trendPending_ = false;  // a request's result is not on the chart yet
    unsigned trendGeneration_ = 0;
    QThreadPool worker_;  // one thread; its destructor waits for the job under way
};

}  // namespace jb
