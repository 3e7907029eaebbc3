#pragma once
// The library's records as a table (one row per record and whole-device counter): label,
// started, host, counter, verdicts, median J per decode, trust (absolute or relative only), commit, file. Widget-free (QtCore),
// so it is tested without a display. Every figure comes from core/library. It sorts itself (on
// typed keys, not QVariants: 10,000 rows in a few ms, where a sort proxy took about 80), and
// keeps its sort when the entries change.
#include <jb/library/LibraryEntry.h>

#include <QAbstractTableModel>

#include <vector>

namespace jb {

class LibraryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Trust: whether the counter's J per decode is absolute (jb::counterTrust), its reason the
    // tooltip of the Counter, Median J and Trust cells.
    enum Column { Label, Started, Host, Counter, Verdicts, MedianJ, Trust, Commit, File, ColumnCount };
    // Sort keys (numbers sort as numbers, times as times) under this role.
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int PathRole = Qt::UserRole + 2;
    // The row's label (invalid where the record has none) and counter (empty where none).
    static constexpr int LabelRole = Qt::UserRole + 3;
    static constexpr int CounterRole = Qt::UserRole + 4;

    explicit LibraryModel(QObject* parent = nullptr);
    void setEntries(std::vector<LibraryEntry> entries);
    const std::vector<LibraryEntry>& entries() const { return entries_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    // Stable: rows that compare equal keep their order. Numbers sort as numbers, times as times,
    // text as its bytes (as SortRole's values would sort).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    struct Row {
        std::size_t entry;
        int figures;  // index into the entry's figures, -1 where it has none
    };
    std::vector<LibraryEntry> entries_;
    void sortRows();
    std::vector<Row> rows_;
    int sortColumn_ = -1;  // -1: the entries' order
    Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
};

}  // namespace jb
