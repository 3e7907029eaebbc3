#include "noise/NoiseLabPage.h"

#include "chart/PowerChart.h"
#include "common/Format.h"
#include "common/Palette.h"
#include "common/RecordFiles.h"
#include "common/RunShading.h"
#include "noise/NoiseCharts.h"
#include "noise/NoiseLabText.h"
#include "noise/PlannerPanel.h"
#include "noise/ResolutionModel.h"
#include "noise/SensorView.h"
#include "noise/SimControls.h"
#include "noise/VerdictBanner.h"
#include <jb/live/NoiseLabRun.h>
#include <jb/noise/Histogram.h>
#include <jb/sampling/SampleStore.h>
#include <jb/stats/Statistics.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace jb {

namespace {
constexpr int kCompactBelowPx = 760;  // the page's height under which the banner is compact
constexpr int kChartMinHeightPx = 220;  // each chart's least height: its texts whole (no "...")
constexpr int kRightColumnMinPx = 420;  // the rounds and Allan charts' least width, likewise
}  // namespace

namespace {

QString decoderPath(const NoiseLabOptions& o)
{
    if (!o.decoder.isEmpty())
        return o.decoder;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("joulebench-demo-decoder"));
}

QLabel* caption(const QString& text)
{
    auto* l = new QLabel(text);
    QFont f = l->font();
    f.setPointSize(f.pointSize() + 2);
    f.setBold(true);
    l->setFont(f);
    return l;
}

}  // namespace

namespace {

NoiseLabRunOptions labRunOptions(const NoiseLabOptions& o)
{
    NoiseLabRunOptions r;
    const QString decoder = decoderPath(o);
    const QFileInfo fi(decoder);
    r.real = chooseRealCounter(listCounters(o.counters), fi.isFile() && fi.isExecutable(), decoder.toStdString());
    r.decoder_argv.push_back(decoder.toStdString());
    for (const QString& a : o.decoder_args)
        r.decoder_argv.push_back(a.toStdString());
    r.counters = o.counters;
    r.seed = o.seed;
    return r;
}

}  // namespace

NoiseLabPage::NoiseLabPage(NoiseLabOptions options, QWidget* parent)
    : QWidget(parent), options_(std::move(options)), lab_(new NoiseLabRun(labRunOptions(options_), this))
{
    qRegisterMetaType<jb::NoiseLabPage::Mode>();
    buildUi();

    // Only the live source's events come out of the lab run: the page draws them the same way,
    // whichever kind of run it is.
    connect(lab_, &NoiseLabRun::liveStarted, this, [this](qint64 origin_ns, const QString& spec) {
        const RunSource* src = lab_->source();
        if (const auto store = src->storeOf(spec.toStdString()))
            beginLive(origin_ns, store, spec.toStdString(), src->layout().period_s);
        if (lab_->live() == NoiseLabRun::Live::Real)
            setStatus(tr("Waiting for the decoder to start…"));
    });
    connect(lab_, &NoiseLabRun::phase, this, &NoiseLabPage::onPhase);
    connect(lab_, &NoiseLabRun::roundFinished, this, &NoiseLabPage::onRound);
    connect(lab_, &NoiseLabRun::warning, this, [this](const QString& m) { setStatus(m, true); });
    // Idle brackets measured before the change describe other settings.
    connect(lab_, &NoiseLabRun::idleChanged, this, [this](qint64 t_ns) { run_.setNoiseSince(t_ns); });
    connect(lab_, &NoiseLabRun::childReady, this, [this](qint64 jobs) {
        setStatus(tr("The decoder is ready with %1 jobs per pass.").arg(jobs));
    });
    connect(lab_, &NoiseLabRun::realEnded, this, [this](const QString& error) {
        if (!error.isEmpty())
            setStatus(tr("The real run ended: %1").arg(error), true);
    });
    connect(lab_, &NoiseLabRun::replayEnded, this, [this](int rounds) {
        setStatus(tr("The replay reached the record's end: %n round(s).", nullptr, rounds));
    });

    timer_.setInterval(kRefreshMs);
    connect(&timer_, &QTimer::timeout, this, &NoiseLabPage::onTimer);
    setMode(Mode::Simulated);
}

