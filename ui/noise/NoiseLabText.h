#pragma once
// The Noise lab's words and figures for people: the verdict banner for a live round or a
// record, what the model expects at the simulation's settings, the phase of the run, the
// verdict floors. Pure (Qt Core strings): tested without widgets.
#include "noise/NoiseCharts.h"
#include "noise/VerdictBanner.h"
#include <jb/noise/LiveSim.h>
#include <jb/noise/RecordNoise.h>
#include <jb/record/Record.h>
#include <jb/session/Session.h>

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace jb {

class NoiseLabText {
    Q_DECLARE_TR_FUNCTIONS(NoiseLabText)
public:
    // "8 clean · 2 relative-only", in the order of trust.
    static QString verdictCounts(const std::vector<std::optional<Verdict>>& verdicts);
    // A live round: its verdict, ratio and the two figures the ratio divides; recent: the
    // newest rounds' verdicts for the context line. number: as people count.
    static BannerFigures roundBanner(const Round& r, const std::string& spec, int number,
                                     const std::vector<std::optional<Verdict>>& recent);
    // "Expected at these settings: clean in 91% of rounds · ..." (RoundModel); empty where the
    // model has no answer (no noise, brackets under two intervals).
    static QString expectation(const LiveSimSettings& s);
    // A record: the median ratio's verdict, the median marginal and pooled idle sd, the counts.
    static BannerFigures recordBanner(const Record& r, const RecordNoise& n);
    // "idle bracket  3.1 / 5 s", "busy: round 7  0.4 s", "settling".
    static QString phase(const PhaseEvent& last, std::int64_t now_ns, double idle_s);
    // Threshold x idle sd for clean, relative-only and noisy; none without noise.
    static std::vector<ThresholdLine> floors(double idle_sd_w);
};

}  // namespace jb
