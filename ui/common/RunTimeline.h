#pragma once
// The phases of a run on its time axis (idle brackets, busy windows), from a live session's
// phase events or from a record's brackets and windows, turned into the chart's shading and
// idle bands for one counter. Pure logic: tested without drawing.
#include "chart/PowerChart.h"
#include "record/Record.h"
#include "session/Session.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jb {

struct TimelineSpan {
    enum Kind { Idle, Busy };
    Kind kind = Idle;
    // Busy: its round (0-based). Idle: the round it follows (-1: the bracket before round 0).
    int round = -1;
    std::int64_t t0_ns = 0;
    std::optional<std::int64_t> t1_ns;  // none while it lasts
};

class RunTimeline {
public:
    void clear();
    void apply(const PhaseEvent& e);
    void setRound(int index, const Round& r);
    // Spans from the rounds' `brackets` and `window` (JouleBench additions; a reference record
    // has none, and then no shading).
    static RunTimeline fromRecord(const Record& r);

    const std::vector<TimelineSpan>& spans() const { return spans_; }
    std::optional<std::int64_t> firstNs() const;

    std::vector<ChartShade> shades(const std::string& spec, std::int64_t origin_ns) const;
    // Idle mean +/- sd per idle bracket: the rounds' own figures where the round is done, else
    // `compute(t0_ns, t1_ns)` over the samples (t1 INT64_MAX while the bracket lasts).
    using BracketFn = std::function<std::optional<Bracket>(std::int64_t, std::int64_t)>;
    std::vector<ChartBand> bands(const std::string& spec, std::int64_t origin_ns, std::int64_t newest_ns,
                                 const BracketFn& compute) const;

private:
    std::optional<Bracket> idleFigure(const std::string& spec, int followsRound) const;

    std::vector<TimelineSpan> spans_;
    std::map<int, Round> rounds_;
};

}  // namespace jb