const RealCounterChoice& NoiseLabPage::realCounter() const
{
    return lab_->realChoice();
}

NoiseLabPage::~NoiseLabPage()
{
    lab_->disconnect(this);  // a real run ending as the lab goes emits nothing the page draws
}

void NoiseLabPage::buildUi()
{
    // Top: where the figures come from.
    sim_button_ = new QPushButton(tr("Simulated counter"));
    sim_button_->setCheckable(true);
    sim_button_->setToolTip(
        tr("The `sim` counter under the sliders: idle power + Gaussian noise per interval + "
           "the signal while busy"));
    real_button_ = new QPushButton(realCounter().ok()
                                       ? tr("Real counter: %1").arg(QString::fromStdString(realCounter().spec))
                                       : tr("Real counter"));
    real_button_->setCheckable(true);
    real_button_->setEnabled(realCounter().ok());
    real_button_->setToolTip(realCounter().ok() ? tr("Measure %1 with the bundled demo decoder, in real time")
                                                     .arg(QString::fromStdString(realCounter().spec))
                                               : QString::fromStdString(realCounter().reason));
    open_button_ = new QPushButton(tr("Open record…"));
    open_button_->setToolTip(tr("A saved record's idle noise and rounds"));
    for (QPushButton* b : {sim_button_, real_button_, open_button_}) {
        QFont f = b->font();
        f.setPointSize(f.pointSize() + 2);
        b->setFont(f);
        b->setMinimumHeight(34);
    }
    record_counter_ = new QComboBox;
    record_counter_->hide();
    replay_button_ = new QPushButton(tr("Replay"));
    replay_button_->setToolTip(tr("Play the record back as it ran, round by round"));
    replay_button_->hide();
    replay_speed_ = new QComboBox;
    for (const double x : kReplaySpeeds)
        replay_speed_->addItem(tr("%1×").arg(x), x);
    replay_speed_->setCurrentIndex(1);
    replay_speed_->setToolTip(tr("Replayed seconds per second"));
    replay_speed_->hide();
    source_ = new QLabel;
    QFont sf = source_->font();
    sf.setPointSize(sf.pointSize() + 2);
    source_->setFont(sf);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = new QHBoxLayout;
    top->addWidget(sim_button_);
    top->addWidget(real_button_);
    top->addWidget(open_button_);
    top->addWidget(record_counter_);
    top->addWidget(replay_button_);
    top->addWidget(replay_speed_);
    top->addSpacing(12);
    top->addWidget(source_);
    top->addWidget(status_, 1);
    // The sensor view (noise/SensorView): a counter profile's step response and burst spread, in a window.
    auto* sensorButton = new QPushButton(tr("Sensor view…"));
    connect(sensorButton, &QPushButton::clicked, this, [this] {
        auto* v = findChild<SensorView*>();
        if (!v) {
            v = new SensorView(this);
            v->setWindowFlag(Qt::Window);
            v->resize(960, 560);
        }
        v->show();
        v->raise();
    });
    top->addWidget(sensorButton);

    // Left: the sliders and the planner.
    controls_ = new SimControls;
    planner_ = new PlannerPanel;
    auto* plannerBox = new QGroupBox(tr("Planner: settings that reach a verdict"));
    auto* pb = new QVBoxLayout(plannerBox);
    pb->addWidget(planner_);
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 4, 0);
    lv->addWidget(controls_);
    lv->addWidget(plannerBox);
    lv->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFixedWidth(370);

    // Right: the verdict, the trace, the rounds and the noise.
    banner_ = new VerdictBanner;
    trace_ = new PowerChart;
    trace_->setMinimumSize(300, kChartMinHeightPx);
    trace_placeholder_ = new QLabel;
    trace_placeholder_->setAlignment(Qt::AlignCenter);
    trace_placeholder_->setWordWrap(true);
    QFont pf = trace_placeholder_->font();
    pf.setPointSize(pf.pointSize() + 3);
    trace_placeholder_->setFont(pf);
    trace_placeholder_->setStyleSheet(
        QStringLiteral("color: %1; border: 1px dashed %2;")
            .arg(palette::placeholderText().name(), palette::placeholderBorder().name()));
    trace_stack_ = new QStackedWidget;
    trace_stack_->addWidget(trace_);
    trace_stack_->addWidget(trace_placeholder_);
    rounds_chart_ = new RoundsChart;
    resolution_ = new ResolutionModel(this);
    resolution_view_ = new QTableView;
    resolution_view_->setModel(resolution_);
    resolution_view_->verticalHeader()->hide();
    // Every column as wide as its header and values (a stretched column elided them at 1280x720).
    resolution_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    resolution_view_->setSelectionMode(QAbstractItemView::NoSelection);
    resolution_view_->setFocusPolicy(Qt::NoFocus);
    const QFont tf = resolution_view_->font();
    resolution_view_->verticalHeader()->setDefaultSectionSize(QFontMetrics(tf).height() + 8);
    resolution_view_->setFixedHeight(4 * (QFontMetrics(tf).height() + 8) + 6);
    resolution_view_->setToolTip(
        tr("The smallest marginal power, and energy over the busy window, that the idle "
           "noise lets a round resolve at each verdict"));
    histogram_ = new HistogramChart;
    allan_ = new AllanChart;

    auto* traceBox = new QVBoxLayout;
    // Short enough for the column at 1280x720 (the chart's legend names each mark); not word
    // wrapped, so the scroll area below lays the charts out at their least heights where it must.
    QLabel* traceCaption = caption(tr("Power (grey: idle, coloured: busy by verdict)"));
    traceCaption->setToolTip(tr("Grey: idle brackets; coloured: busy windows, by their round's verdict"));
    traceBox->addWidget(traceCaption);
    traceBox->addWidget(trace_stack_, 1);
    auto* charts = new QWidget;
    auto* grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addLayout(traceBox, 0, 0);
    grid->addWidget(rounds_chart_, 0, 1);
    grid->addWidget(histogram_, 1, 0);
    grid->addWidget(allan_, 1, 1);
    // The table across both columns: each of its columns as wide as its header and values.
    grid->addWidget(resolution_view_, 2, 0, 1, 2);
    grid->setRowStretch(0, 5);
    grid->setRowStretch(1, 4);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    // The right column's charts keep room for their titles and legends (the trace's size hint
    // would take the rest).
    grid->setColumnMinimumWidth(1, kRightColumnMinPx);

    // The charts keep their minimum heights (kChartMinHeightPx: titles, ticks and legends whole);
    // where the window is lower than that, as at the laptop's 1280x720, they scroll beneath the
    // banner rather than shrink into "..." labels. (Nothing in the scrolled grid wraps its
    // text: a height-for-width layout would be laid out at its preferred heights, scrolling
    // where it need not.)
    auto* chartScroll = new QScrollArea;
    chartScroll->setObjectName(QStringLiteral("noiseLabCharts"));
    chartScroll->setWidget(charts);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* right = new QVBoxLayout;
    right->addWidget(banner_);
    right->addWidget(chartScroll, 1);
    auto* body = new QHBoxLayout;
    body->addWidget(scroll);
    body->addLayout(right, 1);
    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addLayout(body, 1);

    connect(sim_button_, &QPushButton::clicked, this, [this] {
        if (mode_ != Mode::Simulated)
            startSimulated();
        sim_button_->setChecked(true);
    });
    connect(real_button_, &QPushButton::clicked, this, [this] {
        if (mode_ != Mode::Real && !startReal())
            real_button_->setChecked(false);
        else
            real_button_->setChecked(true);
    });
    connect(open_button_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Record"), autosaveFolder(),
                                                          tr("JouleBench records (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        if (const Status st = openRecord(path); !st)
            setStatus(QString::fromStdString(st.error()), true);
    });
    connect(replay_button_, &QPushButton::clicked, this, [this] {
        if (mode_ == Mode::Replay)
            showRecord(lab_->replayRecord(), record_title_);
        else
            startReplay(replay_speed_->currentData().toDouble());
    });
    connect(replay_speed_, &QComboBox::activated, this,
            [this] { lab_->setReplaySpeed(replay_speed_->currentData().toDouble()); });
    connect(record_counter_, &QComboBox::activated, this, [this] {
        if (mode_ == Mode::Record && record_)
            showRecordCounter(record_counter_->currentText().toStdString());
    });
    connect(controls_, &SimControls::settingsChanged, this, &NoiseLabPage::onSettings);
    connect(controls_, &SimControls::speedChanged, lab_, &NoiseLabRun::setSimSpeed);
    connect(planner_, &PlannerPanel::applyRequested, this, [this](double idle_s, int k) {
        LiveSimSettings s = controls_->settings();
        s.idle_s = idle_s;
        s.k = k;
        controls_->setSettings(s);
    });
    connect(planner_, &PlannerPanel::confidenceChanged, this, [this] { updateNoiseFigures(); });
}

