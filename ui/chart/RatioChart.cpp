// The Inspector's second Qt Charts user (beside RoundChart.cpp): a comparison's ratios.
#include "chart/RatioChart.h"

#include "chart/AxisTicks.h"
#include "common/Palette.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace jb {

namespace {

ChartLook ratioLook()
{
    ChartLook look;
    look.minimum = QSize(320, 160);
    look.empty_hides_chart = true;
    look.svg_title = QStringLiteral("JouleBench comparison");
    look.svg_description = QStringLiteral("Ratios to the baseline with their 95% intervals, made by JouleBench");
    return look;
}

constexpr double kOffset = 0.16;  // energy above the child's row, time below
constexpr int kMaxLabel = 28;     // characters of a workload's name on the axis

}  // namespace

struct RatioChart::Impl {
    int bars = 0;
    std::pair<double, double> range{0, 0};
};

RatioChart::RatioChart(QWidget* parent) : ChartFrame(ratioLook(), parent), d(std::make_unique<Impl>())
{
    setView();
    showEmpty(tr("No comparison."));
}

RatioChart::~RatioChart() = default;

void RatioChart::setComparison(const ComparisonRecord& c)
{
    removeSeriesAndAxes();
    d->bars = 0;
    const int n = int(c.children.size());
    auto* ax = addAxis(new QValueAxis, Qt::AlignBottom, tr("ratio to %1").arg(QString::fromStdString(c.baseline)));
    auto* ay = addAxis(new QCategoryAxis, Qt::AlignLeft);
    ay->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    double lo = 1.0, hi = 1.0;
    struct Side {
        const char* name;
        QColor color;
        double offset;
        const std::optional<ComparisonSide> ComparisonChild::*side;
    };
    const Side sides[] = {{"energy (J/decode)", palette::recordA(), kOffset, &ComparisonChild::energy},
                          {"time (s/decode)", palette::recordB(), -kOffset, &ComparisonChild::time}};
    for (const Side& s : sides) {
        auto* points = new QScatterSeries;
        points->setName(tr(s.name));
        points->setColor(s.color);
        points->setBorderColor(palette::darkInk());
        points->setMarkerSize(10);
        for (int i = 0; i < n; ++i) {
            const ComparisonChild& ch = c.children[std::size_t(i)];
            const double y = n - 1 - i + s.offset;  // the first child on top
            const std::optional<ComparisonSide>& side = ch.*s.side;
            if (ch.baseline) {
                points->append(1.0, y);
                continue;
            }
            if (!side || !side->ratio)
                continue;
            points->append(*side->ratio, y);
            lo = std::min(lo, *side->ratio);
            hi = std::max(hi, *side->ratio);
            if (side->ratio_low && side->ratio_high) {
                auto* bar = new QLineSeries;
                bar->setPen(QPen(s.color, 3));
                bar->append(*side->ratio_low, y);
                bar->append(*side->ratio_high, y);
                attach(bar, ax, ay);
                chart()->legend()->markers(bar).value(0)->setVisible(false);
                lo = std::min(lo, *side->ratio_low);
                hi = std::max(hi, *side->ratio_high);
                ++d->bars;
            }
        }
        attach(points, ax, ay);
    }
    auto* one = new QLineSeries;
    QPen dash(palette::mutedText(), 1.5);
    dash.setStyle(Qt::DashLine);
    one->setPen(dash);
    one->append(1.0, -0.5);
    one->append(1.0, n - 0.5);
    attach(one, ax, ay);
    chart()->legend()->markers(one).value(0)->setVisible(false);
    const double pad = std::max((hi - lo) * 0.08, 0.01);
    const ticks::Scale sc = ticks::fitScale(lo - pad, hi + pad, ticks::nearestStep((hi - lo + 2 * pad) / 6.0), 0, 0);
    setValueScale(ax, sc.lo, sc.hi, sc.step, 1.0);
    d->range = {sc.lo, sc.hi};
    ay->setRange(-0.5, n - 0.5);
    ay->setStartValue(-0.5);
    // Whole labels, never Qt's "...": a long name (a command line) is shortened in its middle,
    // where the differing tail of a command line is kept.
    ax->setTruncateLabels(false);
    ay->setTruncateLabels(false);
    for (int i = 0; i < n; ++i) {
        QString name = QString::fromStdString(c.children[std::size_t(n - 1 - i)].name);
        if (name.size() > kMaxLabel)
            name = name.left(kMaxLabel / 2 - 1) + QStringLiteral("…") + name.right(kMaxLabel / 2 - 1);
        ay->append(name, i + 0.5);
    }
    chart()->legend()->show();
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->setTitle(tr("Ratio to the baseline, with 95% intervals"));
    hidePlaceholder();
}

int RatioChart::bars() const
{
    return d->bars;
}

std::pair<double, double> RatioChart::ratioRange() const
{
    return d->range;
}

}  // namespace jb
