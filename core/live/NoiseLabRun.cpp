#include "NoiseLabRun.h"

#include <jb/live/ReplaySource.h>
#include <jb/live/SessionSource.h>
#include <jb/live/SimSource.h>

#include <utility>

namespace jb {

NoiseLabRun::NoiseLabRun(NoiseLabRunOptions options, QObject* parent)
    : QObject(parent),
      options_(std::move(options)),
      sim_(new SimSource(this)),
      real_(new SessionSource(this)),
      replay_(new ReplaySource(this)),
      live_(Live::Simulated)  // the simulation, started when the page first shows
{
    sim_->setSeed(options_.seed);
    for (RunSource* src : {static_cast<RunSource*>(sim_), static_cast<RunSource*>(real_),
                           static_cast<RunSource*>(replay_)}) {
        connect(src, &RunSource::started, this, [this, src](qint64 origin_ns, const QStringList& counters) {
            if (src != source() || counters.isEmpty())
                return;
            const QString spec =
                src == real_ ? QString::fromStdString(options_.real.spec) : counters.front();
            emit liveStarted(origin_ns, spec);
        });
        connect(src, &RunSource::phase, this, [this, src](const PhaseEvent& e) {
            if (src == source())
                emit phase(e);
        });
        connect(src, &RunSource::roundFinished, this, [this, src](int index, const Round& r) {
            if (src == source())
                emit roundFinished(index, r);
        });
        connect(src, &RunSource::warning, this, [this, src](const QString& m) {
            if (src == source())
                emit warning(m);
        });
        connect(src, &RunSource::childReady, this, [this, src](qint64 jobs) {
            if (src == source())
                emit childReady(jobs);
        });
    }
    connect(sim_, &SimSource::idleChanged, this, [this](qint64 t_ns) {
        if (live_ == Live::Simulated)
            emit idleChanged(t_ns);
    });
    connect(real_, &RunSource::finished, this, &NoiseLabRun::onRealFinished);
    connect(replay_, &RunSource::finished, this, [this](const Record& r) {
        if (live_ == Live::Replay)
            emit replayEnded(int(r.rounds.size()));
    });
    real_restart_.setSingleShot(true);
    real_restart_.setInterval(kRealRestartMs);
    connect(&real_restart_, &QTimer::timeout, this, &NoiseLabRun::restartReal);
}

NoiseLabRun::~NoiseLabRun() = default;

RunSource* NoiseLabRun::source() const
{
    switch (live_) {
    case Live::Simulated: return sim_;
    case Live::Real: return real_;
    case Live::Replay: return replay_;
    case Live::None: break;
    }
    return nullptr;
}

void NoiseLabRun::setLive(Live l)
{
    live_ = l;
}

void NoiseLabRun::stopAll()
{
    real_restart_.stop();
    real_restart_pending_ = false;
    for (RunSource* src : {static_cast<RunSource*>(sim_), static_cast<RunSource*>(real_),
                           static_cast<RunSource*>(replay_)})
        if (src->running())
            src->stop();
    setLive(Live::None);
}

void NoiseLabRun::startSimulated(const LiveSimSettings& s, double speed)
{
    stopAll();
    setLive(Live::Simulated);
    sim_->setSettings(s);
    sim_->setSpeed(speed);
    sim_->start();
}

Status NoiseLabRun::startReal(const LiveSimSettings& s)
{
    if (!options_.real.ok())
        return Error{options_.real.reason};
    sim_->stop();
    replay_->stop();
    real_restart_.stop();
    real_settings_ = s;
    setLive(Live::Real);
    if (real_->running()) {  // the previous run is still ending: start once it has
        real_restart_pending_ = true;
        return Ok{};
    }
    real_restart_pending_ = false;
    return real_->start(realCounterPlan(options_.real, s, options_.decoder_argv, options_.counters));
}

Status NoiseLabRun::startReplay(const Record& r, const std::string& spec, double speed)
{
    stopAll();
    if (Status st = replay_->load(r, spec); !st)
        return st;
    replay_->setSpeed(speed);
    setLive(Live::Replay);
    replay_->start();  // started: the live figures begin again from the record's start
    return Ok{};
}

void NoiseLabRun::pauseSimulated()
{
    sim_->stop();
}

void NoiseLabRun::resumeSimulated()
{
    if (live_ == Live::Simulated)
        sim_->resume();
}

NoiseLabRun::SettingsEffect NoiseLabRun::setSettings(const LiveSimSettings& s)
{
    switch (live_) {
    case Live::Simulated:
        sim_->setSettings(s);
        return SettingsEffect::Applied;
    case Live::Real:
        real_settings_ = s;
        if (!realLayoutChanged(real_->plan(), s))
            return SettingsEffect::None;
        real_restart_.start();  // once the settings rest: each start launches the decoder
        return SettingsEffect::RealRestartScheduled;
    case Live::Replay:
    case Live::None:
        break;  // a record's layout is its own
    }
    return SettingsEffect::None;
}

void NoiseLabRun::setSimSpeed(double speed)
{
    sim_->setSpeed(speed);
}

void NoiseLabRun::setReplaySpeed(double speed)
{
    replay_->setSpeed(speed);
}

const LiveSimSettings& NoiseLabRun::simSettings() const
{
    return sim_->settings();
}

double NoiseLabRun::simSpeed() const
{
    return sim_->speed();
}

double NoiseLabRun::replaySpeed() const
{
    return replay_->speed();
}

std::int64_t NoiseLabRun::replayEndNs() const
{
    return replay_->endNs();
}

const Record& NoiseLabRun::replayRecord() const
{
    return replay_->record();
}

const std::string& NoiseLabRun::replaySpec() const
{
    return replay_->spec();
}

void NoiseLabRun::restartReal()
{
    if (live_ != Live::Real)
        return;
    emit realRestarting();
    if (real_->running()) {
        real_restart_pending_ = true;
        real_->stop();  // onRealFinished starts it again
        return;
    }
    if (const Status st = startReal(real_settings_); !st)
        emit realEnded(QString::fromStdString(st.error()));
}

void NoiseLabRun::onRealFinished(const Record& r)
{
    if (live_ != Live::Real)
        return;
    if (real_restart_pending_) {
        real_restart_pending_ = false;
        if (const Status st = startReal(real_settings_); !st)
            emit realEnded(QString::fromStdString(st.error()));
        return;
    }
    emit realEnded(r.error ? QString::fromStdString(*r.error) : QString());
}

}  // namespace jb
