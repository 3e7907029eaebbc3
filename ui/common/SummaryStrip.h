#pragma once
// One line under the chart: median J per decode and its spread, verdict counts as badges,
// outlier rounds (jb::summaryOf), for the counter shown.
#include "stats/Statistics.h"

#include <QLabel>

namespace jb {

class SummaryStrip : public QLabel {
    Q_OBJECT
public:
    explicit SummaryStrip(QWidget* parent = nullptr);
    void setSummary(const QString& counter, const CounterSummary& s, int totalRounds);
    void clearSummary(const QString& message);
    // The text a user reads (rich text stripped), for tests.
    QString plainText() const;

    static QString describe(const QString& counter, const CounterSummary& s, int totalRounds);
};

}  // namespace jb
