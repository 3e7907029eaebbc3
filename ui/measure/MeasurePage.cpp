#include "measure/MeasurePage.h"

#include "chart/PowerChart.h"
#include "common/CsvExport.h"
#include "common/Format.h"
#include "common/InterleavedView.h"
#include "common/RecordFiles.h"
#include "common/RecordView.h"
#include "measure/LiveFigures.h"
#include "measure/RunForm.h"
#include "measure/StatusLine.h"
#include <jb/base/Clock.h>
#include <jb/library/Library.h>
#include <jb/live/RunSource.h>
#include <jb/record/Interleaved.h>
#include <jb/remote/RemoteSource.h>
#include <jb/remote/RemoteTarget.h>
#include <jb/sampling/SampleStore.h>
#include <jb/session/LiveComparison.h>
#include <jb/session/StartCheck.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace jb {

MeasurePage::MeasurePage(CounterOptions options, QWidget* parent)
    : QWidget(parent),
      form_(new RunForm(std::move(options), this)),
      view_(new RecordView(this)),
      status_(new StatusLine(this)),
      run_(new MeasureRun(MeasureRun::Thread::Backend, this)),
      source_(run_->source()),
      banner_(new Banner(this)),
      checkBar_(new QWidget(this)),
      useK_(new QPushButton(checkBar_)),
      startAnyway_(new QPushButton(tr("Start anyway"), checkBar_)),
      cmp_view_(new InterleavedView({}, {}, this))
{
    banner_->setObjectName(QStringLiteral("banner"));
    banner_->setTextFormat(Qt::PlainText);
    checkBar_->setObjectName(QStringLiteral("startCheckBar"));
    useK_->setObjectName(QStringLiteral("useSuggestedK"));
    startAnyway_->setObjectName(QStringLiteral("startAnyway"));
    useK_->setToolTip(tr("Put the suggested k in the form and start"));
    startAnyway_->setToolTip(tr("Start with the form as it is"));
    auto* cb = new QHBoxLayout(checkBar_);
    cb->setContentsMargins(0, 0, 0, 0);
    cb->addWidget(useK_);
    cb->addWidget(startAnyway_);
    cb->addStretch(1);
    checkBar_->hide();
    // While a served run is watched: Disconnect (the run goes on over there).
    remoteBar_ = new QWidget(this);
    remoteBar_->setObjectName(QStringLiteral("remoteBar"));
    disconnect_ = new QPushButton(tr("Disconnect"), remoteBar_);
    disconnect_->setObjectName(QStringLiteral("disconnectRemote"));
    disconnect_->setToolTip(tr("Stop watching; the run goes on on its machine"));
    auto* rb = new QHBoxLayout(remoteBar_);
    rb->setContentsMargins(0, 0, 0, 0);
    rb->addWidget(disconnect_);
    rb->addStretch(1);
    remoteBar_->hide();
    connect(disconnect_, &QPushButton::clicked, this, &MeasurePage::disconnectRemote);
    connect(useK_, &QPushButton::clicked, this, [this] {
        if (suggested_k_ <= 0)
            return;
        form_->setK(suggested_k_);
        startNow();
    });
    connect(startAnyway_, &QPushButton::clicked, this, &MeasurePage::startNow);

    auto* right = new QWidget(this);
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(4, 0, 0, 0);
    rv->addWidget(banner_);
    rv->addWidget(checkBar_);
    rv->addWidget(remoteBar_);
    // An interleaved run's comparison below the run, as tall as the user drags it.
    cmp_view_->setObjectName(QStringLiteral("liveComparison"));
    cmp_view_->setTitle(tr("This run"));
    cmp_view_->hide();
    auto* runSplit = new QSplitter(Qt::Vertical, right);
    runSplit->addWidget(view_);
    runSplit->addWidget(cmp_view_);
    runSplit->setStretchFactor(0, 3);
    runSplit->setStretchFactor(1, 2);
    runSplit->setChildrenCollapsible(false);
    rv->addWidget(runSplit, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(form_);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 0);
    v->addWidget(split, 1);
    v->addWidget(status_);

    connect(form_, &RunForm::startRequested, this, &MeasurePage::start);
    connect(form_, &RunForm::stopRequested, this, &MeasurePage::stop);
    connect(source_, &RunSource::started, this, &MeasurePage::onStarted);
    connect(source_, &RunSource::childReady, this, &MeasurePage::onChildReady);
    connect(source_, &RunSource::phase, this, &MeasurePage::onPhase);
    connect(source_, &RunSource::phaseMarked, view_, &RecordView::applyMark);
    connect(run_, &MeasureRun::roundFinished, this, &MeasurePage::onRound);
    connect(run_, &MeasureRun::comparisonAdvanced, this, &MeasurePage::refreshComparison);
    connect(source_, &RunSource::warning, this, &MeasurePage::onWarning);
    connect(run_, &MeasureRun::finished, this, &MeasurePage::onRunFinished);
    connect(run_, &MeasureRun::libraryAdded, this, &MeasurePage::libraryAdded);
    connect(view_, &RecordView::counterChanged, this, &MeasurePage::updateStatus);
    // Elapsed time, ETA and sampler figures once a second (they are shown in seconds; phase
    // changes update the line at once): each update repaints the status bar.
    statusTimer_.setInterval(1000);
    connect(&statusTimer_, &QTimer::timeout, this, &MeasurePage::updateStatus);

    form_->loadSettings();
    status_->setMessage(tr("Ready. Fill in the form and press Start, or open a record (Ctrl+O)."));
}