void NoiseLabPage::setMode(Mode m)
{
    const bool changed = m != mode_;
    mode_ = m;
    sim_button_->setChecked(m == Mode::Simulated);
    real_button_->setChecked(m == Mode::Real);
    // A record's figures are fixed, replayed or not: the sliders go, the planner moves up.
    const bool fromRecord = m == Mode::Record || m == Mode::Replay;
    controls_->setVisible(!fromRecord);
    controls_->setPowerEditable(m != Mode::Real);
    record_counter_->setVisible(m == Mode::Record && record_counter_->count() > 1);
    replay_button_->setVisible(fromRecord);
    replay_speed_->setVisible(fromRecord);
    replay_button_->setText(m == Mode::Replay ? tr("Whole record") : tr("Replay"));
    planner_->setApplicable(!fromRecord);
    switch (m) {
    case Mode::Simulated:
        source_->setText(tr("Simulated counter"));
        source_->setToolTip(QString());
        break;
    case Mode::Real:
        source_->setText(
            tr("%1, live, with the demo decoder").arg(QString::fromStdString(realCounter().spec)));
        source_->setToolTip(QString());
        break;
    case Mode::Record:
    case Mode::Replay:
        break;  // showRecord and startReplay name the record
    }
    if (changed)
        emit modeChanged(m);
}

