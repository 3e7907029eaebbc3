#pragma once
// Per-round energy per decode: one point per round with a +/- one sd bar, filled with the
// round's verdict colour; one series for a record, two overlaid for a comparison (circles and
// squares, side by side), each with its median as a dashed line. A ChartFrame (chart,
// placeholder, export); this header is free of Qt Charts (pimpl), as ui/chart/PowerChart.h.
#include "chart/ChartFrame.h"

#include <jb/stats/Verdict.h>

#include <QColor>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

struct RoundMark {
    int round = 0;  // 0-based; drawn at round + 1
    double value = 0;
    std::optional<double> sd;  // half the bar
    std::optional<Verdict> verdict;
    QString tip;  // what hovering over the point says
};

struct RoundMarkSeries {
    QString name;  // legend: "A: x.json"
    std::vector<RoundMark> marks;
    std::optional<double> median;
    QColor outline;       // marker border, bars and median line
    bool square = false;  // the second series of a comparison
    double x_offset = 0;  // in rounds, so two series do not hide each other
};

class RoundChart : public ChartFrame {
    Q_OBJECT
public:
    explicit RoundChart(QWidget* parent = nullptr);
    ~RoundChart() override;

    void setSeries(std::vector<RoundMarkSeries> series,
                   const QString& yTitle = QStringLiteral("J per decode"));
    void clear(const QString& placeholder);

    // For tests (placeholderText() and the exports are ChartFrame's).
    int markCount() const;
    int seriesCount() const;
    std::pair<double, double> yRange() const;
    std::pair<double, double> xRange() const;
    // Hover text of series s, mark i (as the tooltip shows it).
    QString describe(int series, int mark) const;

    // hovered() says the point's text (describe) as the pointer passes over it.

protected:
    void paintBeneath(QPainter* painter, const QRectF& plot) const override;  // the sd bars

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace jb