MeasurePage::~MeasurePage() = default;

bool MeasurePage::running() const
{
    return run_->running();
}

MeasureRunOptions MeasurePage::runOptions(Plan plan) const
{
    MeasureRunOptions o;
    o.folder = autosaveFolder().toStdString();
    // A crash-safe journal beside the records: were the dashboard to die mid-run,
    // `joulebench-cli recover` rebuilds every finished round from it. (A journal keeps one
    // child's rounds: an interleaved run has none, as in the CLI.)
    if (plan.children.size() < 2 && QDir().mkpath(autosaveFolder()))
        plan.journal_path = journalPathIn(o.folder, plan, QDateTime::currentDateTime());
    o.plan = std::move(plan);
    o.library = library_;
    return o;
}

const Record& MeasurePage::record() const
{
    return view_->record();
}

void MeasurePage::setBanner(const QString& text, bool error)
{
    banner_->setMessage(text, error ? Tone::Error : Tone::Info);
}

void MeasurePage::start()
{
    if (running() || probe_ || watching())
        return;
    auto plan = form_->plan();
    if (!plan) {
        status_->setMessage(QString::fromStdString(plan.error()), StatusLine::Tone::Error);
        return;
    }
    checkBar_->hide();
    setBanner({}, false);
    probe_ = new WorkloadProbe(planWorkloads(plan.value()), plan->workdir, this);
    connect(probe_, &WorkloadProbe::finished, this, &MeasurePage::onProbed);
    form_->startButton()->setEnabled(false);
    status_->setMessage(tr("Checking the plan before Start: one pass of each workload, timed…"));
    probe_->start();
    emit checkingChanged(true);
}

void MeasurePage::onProbed(const std::vector<ProbeResult>& results)
{
    probe_->deleteLater();
    probe_ = nullptr;
    emit checkingChanged(false);
    form_->setRunning(false);  // Start enabled again, as the form allows
    auto plan = form_->plan();
    if (!plan) {
        status_->setMessage(QString::fromStdString(plan.error()), StatusLine::Tone::Error);
        return;
    }
    const StartCheck check = checkStart(plan.value(), results);
    if (check.ok()) {
        startNow();
        return;
    }
    suggested_k_ = check.suggested_k;
    const QString text = QString::fromStdString(check.text());
    banner_->setMessage(tr("Not started: the check before Start found what will not work.\n%1").arg(text),
                        Tone::Warning);
    useK_->setText(tr("Use k = %1 and start").arg(check.suggested_k));
    useK_->setVisible(check.suggested_k > 0);
    checkBar_->show();
    status_->setMessage(tr("Not started: see the check above the chart"), StatusLine::Tone::Error);
    emit startChecked(banner_->message());
}

