#include <jb/stats/CounterTrust.h>

#include <jb/base/Text.h>
#include <jb/record/Record.h>
#include <jb/stats/CounterResolution.h>

#include <cmath>

namespace jb {

namespace {

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

// "1 s", "500 ms"
std::string windowText(double ms)
{
    return ms >= 1000.0 ? formatted("%g s", std::round(ms / 100.0) / 10.0) : formatted("%g ms", std::round(ms));
}

// The kind from the spec alone (no counter_info): an nvml-power counter may be either reading;
// the older (and the H200's usual) one is the averaged reading, which the rule words more carefully.
CounterKind kindOfSpecAlone(const std::string& spec)
{
    const CounterKind k = counterKindOfSpec(spec);
    return k == CounterKind::NvmlPowerInstant ? CounterKind::NvmlPowerAverage : k;
}

bool energyKind(CounterKind k)
{
    switch (k) {
    case CounterKind::Rapl:
    case CounterKind::HwmonEnergy:
    case CounterKind::IOReportEnergy:
    case CounterKind::IOReportGpu:
    case CounterKind::NvmlEnergy:
        return true;
    default:
        return false;
    }
}

}  // namespace

std::string CounterTrust::text() const
{
    if (absolute || !prefer)
        return reason;
    return reason + "; prefer " + *prefer;
}

std::string CounterTrust::shortText() const
{
    if (absolute)
        return "absolute";
    return prefer ? "relative only, prefer " + *prefer : "relative only";
}

std::string counterDevice(const std::string& spec)
{
    // nvml:N and nvml-power:N read GPU N ("nvml" and "nvml-power" alone: GPU 0).
    for (const char* p : {"nvml-power", "nvml"}) {
        if (spec == p)
            return "gpu 0";
        if (startsWith(spec, p) && spec.size() > std::string(p).size() + 1 && spec[std::string(p).size()] == ':')
            return "gpu " + spec.substr(std::string(p).size() + 1);
    }
    if (spec == "rapl" || startsWith(spec, "rapl:"))
        return "cpu";
    return spec;
}

CounterTrust counterTrust(const std::string& spec, CounterKind kind, double averaging_window_ms,
                          const std::vector<std::string>& others)
{
    CounterTrust t;
    t.spec = spec;
    t.kind = kind;
    const double window = averaging_window_ms > 0 ? averaging_window_ms : defaultProfile(kind).averaging_window_ms;
    switch (kind) {
    case CounterKind::Rapl:
    case CounterKind::HwmonEnergy:
    case CounterKind::IOReportEnergy:
    case CounterKind::NvmlEnergy:
        t.absolute = true;
        t.reason = "energy register: its marginal energy is the device's, in absolute terms";
        break;
    case CounterKind::IOReportGpu:
        t.absolute = true;
        t.reason = "energy register (the GPU's, shared by GPU time): absolute marginal energy";
        break;
    case CounterKind::Sim:
        t.absolute = true;
        t.reason = "simulated counter: exact by construction, no device's energy";
        break;
    case CounterKind::HwmonPower:
    case CounterKind::NvmlPowerAverage:
        t.reason = window > 0 ? "averaged power reading (" + windowText(window) +
                                    " window): marginal energy under-counted, good for relative comparisons only"
                              : "power reading integrated between reads: marginal energy approximate, good for "
                                "relative comparisons only";
        break;
    case CounterKind::NvmlPowerInstant:
        t.reason = "instantaneous power reading integrated between reads: marginal energy approximate "
                   "(what falls between reads is missed), good for relative comparisons only";
        break;
    case CounterKind::Task:
        t.reason = "CPU time, not energy";
        break;
    case CounterKind::Unknown:
        t.reason = "unknown counter kind: nothing says its marginal energy is absolute";
        break;
    }
    if (!t.absolute) {
        const std::string device = counterDevice(spec);
        for (const std::string& o : others)
            if (o != spec && counterDevice(o) == device && energyKind(counterKindOfSpec(o))) {
                t.prefer = o;
                break;
            }
    }
    return t;
}

CounterTrust counterTrust(const std::string& spec, const std::vector<std::string>& others)
{
    return counterTrust(spec, kindOfSpecAlone(spec), 0, others);
}

CounterTrust counterTrust(const Record& r, const std::string& spec)
{
    nlohmann::ordered_json info;
    for (const auto& [s, j] : r.counter_info)
        if (s == spec)
            info = j;
    const std::optional<CounterProfile> profile = profileOf(r, spec);
    CounterKind kind = counterKindOf(spec, info);
    if (!info.is_object()) {
        // No counter_info: the record's profile names the kind, else the spec alone decides.
        kind = profile && profile->kind != CounterKind::Unknown ? profile->kind : kindOfSpecAlone(spec);
    }
    return counterTrust(spec, kind, profile ? profile->averaging_window_ms : 0.0, r.counters);
}

std::optional<TrustChoice> preferredCounter(const CounterTrust& a, const CounterTrust& b)
{
    if (a.absolute == b.absolute || counterDevice(a.spec) != counterDevice(b.spec))
        return std::nullopt;
    const CounterTrust& good = a.absolute ? a : b;
    const CounterTrust& poor = a.absolute ? b : a;
    return TrustChoice{good.spec, "trust " + good.spec + " (" + good.reason + "); " + poor.spec + ": " +
                                      poor.reason};
}

std::string counterTrustRuleText()
{
    return "An energy register (rapl, nvml:N, hwmon and ioreport energy channels) counts the energy "
           "spent in the busy window: its marginal energy is absolute. A power reading integrated "
           "between reads (nvml-power:N, hwmon power channels) is good for relative comparisons on "
           "that counter only: an averaged reading moves part of the busy window's energy past "
           "its end (under-counted), an instantaneous one misses what falls between reads. Where a "
           "record has both for one device, trust the energy register.";
}

}  // namespace jb
