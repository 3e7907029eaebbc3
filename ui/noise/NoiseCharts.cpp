// The Noise lab's one file that includes Qt Charts (beside ui/chart/ChartFrame.cpp).
#include "noise/NoiseCharts.h"

#include "chart/AxisTicks.h"

#include "common/Format.h"
#include "common/Palette.h"
#include <jb/noise/NoiseMath.h>

#include <QFontMetricsF>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace jb {

ChartLook noiseLabLook(const QString& svg_title, const QString& svg_description)
{
    ChartLook look;
    look.margins = QMargins(4, 4, 8, 4);
    // Sizes that leave a 220 px high chart, a quarter of the laptop's 1280x720, its title, ticks
    // and legend whole (Qt Charts cuts what does not fit to "...").
    look.title_pt = 12;
    look.axis_pt = 10;
    look.minimum = QSize(240, 220);
    look.empty_hides_chart = true;
    look.svg_title = svg_title;
    look.svg_description = svg_description;
    return look;
}

namespace {

ChartLook noiseLook()
{
    return noiseLabLook(QStringLiteral("JouleBench noise lab chart"),
                        QStringLiteral("A chart of the Noise lab, made by JouleBench"));
}

constexpr auto niceStep = ticks::stepAtLeast;  // never more ticks than asked for

// A linear axis over [lo, hi] with about `wanted` nice ticks; a vertical one `height_px` tall
// (0: not laid out yet) gets fewer where they would crowd. The charts are rebuilt with each
// update of the page, so a resize is caught at the next one.
void niceRange(QValueAxis* a, double lo, double hi, int wanted = 5, double height_px = 0)
{
    if (!(hi > lo)) {
        lo -= 0.5;
        hi += 0.5;
    }
    const ticks::Scale s = ticks::fitScale(lo, hi, niceStep((hi - lo) / wanted), height_px,
                                           QFontMetricsF(a->labelsFont()).height());
    ChartFrame::setValueScale(a, s.lo, s.hi, s.step, s.lo);
}

// Whole decades around [lo, hi], so a log axis always shows labelled ticks.
std::pair<double, double> decades(double lo, double hi)
{
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi) - 1e-12))};
}

QPen dashed(const QColor& c, qreal width)
{
    QPen p(c, width);
    p.setStyle(Qt::DashLine);
    return p;
}

}  // namespace

// ---- Histogram

struct HistogramChart::Impl {
    int bins = 0;
    int fit_points = 0;
    double fit_peak = 0;
};

HistogramChart::HistogramChart(QWidget* parent) : ChartFrame(noiseLook(), parent), d(std::make_unique<Impl>())
{
    setView();
    clear(tr("No idle intervals yet."));
}

HistogramChart::~HistogramChart() = default;

void HistogramChart::clear(const QString& placeholder)
{
    showEmpty(placeholder);
    d->bins = d->fit_points = 0;
    d->fit_peak = 0;
}

void HistogramChart::setHistogram(const PowerHistogram& h)
{
    if (h.n < 2 || h.counts.empty()) {
        clear(tr("Too few idle intervals for a histogram (%1).").arg(h.n));
        return;
    }
    removeSeriesAndAxes();
    auto* upper = new QLineSeries;
    int maxCount = 0;
    upper->append(h.edges_w.front(), 0);
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        upper->append(h.edges_w[i], h.counts[i]);
        upper->append(h.edges_w[i + 1], h.counts[i]);
        maxCount = std::max(maxCount, h.counts[i]);
    }
    upper->append(h.edges_w.back(), 0);
    auto* bars = new QAreaSeries(upper);
    upper->setParent(bars);  // QAreaSeries does not own its boundary series (found by LSan)
    bars->setName(tr("idle intervals"));
    bars->setColor(palette::histogramFill());
    bars->setBorderColor(palette::histogramBorder());

    // The fitted normal as a smooth curve in counts per bin: n x width x pdf.
    auto* fit = new QLineSeries;
    fit->setName(tr("normal fit"));
    fit->setPen(QPen(palette::fitCurve(), 3));
    double lo = h.edges_w.front(), hi = h.edges_w.back();
    d->fit_peak = 0;
    if (h.sd_w > 0) {
        lo = std::min(lo, h.mean_w - 3.5 * h.sd_w);
        hi = std::max(hi, h.mean_w + 3.5 * h.sd_w);
        constexpr int kPoints = 161;
        for (int i = 0; i < kPoints; ++i) {
            const double x = lo + (hi - lo) * i / (kPoints - 1);
            const double y = h.n * h.bin_width_w * noise::normalPdf((x - h.mean_w) / h.sd_w) / h.sd_w;
            fit->append(x, y);
            d->fit_peak = std::max(d->fit_peak, y);
        }
    }
    auto* ax = addAxis(new QValueAxis, Qt::AlignBottom, tr("idle power (W)"));
    auto* ay = addAxis(new QValueAxis, Qt::AlignLeft, tr("intervals"));
    attach(bars, ax, ay);
    attach(fit, ax, ay);
    niceRange(ax, lo, hi, 6);
    niceRange(ay, 0, std::max(double(maxCount), d->fit_peak) * 1.08, 4, chart()->plotArea().height());
    ay->setLabelFormat(QStringLiteral("%.0f"));
    chart()->legend()->show();
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->setTitle(tr("Idle power: %1 intervals, sd %2 W").arg(h.n).arg(fmt::significant(h.sd_w, 3)));
    d->bins = int(h.counts.size());
    d->fit_points = int(fit->count());
    hidePlaceholder();
}

