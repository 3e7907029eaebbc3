#include "noise/NoiseLabText.h"

#include "common/Format.h"
#include <jb/noise/IdleNoise.h>
#include <jb/noise/RoundModel.h>
#include <jb/stats/Statistics.h>

#include <QStringList>

#include <algorithm>
#include <map>

namespace jb {

namespace {

QString wholePercent(double p)
{
    return QString::number(p * 100.0, 'f', 0) + QLatin1Char('%');
}

}  // namespace

QString NoiseLabText::verdictCounts(const std::vector<std::optional<Verdict>>& verdicts)
{
    CounterSummary n;
    for (const auto& v : verdicts)
        n.add(v);
    QStringList parts;
    for (const Verdict v : kVerdicts)
        if (n.count(v) > 0)
            parts << QStringLiteral("%1 %2").arg(n.count(v)).arg(QString::fromLatin1(verdictName(v)));
    if (n.no_verdict > 0)
        parts << QStringLiteral("%1 no verdict").arg(n.no_verdict);
    return parts.join(QStringLiteral(" · "));
}

BannerFigures NoiseLabText::roundBanner(const Round& r, const std::string& spec, int number,
                                        const std::vector<std::optional<Verdict>>& recent)
{
    BannerFigures f;
    f.caption = tr("round %1").arg(number);
    const CounterRound* c = r.counter(spec);
    if (!c) {
        f.figures = tr("This round has no figures for %1.").arg(QString::fromStdString(spec));
        return f;
    }
    f.verdict = c->verdict;
    f.ratio = c->ratio;
    // The ratio divides by the larger of the two brackets' sds, as the reference.
    if (const auto marginal = roundMarginalW(*c))
        f.figures = tr("marginal %1 W  ÷  idle sd %2 W")
                        .arg(fmt::significant(*marginal, 3),
                             fmt::significant(std::max(c->idle_before->sd_w, c->idle_after->sd_w), 3));
    if (!recent.empty())
        f.detail = tr("Last %1 rounds: %2").arg(recent.size()).arg(verdictCounts(recent));
    return f;
}

QString NoiseLabText::expectation(const LiveSimSettings& s)
{
    RoundModel m;
    m.marginal_w = s.signal_w;
    m.idle_sd_w = s.noise_sd_w;
    m.busy_sd_w = s.noise_sd_w;
    m.idle_intervals = intervalsInside(s.idle_s, s.period_s);
    m.busy_intervals = intervalsInside(s.busyS(), s.period_s);
    if (!(m.idle_sd_w > 0) || m.idle_intervals < 2 || m.busy_intervals < 2)
        return {};
    return tr("Expected at these settings: clean in %1 of rounds · relative-only or better %2 · noisy or better %3")
        .arg(wholePercent(verdictProbability(m, kCleanRatio)),
             wholePercent(verdictProbability(m, kRelativeOnlyRatio)),
             wholePercent(verdictProbability(m, kNoisyRatio)));
}

BannerFigures NoiseLabText::recordBanner(const Record& r, const RecordNoise& n)
{
    BannerFigures f;
    if (n.ratios.empty()) {
        f.figures = tr("The record has no round with a ratio for %1.").arg(QString::fromStdString(n.spec));
        return f;
    }
    f.ratio = median(n.ratios);
    f.verdict = verdict(f.ratio);
    f.ratio_label = tr("median ratio");
    f.caption = tr("median of %1 rounds").arg(n.ratios.size());
    if (n.marginal_w)
        f.figures = tr("median marginal %1 W, idle sd %2 W")
                        .arg(fmt::significant(*n.marginal_w, 3), fmt::significant(n.idle_sd_w, 3));
    std::vector<std::optional<Verdict>> v;
    for (const Round& round : r.rounds)
        if (const CounterRound* c = round.counter(n.spec))
            v.push_back(c->verdict);
    f.detail = tr("Rounds: %1").arg(verdictCounts(v));
    return f;
}

QString NoiseLabText::phase(const PhaseEvent& last, std::int64_t now_ns, double idle_s)
{
    const double since = std::max(0.0, double(now_ns - last.t_ns) / 1e9);
    switch (last.kind) {
    case PhaseEvent::IdleStarted:
        return tr("idle bracket  %1 / %2 s")
            .arg(fmt::fixed(std::min(since, idle_s), 1), fmt::significant(idle_s, 3));
    case PhaseEvent::IdleEnded:
        return tr("settling");
    case PhaseEvent::BusyStarted:
        return tr("busy: round %1  %2 s").arg(last.round + 1).arg(fmt::fixed(since, 1));
    case PhaseEvent::BusyEnded:
        return tr("idle bracket");
    }
    return {};
}

std::vector<ThresholdLine> NoiseLabText::floors(double idle_sd_w)
{
    if (!(idle_sd_w > 0))
        return {};
    return {{Verdict::Clean, kCleanRatio, kCleanRatio * idle_sd_w},
            {Verdict::RelativeOnly, kRelativeOnlyRatio, kRelativeOnlyRatio * idle_sd_w},
            {Verdict::Noisy, kNoisyRatio, kNoisyRatio * idle_sd_w}};
}

}  // namespace jb
