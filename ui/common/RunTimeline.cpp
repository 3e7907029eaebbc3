#include "common/RunTimeline.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <algorithm>
#include <limits>

namespace jb {

namespace {

double seconds(std::int64_t t_ns, std::int64_t origin_ns)
{
    return double(t_ns - origin_ns) * 1e-9;
}

}  // namespace

void RunTimeline::clear()
{
    spans_.clear();
    rounds_.clear();
}

void RunTimeline::apply(const PhaseEvent& e)
{
    switch (e.kind) {
    case PhaseEvent::IdleStarted:
        spans_.push_back({TimelineSpan::Idle, e.round, e.t_ns, std::nullopt});
        break;
    case PhaseEvent::BusyStarted:
        spans_.push_back({TimelineSpan::Busy, e.round, e.t_ns, std::nullopt});
        break;
    case PhaseEvent::IdleEnded:
    case PhaseEvent::BusyEnded: {
        const auto kind = e.kind == PhaseEvent::IdleEnded ? TimelineSpan::Idle : TimelineSpan::Busy;
        // The open span of that kind: normally the last one.
        for (auto it = spans_.rbegin(); it != spans_.rend(); ++it) {
            if (it->kind == kind && !it->t1_ns) {
                it->t1_ns = e.t_ns;
                return;
            }
        }
        break;
    }
    }
}

void RunTimeline::setRound(int index, const Round& r)
{
    rounds_[index] = r;
}

RunTimeline RunTimeline::fromRecord(const Record& rec)
{
    RunTimeline t;
    auto addIdle = [&](int follows, const std::array<std::int64_t, 2>& b) {
        for (const TimelineSpan& s : t.spans_)
            if (s.kind == TimelineSpan::Idle && s.t0_ns == b[0] && s.t1_ns == b[1])
                return;  // the bracket after one round is the one before the next
        t.spans_.push_back({TimelineSpan::Idle, follows, b[0], b[1]});
    };
    for (std::size_t i = 0; i < rec.rounds.size(); ++i) {
        const Round& r = rec.rounds[i];
        t.rounds_[int(i)] = r;
        if (r.brackets) {
            addIdle(int(i) - 1, (*r.brackets)[0]);
            addIdle(int(i), (*r.brackets)[1]);
        }
        if (r.window)
            t.spans_.push_back({TimelineSpan::Busy, int(i), (*r.window)[0], (*r.window)[1]});
    }
    std::stable_sort(t.spans_.begin(), t.spans_.end(),
                     [](const TimelineSpan& a, const TimelineSpan& b) { return a.t0_ns < b.t0_ns; });
    return t;
}

std::optional<std::int64_t> RunTimeline::firstNs() const
{
    if (spans_.empty())
        return std::nullopt;
    return spans_.front().t0_ns;
}

std::vector<ChartShade> RunTimeline::shades(const std::string& spec, std::int64_t origin_ns) const
{
    std::vector<ChartShade> out;
    out.reserve(spans_.size());
    for (const TimelineSpan& s : spans_) {
        ChartShade c;
        c.kind = s.kind == TimelineSpan::Idle ? ChartShade::Idle : ChartShade::Busy;
        c.t0_s = seconds(s.t0_ns, origin_ns);
        if (s.t1_ns)
            c.t1_s = seconds(*s.t1_ns, origin_ns);
        if (s.kind == TimelineSpan::Idle) {
            c.color = palette::idleShade();
            c.label = s.round < 0 ? QStringLiteral("idle before round 1")
                                  : QStringLiteral("idle after round %1").arg(s.round + 1);
        } else {
            c.color = palette::busyPending();
            c.label = QStringLiteral("round %1 busy").arg(s.round + 1);
            const auto it = rounds_.find(s.round);
            const CounterRound* cr = it == rounds_.end() ? nullptr : it->second.counter(spec);
            if (cr) {
                const VerdictStyle vs = verdictStyle(cr->verdict);
                c.color = vs.background;
                c.color.setAlpha(cr->verdict ? 55 : 110);  // grey "no verdict" must not pass for idle
                c.label += QStringLiteral(": ") + vs.text;
                if (cr->ratio)
                    c.label += QStringLiteral(" (ratio ") + fmt::significant(*cr->ratio, 3) +
                        QLatin1Char(')');
                if (cr->idle_before && cr->idle_after)
                    c.baseline_w = (cr->idle_before->mean_w + cr->idle_after->mean_w) / 2.0;
            }
        }
        out.push_back(c);
    }
    return out;
}

std::optional<Bracket> RunTimeline::idleFigure(const std::string& spec, int followsRound) const
{
    // The bracket after round r is round r's idle_after and round r+1's idle_before.
    if (auto it = rounds_.find(followsRound + 1); it != rounds_.end())
        if (const CounterRound* c = it->second.counter(spec); c && c->idle_before)
            return c->idle_before;
    if (auto it = rounds_.find(followsRound); it != rounds_.end())
        if (const CounterRound* c = it->second.counter(spec); c && c->idle_after)
            return c->idle_after;
    return std::nullopt;
}

std::vector<ChartBand> RunTimeline::bands(const std::string& spec, std::int64_t origin_ns,
                                          std::int64_t newest_ns, const BracketFn& compute) const
{
    std::vector<ChartBand> out;
    for (const TimelineSpan& s : spans_) {
        if (s.kind != TimelineSpan::Idle)
            continue;
        std::optional<Bracket> b = idleFigure(spec, s.round);
        if (!b && compute)
            b = compute(s.t0_ns, s.t1_ns.value_or(std::numeric_limits<std::int64_t>::max()));
        if (!b)
            continue;
        const std::int64_t end = s.t1_ns.value_or(std::max(newest_ns, s.t0_ns));
        out.push_back({seconds(s.t0_ns, origin_ns), seconds(end, origin_ns), b->mean_w, b->sd_w});
    }
    return out;
}

}  // namespace jb
