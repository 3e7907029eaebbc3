#pragma once
// A comparison record's ratios to the baseline, one row per child: each child's energy and time
// ratio as a point with its 95% interval as a bar, and a line at 1 (the baseline). The figures
// are comparison.json's (record/Interleaved's reader); this chart only draws them.
#include "chart/ChartFrame.h"
#include <jb/record/Interleaved.h>

#include <memory>

namespace jb {

class RatioChart : public ChartFrame {
    Q_OBJECT
public:
    explicit RatioChart(QWidget* parent = nullptr);
    ~RatioChart() override;

    void setComparison(const ComparisonRecord& c);

    // What is drawn, for tests: the interval bars (energy and time) and the axis's range.
    int bars() const;
    std::pair<double, double> ratioRange() const;

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

}  // namespace jb
