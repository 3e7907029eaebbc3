#include "jobs/JobLiveChart.h"

#include "common/Palette.h"
#include <jb/live/JobTraces.h>

#include <QTimer>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace jb {

struct JobLiveChart::Impl {
    QChart* chart = nullptr;
    QLineSeries* memory = nullptr;
    QLineSeries* power = nullptr;
    QValueAxis* x = nullptr;
    QValueAxis* yMemory = nullptr;
    QValueAxis* yPower = nullptr;
    QTimer timer;
    std::shared_ptr<const JobTrace> trace;
    int memoryPoints = 0, powerPoints = 0;
};

namespace {

QList<QPointF> toPoints(const std::vector<TracePoint>& pts)
{
    QList<QPointF> out;
    out.reserve(qsizetype(pts.size()));
    for (const TracePoint& p : pts)
        out.append(QPointF(p.t_s, p.v));
    return out;
}

// An axis from 0 to a round end above v (plus a little headroom), in 4 to 8 round steps
// (1, 2, 2.5 or 5 x 10^n), so the labels read 0, 2500, 5000 ... rather than 0, 3750, 7500.
void setNiceRange(QValueAxis* axis, double v)
{
    if (!(v > 0))
        v = 1;
    v *= 1.05;
    double step = std::pow(10.0, std::floor(std::log10(v / 4)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (v / (m * step) <= 8) {
            step *= m;
            break;
        }
    const int steps = std::max(1, int(std::ceil(v / step - 1e-9)));
    axis->setRange(0, steps * step);
    axis->setTickCount(steps + 1);
    // As many decimals as the step has (0.2 -> "%.1f", 2.5 -> "%.1f", 0.25 -> "%.2f"): a whole
    // number format on a 0.2 step wrote 0, 0, 0, 1, 1, 1 down the axis.
    int decimals = 0;
    while (decimals < 6 && std::fabs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

ChartLook jobLook()
{
    ChartLook look;
    look.margins = QMargins(4, 4, 4, 4);
    look.empty_hides_chart = true;
    look.svg_title = QStringLiteral("JouleBench job trace");
    look.svg_description = QStringLiteral("A job's GPU memory and power against time, made by JouleBench");
    return look;
}

}  // namespace

JobLiveChart::JobLiveChart(QWidget* parent) : ChartFrame(jobLook(), parent), d(std::make_unique<Impl>())
{
    d->chart = chart();
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->chart->legend()->show();

    d->memory = new QLineSeries;
    d->memory->setName(tr("GPU memory of the job (MiB)"));
    d->memory->setPen(QPen(palette::jobMemory(), 2));
    d->power = new QLineSeries;
    d->power->setName(tr("GPU power (W)"));
    d->power->setPen(QPen(palette::jobPower(), 1.5));
    d->chart->addSeries(d->memory);
    d->chart->addSeries(d->power);

    d->x = addAxis(new QValueAxis, Qt::AlignBottom, tr("seconds since the job started"));
    d->x->setLabelFormat(QStringLiteral("%.0f"));
    d->yMemory = addAxis(new QValueAxis, Qt::AlignLeft, tr("MiB"));
    d->yMemory->setLabelFormat(QStringLiteral("%.0f"));
    d->yMemory->setLinePenColor(d->memory->pen().color());
    d->yMemory->setLabelsColor(d->memory->pen().color());
    d->yPower = addAxis(new QValueAxis, Qt::AlignRight, tr("W"));
    d->yPower->setLabelFormat(QStringLiteral("%.0f"));
    d->yPower->setLinePenColor(d->power->pen().color());
    d->yPower->setLabelsColor(d->power->pen().color());
    d->memory->attachAxis(d->x);
    d->memory->attachAxis(d->yMemory);
    d->power->attachAxis(d->x);
    d->power->attachAxis(d->yPower);
    setView();

    d->timer.setSingleShot(true);
    d->timer.setInterval(kRedrawIntervalMs);
    connect(&d->timer, &QTimer::timeout, this, &JobLiveChart::redraw);
    clear(tr("No job selected."));
}

JobLiveChart::~JobLiveChart() = default;

void JobLiveChart::setTrace(std::shared_ptr<const JobTrace> trace, const QString& title)
{
    d->trace = std::move(trace);
    d->chart->setTitle(title);
    hidePlaceholder();
    redraw();
}

void JobLiveChart::traceChanged()
{
    if (d->trace && !d->timer.isActive())
        d->timer.start();
}

void JobLiveChart::clear(const QString& placeholder)
{
    d->timer.stop();
    d->trace.reset();
    d->memory->clear();
    d->power->clear();
    d->memoryPoints = d->powerPoints = 0;
    d->chart->setTitle(QString());
    showPlaceholder(placeholder);
}

void JobLiveChart::redraw()
{
    d->timer.stop();
    if (!d->trace)
        return;
    const JobTrace& t = *d->trace;
    // A job starts filling a minute-wide chart from the left instead of rescaling every tick.
    const double span = std::max(60.0, t.lastT());
    const int columns = std::max(50, int(d->chart->plotArea().width()));
    const auto mem = decimateColumns(t.memory(), 0, span, columns);
    const auto pow = decimateColumns(t.power(), 0, span, columns);
    d->memory->replace(toPoints(mem));
    d->power->replace(toPoints(pow));
    d->memoryPoints = int(mem.size());
    d->powerPoints = int(pow.size());
    setNiceRange(d->x, span);
    setNiceRange(d->yMemory, t.maxMemory().value_or(0));
    setNiceRange(d->yPower, t.maxPower().value_or(0));
    d->power->setName(t.power().empty() ? tr("GPU power (not reported)") : tr("GPU power (W)"));
    d->memory->setName(t.memory().empty() ? tr("GPU memory (not read yet)")
                                          : tr("GPU memory of the job (MiB)"));
}

namespace {
QStringList tickLabels(const QValueAxis* a)
{
    QStringList out;
    const int n = a->tickCount();
    const QByteArray fmt = a->labelFormat().toLatin1();
    for (int i = 0; i < n; ++i)
        out << QString::asprintf(fmt.constData(), a->min() + (a->max() - a->min()) * i / std::max(1, n - 1));
    return out;
}
}  // namespace

QStringList JobLiveChart::memoryTicks() const
{
    return tickLabels(d->yMemory);
}

QStringList JobLiveChart::powerTicks() const
{
    return tickLabels(d->yPower);
}

int JobLiveChart::memoryPoints() const
{
    return d->memoryPoints;
}

int JobLiveChart::powerPoints() const
{
    return d->powerPoints;
}

QString JobLiveChart::placeholder() const
{
    return placeholderText();
}

bool JobLiveChart::showingTrace() const
{
    return d->trace != nullptr;
}

}  // namespace jb
