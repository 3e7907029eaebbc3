#pragma once
// The power chart's legend: every mark it draws (PowerChart::legend()), a swatch drawn as the
// chart draws it and its name, wrapped over as many lines as the width needs; each entry's
// tooltip says more. Free of Qt Charts.
#include "chart/PowerChart.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace jb {

class ChartLegend : public QWidget {
    Q_OBJECT
public:
    explicit ChartLegend(QWidget* parent = nullptr);
    void setEntries(std::vector<LegendEntry> entries);
    const std::vector<LegendEntry>& entries() const { return entries_; }
    QStringList texts() const;  // the entries' names, in order

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;  // tooltips per entry

private:
    // Each entry's box (swatch and text) laid out in width.
    std::vector<QRect> layout(int width) const;
    std::vector<LegendEntry> entries_;
};

}  // namespace jb
