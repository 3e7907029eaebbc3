#include "noise/NoiseRun.h"

#include "sampling/SampleStore.h"
#include "stats/Statistics.h"

#include <algorithm>

namespace jb {

void NoiseRun::beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store, std::string spec,
                         double period_s)
{
    *this = NoiseRun{};
    origin_ns_ = origin_ns;
    noise_since_ns_ = origin_ns;
    store_ = std::move(store);
    spec_ = std::move(spec);
    period_s_ = period_s;
}

void NoiseRun::showRecord(const Record& r, std::string spec, double period_s)
{
    *this = NoiseRun{};
    spec_ = std::move(spec);
    period_s_ = period_s;
    timeline_ = RunTimeline::fromRecord(r);
    rounds_ = r.rounds;
    if (const std::vector<Interval>* s = r.samplesOf(spec_); s && !s->empty()) {
        auto store = std::make_shared<SampleStore>();
        store->appendBatch(*s);
        store_ = std::move(store);
        origin_ns_ = s->front().t0_ns;
    }
    if (const auto first = timeline_.firstNs())
        origin_ns_ = store_ ? std::min(origin_ns_, *first) : *first;
    noise_since_ns_ = origin_ns_;
}

void NoiseRun::apply(const PhaseEvent& e)
{
    timeline_.apply(e);
    if (e.kind == PhaseEvent::IdleStarted)
        idle_spans_.push_back({e.t_ns, std::nullopt});
    else if (e.kind == PhaseEvent::IdleEnded && !idle_spans_.empty())
        idle_spans_.back().t1_ns = e.t_ns;
    last_phase_ = e;
}

void NoiseRun::addRound(int index, const Round& r)
{
    timeline_.setRound(index, r);
    if (rounds_.empty())
        first_round_index_ = index;
    rounds_.push_back(r);
    if (rounds_.size() > kKeepRounds) {
        const std::size_t drop = rounds_.size() - kKeepRounds;
        rounds_.erase(rounds_.begin(), rounds_.begin() + std::ptrdiff_t(drop));
        first_round_index_ += int(drop);
    }
}

std::optional<RecordNoise> NoiseRun::liveNoise(int max_brackets) const
{
    if (!store_)
        return std::nullopt;
    std::vector<std::vector<Interval>> brackets;
    store_->read([&](const std::vector<Interval>& all) {
        brackets = liveIdleBrackets(all, idle_spans_, noise_since_ns_, max_brackets);
    });
    const std::vector<std::span<const Interval>> spans(brackets.begin(), brackets.end());
    RecordNoise n = jb::liveNoise(spans, spec_, period_s_);
    if (n.brackets == 0)
        return std::nullopt;
    return n;
}

std::optional<double> NoiseRun::medianMarginalW(int last_n) const
{
    std::vector<double> m;
    for (auto it = rounds_.rbegin(); it != rounds_.rend() && int(m.size()) < last_n; ++it)
        if (const CounterRound* c = it->counter(spec_))
            if (const auto w = roundMarginalW(*c))
                m.push_back(*w);
    if (m.empty())
        return std::nullopt;
    return median(m);
}

double NoiseRun::medianWindowS() const
{
    std::vector<double> w;
    for (const Round& r : rounds_)
        if (r.window_ns > 0)
            w.push_back(double(r.window_ns) / 1e9);
    return w.empty() ? 0.0 : median(w);
}

std::vector<std::optional<std::string>> NoiseRun::verdicts(int last_n) const
{
    std::vector<std::optional<std::string>> v;
    for (auto it = rounds_.rbegin(); it != rounds_.rend() && int(v.size()) < last_n; ++it)
        if (const CounterRound* c = it->counter(spec_))
            v.push_back(c->verdict);
    std::reverse(v.begin(), v.end());
    return v;
}

std::vector<RoundPoint> NoiseRun::roundPoints(int last_n) const
{
    std::vector<RoundPoint> pts;
    const std::size_t from = rounds_.size() > std::size_t(last_n) ? rounds_.size() - std::size_t(last_n) : 0;
    for (std::size_t i = from; i < rounds_.size(); ++i)
        if (const CounterRound* c = rounds_[i].counter(spec_))
            if (const auto w = roundMarginalW(*c))
                pts.push_back({roundNumber(i), *w, c->verdict});
    return pts;
}

std::vector<ChartShade> NoiseRun::shades() const
{
    return timeline_.shades(spec_, origin_ns_);
}

std::vector<ChartBand> NoiseRun::bands(std::int64_t newest_ns) const
{
    const auto store = store_;
    return timeline_.bands(spec_, origin_ns_, newest_ns,
                           [store](std::int64_t t0, std::int64_t t1) -> std::optional<Bracket> {
                               if (!store)
                                   return std::nullopt;
                               return bracket(store->between(t0, t1));
                           });
}

}  // namespace jb