void NoiseLabPage::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (mode_ == Mode::Simulated) {
        if (!started_once_ && options_.start_when_shown)
            startSimulated();
        else if (started_once_)
            lab_->resumeSimulated();
    }
    if (mode_ != Mode::Record)
        timer_.start();
}

void NoiseLabPage::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    // At the laptop's 720 px the large banner would leave the charts too little height.
    banner_->setCompact(height() < kCompactBelowPx);
}

void NoiseLabPage::hideEvent(QHideEvent* e)
{
    QWidget::hideEvent(e);
    // The simulation waits while nobody looks (two cores are shared); a real run goes on.
    lab_->pauseSimulated();
    if (mode_ != Mode::Real)
        timer_.stop();
}

void NoiseLabPage::startSimulated()
{
    setMode(Mode::Simulated);
    started_once_ = true;
    setStatus(QString());
    const LiveSimSettings s = controls_->settings();
    planner_->setMarginalW(s.signal_w);
    planner_->setBusySPerK(s.busy_s_per_k);
    lab_->startSimulated(s, controls_->speed());
    timer_.start();
}

bool NoiseLabPage::startReal()
{
    if (!realCounter().ok()) {
        setStatus(QString::fromStdString(realCounter().reason), true);
        return false;
    }
    setMode(Mode::Real);
    if (const Status st = lab_->startReal(controls_->settings()); !st) {
        setStatus(tr("The real counter could not start: %1").arg(QString::fromStdString(st.error())), true);
        return false;
    }
    setStatus(tr("Starting %1 and the demo decoder…").arg(QString::fromStdString(realCounter().spec)));
    timer_.start();
    return true;
}

