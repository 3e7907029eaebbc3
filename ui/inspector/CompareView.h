#pragma once
// Two opened records side by side: the ratio of their median energy per decode (A/B) with a
// percentile bootstrap 95% interval over rounds (jb::compareRecords, as `joulebench-cli
// compare`), each one's verdict counts and spread, and their per-round points on one chart.
#include <jb/record/Compare.h>

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace jb {

class RoundChart;
class SummaryStrip;

struct CompareCandidate {
    QString path;
    QString title;
    std::shared_ptr<const Record> record;
};

class CompareView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kResamples = 10000;  // as the CLI's default
    static constexpr std::uint64_t kSeed = 1;

    explicit CompareView(QWidget* parent = nullptr);

    // The records that can be compared; A and B stay on the same files where they remain.
    void setCandidates(std::vector<CompareCandidate> c);
    int candidateCount() const { return int(candidates_.size()); }
    // Picks A, B (indices into the candidates) and the counter (empty: the first both have),
    // and compares them.
    void compare(int a, int b, const std::string& counter = {});
    int indexA() const;
    int indexB() const;
    std::string counter() const;

    const std::optional<Comparison>& comparison() const { return comparison_; }
    // The headline and the side-by-side figures as a user reads them.
    QString ratioText() const;
    QString verdictText() const;
    QString sideText(int which) const;  // 0: A, 1: B
    RoundChart* chart() const { return chart_; }

    // "1.234 (95% CI 1.201 – 1.270)": how the ratio is shown, for tests against compareRecords.
    static QString formatRatio(const Comparison& c);

signals:
    void compared();

protected:
    // The bootstrap (10,000 draws) runs when the comparison is on screen or asked for, not
    // each time a record opens.
    void showEvent(QShowEvent* e) override;

private:
    void refillCounters();
    void recompute();

    std::vector<CompareCandidate> candidates_;
    std::optional<Comparison> comparison_;
    bool stale_ = true;
    QComboBox* boxA_;
    QComboBox* boxB_;
    QComboBox* counterBox_;
    QPushButton* swap_;
    QLabel* headline_;
    QLabel* meaning_;
    QLabel* sideA_;
    QLabel* sideB_;
    SummaryStrip* stripA_;
    SummaryStrip* stripB_;
    RoundChart* chart_;
};

}  // namespace jb
