#include <jb/counters/IOReportGpu.h>

#include <QtGlobal>

#include <array>
#include <optional>
#include <utility>

namespace jb {

Result<double> ioreportUnitToNj(std::string_view label)
{
    const char* ws = " \t\r\n";
    const auto b = label.find_first_not_of(ws);
    const std::string_view t = b == std::string_view::npos
        ? std::string_view{}
        : label.substr(b, label.find_last_not_of(ws) - b + 1);
    static constexpr std::array<std::pair<std::string_view, double>, 5> kUnits{
        {{"nJ", 1.0}, {"uJ", 1e3}, {"mJ", 1e6}, {"J", 1e9}, {"pJ", 1e-3}}};
    for (const auto& [name, factor] : kUnits)
        if (t == name)
            return factor;
    return Error{"the unit label '" + std::string(label) +
                 "' is not one of nJ, uJ, mJ, J, pJ"};
}

bool isIOReportSpec(const std::string& spec)
{
    return spec == "ioreport-gpu" || (spec.rfind("ioreport:", 0) == 0 && spec.size() > 9);
}

std::optional<std::string> ioreportChannelOf(const std::string& spec)
{
    if (spec == "ioreport-gpu")
        return std::string("GPU Energy");
    if (isIOReportSpec(spec))
        return spec.substr(9);
    return std::nullopt;
}

namespace {

bool endsWith(std::string_view s, std::string_view tail)
{
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The CPU side of the group: "CPU Energy" is the whole CPU; on a chip of several dies each has
// "DIE_<n>_CPU Energy"; every other channel naming CPU is a cluster ("EACC_CPU", "PACC0_CPU")
// or a core of one (the cluster's name and a number).
bool isCpuChannel(std::string_view name)
{
    return name.find("CPU") != std::string_view::npos;
}
bool isDieCpuTotal(std::string_view name)
{
    return name.rfind("DIE_", 0) == 0 && endsWith(name, "_CPU Energy");
}

// Whether channel `total` includes channel `part`.
bool includes(std::string_view total, std::string_view part)
{
    if (total == part || !isCpuChannel(total) || !isCpuChannel(part))
        return false;
    if (total == "CPU Energy")
        return true;
    if (isDieCpuTotal(total)) {
        const std::string_view die = total.substr(0, total.size() - std::string_view("CPU Energy").size());
        return part.rfind(die, 0) == 0;
    }
    if (part == "CPU Energy" || isDieCpuTotal(part) || part.rfind(total, 0) != 0 || part.size() == total.size())
        return false;
    const std::string_view rest = part.substr(total.size());
    return rest.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

Status checkIOReportOverlap(const std::vector<std::string>& specs)
{
    for (std::size_t i = 0; i < specs.size(); ++i) {
        for (std::size_t j = 0; j < specs.size(); ++j) {
            if (i == j || specs[i] == specs[j])
                continue;
            const auto a = ioreportChannelOf(specs[i]);
            const auto b = ioreportChannelOf(specs[j]);
            if (!a || !b)
                continue;
            if (*a == *b && i < j)
                return Error{"--counter " + specs[i] + " and --counter " + specs[j] +
                             " read the same IOReport channel '" + *a + "'; keep one of them"};
            if (includes(*a, *b))
                return Error{"--counter " + specs[i] + " and --counter " + specs[j] +
                             " overlap: IOReport's '" + *a + "' is a total that includes '" + *b +
                             "', so their energies would be counted twice; keep " + specs[i] +
                             " for the total, or " + specs[j] + " (with its sibling channels) for the parts"};
        }
    }
    return Ok{};
}

namespace {
#if defined(Q_OS_LINUX)
constexpr const char* kThisSystem = "Linux";
#elif defined(Q_OS_WIN)
constexpr const char* kThisSystem = "Windows";
#elif defined(Q_OS_MACOS)
constexpr const char* kThisSystem = "macOS without the library paths set";
#else
constexpr const char* kThisSystem = "a system other than macOS";
#endif
}  // namespace

std::string ioreportNeedsMac(const std::string& spec)
{
    return spec + " needs macOS (IOReport); this machine runs " + kThisSystem;
}

}  // namespace jb
