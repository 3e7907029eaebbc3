#pragma once
// The per-round progress line of the reference harness, word for word, e.g.
//   "demo round 2/7: 8 decodes in 0.80 s, rapl marginal 12.00 J (clean)"
#include <jb/record/Record.h>
#include <jb/session/Plan.h>

#include <string>

namespace jb {

std::string roundLine(const Plan& plan, int index, const Round& round);

}  // namespace jb
