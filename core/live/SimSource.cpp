#include <jb/live/SimSource.h>

#include <algorithm>
#include <cmath>

namespace jb {

SimSource::SimSource(QObject* parent) : RunSource(parent)
{
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, &SimSource::onTimer);
}

bool SimSource::setSettings(const LiveSimSettings& s)
{
    const bool layout = !LiveSim::sameLayout(settings_, s);
    const bool idle = s.idle_w != settings_.idle_w || s.noise_sd_w != settings_.noise_sd_w;
    settings_ = s;
    if (!sim_)
        return false;
    if (layout) {
        if (running()) {
            restart();
            return true;
        }
        sim_.reset();  // paused: resume() starts a run with the new layout
        return false;
    }
    sim_->setPower(s.idle_w, s.noise_sd_w, s.signal_w);
    if (idle) {
        idle_changed_ns_ = sim_->nowNs();
        emit idleChanged(idle_changed_ns_);
    }
    return false;
}

StoreList SimSource::stores() const
{
    if (!store_)
        return {};
    return {{std::string(LiveSim::kSpec), store_}};
}

RunLayout SimSource::layout() const
{
    RunLayout l;
    l.period_s = settings_.period_s;
    l.idle_s = settings_.idle_s;
    l.k = settings_.k;
    l.busy_s = settings_.busyS();
    return l;
}

void SimSource::setSpeed(double speed)
{
    if (std::isfinite(speed) && speed > 0)
        speed_ = speed;
}

void SimSource::start()
{
    restart();
    wall_.start();
    timer_.start();
}

void SimSource::stop()
{
    timer_.stop();
}

void SimSource::resume()
{
    if (!sim_) {
        start();
        return;
    }
    wall_.restart();
    timer_.start();
}

void SimSource::restart()
{
    // Each run of a session gets its own noise: the seed moves on with every restart (and stays
    // reproducible from setSeed()).
    sim_ = std::make_unique<LiveSim>(settings_, seed_ + std::uint64_t(restarts_));
    ++restarts_;
    store_ = std::make_shared<SampleStore>();
    idle_changed_ns_ = sim_->originNs();
    wall_.restart();
    emit started(sim_->originNs(), QStringList{QString::fromLatin1(LiveSim::kSpec)});
}

void SimSource::onTimer()
{
    // A stalled event loop (a suspended laptop, a debugger) must not fast-forward minutes.
    const double wall_s = std::min(0.25, double(wall_.restart()) / 1000.0);
    tick(wall_s);
}

void SimSource::tick(double wall_s)
{
    if (!sim_ || !(wall_s > 0))
        return;
    LiveSim::Step step = sim_->advance(std::llround(wall_s * speed_ * 1e9));
    if (!step.intervals.empty())
        store_->appendBatch(step.intervals);
    for (const PhaseEvent& e : step.phases)
        emit phase(e);
    for (const auto& [index, round] : step.rounds)
        emit roundFinished(index, round);
    emit advanced(sim_->nowNs());
    if (sim_->intervals().size() > kMaxIntervals)
        restart();
}

}  // namespace jb