void MeasurePage::startNow()
{
    if (running() || watching())
        return;
    if (probe_) {
        probe_->disconnect(this);
        probe_->cancel();
        probe_->deleteLater();
        probe_ = nullptr;
        emit checkingChanged(false);
    }
    checkBar_->hide();
    auto plan = form_->plan();
    if (!plan) {
        status_->setMessage(QString::fromStdString(plan.error()), StatusLine::Tone::Error);
        return;
    }
    if (Status st = run_->start(runOptions(plan.value())); !st) {
        status_->setMessage(QString::fromStdString(st.error()), StatusLine::Tone::Error);
        return;
    }
    const Plan& p = plan.value();
    base_ = Record{};
    base_.label = p.label;
    base_.meta = p.meta;
    base_.k = p.k;
    base_.counters = p.counters;
    base_.idle_s = p.idle_s;
    base_.sample_s = p.periodS();
    base_.child = p.child;
    if (run_->liveComparison()) {
        refreshComparison();
        cmp_view_->show();
    } else {
        cmp_view_->hide();
    }
    comparison_path_.clear();
    origin_ns_ = 0;
    plan_t0_ns_ = 0;
    busy_ = false;
    rounds_done_ = 0;
    warnings_.clear();
    read_only_ = false;
    has_record_ = false;
    record_path_.clear();
    phase_text_ = tr("starting the counters…");
    setBanner({}, false);
    view_->clear(tr("Starting…"));
    form_->setRunning(true);
    status_->setMessage(QString());
    updateStatus();
    statusTimer_.start();
    emit hasRecordChanged(false);
    emit runningChanged(true);
}

void MeasurePage::stop()
{
    if (!running())
        return;
    phase_text_ = tr("stopping…");
    run_->stop();
    updateStatus();
}

void MeasurePage::stopForClose(const QString& reason)
{
    closing_ = true;
    if (!running()) {
        emit readyToClose();
        return;
    }
    phase_text_ = tr("stopping…");
    run_->abort(reason.isEmpty() ? QStringLiteral("the window was closed during the run") : reason);
}

void MeasurePage::onStarted(qint64 origin_ns, const QStringList& counters)
{
    origin_ns_ = origin_ns;
    const Plan& p = run_->options().plan;
    view_->beginLive(origin_ns, source_->stores(), p.expectedDurationS(0.0), base_);
    if (const LiveComparison* live = run_->liveComparison()) {
        std::vector<int> of_round;
        for (int i = 0; i < p.totalRounds(); ++i)
            of_round.push_back(live->childOfRound(i));
        view_->setWorkloads(live->names(), std::move(of_round));
    }
    phase_text_ = tr("starting the child…");
    status_->setCounter(counters.join(QStringLiteral(", ")) + QStringLiteral(" · ") +
                        fmt::fixed(p.sample_ms, 0) + tr(" ms"));
    updateStatus();
}

void MeasurePage::onChildReady(qint64 jobs)
{
    base_.jobs = jobs;
    phase_text_ = tr("child ready: %n job(s) per pass", nullptr, int(jobs));
    updateStatus();
}

void MeasurePage::onPhase(const PhaseEvent& e)
{
    view_->applyPhase(e);
    const int rounds = livePlan().rounds;
    switch (e.kind) {
    case PhaseEvent::IdleStarted:
        busy_ = false;
        if (e.round < 0)
            plan_t0_ns_ = e.t_ns;
        phase_text_ = e.round < 0 ? tr("idle before round 1")
                                  : tr("idle after round %1 of %2").arg(e.round + 1).arg(rounds);
        break;
    case PhaseEvent::IdleEnded:
        phase_text_ = tr("settling");
        break;
    case PhaseEvent::BusyStarted:
        busy_ = true;
        busy_t0_ns_ = e.t_ns;
        phase_text_ = tr("round %1 of %2: busy").arg(e.round + 1).arg(rounds);
        break;
    case PhaseEvent::BusyEnded:
        busy_ = false;
        phase_text_ = tr("round %1 of %2: done").arg(e.round + 1).arg(rounds);
        break;
    }
    updateStatus();
}

void MeasurePage::onRound(int index, const Round& r)
{
    view_->applyRound(index, r);
    rounds_done_ = std::max(rounds_done_, index + 1);
    updateStatus();
}

void MeasurePage::onWarning(const QString& message)
{
    warnings_ << message;
    status_->setMessage(tr("warning: %1").arg(message), StatusLine::Tone::Error);
}

void MeasurePage::onRunFinished(const MeasureOutcome& outcome)
{
    if (outcome.several())
        onFinishedSet(outcome);
    else
        onFinished(outcome);
}

