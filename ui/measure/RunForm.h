#pragma once
// The run form of the Measure page: the child's command line and working folder, label,
// rounds, k, idle seconds, sample period, counters (with their availability), meta JSON
// checked as it is typed; Start and Stop. It remembers its last values (QSettings, group
// "measure"); on a machine seen for the first time it offers a run that works at once.
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/session/Plan.h>

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace jb {

class ChildrenPanel;
class CounterModel;

class RunForm : public QWidget {
    Q_OBJECT
public:
    explicit RunForm(CounterOptions options = {}, QWidget* parent = nullptr);

    // The plan the form describes, always with raw samples (the record the CLI writes with
    // --samples); the error names the field.
    Result<Plan> plan() const;
    void applyPlan(const Plan& p);
    void setK(int k);  // the Start check's fix
    // The dashboard's first plan: 5 rounds, k 2, idle 3 s, 100 ms, the best counter; where no
    // energy counter can be read, `sim` and the bundled demo decoder (appDir/joulebench-demo-decoder
    // serve --jobs 4), so Start shows a real run at once.
    static Plan firstStartPlan(const CounterOptions& options, const QString& appDir);

    void loadSettings();  // the last values, or firstStartPlan on a first start
    void saveSettings() const;
    void setRunning(bool running);
    bool simulated() const;  // the `sim` counter is checked

    // "a" "b c" -> a "b c"; the inverse of QProcess::splitCommand.
    static QString joinCommand(const std::vector<std::string>& argv);

    QPushButton* startButton() const { return start_; }
    QPushButton* stopButton() const { return stop_; }
    QLineEdit* commandEdit() const { return command_; }
    QCheckBox* plainCommandCheck() const { return plainCommand_; }  // the plan's exec (measure --exec)
    QPlainTextEdit* metaEdit() const { return meta_; }
    CounterModel* counterModel() const { return counters_; }
    QLabel* simNote() const { return simNote_; }
    ChildrenPanel* childrenPanel() const { return children_; }
    QGroupBox* compareBox() const { return compareBox_; }  // checkable: the workloads count when checked
    QLabel* counterDetail() const { return counterDetail_; }
    QString problem() const { return problem_; }  // why Start is disabled, if it is

signals:
    void startRequested();
    void stopRequested();

private:
    void validate();
    void browseProgram();
    void browseFolder();
    void updateSimNote();
    void showCounterDetail(int row);

    CounterOptions options_;
    QLineEdit* command_;
    QCheckBox* plainCommand_;
    QLineEdit* workdir_;
    QLineEdit* label_;
    QSpinBox* rounds_;
    QSpinBox* k_;
    QDoubleSpinBox* idle_;
    QDoubleSpinBox* sample_;
    CounterModel* counters_;
    QTableView* counterView_;
    QLabel* counterDetail_;
    QLabel* simNote_;
    QPlainTextEdit* meta_;
    QGroupBox* compareBox_ = nullptr;
    ChildrenPanel* children_ = nullptr;
    QLabel* metaStatus_;
    QLabel* problemLabel_;
    QPushButton* start_;
    QPushButton* stop_;
    QString problem_;
    bool running_ = false;
};

}  // namespace jb
