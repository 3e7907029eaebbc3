#pragma once
// One line under the chart: median J per decode and its spread, verdict counts as badges,
// outlier rounds (jb::summaryOf), for the counter shown.
#include <jb/stats/Statistics.h>

#include <QLabel>

#include <vector>

namespace jb {

class SummaryStrip : public QLabel {
    Q_OBJECT
public:
    explicit SummaryStrip(QWidget* parent = nullptr);
    void setSummary(const QString& counter, const CounterSummary& s, int totalRounds);
    // An interleaved run: one line per workload (its name, its own rounds), never their mix.
    struct Part {
        QString workload;
        CounterSummary summary;
        int rounds = 0;
    };
    void setSummaries(const QString& counter, const std::vector<Part>& parts);
    void clearSummary(const QString& message);
    // The text a user reads (rich text stripped), for tests.
    QString plainText() const;

    static QString describe(const QString& counter, const CounterSummary& s, int totalRounds);
};

}  // namespace jb
