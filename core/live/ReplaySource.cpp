#include <jb/live/ReplaySource.h>

#include <algorithm>
#include <cmath>

namespace jb {

ReplaySource::ReplaySource(QObject* parent) : RunSource(parent)
{
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, &ReplaySource::onTimer);
}

Status ReplaySource::load(const Record& r, const std::string& spec)
{
    std::string chosen = spec;
    if (chosen.empty())
        for (const std::string& s : r.wholeDeviceCounters())
            if (const auto* iv = r.samplesOf(s); iv && !iv->empty()) {
                chosen = s;
                break;
            }
    const std::vector<Interval>* iv = chosen.empty() ? nullptr : r.samplesOf(chosen);
    if (!iv || iv->empty())
        return Error{chosen.empty() ? std::string("the record holds no raw samples to replay (record with --samples)")
                                    : "the record holds no raw samples of " + chosen};
    timer_.stop();
    record_ = r;
    spec_ = chosen;
    samples_ = *iv;
    store_.reset();
    events_.clear();
    next_sample_ = next_event_ = 0;
    done_ = false;

    // The phases, as a session emits them; the bracket after one round is the one before the
    // next, and is emitted once.
    const std::int64_t period_ns = std::int64_t(std::llround(r.sample_s * 1e9));
    std::optional<std::array<std::int64_t, 2>> last_idle;
    auto idle = [&](int follows, const std::array<std::int64_t, 2>& b) {
        if (last_idle && *last_idle == b)
            return;
        last_idle = b;
        events_.push_back({b[0], false, {PhaseEvent::IdleStarted, follows, b[0]}, -1});
        events_.push_back({b[1], false, {PhaseEvent::IdleEnded, follows, b[1]}, -1});
    };
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const Round& rd = r.rounds[i];
        const int n = int(i);
        if (rd.brackets)
            idle(n - 1, (*rd.brackets)[0]);
        if (rd.window) {
            events_.push_back({(*rd.window)[0], false, {PhaseEvent::BusyStarted, n, (*rd.window)[0]}, -1});
            events_.push_back({(*rd.window)[1], false, {PhaseEvent::BusyEnded, n, (*rd.window)[1]}, -1});
        }
        if (rd.brackets)
            idle(n, (*rd.brackets)[1]);
        std::int64_t at = samples_.back().t1_ns;
        if (rd.brackets)
            at = (*rd.brackets)[1][1] + 2 * period_ns;
        else if (rd.window)
            at = (*rd.window)[1];
        // Never after the next round's window opens: a session computes a round first.
        if (i + 1 < r.rounds.size() && r.rounds[i + 1].window)
            at = std::min(at, (*r.rounds[i + 1].window)[0]);
        events_.push_back({at, true, {}, n});
    }
    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.t_ns < b.t_ns; });

    origin_ns_ = samples_.front().t0_ns;
    end_ns_ = samples_.back().t1_ns;
    if (!events_.empty()) {
        origin_ns_ = std::min(origin_ns_, events_.front().t_ns);
        end_ns_ = std::max(end_ns_, events_.back().t_ns);
    }
    now_ns_ = origin_ns_;
    return Ok{};
}

void ReplaySource::setSpeed(double speed)
{
    if (std::isfinite(speed) && speed > 0)
        speed_ = speed;
}

void ReplaySource::start()
{
    if (samples_.empty())
        return;
    store_ = std::make_shared<SampleStore>();
    next_sample_ = next_event_ = 0;
    now_ns_ = origin_ns_;
    done_ = false;
    emit started(origin_ns_, QStringList{QString::fromStdString(spec_)});
    wall_.start();
    timer_.start();
}

void ReplaySource::stop()
{
    timer_.stop();
}

void ReplaySource::onTimer()
{
    // A stalled event loop must not jump to the end.
    tick(std::min(0.25, double(wall_.restart()) / 1000.0));
}

void ReplaySource::tick(double wall_s)
{
    if (!store_ || done_ || !(wall_s > 0))
        return;
    now_ns_ = std::min(end_ns_, now_ns_ + std::int64_t(std::llround(wall_s * speed_ * 1e9)));
    std::vector<Interval> batch;
    while (next_sample_ < samples_.size() && samples_[next_sample_].t1_ns <= now_ns_)
        batch.push_back(samples_[next_sample_++]);
    if (!batch.empty())
        store_->appendBatch(batch);
    while (next_event_ < events_.size() && events_[next_event_].t_ns <= now_ns_) {
        const Event& e = events_[next_event_++];
        if (e.is_round)
            emit roundFinished(e.round, record_.rounds[std::size_t(e.round)]);
        else
            emit phase(e.phase);
    }
    emit advanced(now_ns_);
    if (now_ns_ >= end_ns_) {
        done_ = true;
        timer_.stop();
        emit finished(record_);
    }
}

StoreList ReplaySource::stores() const
{
    if (!store_)
        return {};
    return {{spec_, store_}};
}

RunLayout ReplaySource::layout() const
{
    RunLayout l;
    l.period_s = record_.sample_s;
    l.idle_s = record_.idle_s;
    l.k = int(record_.k);
    l.rounds = int(record_.rounds.size());
    return l;
}

}  // namespace jb
