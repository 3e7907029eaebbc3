#pragma once
// `verify` in the page: every stored per-round figure recomputed from the raw samples with the
// session's own code (jb::verifyRecord); a line that says whether they agree, the
// disagreements by JSON path (stored against recomputed), and why a record cannot be checked.
#include <jb/record/Verify.h>

#include <QWidget>

class QLabel;
class QTableView;

namespace jb {

class DisagreementModel;

class VerifyPanel : public QWidget {
    Q_OBJECT
public:
    enum class State { Empty, Agrees, Disagrees, Unverifiable };

    explicit VerifyPanel(QWidget* parent = nullptr);
    void setReport(const VerifyReport& r);

    State state() const { return state_; }
    QString summaryText() const;  // the headline as a user reads it
    QString notesText() const;
    DisagreementModel* model() const { return model_; }
    QTableView* table() const { return table_; }

    static QString headline(const VerifyReport& r);

private:
    QLabel* summary_;
    QLabel* notes_;
    QTableView* table_;
    DisagreementModel* model_;
    State state_ = State::Empty;
};

}  // namespace jb
