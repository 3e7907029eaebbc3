#include <jb/session/Workloads.h>

#include <cmath>
#include <cstdio>
#include <set>

namespace jb {

namespace {

const std::string kSeparator = ":::";

bool parseNumber(const std::string& s, double& out)
{
    if (s.empty())
        return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

std::string formatValue(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s == "-0" || s.rfind("-0.", 0) == 0) {
        bool zero = true;
        for (char c : s)
            if (c >= '1' && c <= '9')
                zero = false;
        if (zero)
            s.erase(0, 1);
    }
    return s;
}

// Every {NAME} of `text` replaced; the names used go into `used`; an unknown one is an error.
Result<std::string> substitute(const std::string& text, const std::map<std::string, std::string>& values,
                               std::set<std::string>& used)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close != std::string::npos) {
                const std::string name = text.substr(i + 1, close - i - 1);
                const bool identifier = !name.empty() && name.find_first_not_of(
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
                if (identifier) {
                    const auto it = values.find(name);
                    if (it == values.end())
                        return Error{"'" + text + "' uses {" + name + "}, but no --parameter-list or "
                                     "--parameter-scan defines " + name};
                    out += it->second;
                    used.insert(name);
                    i = close + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

std::string joined(const std::vector<std::string>& argv)
{
    std::string s;
    for (const std::string& a : argv)
        s += (s.empty() ? "" : " ") + a;
    return s;
}

}  // namespace

Result<std::vector<std::vector<std::string>>> splitCommands(const std::vector<std::string>& argv)
{
    std::vector<std::vector<std::string>> out(1);
    for (const std::string& a : argv) {
        if (a == kSeparator)
            out.emplace_back();
        else
            out.back().push_back(a);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!out[i].empty())
            continue;
        if (out.size() == 1)
            return Error{"no child command: give the decoder's command line after '--'"};
        if (i == 0)
            return Error{"':::' separates two children's command lines, but nothing comes before the first one"};
        if (i + 1 == out.size())
            return Error{"':::' separates two children's command lines, but nothing comes after the last one"};
        return Error{"child " + std::to_string(i + 1) + " is empty: two ':::' in a row"};
    }
    return out;
}

Result<ParameterAxis> parameterList(const std::string& name, const std::string& csv)
{
    ParameterAxis axis{name, {}};
    if (name.empty())
        return Error{"--parameter-list needs a NAME and a comma-separated list of values"};
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = csv.find(',', start);
        const std::string v = csv.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (v.empty())
            return Error{"--parameter-list " + name + " '" + csv + "': value " +
                         std::to_string(axis.values.size() + 1) + " is empty"};
        axis.values.push_back(v);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return axis;
}

Result<ParameterAxis> parameterScan(const std::string& name, const std::string& min, const std::string& max,
                                    const std::optional<std::string>& step)
{
    ParameterAxis axis{name, {}};
    double lo = 0, hi = 0, st = 1;
    const std::string what = "--parameter-scan " + name + " " + min + " " + max;
    if (name.empty())
        return Error{"--parameter-scan needs NAME MIN MAX"};
    if (!parseNumber(min, lo))
        return Error{what + ": MIN '" + min + "' is not a number"};
    if (!parseNumber(max, hi))
        return Error{what + ": MAX '" + max + "' is not a number"};
    if (step && !parseNumber(*step, st))
        return Error{"--parameter-step '" + *step + "' is not a number"};
    if (!(st > 0))
        return Error{"--parameter-step must be above 0 (got " + step.value_or("1") + ")"};
    if (hi < lo)
        return Error{what + ": MAX is below MIN"};
    const double count = std::floor((hi - lo) / st + 1e-9) + 1;
    if (count > kMaxScanValues)
        return Error{what + ": " + formatValue(count, 0) + " values, more than the " +
                     std::to_string(kMaxScanValues) + " a scan may have (a larger --parameter-step?)"};
    const bool integral = std::floor(lo) == lo && std::floor(st) == st;
    // The fewest decimals that tell the values apart, and show the step itself.
    int decimals = 0;
    if (!integral)
        while (decimals < 12 && std::fabs(std::round(st * std::pow(10.0, decimals)) - st * std::pow(10.0, decimals)) >
                                    1e-9 * std::pow(10.0, decimals))
            ++decimals;
    if (!integral)
        while (decimals < 12 && std::fabs(std::round(lo * std::pow(10.0, decimals)) - lo * std::pow(10.0, decimals)) >
                                    1e-9 * std::pow(10.0, decimals))
            ++decimals;
    for (int i = 0; i < int(count); ++i)
        axis.values.push_back(formatValue(lo + i * st, decimals));
    return axis;
}

Result<std::vector<Workload>> expandWorkloads(const std::vector<std::vector<std::string>>& commands,
                                              const std::vector<ParameterAxis>& axes,
                                              const std::vector<std::string>& names)
{
    if (!names.empty() && names.size() != commands.size())
        return Error{"--name was given " + std::to_string(names.size()) + " time" + (names.size() == 1 ? "" : "s") +
                     " for " + std::to_string(commands.size()) + " child" + (commands.size() == 1 ? "" : "ren") +
                     ": give one per child, in order, or none"};
    std::set<std::string> axis_names;
    for (const ParameterAxis& a : axes)
        if (!axis_names.insert(a.name).second)
            return Error{"parameter " + a.name + " is defined twice"};
    // Every combination of the axes' values, the first axis slowest.
    std::vector<std::map<std::string, std::string>> combos(1);
    for (const ParameterAxis& a : axes) {
        std::vector<std::map<std::string, std::string>> next;
        for (const auto& c : combos)
            for (const std::string& v : a.values) {
                auto m = c;
                m[a.name] = v;
                next.push_back(std::move(m));
            }
        combos = std::move(next);
    }
    std::vector<Workload> out;
    std::set<std::string> used_anywhere, seen;
    for (std::size_t c = 0; c < commands.size(); ++c) {
        // The parameters this command uses: it expands over those only.
        std::set<std::string> used;
        for (const std::string& a : commands[c]) {
            auto s = substitute(a, combos.front(), used);
            if (!s)
                return Error{"child " + std::to_string(c + 1) + ": " + s.error()};
        }
        std::size_t expansions = 1;
        for (const ParameterAxis& a : axes)
            if (used.count(a.name))
                expansions *= a.values.size();
        std::set<std::vector<std::string>> done;
        for (const auto& combo : combos) {
            Workload w;
            for (const std::string& a : commands[c]) {
                std::set<std::string> u;
                w.argv.push_back(substitute(a, combo, u).value());
            }
            for (const std::string& n : used)
                w.parameters[n] = combo.at(n);
            if (!done.insert(w.argv).second)
                continue;  // a combination differing only in parameters this command does not use
            if (names.empty()) {
                w.name = joined(w.argv);
            } else {
                std::set<std::string> in_name;
                auto n = substitute(names[c], combo, in_name);
                if (!n)
                    return Error{"--name " + names[c] + ": " + n.error()};
                w.name = n.value();
                for (const auto& [k, v] : w.parameters)
                    if (!in_name.count(k) && expansions > 1)
                        w.name += " " + k + "=" + v;
            }
            if (!seen.insert(w.name).second)
                return Error{"two children are named '" + w.name + "': give each its own --name"};
            out.push_back(std::move(w));
        }
        used_anywhere.insert(used.begin(), used.end());
    }
    for (const ParameterAxis& a : axes)
        if (!used_anywhere.count(a.name))
            return Error{"parameter " + a.name + " is defined but no child's command line uses {" + a.name + "}"};
    return out;
}

}  // namespace jb
