#pragma once
// A run's spans (core/live/RunState) as the power chart's shading and idle bands for one
// counter: colours, labels and seconds since the origin. The only place a RunState meets
// chart types.
#include "chart/PowerChart.h"
#include <jb/live/RunState.h>

#include <cstdint>
#include <string>
#include <vector>

namespace jb {

std::vector<ChartShade> chartShades(const RunState& run, const std::string& spec, std::int64_t origin_ns);
std::vector<ChartBand> chartBands(const std::vector<IdleBand>& bands, std::int64_t origin_ns);
// The phases the child marked (RunState::phaseSpans), each name in its palette::phase colour
// (by order of first appearance), for the Inspector's and the Measure page's power chart.
std::vector<ChartPhase> chartPhases(const RunState& run, std::int64_t origin_ns);
// The idle bands of one counter (RunState::idleBands) on the chart's axis.
std::vector<ChartBand> chartBands(const RunState& run, const std::string& spec, std::int64_t origin_ns,
                                  std::int64_t newest_ns, const RunState::BracketFn& compute);

}  // namespace jb
