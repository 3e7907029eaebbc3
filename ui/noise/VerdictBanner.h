#pragma once
// The verdict in large type for a lecture hall: a coloured badge (VerdictStyle), the ratio
// beside it, the two figures it divides, and a line of context (which round, what the model
// expects at these settings).
#include <jb/stats/Verdict.h>

#include <QString>
#include <QWidget>

#include <optional>
#include <string>

class QLabel;

namespace jb {

struct BannerFigures {
    std::optional<Verdict> verdict;
    std::optional<double> ratio;
    QString ratio_label = QStringLiteral("ratio");  // "median ratio" for a record
    QString figures;  // what the ratio divides ("marginal 14.9 W ÷ idle sd 0.150 W")
    QString caption;  // "round 12", "median of 7 rounds"
    QString detail;   // context under the figures
};

class VerdictBanner : public QWidget {
    Q_OBJECT
public:
    explicit VerdictBanner(QWidget* parent = nullptr);
    void showFigures(const BannerFigures& f);
    void clear(const QString& message);
    void setPhase(const QString& text);  // what the run is doing now ("idle bracket 3.1 / 5 s")
    // Smaller type for a short window (the laptop's 720 px): the same words, less height.
    void setCompact(bool compact);
    bool compact() const { return compact_; }

    // What the room reads, for tests.
    QString verdictText() const;
    QString ratioText() const;
    QString detailText() const;
    QString phaseText() const;

private:
    void applySizes();
    bool compact_ = false;
    QLabel* badge_;
    QLabel* caption_;
    QLabel* ratio_;
    QLabel* figures_;
    QLabel* detail_;
    QLabel* phase_;
};

}  // namespace jb