int HistogramChart::bins() const
{
    return d->bins;
}
int HistogramChart::fitPoints() const
{
    return d->fit_points;
}
double HistogramChart::fitPeakCount() const
{
    return d->fit_peak;
}

// ---- Allan deviation

struct AllanChart::Impl {
    int points = 0;
    bool log_log = false;
    std::optional<double> limit_tau;
};

AllanChart::AllanChart(QWidget* parent) : ChartFrame(noiseLook(), parent), d(std::make_unique<Impl>())
{
    setView();
    clear(tr("No idle intervals yet."));
}

AllanChart::~AllanChart() = default;

void AllanChart::clear(const QString& placeholder)
{
    showEmpty(placeholder);
    d->points = 0;
    d->log_log = false;
    d->limit_tau.reset();
}

void AllanChart::setCurve(const std::vector<AllanPoint>& curve, std::optional<AveragingLimit> limit)
{
    std::vector<AllanPoint> pts;
    for (const AllanPoint& p : curve)
        if (p.adev_w > 0 && p.tau_s > 0 && std::isfinite(p.adev_w))
            pts.push_back(p);
    if (pts.size() < 2) {
        clear(pts.empty() && !curve.empty() ? tr("The idle power does not vary: no Allan deviation to draw.")
                                            : tr("Too few idle intervals for an Allan deviation."));
        return;
    }
    removeSeriesAndAxes();
    auto* line = new QLineSeries;
    line->setName(tr("idle power"));
    line->setPen(QPen(palette::powerTrace(), 3));
    auto* dots = new QScatterSeries;
    dots->setMarkerSize(9);
    dots->setColor(palette::powerTrace());
    dots->setBorderColor(palette::powerTrace());
    double lo = INFINITY, hi = 0;
    for (const AllanPoint& p : pts) {
        line->append(p.tau_s, p.adev_w);
        dots->append(p.tau_s, p.adev_w);
        lo = std::min(lo, p.adev_w);
        hi = std::max(hi, p.adev_w);
    }
    // White noise from the first point on: sigma(1) / sqrt(m), slope -1/2.
    auto* white = new QLineSeries;
    white->setName(tr("white noise"));
    white->setPen(dashed(palette::whiteNoise(), 2));
    const double s1 = pts.front().adev_w, m1 = pts.front().m;
    for (const AllanPoint& p : {pts.front(), pts.back()}) {
        const double w = s1 * std::sqrt(m1 / double(p.m));
        white->append(p.tau_s, w);
        lo = std::min(lo, w);
    }
    // y: whole decades, so labelled ticks frame the curve; x: from the decade at or below the
    // shortest tau to a little past the longest, so the curve fills the width. The bounds sit
    // a hair outside the decades so rounding never drops the first labelled tick.
    const auto [y0, y1] = decades(lo, hi);
    const double x0 = decades(pts.front().tau_s, pts.front().tau_s).first;
    const double x1 = std::max(pts.back().tau_s * 1.4, x0 * 10.0 * (1 + 1e-9));  // a decade at least
    auto* ax = addAxis(new QLogValueAxis, Qt::AlignBottom, tr("averaging time τ (s)"));
    auto* ay = addAxis(new QLogValueAxis, Qt::AlignLeft, tr("ADEV (W)"));
    for (QLogValueAxis* a : {ax, ay}) {
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        a->setMinorTickCount(8);
    }
    ax->setRange(x0 * (1 - 1e-9), x1);
    ay->setRange(y0 * (1 - 1e-9), y1 * (1 + 1e-9));
    attach(white, ax, ay);
    attach(line, ax, ay);
    attach(dots, ax, ay);

    d->limit_tau.reset();
    QString title;
    if (limit && !limit->still_falling) {
        auto* mark = new QLineSeries;
        mark->setName(tr("limit"));
        mark->setPen(dashed(palette::averagingLimit(), 3));
        mark->append(limit->tau_s, y0);
        mark->append(limit->tau_s, y1);
        attach(mark, ax, ay);
        d->limit_tau = limit->tau_s;
        title = tr("Averaging helps up to τ ≈ %1").arg(fmt::duration(limit->tau_s));
    } else if (limit) {
        title = tr("Allan deviation: still falling at %1").arg(fmt::duration(limit->tau_s));
    } else {
        title = tr("Allan deviation of idle power");
    }
    chart()->legend()->show();
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->legend()->markers(dots).front()->setVisible(false);
    chart()->setTitle(title);
    d->points = int(pts.size());
    d->log_log = true;
    hidePlaceholder();
}