void MeasurePage::onFinished(const MeasureOutcome& outcome)
{
    const Record& r = outcome.records.front();
    statusTimer_.stop();
    form_->setRunning(false);
    view_->endLive(r);
    has_record_ = true;
    read_only_ = false;

    // Every finished run is saved by itself (the run wrote it): nothing measured is lost.
    const QString path = QString::fromStdString(outcome.paths.front());
    const bool wrote = !path.isEmpty();
    const Status saved = wrote ? Status(Ok{})
                               : Status(Error{outcome.errors.empty() ? std::string("no folder to save it in")
                                                                     : outcome.errors.front()});
    if (saved)
        record_path_ = path;

    const int n = int(r.rounds.size());
    if (r.isAborted()) {
        phase_text_ = tr("aborted");
        QString text = tr("Run aborted: %1").arg(QString::fromStdString(r.error.value_or("no reason given")));
        text += n > 0 ? tr("\nThe %n finished round(s) are kept", nullptr, n) : tr("\nNo round finished");
        text += saved ? tr(" and saved as an aborted record: %1").arg(path)
                      : tr(", but could not be saved: %1").arg(QString::fromStdString(saved.error()));
        setBanner(text, true);
        status_->setMessage(saved ? tr("Aborted record saved to %1").arg(path)
                                  : QString::fromStdString(saved.error()),
                            StatusLine::Tone::Error);
    } else {
        phase_text_ = tr("complete");
        setBanner({}, false);
        status_->setMessage(saved ? tr("Run complete: %n round(s), saved to %1", nullptr, n).arg(path)
                                  : tr("Run complete, but the record could not be saved: %1")
                                        .arg(QString::fromStdString(saved.error())),
                            saved ? StatusLine::Tone::Good : StatusLine::Tone::Error);
    }
    updateStatus();
    status_->hideProgress();
    emit runningChanged(false);
    emit hasRecordChanged(true);
    if (saved)
        emit recordSaved(path);
    emit runFinished(r, saved ? path : QString());
    if (closing_)
        emit readyToClose();
}

void MeasurePage::refreshComparison()
{
    const LiveComparison* live = run_->liveComparison();
    if (!live)
        return;
    auto c = readComparison(live->comparison(), "the run's comparison");
    if (c)
        cmp_view_->setComparison(std::move(c).value());
}

void MeasurePage::onFinishedSet(const MeasureOutcome& outcome)
{
    const std::vector<Record>& records = outcome.records;
    statusTimer_.stop();
    form_->setRunning(false);
    // The run as it was watched (every workload's rounds in run order) stays on show; each
    // workload's own record and comparison.json went into one folder (the run wrote them), as
    // measure --out-dir does.
    Record watched = view_->record();
    bool aborted = false;
    for (const Record& r : records)
        if (r.isAborted() && !aborted) {
            aborted = true;
            watched.status = "aborted";
            watched.error = r.error;
        }
    if (!aborted)
        watched.status = "complete";
    view_->endLive(watched);
    has_record_ = true;
    read_only_ = false;

    if (auto c = readComparison(outcome.comparison, "the run's comparison"))
        cmp_view_->setComparison(std::move(c).value());
    comparison_path_ = QString::fromStdString(outcome.comparison_path);
    record_path_ = outcome.paths.empty() ? QString() : QString::fromStdString(outcome.paths.front());
    const QString folder = QString::fromStdString(outcome.folder);

    const int blocks = run_->liveComparison() ? run_->liveComparison()->blocksDone() : 0;
    if (!outcome.errors.empty()) {
        QStringList e;
        for (const std::string& s : outcome.errors)
            e << QString::fromStdString(s);
        setBanner(tr("The run's files could not all be saved:\n%1").arg(e.join(QLatin1Char('\n'))), true);
        status_->setMessage(e.first(), StatusLine::Tone::Error);
    } else if (aborted) {
        phase_text_ = tr("aborted");
        setBanner(tr("Run aborted: %1\nEvery workload's finished rounds are kept, and saved with the comparison "
                     "of the %n block(s) finished in %2", nullptr, blocks)
                      .arg(QString::fromStdString(watched.error.value_or("no reason given")), folder),
                  true);
        status_->setMessage(tr("Aborted run saved to %1").arg(folder), StatusLine::Tone::Error);
    } else {
        phase_text_ = tr("complete");
        setBanner({}, false);
        status_->setMessage(tr("Run complete: %n block(s) of %1 workloads, saved to %2", nullptr, blocks)
                                .arg(records.size())
                                .arg(folder),
                            StatusLine::Tone::Good);
    }
    updateStatus();
    status_->hideProgress();
    emit runningChanged(false);
    emit hasRecordChanged(true);
    for (const std::string& path : outcome.paths)
        if (!path.empty())
            emit recordSaved(QString::fromStdString(path));
    emit runFinished(watched, record_path_);
    if (closing_)
        emit readyToClose();
}