bool NoiseLabPage::startReplay(double speed)
{
    if (!record_) {
        setStatus(tr("Open a record to replay it."), true);
        return false;
    }
    if (const Status st = lab_->startReplay(*record_, run_.spec(), speed); !st) {
        setStatus(tr("This record cannot be replayed: %1").arg(QString::fromStdString(st.error())), true);
        return false;
    }
    setMode(Mode::Replay);
    replay_speed_->setCurrentIndex(std::max(0, replay_speed_->findData(speed)));
    source_->setText(tr("Replay: %1 (%2)").arg(record_title_, QString::fromStdString(lab_->replaySpec())));
    source_->setToolTip(record_title_);
    setStatus(QString());
    timer_.start();
    return true;
}

void NoiseLabPage::onSettings()
{
    const LiveSimSettings s = controls_->settings();
    switch (lab_->setSettings(s)) {
    case NoiseLabRun::SettingsEffect::Applied:
        // The verdict counts start again with the next round, at the new settings.
        verdicts_from_ = run_.rounds().empty() ? 0 : std::size_t(run_.roundNumber(run_.rounds().size() - 1)) + 1;
        planner_->setMarginalW(s.signal_w);
        planner_->setBusySPerK(s.busy_s_per_k);
        refresh();
        break;
    case NoiseLabRun::SettingsEffect::RealRestartScheduled:
        setStatus(tr("Restarting with the new layout…"));
        break;
    case NoiseLabRun::SettingsEffect::None:
        break;
    }
}

void NoiseLabPage::beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store,
                             const std::string& spec, double period_s)
{
    run_.beginLive(origin_ns, std::move(store), spec, period_s);
    verdicts_from_ = 0;
    figures_key_.clear();
    record_.reset();
    noise_.reset();
    showTrace(true);
    trace_->setSource(run_.store(), origin_ns, true);
    trace_->setSeriesName(QString::fromStdString(spec));
    trace_->setShades({});
    trace_->setBands({});
    const QString measuring = tr("Measuring the first idle bracket…");
    banner_->clear(tr("Waiting for the first round…"));
    rounds_chart_->clear(tr("No rounds yet: each takes an idle bracket, a busy window and an idle bracket."));
    histogram_->clear(measuring);
    allan_->clear(measuring);
    resolution_->clear();
    planner_->clearNoise(measuring);
    planner_->setMeasuredMarginal(std::nullopt, {});
    updateTraceWindow();
}

void NoiseLabPage::onPhase(const PhaseEvent& e)
{
    run_.apply(e);
    trace_->setShades(chartShades(run_, run_.spec(), run_.originNs()));
    updatePhaseText();
}

void NoiseLabPage::onRound(int index, const Round& r)
{
    run_.addRound(index, r);
    // A real run's first round says what the decoder's pass takes and adds: the planner starts
    // from there (the simulation's figures mean nothing for this machine).
    const RunSource* live = lab_->source();
    if ((mode_ == Mode::Real || mode_ == Mode::Replay) && live && run_.rounds().size() == 1) {
        if (r.window_ns > 0 && live->layout().k > 0)
            planner_->setBusySPerK(double(r.window_ns) / 1e9 / double(live->layout().k));
        if (const auto m = run_.medianMarginalW(1))
            planner_->setMarginalW(std::max(0.0, *m));
    }
    trace_->setShades(chartShades(run_, run_.spec(), run_.originNs()));
    updateBanner();
    updateRounds();
    const CounterRound* c = r.counter(run_.spec());
    emit roundShown(index, c && c->verdict ? QString::fromLatin1(verdictName(*c->verdict)) : QString());
}

