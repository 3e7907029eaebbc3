#pragma once
// The counters this machine could have (jb::listCounters), each checkable where available and
// otherwise showing why not and the fix. Column 0: the counter; column 1: its availability.
#include <jb/counters/CounterRegistry.h>

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace jb {

class CounterModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CounterCol, AvailabilityCol, ColumnCount };
    explicit CounterModel(QObject* parent = nullptr);

    // details[i] (scope, unit, wrap range) goes into the tooltip of list[i]; may be empty.
    void setCounters(std::vector<CounterStatus> list, std::vector<CounterDetails> details = {});
    const std::vector<CounterStatus>& counters() const { return list_; }
    const CounterStatus* find(const QString& spec) const;

    // The checked counters, in list order.
    QStringList checked() const;
    // Checks exactly these (those not available stay unchecked); returns the ones it could not.
    QStringList setChecked(const QStringList& specs);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

signals:
    void checkedChanged();

private:
    std::vector<CounterStatus> list_;
    std::vector<CounterDetails> details_;
    std::vector<bool> checked_;
};

}  // namespace jb
