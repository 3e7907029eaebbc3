// Qt Charts stays in this file (and the other adapters): SensorCharts.h only names ChartFrame.
#include "noise/SensorCharts.h"

#include "common/Palette.h"
#include "noise/NoiseCharts.h"

#include <QPen>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace jb {

namespace {

ChartLook sensorLook()
{
    return noiseLabLook(
        QStringLiteral("JouleBench sensor view"),
        QStringLiteral("A counter's profile in the Noise lab's sensor view, made by JouleBench"));
}

}  // namespace

StepResponseChart::StepResponseChart(QWidget* parent) : ChartFrame(sensorLook(), parent)
{
    setView();
    clear(tr("Open a counter profile (characterize --out) to see its step response."));
}

void StepResponseChart::clear(const QString& placeholder)
{
    reading_points_ = 0;
    showEmpty(placeholder);
}

void StepResponseChart::setFigures(const SensorFigures& f)
{
    removeSeriesAndAxes();
    hidePlaceholder();
    chart()->setTitle(tr("%1: the reading after a load step").arg(QString::fromStdString(f.spec)));
    auto* ax = addAxis(new QValueAxis, Qt::AlignBottom, tr("s after the load starts"));
    auto* ay = addAxis(new QValueAxis, Qt::AlignLeft, tr("share of the step"));
    auto* load = new QLineSeries;
    load->setName(tr("load"));
    load->setPen(QPen(palette::mutedText(), 2, Qt::DashLine));
    for (const auto& [t, v] : f.load)
        load->append(t, v);
    auto* reading = new QLineSeries;
    reading->setName(tr("reading"));
    reading->setPen(QPen(palette::powerTrace(), 2));
    for (const auto& [t, v] : f.reading)
        reading->append(t, v);
    reading_points_ = int(f.reading.size());
    attach(load, ax, ay);
    attach(reading, ax, ay);
    const double x0 = f.load.empty() ? 0.0 : f.load.front().first;
    const double x1 = f.load.empty() ? 1.0 : f.load.back().first;
    fitValueAxis(ax, x0, x1);
    ay->setRange(-0.05, 1.1);
}

BurstChart::BurstChart(QWidget* parent) : ChartFrame(sensorLook(), parent)
{
    setView();
    clear(tr("Open a counter profile to see how it counts short bursts."));
}

void BurstChart::clear(const QString& placeholder)
{
    points_ = 0;
    showEmpty(placeholder);
}

void BurstChart::setFigures(const SensorFigures& f)
{
    removeSeriesAndAxes();
    hidePlaceholder();
    chart()->setTitle(tr("Bursts of %1 ms: counted share by phase (mean %2, sd %3)")
                          .arg(f.burst_ms, 0, 'g', 3)
                          .arg(f.spread.mean, 0, 'f', 2)
                          .arg(f.spread.sd, 0, 'f', 2));
    auto* ax = addAxis(new QValueAxis, Qt::AlignBottom, tr("phase in the update period (ms)"));
    auto* ay = addAxis(new QValueAxis, Qt::AlignLeft, tr("counted / true energy"));
    auto* pts = new QScatterSeries;
    pts->setName(tr("burst"));
    pts->setMarkerSize(5);
    pts->setColor(palette::recordA());
    double lo = 0.0, hi = 1.0, x1 = 1.0;
    for (const auto& [phase, share] : f.bursts) {
        pts->append(phase, share);
        lo = std::min(lo, share);  // a measured burst can count less than nothing (noise)
        hi = std::max(hi, share);
        x1 = std::max(x1, phase);
    }
    points_ = int(f.bursts.size());
    auto* truth = new QLineSeries;
    truth->setName(tr("the truth"));
    truth->setPen(QPen(palette::fitCurve(), 2, Qt::DashLine));
    truth->append(0.0, 1.0);
    truth->append(x1, 1.0);
    attach(pts, ax, ay);
    attach(truth, ax, ay);
    fitValueAxis(ax, 0.0, x1);
    fitValueAxis(ay, lo < 0 ? lo * 1.05 : 0.0, hi * 1.05);
}

}  // namespace jb
