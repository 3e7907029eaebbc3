#include "common/RunShading.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <algorithm>

namespace jb {

namespace {

double seconds(std::int64_t t_ns, std::int64_t origin_ns)
{
    return double(t_ns - origin_ns) * 1e-9;
}

}  // namespace

std::vector<ChartShade> chartShades(const RunState& run, const std::string& spec, std::int64_t origin_ns)
{
    std::vector<ChartShade> out;
    out.reserve(run.spans().size());
    for (const RunSpan& s : run.spans()) {
        ChartShade c;
        c.kind = s.kind == RunSpan::Idle ? ChartShade::Idle : ChartShade::Busy;
        c.t0_s = seconds(s.t0_ns, origin_ns);
        if (s.t1_ns)
            c.t1_s = seconds(*s.t1_ns, origin_ns);
        if (s.kind == RunSpan::Idle) {
            c.color = palette::idleShade();
            c.label = s.round < 0 ? QStringLiteral("idle before round 1")
                                  : QStringLiteral("idle after round %1").arg(s.round + 1);
        } else {
            c.color = palette::busyPending();
            c.label = QStringLiteral("round %1 busy").arg(s.round + 1);
            c.legend = QStringLiteral("round, no figures yet");
            // Several workloads: each one's windows in its own colour, the verdict in the label.
            const int w = run.workloadOfRound(s.round);
            if (w >= 0) {
                c.color = palette::workload(w);
                c.color.setAlpha(70);
                c.label += QStringLiteral(" · ") + QString::fromStdString(run.workloads()[std::size_t(w)]);
                c.legend = QStringLiteral("workload ") + QString::fromStdString(run.workloads()[std::size_t(w)]);
            }
            const Round* r = run.roundAt(s.round);
            const CounterRound* cr = r ? r->counter(spec) : nullptr;
            if (cr) {
                const VerdictStyle vs = verdictStyle(cr->verdict);
                if (w < 0) {
                    c.color = vs.background;
                    c.color.setAlpha(cr->verdict ? 55 : 110);  // grey "no verdict" must not pass for idle
                    c.legend = QStringLiteral("round: ") + vs.text;
                }
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

std::vector<ChartPhase> chartPhases(const RunState& run, std::int64_t origin_ns)
{
    const std::vector<std::string> names = run.phaseNames();
    std::vector<ChartPhase> out;
    out.reserve(run.phaseSpans().size());
    for (const PhaseSpan& p : run.phaseSpans()) {
        ChartPhase c;
        c.t0_s = seconds(p.t0_ns, origin_ns);
        if (p.t1_ns)
            c.t1_s = seconds(*p.t1_ns, origin_ns);
        const auto at = std::find(names.begin(), names.end(), p.name);
        c.color = palette::phase(int(at - names.begin()));
        c.name = QString::fromStdString(p.name);
        c.round = p.round;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<ChartBand> chartBands(const std::vector<IdleBand>& bands, std::int64_t origin_ns)
{
    std::vector<ChartBand> out;
    out.reserve(bands.size());
    for (const IdleBand& b : bands)
        out.push_back({seconds(b.t0_ns, origin_ns), seconds(b.t1_ns, origin_ns), b.mean_w, b.sd_w});
    return out;
}

std::vector<ChartBand> chartBands(const RunState& run, const std::string& spec, std::int64_t origin_ns,
                                  std::int64_t newest_ns, const RunState::BracketFn& compute)
{
    return chartBands(run.idleBands(spec, newest_ns, compute), origin_ns);
}

}  // namespace jb