void MeasurePage::updateStatus()
{
    status_->setPhase(phase_text_);
    if (!running() && !(remote_ && remote_->running())) {
        if (read_only_ || has_record_) {
            const Record& r = view_->record();
            QStringList c;
            for (const std::string& s : r.counters)
                c << QString::fromStdString(s);
            status_->setCounter(c.join(QStringLiteral(", ")) + QStringLiteral(" · ") +
                                fmt::fixed(r.sample_s * 1000.0, 0) + tr(" ms"));
            std::optional<SamplerFigures> f;
            for (const auto& [spec, figs] : r.sampler)
                if (spec == view_->counter())
                    f = figs;
            if (f)
                status_->setFigures(
                    tr("reads late by %1 typically, %2 at worst · the counter changes every %3")
                        .arg(fmt::duration(double(f->lateness_p50_ns) / 1e9),
                             fmt::duration(double(f->lateness_max_ns) / 1e9),
                             f->update_cadence_ms ? fmt::duration(*f->update_cadence_ms / 1000.0) : tr("–")));
            else
                status_->setFigures(QString());
        }
        return;
    }
    if (origin_ns_ == 0)
        return;
    const Plan& p = livePlan();
    // Sampler lateness and counter cadence of the counter on show, from its store.
    for (const auto& [spec, store] : view_->stores()) {
        if (spec != view_->counter())
            continue;
        LiveSamplerFigures f;
        store->read(
            [&](const std::vector<Interval>& v) { f = liveFigures(v, std::int64_t(p.sample_ms * 1e6)); });
        if (f.lateness_p50_ms)
            status_->setFigures(tr("reads late by %1 typically, %2 at worst · the counter changes every %3")
                                    .arg(fmt::duration(*f.lateness_p50_ms / 1000.0),
                                         fmt::duration(*f.lateness_max_ms / 1000.0),
                                         f.cadence_ms ? fmt::duration(*f.cadence_ms / 1000.0) : tr("–")));
    }
    // Progress over the whole plan: the busy time of a round is estimated from those done
    // (or from the one going on, while none is done).
    const double elapsed_s = double(liveNowNs() - origin_ns_) / 1e9;
    double busy_s = 0;
    const Record& r = view_->record();
    if (rounds_done_ > 0) {
        double sum = 0;
        int n = 0;
        for (const Round& round : r.rounds)
            if (round.window_ns > 0) {
                sum += double(round.window_ns) / 1e9;
                ++n;
            }
        busy_s = n ? sum / n : 0;
    }
    if (busy_)
        busy_s = std::max(busy_s, double(liveNowNs() - busy_t0_ns_) / 1e9);
    // The plan's clock starts with its first idle bracket: the child's start-up (loading its
    // jobs) is not in the plan, and counting it would make the ETA run out early.
    std::optional<double> since_first_idle_s;
    if (plan_t0_ns_ > 0)
        since_first_idle_s = double(liveNowNs() - plan_t0_ns_) / 1e9;
    const PlanProgress progress = planProgress(p, since_first_idle_s, busy_s);
    status_->setProgress(progress.fraction, elapsed_s, progress.remaining_s);
}

Status MeasurePage::openRecord(const QString& path)
{
    if (watching())
        return Error{"a served run is being watched: disconnect before opening a record"};
    if (running())
        return Error{"a run is going: stop it before opening a record"};
    auto r = openRecordFile(path);
    if (!r)
        return Error{r.error()};
    view_->showRecord(r.value());
    has_record_ = true;
    read_only_ = true;
    record_path_ = QFileInfo(path).absoluteFilePath();
    phase_text_.clear();
    const Record& rec = r.value();
    QString what = tr("Viewing %1 (read-only)").arg(QFileInfo(path).fileName());
    if (rec.label)
        what += tr(": \"%1\"").arg(QString::fromStdString(*rec.label));
    what += tr(", %n round(s)", nullptr, int(rec.rounds.size()));
    if (rec.isAborted())
        what += tr(", aborted: %1").arg(QString::fromStdString(rec.error.value_or("")));
    if (rec.samples.empty())
        what += tr(". It holds no raw samples, so there is no chart.");
    what += tr(". Start runs a new measurement.");
    setBanner(what, false);
    status_->setMessage(tr("Opened %1").arg(record_path_));
    status_->hideProgress();
    updateStatus();
    emit hasRecordChanged(true);
    emit recordOpened(record_path_);
    return Ok{};
}