void NoiseLabPage::onTimer()
{
    updateTraceWindow();
    updatePhaseText();
    // The figures every third tick: a few thousand values, but no need to redo them 10x a second.
    if (++ticks_ % 3 == 0)
        updateNoiseFigures();
}

void NoiseLabPage::refresh()
{
    updateNoiseFigures();
    updateRounds();
    updateBanner();
    updatePhaseText();
    updateTraceWindow();
}

std::int64_t NoiseLabPage::nowNs() const
{
    return lab_->source() ? lab_->source()->nowNs() : run_.originNs();
}

double NoiseLabPage::idleS() const
{
    if (const RunSource* live = lab_->source())
        return live->layout().idle_s;
    return record_ ? record_->idle_s : 0.0;
}

double NoiseLabPage::busyWindowS() const
{
    // The simulation knows its busy window; a real run's is what its rounds took.
    if (const RunSource* live = lab_->source())
        return live->layout().busy_s.value_or(run_.medianWindowS());
    return noise_ && noise_->window_s ? *noise_->window_s : 0.0;
}

void NoiseLabPage::updateTraceWindow()
{
    if (!lab_->source() || !run_.store())
        return;
    // A sliding window of a few rounds, so the noise stays visible however long the run.
    const double cycle = idleS() + std::max(busyWindowS(), 0.5) + 2 * run_.periodS();
    const double span = std::clamp(2.5 * cycle, 20.0, 300.0);
    const double now = double(nowNs() - run_.originNs()) / 1e9;
    const double t0 = std::max(0.0, now - span);
    trace_->setVisibleRange(t0, t0 + span);
}

void NoiseLabPage::updatePhaseText()
{
    if (!lab_->source() || !run_.lastPhase()) {
        banner_->setPhase(QString());
        return;
    }
    QString text = NoiseLabText::phase(*run_.lastPhase(), nowNs(), idleS());
    if (mode_ == Mode::Simulated)
        text += tr("\nsimulated %1 at %2×")
                    .arg(fmt::clock(double(nowNs() - run_.originNs()) / 1e9))
                    .arg(lab_->simSpeed());
    else if (mode_ == Mode::Replay)
        text += tr("\nreplayed %1 of %2 at %3×")
                    .arg(fmt::clock(double(nowNs() - run_.originNs()) / 1e9))
                    .arg(fmt::clock(double(lab_->replayEndNs() - run_.originNs()) / 1e9))
                    .arg(lab_->replaySpeed());
    banner_->setPhase(text);
}

void NoiseLabPage::updateBanner()
{
    if (mode_ == Mode::Record) {
        if (noise_ && record_)
            banner_->showFigures(NoiseLabText::recordBanner(*record_, *noise_));
        return;
    }
    if (run_.rounds().empty())
        return;
    std::size_t since = 0;  // rounds at the present settings (the window keeps the newest)
    for (std::size_t i = run_.rounds().size(); i-- > 0 && std::size_t(run_.roundNumber(i)) >= verdicts_from_;)
        ++since;
    BannerFigures f = NoiseLabText::roundBanner(run_.rounds().back(), run_.spec(),
                                                run_.roundNumber(run_.rounds().size() - 1),
                                                run_.verdicts(int(std::min<std::size_t>(10, since))));
    if (mode_ == Mode::Simulated) {
        // What the model expects of a round at these settings (docs/PLANNER.md, section 3).
        const QString e = NoiseLabText::expectation(lab_->simSettings());
        if (!e.isEmpty())
            f.detail += QLatin1Char('\n') + e;
    }
    banner_->showFigures(f);
}

