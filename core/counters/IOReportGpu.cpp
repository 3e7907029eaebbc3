#include "counters/IOReportGpu.h"

#include <QtGlobal>

#include <array>
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
    return Error{"IOReport GPU Energy channel has the unit label '" + std::string(label) +
                 "', not one of nJ, uJ, mJ, J, pJ"};
}

#ifndef Q_OS_MACOS

namespace {
#if defined(Q_OS_LINUX)
constexpr const char* kThisSystem = "Linux";
#elif defined(Q_OS_WIN)
constexpr const char* kThisSystem = "Windows";
#else
constexpr const char* kThisSystem = "a system other than macOS";
#endif
std::string needsMac()
{
    return std::string("ioreport-gpu needs macOS (IOReport); this machine runs ") + kThisSystem;
}
}  // namespace

CounterStatus ioreportGpuStatus()
{
    return {"ioreport-gpu", true, false, needsMac(),
            "Apple GPU energy, the whole GPU (IOReport Energy Model)"};
}

Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter()
{
    return Error{needsMac()};
}

#endif  // !Q_OS_MACOS

}  // namespace jb