Status MeasurePage::saveRecord(const QString& path)
{
    if (watching())
        return Error{"the watched run is still going: its server saves it when it ends"};
    if (running())
        return Error{"the run is still going: it is saved by itself when it ends"};
    if (!has_record_)
        return Error{"there is no record to save yet"};
    if (Status st = saveRecordFile(view_->record(), path); !st)
        return st;
    record_path_ = QFileInfo(path).absoluteFilePath();
    status_->setMessage(tr("Saved %1").arg(record_path_), StatusLine::Tone::Good);
    emit recordSaved(record_path_);
    // A record the user saves joins the library as a run's does (a warning's worth, never the file).
    if (library_) {
        if (auto added = addToLibrary(record_path_.toStdString(), *library_))
            emit libraryAdded(record_path_);
        else
            status_->setMessage(tr("Saved %1, but the library did not take it: %2")
                                    .arg(record_path_, QString::fromStdString(added.error())),
                                StatusLine::Tone::Error);
    }
    return Ok{};
}

Status MeasurePage::exportRoundsCsv(const QString& path) const
{
    return writeTextFile(path, roundsCsv(view_->record()));
}

Status MeasurePage::exportSamplesCsv(const QString& path) const
{
    NamedIntervals samples = view_->record().samples;
    if (samples.empty())  // a live run: the stores hold them
        for (const auto& [spec, store] : view_->stores())
            samples.emplace_back(spec, store->all());
    return writeTextFile(path, samplesCsv(samples));
}

QString MeasurePage::exportTitle() const
{
    const Record& r = view_->record();
    QString t = r.label ? QString::fromStdString(*r.label) : tr("JouleBench run");
    if (!view_->counter().empty())
        t += QStringLiteral(" · ") + QString::fromStdString(view_->counter());
    return t;
}

Status MeasurePage::exportChartPng(const QString& path)
{
    return view_->chart()->savePng(path, exportTitle());
}

Status MeasurePage::exportChartSvg(const QString& path)
{
    return view_->chart()->saveSvg(path, exportTitle());
}

const Plan& MeasurePage::livePlan() const
{
    return remote_ ? remote_plan_ : run_->options().plan;
}

std::int64_t MeasurePage::liveNowNs() const
{
    // A watched run's clock is the server's (its origin and its samples are on it).
    return remote_ ? remote_->nowNs() : monotonicNs();
}

Status MeasurePage::watchRemote(const RemoteTarget& target)
{
    if (running() || probe_)
        return Error{"a run is going here: stop it before watching another"};
    if (remote_)
        disconnectRemote();
    remote_where_ = target.where();
    remote_path_.clear();
    remote_ = connectRemote(target, this);
    connect(remote_, &RemoteSource::connected, this, [this, target](const QString& kind) {
        if (kind != QLatin1String("measure")) {
            endWatching(tr("%1 serves a job queue, not a measure run: it is watched in the Jobs page.").arg(remote_where_),
                        false);
            emit queueServed(target);
            return;
        }
        setBanner(tr("Watching a run on %1 (remote)").arg(remote_where_), false);
        phase_text_ = tr("connected, waiting for the run…");
        updateStatus();
    });
    connect(remote_, &RemoteSource::lost, this, [this](const QString& why) {
        endWatching(tr("Not watching %1 any more: %2").arg(remote_where_, why), true);
    });
    connect(remote_, &RunSource::started, this, &MeasurePage::onRemoteStarted);
    connect(remote_, &RunSource::childReady, this, &MeasurePage::onChildReady);
    connect(remote_, &RunSource::phase, this, &MeasurePage::onPhase);
    connect(remote_, &RunSource::phaseMarked, view_, &RecordView::applyMark);
    connect(remote_, &RunSource::roundFinished, this, &MeasurePage::onRound);
    connect(remote_, &RunSource::warning, this, &MeasurePage::onWarning);
    connect(remote_, &RemoteSource::ended, this, [this](const QStringList& paths, bool) {
        remote_path_ = paths.value(0);
    });
    connect(remote_, &RunSource::finished, this, &MeasurePage::onRemoteFinished);
    connect(remote_, &RunSource::finishedSet, this, [this](const std::vector<Record>& records) {
        onRemoteFinished(records.front());  // an interleaved run: the first workload's (the paths name all)
    });

    base_ = Record{};
    origin_ns_ = 0;
    plan_t0_ns_ = 0;
    busy_ = false;
    rounds_done_ = 0;
    warnings_.clear();
    has_record_ = false;
    read_only_ = true;
    record_path_.clear();
    cmp_view_->hide();
    checkBar_->hide();
    phase_text_ = tr("connecting…");
    setBanner(tr("Connecting to %1 (remote)…").arg(remote_where_), false);
    view_->clear(tr("Connecting to %1…").arg(remote_where_));
    // Start, Stop and the form are the local run's: off, and out of sight (its values are not
    // the watched run's).
    form_->setEnabled(false);
    form_->hide();
    remoteBar_->show();
    status_->setMessage(QString());
    statusTimer_.start();
    emit hasRecordChanged(false);
    emit watchingChanged(true);
    return Ok{};
}