void NoiseLabPage::updateRounds()
{
    const std::vector<RoundPoint> pts = run_.roundPoints(kRoundsShown);
    const std::vector<ThresholdLine> lines = NoiseLabText::floors(noise_ ? noise_->idle_sd_w : 0.0);
    if (pts.empty() && lines.empty()) {
        rounds_chart_->clear(
            tr("No rounds yet: each takes an idle bracket, a busy window and an idle bracket."));
        return;
    }
    rounds_chart_->setRounds(pts, lines);
}

void NoiseLabPage::updateNoiseFigures()
{
    if (lab_->source() && run_.store()) {
        noise_ = run_.liveNoise(kBracketsUsed);
        trace_->setBands(chartBands(run_.idleBands(nowNs()), run_.originNs()));  // the open bracket's band grows with it
    }
    if (!noise_) {
        figures_key_.clear();
        if (mode_ != Mode::Record) {
            histogram_->clear(tr("Measuring the first idle bracket…"));
            allan_->clear(tr("Measuring the first idle bracket…"));
            resolution_->clear();
        }
        return;
    }
    const RecordNoise& n = *noise_;
    // Rebuilding the charts costs more than measuring: only when something new was measured
    // (nothing changes while the run is busy).
    const std::vector<double> key = {
        double(mode_),         double(n.intervals), double(n.brackets), n.idle_sd_w,
        n.idle_mean_w,         n.period_s,          busyWindowS(),      idleS(),
        planner_->confidence()};
    if (key == figures_key_)
        return;
    figures_key_ = key;
    std::vector<double> all;
    for (const auto& b : n.idle_power_w)
        all.insert(all.end(), b.begin(), b.end());
    if (all.empty()) {
        const QString why = tr("This record keeps each idle bracket's mean and sd,\nnot its intervals.\n"
                               "Record with --samples to see them.");
        histogram_->clear(why);
        allan_->clear(why);
    } else {
        histogram_->setHistogram(powerHistogram(all, 60));
        const auto curve = allanDeviationPooled(n.idle_power_w, n.period_s);
        allan_->setCurve(curve, averagingLimit(curve));
    }

    ResolutionInputs ri;
    ri.idle_sd_w = n.idle_sd_w;
    ri.window_s = busyWindowS();
    ri.period_s = n.period_s;
    ri.idle_s = idleS();
    ri.busy_sd_w = n.busy_sd_w.value_or(0.0);
    ri.confidence = planner_->confidence();
    resolution_->setRows(resolution(ri), ri.confidence);

    if (mode_ != Mode::Record) {
        PlanInputs in;
        in.idle_sd_w = n.idle_sd_w;
        in.period_s = n.period_s;
        // The Allan curve lets the planner suggest a longer sample period where that lowers the
        // counter's sd (core/noise: longerPeriodLowersNoise).
        if (!all.empty() && (mode_ == Mode::Real || mode_ == Mode::Replay) && longerPeriodLowersNoise(run_.spec()))
            in.allan = allanDeviationPooled(n.idle_power_w, n.period_s);
        planner_->setNoise(in,
                           tr("Idle noise measured now: sd %1 W over %2 intervals in %3 brackets, every %4.")
                               .arg(fmt::significant(n.idle_sd_w, 3))
                               .arg(n.intervals)
                               .arg(n.brackets)
                               .arg(fmt::duration(n.period_s)));
        planner_->setMeasuredMarginal(run_.medianMarginalW(10), tr("the median of the last rounds"));
    }
    updateRounds();
}

Status NoiseLabPage::openRecord(const QString& path)
{
    auto r = openRecordFile(path);
    if (!r)
        return Error{r.error()};
    showRecord(r.value(), QFileInfo(path).fileName());
    emit recordOpened(path);
    return Ok{};
}

void NoiseLabPage::showRecord(const Record& r, const QString& title)
{
    lab_->stopAll();
    timer_.stop();
    record_ = r;
    record_counter_->clear();
    for (const std::string& s : r.wholeDeviceCounters())
        record_counter_->addItem(QString::fromStdString(s));
    setMode(Mode::Record);
    const QString name = title.isEmpty() ? QString::fromStdString(r.label.value_or("record")) : title;
    record_title_ = name;
    source_->setText(tr("Record: %1").arg(name));
    source_->setToolTip(name);
    showRecordCounter(r.wholeDeviceCounters().empty() ? std::string() : r.wholeDeviceCounters().front());
}

