#pragma once
// What the idle noise lets a round resolve, per verdict (jb::resolution): the floor marginal
// power (threshold x idle sd), the energy over the busy window, and what reaches the verdict
// in a chosen share of rounds with the brackets in use. One row per verdict.
#include <jb/noise/Resolution.h>

#include <QAbstractTableModel>

#include <vector>

namespace jb {

class ResolutionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        VerdictCol,
        ThresholdCol,
        FloorWCol,
        FloorJCol,
        AtConfidenceWCol,
        AtConfidenceJCol,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // the raw figure (double), for tests
        VerdictRole,              // the verdict's name
    };

    explicit ResolutionModel(QObject* parent = nullptr);

    // Rows from jb::resolution; confidence for the header ("in 90% of rounds").
    void setRows(std::vector<ResolutionRow> rows, double confidence);
    void clear();
    const std::vector<ResolutionRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<ResolutionRow> rows_;
    double confidence_ = 0.9;
};

}  // namespace jb
