#include <jb/child/Protocol.h>

#include <charconv>
#include <cstdio>
#include <vector>

namespace jb {

namespace {

std::vector<std::string_view> words(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
    while (i < line.size()) {
        while (i < line.size() && space(line[i]))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && !space(line[i]))
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

// A whole word as a non-negative integer (Python's int() also takes a sign: allow '+').
std::optional<std::int64_t> integer(std::string_view w)
{
    if (!w.empty() && w.front() == '+')
        w.remove_prefix(1);
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || p != w.data() + w.size() || v < 0)
        return std::nullopt;
    return v;
}

}  // namespace

std::string quoteLine(std::string_view line)
{
    std::string out = "'";
    std::size_t n = 0;
    for (char c : line) {
        if (++n > 120) {
            out += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "'";
}

Result<ReadyLine> parseReady(std::string_view line)
{
    const auto w = words(line);
    if (w.empty())
        return Error{"the child sent an empty line where 'ready <jobs>' was expected"};
    if (w[0] != "ready")
        return Error{"the child sent " + quoteLine(line) + " where 'ready <jobs>' was expected"};
    if (w.size() < 2)
        return Error{"the child sent " + quoteLine(line) + ": 'ready' needs the number of jobs"};
    const auto n = integer(w[1]);
    if (!n)
        return Error{"the child sent " + quoteLine(line) + ": the number of jobs is not a non-negative integer"};
    return ReadyLine{*n};
}

Result<DoneLine> parseDone(std::string_view line)
{
    const auto w = words(line);
    if (w.empty())
        return Error{"the child sent an empty line where 'done <decodes> <wall-ns>' was expected"};
    if (w[0] != "done")
        return Error{"the child sent " + quoteLine(line) + " where 'done <decodes> <wall-ns>' was expected"};
    if (w.size() < 3)
        return Error{"the child sent " + quoteLine(line) + ": 'done' needs <decodes> and <wall-ns>"};
    const auto decodes = integer(w[1]);
    const auto wall = integer(w[2]);
    if (!decodes)
        return Error{"the child sent " + quoteLine(line) + ": <decodes> is not a non-negative integer"};
    if (!wall)
        return Error{"the child sent " + quoteLine(line) + ": <wall-ns> is not a non-negative integer"};
    DoneLine d{*decodes, *wall, std::nullopt};
    if (w.size() > 3) {
        std::string note;
        for (std::size_t i = 3; i < w.size(); ++i) {
            if (i > 3)
                note += ' ';
            note += w[i];
        }
        d.note = std::move(note);
    }
    return d;
}

bool isMarkLine(std::string_view line)
{
    const auto w = words(line);
    return !w.empty() && w[0] == "mark";
}

std::string markNameProblem(std::string_view name)
{
    if (name.empty())
        return "the phase name is empty";
    if (name.size() > kMaxMarkName)
        return "the phase name is longer than " + std::to_string(kMaxMarkName) + " characters";
    for (char c : name) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '.' || c == ':' || c == '/' || c == '+' || c == '-';
        if (!ok)
            return std::string("the phase name holds ") + quoteLine(std::string_view(&c, 1)) +
                   " (allowed: letters, digits and _ . : / + -)";
    }
    return {};
}

Result<MarkLine> parseMark(std::string_view line)
{
    const auto w = words(line);
    if (w.empty() || w[0] != "mark")
        return Error{"the child sent " + quoteLine(line) + " where 'mark <phase>' was expected"};
    if (w.size() < 2)
        return Error{"the child sent " + quoteLine(line) + ": 'mark' needs a phase name (or '-' to end the phase)"};
    if (w.size() > 2)
        return Error{"the child sent " + quoteLine(line) + ": 'mark' takes one phase name, without spaces"};
    if (w[1] == "-")
        return MarkLine{std::nullopt};
    if (const std::string why = markNameProblem(w[1]); !why.empty())
        return Error{"the child sent " + quoteLine(line) + ": " + why};
    return MarkLine{std::string(w[1])};
}

std::optional<RanStamps> ranStamps(const DoneLine& d)
{
    if (!d.note)
        return std::nullopt;
    for (std::string_view w : words(*d.note)) {
        if (w.substr(0, 4) != "ran=")
            continue;
        w.remove_prefix(4);
        const std::size_t comma = w.find(',');
        if (comma == std::string_view::npos)
            return std::nullopt;
        const auto a = integer(w.substr(0, comma)), b = integer(w.substr(comma + 1));
        if (!a || !b)
            return std::nullopt;
        return RanStamps{*a, *b};
    }
    return std::nullopt;
}

std::string formatRan(std::int64_t start_ns, std::int64_t end_ns)
{
    return "ran=" + std::to_string(start_ns) + "," + std::to_string(end_ns);
}

std::string formatGo(int k)
{
    return "go " + std::to_string(k) + "\n";
}

std::string formatExit()
{
    return "exit\n";
}

}  // namespace jb