int AllanChart::points() const
{
    return d->points;
}
bool AllanChart::logLog() const
{
    return d->log_log;
}
std::optional<double> AllanChart::limitTauS() const
{
    return d->limit_tau;
}

// ---- Rounds against the verdict floors

struct RoundsChart::Impl {
    int points = 0;
    std::vector<double> thresholds;
    std::pair<double, double> y{0, 1};
};

RoundsChart::RoundsChart(QWidget* parent) : ChartFrame(noiseLook(), parent), d(std::make_unique<Impl>())
{
    setView();
    clear(tr("No rounds yet."));
}

RoundsChart::~RoundsChart() = default;

void RoundsChart::clear(const QString& placeholder)
{
    showEmpty(placeholder);
    d->points = 0;
    d->thresholds.clear();
}

void RoundsChart::setRounds(const std::vector<RoundPoint>& rounds, const std::vector<ThresholdLine>& lines)
{
    if (rounds.empty() && lines.empty()) {
        clear(tr("No rounds yet."));
        return;
    }
    removeSeriesAndAxes();
    auto* ax = addAxis(new QValueAxis, Qt::AlignBottom, tr("round"));
    auto* ay = addAxis(new QValueAxis, Qt::AlignLeft, tr("W"));
    const int first = rounds.empty() ? 1 : rounds.front().round;
    const int last = rounds.empty() ? 1 : rounds.back().round;
    const double x0 = first - 0.5, x1 = std::max(last + 0.5, first + 4.5);

    double lo = 0, hi = 0;
    d->thresholds.clear();
    for (const ThresholdLine& l : lines) {
        auto* s = new QLineSeries;
        const QColor c = verdictStyle(l.verdict).background;
        s->setPen(dashed(c, 3));
        // "10σ = 1.50 W" in the verdict's colour: short enough for three side by side.
        s->setName(tr("%1σ = %2 W").arg(QString::number(l.threshold, 'g', 3), fmt::significant(l.w, 3)));
        s->append(x0, l.w);
        s->append(x1, l.w);
        attach(s, ax, ay);
        d->thresholds.push_back(l.w);
        hi = std::max(hi, l.w);
        lo = std::min(lo, l.w);
    }
    // One scatter per verdict, in its badge colour; only the lines go in the legend.
    std::vector<std::pair<std::optional<Verdict>, QScatterSeries*>> byVerdict;
    for (const RoundPoint& p : rounds) {
        auto it = std::find_if(byVerdict.begin(), byVerdict.end(),
                               [&](const auto& e) { return e.first == p.verdict; });
        if (it == byVerdict.end()) {
            auto* s = new QScatterSeries;
            const VerdictStyle st = verdictStyle(p.verdict);
            s->setColor(st.background);
            s->setBorderColor(palette::darkInk());
            s->setMarkerSize(15);
            s->setName(st.text);
            byVerdict.emplace_back(p.verdict, s);
            it = byVerdict.end() - 1;
        }
        it->second->append(p.round, p.marginal_w);
        hi = std::max(hi, p.marginal_w);
        lo = std::min(lo, p.marginal_w);
    }
    for (auto& [v, s] : byVerdict) {
        attach(s, ax, ay);
        for (QLegendMarker* m : chart()->legend()->markers(s))
            m->setVisible(false);
    }
    const double pad = std::max(1e-3, (hi - lo) * 0.08);
    niceRange(ay, lo - (lo < 0 ? pad : 0), hi + pad, 5, chart()->plotArea().height());
    niceRange(ax, x0, x1, std::min(10, last - first + 2));
    ax->setRange(x0, x1);
    ax->setTickAnchor(first);
    ax->setTickInterval(std::max(1.0, std::ceil((x1 - x0) / 10.0)));
    ax->setLabelFormat(QStringLiteral("%.0f"));
    d->y = {ay->min(), ay->max()};
    chart()->legend()->setVisible(!lines.empty());
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setTitle(tr("Rounds against the verdict floors"));
    d->points = int(rounds.size());
    hidePlaceholder();
}

int RoundsChart::points() const
{
    return d->points;
}
std::vector<double> RoundsChart::thresholdsW() const
{
    return d->thresholds;
}
std::pair<double, double> RoundsChart::yRange() const
{
    return d->y;
}

}  // namespace jb
