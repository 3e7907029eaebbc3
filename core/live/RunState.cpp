#include <jb/live/RunState.h>

#include <jb/sampling/SampleStore.h>
#include <jb/stats/Statistics.h>

#include <algorithm>
#include <limits>

namespace jb {

void RunState::beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store, std::string spec,
                         double period_s)
{
    *this = RunState{};
    origin_ns_ = origin_ns;
    noise_since_ns_ = origin_ns;
    store_ = std::move(store);
    spec_ = std::move(spec);
    period_s_ = period_s;
}

RunState RunState::fromRecord(const Record& rec)
{
    RunState t;
    auto addIdle = [&](int follows, const std::array<std::int64_t, 2>& b) {
        for (const RunSpan& s : t.spans_)
            if (s.kind == RunSpan::Idle && s.t0_ns == b[0] && s.t1_ns == b[1])
                return;  // the bracket after one round is the one before the next
        t.spans_.push_back({RunSpan::Idle, follows, b[0], b[1]});
    };
    for (std::size_t i = 0; i < rec.rounds.size(); ++i) {
        const Round& r = rec.rounds[i];
        t.span_rounds_[int(i)] = r;
        if (r.brackets) {
            addIdle(int(i) - 1, (*r.brackets)[0]);
            addIdle(int(i), (*r.brackets)[1]);
        }
        if (r.window)
            t.spans_.push_back({RunSpan::Busy, int(i), (*r.window)[0], (*r.window)[1]});
        t.setMarks(int(i), r.marks);
    }
    std::stable_sort(t.spans_.begin(), t.spans_.end(),
                     [](const RunSpan& a, const RunSpan& b) { return a.t0_ns < b.t0_ns; });
    return t;
}

void RunState::showRecord(const Record& r, std::string spec, double period_s)
{
    *this = fromRecord(r);
    spec_ = std::move(spec);
    period_s_ = period_s;
    rounds_ = r.rounds;
    if (const std::vector<Interval>* s = r.samplesOf(spec_); s && !s->empty()) {
        auto store = std::make_shared<SampleStore>();
        store->appendBatch(*s);
        store_ = std::move(store);
        origin_ns_ = s->front().t0_ns;
    }
    if (const auto first = firstNs())
        origin_ns_ = store_ ? std::min(origin_ns_, *first) : *first;
    noise_since_ns_ = origin_ns_;
}

void RunState::apply(const PhaseEvent& e)
{
    switch (e.kind) {
    case PhaseEvent::IdleStarted:
        spans_.push_back({RunSpan::Idle, e.round, e.t_ns, std::nullopt});
        idle_spans_.push_back({e.t_ns, std::nullopt});
        break;
    case PhaseEvent::BusyStarted:
        spans_.push_back({RunSpan::Busy, e.round, e.t_ns, std::nullopt});
        break;
    case PhaseEvent::IdleEnded:
    case PhaseEvent::BusyEnded: {
        if (e.kind == PhaseEvent::BusyEnded)  // `done` ends the open phase
            for (PhaseSpan& p : phase_spans_)
                if (!p.t1_ns)
                    p.t1_ns = std::max(p.t0_ns, e.t_ns);
        const auto kind = e.kind == PhaseEvent::IdleEnded ? RunSpan::Idle : RunSpan::Busy;
        // The open span of that kind: normally the last one.
        for (auto it = spans_.rbegin(); it != spans_.rend(); ++it) {
            if (it->kind == kind && !it->t1_ns) {
                it->t1_ns = e.t_ns;
                break;
            }
        }
        if (e.kind == PhaseEvent::IdleEnded && !idle_spans_.empty())
            idle_spans_.back().t1_ns = e.t_ns;
        break;
    }
    }
    last_phase_ = e;
}

void RunState::setRound(int index, const Round& r)
{
    span_rounds_[index] = r;
    if (!r.marks.empty())
        setMarks(index, r.marks);
}

void RunState::setMarks(int round, const std::vector<MarkSpan>& marks)
{
    if (marks.empty())
        return;
    std::erase_if(phase_spans_, [round](const PhaseSpan& p) { return p.round == round; });
    for (const MarkSpan& m : marks)
        phase_spans_.push_back({round, m.name, m.t0_ns, m.t1_ns});
    std::stable_sort(phase_spans_.begin(), phase_spans_.end(),
                     [](const PhaseSpan& a, const PhaseSpan& b) { return a.t0_ns < b.t0_ns; });
}

