#pragma once
// The figures `verify` found different from what the samples give: one row each, with its
// JSON path, the stored value and the recomputed one.
#include <jb/record/Verify.h>

#include <QAbstractTableModel>

#include <vector>

namespace jb {

class DisagreementModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PathCol, StoredCol, RecomputedCol, ColumnCount };

    explicit DisagreementModel(QObject* parent = nullptr);
    void setDisagreements(std::vector<Disagreement> d);
    const std::vector<Disagreement>& disagreements() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<Disagreement> rows_;
};

}  // namespace jb
