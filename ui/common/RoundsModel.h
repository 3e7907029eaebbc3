#pragma once
// The rounds of a run as a table, for one whole-device counter at a time: round, decodes,
// child wall, window, idle before/after and busy power (mean ± sd), marginal J, J per decode,
// ratio and verdict. Live runs add rounds as they finish; a record sets them all at once.
#include <jb/record/Record.h>

#include <QAbstractTableModel>

#include <string>
#include <vector>

namespace jb {

class RoundsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RoundCol,
        DecodesCol,
        ChildWallCol,
        WindowCol,
        IdleBeforeCol,
        IdleAfterCol,
        BusyCol,
        MarginalCol,
        JPerDecodeCol,
        RatioCol,
        VerdictCol,
        WorkloadCol,  // an interleaved run's: which workload the round ran (the view shows it second)
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // the raw figure (double), for sorting and tests
        VerdictRole,              // QString verdict, empty where none
    };

    explicit RoundsModel(QObject* parent = nullptr);

    void setCounter(const std::string& spec);
    const std::string& counter() const { return spec_; }
    void setRounds(std::vector<Round> rounds);
    // Round `index` (0-based) finished: appended, or replaced where already shown.
    void setRound(int index, const Round& round);
    void clear();
    const std::vector<Round>& rounds() const { return rounds_; }
    // An interleaved run: round i ran workload names[of_round[i]] (empty: one workload).
    void setWorkloads(std::vector<std::string> names, std::vector<int> of_round);
    bool hasWorkloads() const { return !workload_names_.empty(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Round& r, const CounterRound* c, int column) const;
    QVariant raw(const Round& r, const CounterRound* c, int column) const;
    QString tooltip(const Round& r, const CounterRound* c, int column) const;

    QString workloadOf(int row) const;

    std::string spec_;
    std::vector<Round> rounds_;
    std::vector<std::string> workload_names_;
    std::vector<int> workload_of_round_;
};

}  // namespace jb
