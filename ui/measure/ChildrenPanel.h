#pragma once
// The Measure page's list of workloads for an interleaved comparison (measure -- A ::: B in the
// CLI): a table of name, command and folder, one row per child after the form's own command
// (the baseline), and a parameter row that expands one command with {NAME} into several
// (the CLI's --parameter-list / --parameter-scan, through core/session/Workloads).
#include <jb/base/Result.h>
#include <jb/session/Plan.h>

#include <QAbstractTableModel>
#include <QWidget>

#include <vector>

class QCheckBox;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QLabel;

namespace jb {

class ChildrenModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Command, Folder, ColumnCount };
    struct Row {
        QString name, command, folder;
    };

    explicit ChildrenModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    const std::vector<Row>& rows() const { return rows_; }
    void setRows(std::vector<Row> rows);
    void addRow(Row row);
    void removeRowAt(int row);
    // Replaces row `row` by the rows its command expands into (the command's {NAME} takes each
    // of `values`, the name gets the same substitution or " NAME=V"); the error says why not.
    Status expandRow(int row, const std::string& parameter, const std::vector<std::string>& values);

    // The children the rows describe, after `first` (the form's own command); an empty command
    // or two children of one name is an error naming the row.
    Result<std::vector<PlanChild>> children(const PlanChild& first) const;

private:
    std::vector<Row> rows_;
};

class ChildrenPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChildrenPanel(QWidget* parent = nullptr);

    ChildrenModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    int warmup() const;
    void setWarmup(int blocks);
    // Keep going: a workload that fails or times out is dropped and the others go on (the
    // CLI's --keep-going); off, the first failure ends the run.
    bool keepGoing() const;
    void setKeepGoing(bool on);
    QCheckBox* keepGoingBox() const { return keepGoing_; }
    // Expands the selected row (or the only one) by the parameter fields: "NAME" and either
    // "V1,V2,..." or "MIN..MAX" with an optional step ("1..9 step 2"); the error names the field.
    Status expandSelected();
    QLineEdit* parameterName() const { return paramName_; }
    QLineEdit* parameterValues() const { return paramValues_; }
    QLabel* problem() const { return problem_; }

signals:
    void changed();

private:
    ChildrenModel* model_;
    QTableView* view_;
    QSpinBox* warmup_;
    QCheckBox* keepGoing_;
    QLineEdit* paramName_;
    QLineEdit* paramValues_;
    QPushButton* add_;
    QPushButton* remove_;
    QPushButton* expand_;
    QLabel* problem_;
};

// "V1,V2" or "MIN..MAX [step S]" into values, through Workloads' parameterList/parameterScan.
Result<std::vector<std::string>> parameterValuesFromText(const std::string& name, const QString& text);

}  // namespace jb
