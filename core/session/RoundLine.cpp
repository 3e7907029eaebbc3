#include <jb/session/RoundLine.h>

#include <jb/base/Text.h>

#include <cstdio>

namespace jb {

namespace {
std::string fixed2(double v)
{
    return formatted("%.2f", v);
}
}  // namespace

std::string roundLine(const Plan& plan, int index, const Round& r)
{
    // Python's f-string prints a missing label or verdict as None; so does this line.
    std::string s = plan.label.value_or("None") + " round " + std::to_string(index + 1) + "/" +
                    std::to_string(plan.rounds) + ": " + std::to_string(r.decodes) + " decodes in " +
                    fixed2(double(r.child_wall_ns) / 1e9) + " s";
    if (r.task) {
        if (r.task->contains("energy_nj"))
            s += ", task " + fixed2((*r.task)["energy_nj"].get<double>() / 1e9) + " J";
        else if (r.task->contains("cpu_ns"))
            s += ", task cpu " + fixed2((*r.task)["cpu_ns"].get<double>() / 1e9) + " s";
    }
    for (const auto& [spec, c] : r.counters)
        s += ", " + spec + " marginal " + fixed2(c.has_marginal ? c.marginal_nj / 1e9 : 0.0) + " J (" +
             (c.verdict ? verdictName(*c.verdict) : "None") + ")";
    // A round beyond a counter's limits says so in the session's words, on an indented line of
    // its own under the round line: the round line itself stays the reference harness's, which
    // scripts split at ", " (bench/gpu_check.sh does).
    for (const auto& [spec, c] : r.counters) {
        (void)c;
        if (const std::string l = roundLimitOf(r, spec); !l.empty())
            s += "\n    " + l;
    }
    return s;
}

std::string roundLimitOf(const Round& r, const std::string& spec)
{
    const auto limits = r.extra.find("limits");
    if (limits == r.extra.end() || !limits->is_object())
        return {};
    const auto l = limits->find(spec);
    return l != limits->end() && l->is_string() ? l->get<std::string>() : std::string();
}

}  // namespace jb
