#pragma once
// The dashboard's rounds table (RoundsModel) with one more column: how many counter updates
// each busy window held (CounterResolution), so a round on a coarse counter says "coarse
// counter: 3 updates in the window" next to its verdict instead of only "unusable". The
// verdict's tooltip says it too. Every other column is RoundsModel's, unchanged.
#include <jb/stats/CounterResolution.h>

#include <QIdentityProxyModel>

#include <string>
#include <utility>
#include <vector>

namespace jb {

class RoundsModel;

class ResolutionProxyModel : public QIdentityProxyModel {
    Q_OBJECT
public:
    enum Role {
        CoarseRole = Qt::UserRole + 40,  // bool: the window held too few counter updates
        UpdatesRole,                     // double: estimated updates, invalid where unknown
    };

    explicit ResolutionProxyModel(QObject* parent = nullptr);

    void setRoundsModel(RoundsModel* rounds);
    RoundsModel* roundsModel() const { return rounds_; }
    // The record's cadences and periods (cadenceOf) for each counter.
    void setRecord(const Record& r);
    int resolutionColumn() const;
    // The rule's outcome for a row, on the counter shown.
    WindowResolution resolutionAt(int row) const;
    // Rows whose window is coarse.
    int coarseCount() const;

    int columnCount(const QModelIndex& parent = {}) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& idx) const override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QMap<int, QVariant> itemData(const QModelIndex& index) const override;

private:
    void extraChanged(int first, int last);

    RoundsModel* rounds_ = nullptr;
    std::vector<std::pair<std::string, CounterCadence>> cadences_;
};

}  // namespace jb
