#pragma once
// The Library page: every record of the user's library (core/library) in a sortable table,
// filtered by query terms (`label=gate meta.q=3`, as `joulebench-cli library list` takes
// them). Double-click opens the record in the Inspector (openRecords). Not yet here: the
// trend chart and comparing two selected records (see docs/LIBRARY.md).
#include <QWidget>

#include <string>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace jb {

class LibraryModel;

class LibraryPage : public QWidget {
    Q_OBJECT
public:
    // spec: the library (a file or postgresql:// URL), as librarySpec() gives it.
    explicit LibraryPage(std::string spec, QWidget* parent = nullptr);
    LibraryModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QLineEdit* filter() const { return filter_; }
    QString status() const;

public slots:
    void reload();  // runs the filter's query again

signals:
    void openRecords(const QStringList& paths);

private:
    std::string spec_;
    LibraryModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    QLabel* status_;
};

}  // namespace jb