void NoiseLabPage::showRecordCounter(const std::string& spec)
{
    const Record& r = *record_;
    figures_key_.clear();
    auto n = recordNoise(r, spec);
    if (!n) {
        const QString why = QString::fromStdString(n.error());
        run_.showRecord(r, spec, r.sample_s);
        noise_.reset();
        setStatus(why, true);
        showTrace(false, why);
        banner_->clear(why);
        histogram_->clear(why);
        allan_->clear(why);
        rounds_chart_->clear(why);
        resolution_->clear();
        planner_->clearNoise(why);
        replay_button_->setEnabled(false);
        replay_button_->setToolTip(why);
        return;
    }
    setStatus(QString());
    noise_ = n.value();
    run_.showRecord(r, noise_->spec, noise_->period_s);
    record_counter_->setCurrentText(QString::fromStdString(noise_->spec));

    // The trace: the raw samples where the record kept them.
    if (run_.store()) {
        showTrace(true);
        trace_->setSource(run_.store(), run_.originNs(), false);
        trace_->setSeriesName(QString::fromStdString(noise_->spec));
        trace_->setShades(chartShades(run_, run_.spec(), run_.originNs()));
        std::int64_t newest = run_.originNs();
        run_.store()->read([&](const std::vector<Interval>& all) {
            if (!all.empty())
                newest = all.back().t1_ns;
        });
        trace_->setBands(chartBands(run_.idleBands(newest), run_.originNs()));
        trace_->resetView();
        replay_button_->setEnabled(true);
        replay_button_->setToolTip(tr("Play the record back as it ran, round by round"));
    } else {
        replay_button_->setEnabled(false);
        replay_button_->setToolTip(tr("Only a record with raw samples (--samples) can be replayed"));
        trace_->clear();
        showTrace(false,
                  tr("This record has no raw samples, so no power trace.\nRecord with --samples to keep "
                     "them.\nIts rounds and stored idle brackets are on the right."));
    }

    PlanInputs in = planInputsFrom(*noise_, r);
    // With the record itself, the panel plans a coarse counter as `joulebench-cli plan` does.
    planner_->setRecordNoise(
        in,
        tr("Idle noise from the record: sd %1 W over %2 intervals in %3 brackets (%4), every %5.")
            .arg(fmt::significant(noise_->idle_sd_w, 3))
            .arg(noise_->intervals)
            .arg(noise_->brackets)
            .arg(noise_->source == "samples" ? tr("raw samples") : tr("stored bracket figures"))
            .arg(fmt::duration(noise_->period_s)),
        std::make_shared<const Record>(r), noise_->spec);
    planner_->setMeasuredMarginal(noise_->marginal_w, tr("the record's median"));
    if (noise_->marginal_w)
        planner_->setMarginalW(*noise_->marginal_w);
    if (noise_->busy_s_per_k)
        planner_->setBusySPerK(*noise_->busy_s_per_k);
    refresh();
    planner_->replan();
}

void NoiseLabPage::showTrace(bool shown, const QString& placeholder)
{
    trace_placeholder_->setText(placeholder);
    trace_stack_->setCurrentWidget(shown ? static_cast<QWidget*>(trace_) : trace_placeholder_);
}

bool NoiseLabPage::traceShown() const
{
    return trace_stack_->currentWidget() == trace_;
}

void NoiseLabPage::setStatus(const QString& text, bool error)
{
    status_->setText(text);
    status_->setStyleSheet(error ? palette::textStyle(palette::errorText(), true)
                                 : palette::textStyle(palette::mutedText()));
    status_->setToolTip(text);
}

}  // namespace jb
