#pragma once
// The Inspector's phase table: for a record whose child marked phases (`mark NAME`), one row
// per phase on the chosen counter with core's figures (jb::phaseRows: median marginal J, its
// spread over rounds, median span, share of the round's marginal J, the rounds where the phase
// was too short for the counter). A phase too short in every round says so in place of a
// figure. Each phase's name has its colour (palette::phase), the colour of its strips on the
// power chart.
#include <jb/record/Record.h>

#include <QString>
#include <QWidget>

#include <string>

class QLabel;
class QTableWidget;

namespace jb {

class PhaseTable : public QWidget {
    Q_OBJECT
public:
    enum Column { NameCol, MarginalCol, SpreadCol, SpanCol, ShareCol, TooShortCol, ColumnCount };

    explicit PhaseTable(QWidget* parent = nullptr);

    // The record's phases on counter spec (no rows: the record has none on it).
    void setRecord(const Record& r, const std::string& spec);

    int rowCount() const;
    QString cell(int row, Column col) const;
    QTableWidget* table() const { return table_; }
    QString noteText() const;

private:
    QLabel* note_;
    QTableWidget* table_;
};

}  // namespace jb
