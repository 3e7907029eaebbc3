#pragma once
// The per-round progress line of the reference harness, word for word, e.g.
//   "demo round 2/7: 8 decodes in 0.80 s, rapl marginal 12.00 J (clean)"
// A round beyond a counter's limits (the round's `limits`, session/Session) adds an indented
// line per such counter under it, so the round line itself stays the reference's:
//   "demo round 1/5: 2 decodes in 0.03 s, nvml:0 marginal 0.41 J (clean)"
//   "    too short for nvml:0: 0.3 updates, needs 10 (...)"
#include <jb/record/Record.h>
#include <jb/session/Plan.h>

#include <string>

namespace jb {

std::string roundLine(const Plan& plan, int index, const Round& round);

// The round's limit text for one counter (its `limits.<spec>`: "too short for nvml:0: ...",
// "ioreport:DRAM never advanced in this round: its energy is missing"), or empty where the round
// is within the counter's limits: the words the indented line prints and the dashboard shows.
std::string roundLimitOf(const Round& round, const std::string& spec);

}  // namespace jb