void RunState::applyMark(int round, const std::string& name, std::int64_t t_ns)
{
    for (PhaseSpan& p : phase_spans_)
        if (!p.t1_ns)
            p.t1_ns = std::max(p.t0_ns, t_ns);
    if (!name.empty() && name != "-")
        phase_spans_.push_back({round, name, t_ns, std::nullopt});
}

std::vector<std::string> RunState::phaseNames() const
{
    std::vector<std::string> out;
    for (const PhaseSpan& p : phase_spans_)
        if (std::find(out.begin(), out.end(), p.name) == out.end())
            out.push_back(p.name);
    return out;
}

void RunState::addRound(int index, const Round& r)
{
    setRound(index, r);
    if (rounds_.empty())
        first_round_index_ = index;
    rounds_.push_back(r);
    if (rounds_.size() > kKeepRounds) {
        const std::size_t drop = rounds_.size() - kKeepRounds;
        rounds_.erase(rounds_.begin(), rounds_.begin() + std::ptrdiff_t(drop));
        first_round_index_ += int(drop);
    }
}

std::optional<std::int64_t> RunState::firstNs() const
{
    if (spans_.empty())
        return std::nullopt;
    return spans_.front().t0_ns;
}

const Round* RunState::roundAt(int index) const
{
    const auto it = span_rounds_.find(index);
    return it == span_rounds_.end() ? nullptr : &it->second;
}

std::optional<Bracket> RunState::idleFigure(const std::string& spec, int follows_round) const
{
    // The bracket after round r is round r's idle_after and round r+1's idle_before.
    if (const Round* r = roundAt(follows_round + 1))
        if (const CounterRound* c = r->counter(spec); c && c->idle_before)
            return c->idle_before;
    if (const Round* r = roundAt(follows_round))
        if (const CounterRound* c = r->counter(spec); c && c->idle_after)
            return c->idle_after;
    return std::nullopt;
}

std::vector<IdleBand> RunState::idleBands(const std::string& spec, std::int64_t newest_ns,
                                          const BracketFn& compute) const
{
    std::vector<IdleBand> out;
    for (const RunSpan& s : spans_) {
        if (s.kind != RunSpan::Idle)
            continue;
        std::optional<Bracket> b = idleFigure(spec, s.round);
        if (!b && compute)
            b = compute(s.t0_ns, s.t1_ns.value_or(std::numeric_limits<std::int64_t>::max()));
        if (!b)
            continue;
        out.push_back({s.t0_ns, s.t1_ns.value_or(std::max(newest_ns, s.t0_ns)), b->mean_w, b->sd_w});
    }
    return out;
}

std::vector<IdleBand> RunState::idleBands(std::int64_t newest_ns) const
{
    const auto store = store_;
    return idleBands(spec_, newest_ns, [store](std::int64_t t0, std::int64_t t1) -> std::optional<Bracket> {
        if (!store)
            return std::nullopt;
        return bracket(store->between(t0, t1));
    });
}

std::optional<RecordNoise> RunState::liveNoise(int max_brackets) const
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

std::optional<double> RunState::medianMarginalW(int last_n) const
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

double RunState::medianWindowS() const
{
    std::vector<double> w;
    for (const Round& r : rounds_)
        if (r.window_ns > 0)
            w.push_back(double(r.window_ns) / 1e9);
    return w.empty() ? 0.0 : median(w);
}

std::vector<std::optional<Verdict>> RunState::verdicts(int last_n) const
{
    std::vector<std::optional<Verdict>> v;
    for (auto it = rounds_.rbegin(); it != rounds_.rend() && int(v.size()) < last_n; ++it)
        if (const CounterRound* c = it->counter(spec_))
            v.push_back(c->verdict);
    std::reverse(v.begin(), v.end());
    return v;
}

std::vector<RoundPoint> RunState::roundPoints(int last_n) const
{
    std::vector<RoundPoint> pts;
    const std::size_t from = rounds_.size() > std::size_t(last_n) ? rounds_.size() - std::size_t(last_n) : 0;
    for (std::size_t i = from; i < rounds_.size(); ++i)
        if (const CounterRound* c = rounds_[i].counter(spec_))
            if (const auto w = roundMarginalW(*c))
                pts.push_back({roundNumber(i), *w, c->verdict});
    return pts;
}

void RunState::setWorkloads(std::vector<std::string> names, std::vector<int> workload_of_round)
{
    workloads_ = std::move(names);
    workload_of_round_ = std::move(workload_of_round);
}

int RunState::workloadOfRound(int round) const
{
    if (workloads_.size() < 2 || round < 0 || round >= int(workload_of_round_.size()))
        return -1;
    return workload_of_round_[std::size_t(round)];
}

}  // namespace jb
