#pragma once
// A label's energy over time (the Library page): one point per commit or record, its median J
// per decode with its 95% interval as a bar, joined by a line, and the points that are a
// regression (significantly above the point before) marked and shaded. The figures come from
// core/library's trendOf, as `joulebench-cli library trend` prints them; this chart only draws
// them. A ChartFrame (chart, placeholder, export); this header is free of Qt Charts (pimpl).
#include "chart/ChartFrame.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace jb {

struct TrendMark {
    QString key;  // the axis label: a short commit or a date
    QString tip;  // what hovering over the point says
    std::optional<double> median, low, high;  // J per decode and its interval (none: no rounds)
    bool regression = false;
};

class TrendChart : public ChartFrame {
    Q_OBJECT
public:
    explicit TrendChart(QWidget* parent = nullptr);
    ~TrendChart() override;

    void setTrend(std::vector<TrendMark> marks, const QString& title = {},
                  const QString& yTitle = QStringLiteral("J per decode"));
    void clear(const QString& placeholder);

    // For tests (placeholderText() and the exports are ChartFrame's).
    const std::vector<TrendMark>& marks() const;
    int pointCount() const;       // points drawn (marks with a median)
    int barCount() const;         // interval bars drawn
    int regressionCount() const;  // points marked as a regression
    std::pair<double, double> yRange() const;
    QStringList axisLabels() const;
    QString describe(int mark) const;

    // hovered() says the point's text (describe) as the pointer passes over it.

protected:
    void paintBeneath(QPainter* painter, const QRectF& plot) const override;  // bars and shading

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace jb
