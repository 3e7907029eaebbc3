#pragma once
// The Jobs page's chart: a job's GPU memory (MiB, left axis) and GPU power (W, right axis)
// against seconds since its process started. A ChartFrame (chart, placeholder, export);
// JobLiveChart.cpp is the page's one Qt Charts user; this header is free of it (pimpl), like
// chart/PowerChart.h. Redraws are coalesced on a timer and hand each series its decimated
// points in one replace().
#include "chart/ChartFrame.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace jb {

class JobTrace;

class JobLiveChart : public ChartFrame {
    Q_OBJECT
public:
    static constexpr int kRedrawIntervalMs = 40;

    explicit JobLiveChart(QWidget* parent = nullptr);
    ~JobLiveChart() override;

    // The trace to draw (kept alive here; the page keeps adding to it and calls
    // traceChanged()). title: what the chart is of ("train_seed0 on GPU 1").
    void setTrace(std::shared_ptr<const JobTrace> trace, const QString& title);
    void traceChanged();  // new samples: a redraw within kRedrawIntervalMs
    // No trace: the placeholder says why.
    void clear(const QString& placeholder);

    // The timer's tick, public for tests.
    void redraw();
    int memoryPoints() const;  // points the last redraw handed the series
    int powerPoints() const;
    // The memory and power axes' tick labels as drawn (range, tick count and label format).
    QStringList memoryTicks() const;
    QStringList powerTicks() const;
    QString placeholder() const;  // empty while a trace is shown
    bool showingTrace() const;

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

}  // namespace jb