void MeasurePage::onRemoteStarted(qint64 origin_ns, const QStringList& counters)
{
    const RunLayout l = remote_->layout();
    remote_plan_ = Plan{};
    remote_plan_.label = remote_->label();
    remote_plan_.rounds = l.rounds;
    remote_plan_.k = l.k;
    remote_plan_.idle_s = l.idle_s;
    remote_plan_.sample_ms = l.period_s * 1000.0;
    for (const QString& c : counters)
        remote_plan_.counters.push_back(c.toStdString());
    base_ = Record{};
    base_.label = remote_plan_.label;
    base_.k = l.k;
    base_.counters = remote_plan_.counters;
    base_.idle_s = l.idle_s;
    base_.sample_s = l.period_s;
    origin_ns_ = origin_ns;
    view_->beginLive(origin_ns, remote_->stores(), remote_plan_.expectedDurationS(0.0), base_);
    phase_text_ = tr("starting the child…");
    status_->setCounter(counters.join(QStringLiteral(", ")) + QStringLiteral(" · ") +
                        fmt::fixed(remote_plan_.sample_ms, 0) + tr(" ms"));
    updateStatus();
}

void MeasurePage::onRemoteFinished(const Record& r)
{
    view_->endLive(r);
    has_record_ = true;
    read_only_ = false;  // Save As keeps a copy here
    record_path_.clear();
    const int n = int(r.rounds.size());
    QString text = r.isAborted()
                       ? tr("The run on %1 was aborted: %2").arg(remote_where_, QString::fromStdString(r.error.value_or("")))
                       : tr("The run on %1 is complete: %n round(s)", nullptr, n).arg(remote_where_);
    text += remote_path_.isEmpty() ? tr(". The server saved no record file; Save As keeps this one here.")
                                   : tr(". The server saved its record as %1 (on its machine); Save As keeps a copy here.")
                                         .arg(remote_path_);
    phase_text_ = r.isAborted() ? tr("aborted") : tr("complete");
    endWatching(text, r.isAborted());
    emit hasRecordChanged(true);
    emit runFinished(r, QString());
}

void MeasurePage::endWatching(const QString& banner, bool error)
{
    if (!remote_)
        return;
    releaseRemote(remote_, this);
    statusTimer_.stop();
    remoteBar_->hide();
    form_->setEnabled(true);
    form_->show();
    form_->setRunning(false);
    setBanner(banner, error);
    if (!has_record_)
        view_->clear(tr("Not connected"));
    status_->setMessage(banner.section(QLatin1Char('\n'), 0, 0), error ? StatusLine::Tone::Error : StatusLine::Tone::Good);
    status_->hideProgress();
    updateStatus();
    emit watchingChanged(false);
}

void MeasurePage::disconnectRemote()
{
    if (!remote_)
        return;
    phase_text_ = tr("disconnected");
    endWatching(tr("Disconnected from %1: the run goes on there.").arg(remote_where_), false);
}

}  // namespace jb
