#include "noise/SensorView.h"

#include "noise/SensorCharts.h"
#include <jb/counters/CounterRegistry.h>
#include <jb/noise/SensorFigures.h>
#include <jb/profile/CharacterizeRun.h>
#include <jb/record/JsonText.h>

#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace jb {

SensorView::SensorView(QWidget* parent) : QWidget(parent)
{
    setWindowTitle(tr("Sensor view"));
    open_ = new QPushButton(tr("Open profile…"));
    counter_ = new QComboBox;
    counter_->setToolTip(tr("The counter to characterize (the registry's whole-device counters that this machine "
                            "can read)"));
    for (const CounterStatus& c : listCounters(CounterOptions{}))
        if (c.whole_device && c.available)
            counter_->addItem(QString::fromStdString(c.spec));
    if (counter_->findText(QStringLiteral("sim")) < 0)
        counter_->addItem(QStringLiteral("sim"));
    counter_->setCurrentText(QStringLiteral("sim"));
    seconds_ = new QDoubleSpinBox;
    seconds_->setRange(5, 600);
    seconds_->setValue(30);
    seconds_->setDecimals(0);
    seconds_->setSuffix(tr(" s"));
    seconds_->setToolTip(tr("About how long to measure"));
    characterize_ = new QPushButton(tr("Characterize"));
    characterize_->setToolTip(tr("Measure the counter's update period, step response and burst coverage on this "
                                 "machine, as joulebench-cli characterize does"));
    stop_ = new QPushButton(tr("Stop"));
    stop_->setEnabled(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    figures_ = new QLabel(
        tr("A counter's profile: Characterize measures one here; joulebench-cli characterize --counter SPEC --out FILE "
           "writes one."));
    figures_->setWordWrap(true);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    step_ = new StepResponseChart;
    bursts_ = new BurstChart;
    auto* top = new QHBoxLayout;
    top->addWidget(open_);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Counter")));
    top->addWidget(counter_);
    top->addWidget(seconds_);
    top->addWidget(characterize_);
    top->addWidget(stop_);
    top->addStretch(1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(step_, 1);
    charts->addWidget(bursts_, 1);
    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(status_);
    v->addWidget(figures_);
    v->addLayout(charts, 1);
    run_ = new CharacterizeRun(this);
    connect(open_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a counter profile"), {},
                                                          tr("Counter profiles (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        if (const Status s = openProfile(path); !s)
            figures_->setText(QString::fromStdString(s.error()));
    });
    connect(characterize_, &QPushButton::clicked, this, [this] { characterize(); });
    connect(stop_, &QPushButton::clicked, this, &SensorView::stopCharacterize);
    connect(run_, &CharacterizeRun::started, this, [this](const QString& spec, const QString& load) {
        status_->setText(tr("Characterizing %1 with %2…").arg(spec, load));
    });
    // Drawn on a steady timer, never timed to the feed: the view's own work lands in what a
    // whole-machine counter (or sim, this process's CPU) reads while it measures, and at a
    // steady cadence it falls as much in the idle before a burst as in its window.
    redraw_ = new QTimer(this);
    redraw_->setInterval(250);
    connect(redraw_, &QTimer::timeout, this, &SensorView::showLive);
    connect(run_, &CharacterizeRun::finished, this,
            [this](const CounterProfile& p, const QString& kept, bool was_kept) {
                redraw_->stop();
                setProfile(p);
                characterize_->setEnabled(true);
                stop_->setEnabled(false);
                QString s = tr("Characterized %1 in %2 s.").arg(QString::fromStdString(p.spec)).arg(p.seconds_taken, 0, 'f', 1);
                if (!kept.isEmpty())
                    s += QLatin1Char(' ') + (was_kept ? tr("Kept in the library %1 for host %2.")
                                                            .arg(kept, QString::fromStdString(p.host))
                                                      : tr("Not kept in the library: %1").arg(kept));
                status_->setText(s);
                emit characterizeEnded();
            });
    connect(run_, &CharacterizeRun::failed, this, [this](const QString& error, bool cancelled) {
        redraw_->stop();
        showLive();
        characterize_->setEnabled(true);
        stop_->setEnabled(false);
        status_->setText(cancelled ? tr("Stopped: no profile.") : tr("Characterize failed: %1").arg(error));
        emit characterizeEnded();
    });
}

SensorView::~SensorView()
{
    run_->stop();  // its destructor (a child) joins the thread
}

bool SensorView::characterize(const QString& spec, double seconds)
{
    CharacterizeSetup s;
    s.spec = (spec.isEmpty() ? counter_->currentText() : spec).toStdString();
    s.options.seconds = seconds > 0 ? seconds : seconds_->value();
    if (!run_->start(s))
        return false;
    characterize_->setEnabled(false);
    stop_->setEnabled(true);
    status_->setText(tr("Opening %1…").arg(QString::fromStdString(s.spec)));
    figures_->setText({});
    step_->clear(tr("Measuring the update period: the step response follows."));
    bursts_->clear(tr("The bursts follow the step response."));
    redraw_->start();
    return true;
}

void SensorView::stopCharacterize()
{
    if (!run_->running())
        return;
    run_->stop();
    status_->setText(tr("Stopping…"));
}

void SensorView::closeEvent(QCloseEvent* e)
{
    stopCharacterize();
    QWidget::closeEvent(e);
}

void SensorView::showLive()
{
    const SensorFigures f = run_->live().sensorFigures(run_->spec());
    QStringList lines;
    for (const std::string& l : f.lines)
        lines << QString::fromStdString(l);
    figures_->setText(lines.join(QLatin1Char('\n')));
    if (run_->live().feeds() == 0)
        return;
    if (!f.reading.empty() && int(f.reading.size()) != step_->readingPoints())
        step_->setFigures(f);
    if (!f.bursts.empty() && int(f.bursts.size()) != bursts_->points())
        bursts_->setFigures(f);
}

void SensorView::setProfile(const CounterProfile& p)
{
    const SensorFigures f = sensorFigures(p);
    QStringList lines;
    lines << QString::fromStdString(p.spec.empty() ? std::string("(no spec)") : p.spec);
    for (const std::string& l : f.lines)
        lines << QString::fromStdString(l);
    figures_->setText(lines.join(QLatin1Char('\n')));
    step_->setFigures(f);
    bursts_->setFigures(f);
}

Status SensorView::openProfile(const QString& path)
{
    const std::string file = path.toStdString();
    auto text = readWholeFile(file);
    if (!text)
        return Error{text.error()};
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error& e) {
        return Error{file + ": not JSON: " + e.what()};
    }
    auto p = CounterProfile::fromJson(j, file);
    if (!p)
        return Error{p.error()};
    setProfile(*p);
    return Ok{};
}

QString SensorView::figuresText() const
{
    return figures_->text();
}

QString SensorView::statusText() const
{
    return status_->text();
}

}  // namespace jb
