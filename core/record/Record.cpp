#include "record/Record.h"

#include <algorithm>

namespace jb {

std::vector<std::string> Record::wholeDeviceCounters() const
{
    std::vector<std::string> out;
    auto add = [&](const std::string& s) {
        if (std::find(out.begin(), out.end(), s) == out.end())
            out.push_back(s);
    };
    for (const Round& r : rounds)
        for (const auto& [spec, _] : r.counters)
            add(spec);
    for (const auto& [spec, _] : samples)
        add(spec);
    return out;
}

const std::vector<Interval>* Record::samplesOf(const std::string& spec) const
{
    for (const auto& [k, v] : samples)
        if (k == spec)
            return &v;
    return nullptr;
}

CounterSummary summaryOf(const Record& r, const std::string& spec)
{
    std::vector<RoundForSummary> in;
    in.reserve(r.rounds.size());
    for (const Round& round : r.rounds)
        in.push_back({round.counter(spec), round.decodes});
    return summarize(in);
}

}  // namespace jb
