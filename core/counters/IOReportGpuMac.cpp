// macOS: the IOReport `Energy Model` subscription, loaded at run time with dlopen as the
// reference loads it (libIOReport is a private library without headers), so nothing links
// against private frameworks. Only plain C types cross the boundary.
#include "counters/IOReportGpu.h"

#include <QtGlobal>

#ifdef Q_OS_MACOS

#include <dlfcn.h>

#include <cmath>
#include <cstdint>

namespace jb {

namespace {

using CFRef = const void*;
using CFIndex = long;
constexpr std::uint32_t kUtf8 = 0x08000100;  // kCFStringEncodingUTF8

constexpr const char* kCoreFoundation = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation";
constexpr const char* kIOReport = "/usr/lib/libIOReport.dylib";

struct Api {
    CFRef (*CFStringCreateWithCString)(CFRef, const char*, std::uint32_t) = nullptr;
    CFIndex (*CFDictionaryGetCount)(CFRef) = nullptr;
    void* (*CFDictionaryCreateMutableCopy)(CFRef, CFIndex, CFRef) = nullptr;
    CFRef (*CFDictionaryGetValue)(CFRef, CFRef) = nullptr;
    CFIndex (*CFArrayGetCount)(CFRef) = nullptr;
    CFRef (*CFArrayGetValueAtIndex)(CFRef, CFIndex) = nullptr;
    unsigned char (*CFStringGetCString)(CFRef, char*, CFIndex, std::uint32_t) = nullptr;
    void (*CFRelease)(CFRef) = nullptr;
    void* (*IOReportCopyChannelsInGroup)(CFRef, CFRef, std::uint64_t, std::uint64_t, std::uint64_t) = nullptr;
    void* (*IOReportCreateSubscription)(CFRef, void*, void**, std::uint64_t, CFRef) = nullptr;
    CFRef (*IOReportCreateSamples)(void*, void*, CFRef) = nullptr;
    CFRef (*IOReportCreateSamplesDelta)(CFRef, CFRef, CFRef) = nullptr;
    CFRef (*IOReportChannelGetChannelName)(CFRef) = nullptr;
    CFRef (*IOReportChannelGetUnitLabel)(CFRef) = nullptr;
    std::int64_t (*IOReportSimpleGetIntegerValue)(CFRef, std::int32_t) = nullptr;
};

template <class F>
Status bind(void* lib, const char* libName, const char* name, F& f)
{
    void* p = dlsym(lib, name);
    if (!p)
        return Error{std::string(libName) + " has no " + name};
    f = reinterpret_cast<F>(p);
    return Ok{};
}

Result<Api> loadApi()
{
    void* cf = dlopen(kCoreFoundation, RTLD_NOW | RTLD_LOCAL);
    if (!cf)
        return Error{std::string("cannot load CoreFoundation: ") + dlerror()};
    void* io = dlopen(kIOReport, RTLD_NOW | RTLD_LOCAL);
    if (!io)
        return Error{std::string("cannot load ") + kIOReport + ": " + dlerror()};
    Api a;
    for (const Status& s :
         {bind(cf, "CoreFoundation", "CFStringCreateWithCString", a.CFStringCreateWithCString),
          bind(cf, "CoreFoundation", "CFDictionaryGetCount", a.CFDictionaryGetCount),
          bind(cf, "CoreFoundation", "CFDictionaryCreateMutableCopy", a.CFDictionaryCreateMutableCopy),
          bind(cf, "CoreFoundation", "CFDictionaryGetValue", a.CFDictionaryGetValue),
          bind(cf, "CoreFoundation", "CFArrayGetCount", a.CFArrayGetCount),
          bind(cf, "CoreFoundation", "CFArrayGetValueAtIndex", a.CFArrayGetValueAtIndex),
          bind(cf, "CoreFoundation", "CFStringGetCString", a.CFStringGetCString),
          bind(cf, "CoreFoundation", "CFRelease", a.CFRelease),
          bind(io, kIOReport, "IOReportCopyChannelsInGroup", a.IOReportCopyChannelsInGroup),
          bind(io, kIOReport, "IOReportCreateSubscription", a.IOReportCreateSubscription),
          bind(io, kIOReport, "IOReportCreateSamples", a.IOReportCreateSamples),
          bind(io, kIOReport, "IOReportCreateSamplesDelta", a.IOReportCreateSamplesDelta),
          bind(io, kIOReport, "IOReportChannelGetChannelName", a.IOReportChannelGetChannelName),
          bind(io, kIOReport, "IOReportChannelGetUnitLabel", a.IOReportChannelGetUnitLabel),
          bind(io, kIOReport, "IOReportSimpleGetIntegerValue", a.IOReportSimpleGetIntegerValue)})
        if (!s)
            return Error{s.error()};
    return a;
}

class IOReportGpuCounter final : public EnergyCounter {
public:
    static Result<std::unique_ptr<EnergyCounter>> open()
    {
        auto api = loadApi();
        if (!api)
            return Error{api.error()};
        std::unique_ptr<IOReportGpuCounter> c(new IOReportGpuCounter(*api));
        if (auto st = c->subscribe(); !st)
            return Error{st.error()};
        return std::unique_ptr<EnergyCounter>(std::move(c));
    }

    ~IOReportGpuCounter() override
    {
        for (CFRef r : {prev_, key_, CFRef(subbed_), CFRef(sub_), CFRef(chan_)})
            if (r)
                api_.CFRelease(r);
    }

    std::string spec() const override { return "ioreport-gpu"; }

    Result<std::int64_t> readNj() override
    {
        CFRef cur = api_.IOReportCreateSamples(sub_, chan_, nullptr);
        if (!cur)
            return Error{"IOReportCreateSamples returned no sample"};
        auto d = gpuEnergyNj(prev_, cur);
        if (!d) {
            api_.CFRelease(cur);
            return Error{d.error()};
        }
        api_.CFRelease(prev_);
        prev_ = cur;
        const double add = *d + carry_nj_;
        const double whole = std::floor(add);
        total_nj_ += std::int64_t(whole);
        carry_nj_ = add - whole;
        return total_nj_;
    }

    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j;
        j["kind"] = "ioreport-gpu";
        j["group"] = "Energy Model";
        j["channel"] = "GPU Energy";
        j["unit"] = unit_label_;
        return j;
    }

private:
    explicit IOReportGpuCounter(const Api& api) : api_(api) {}

    std::string str(CFRef s) const
    {
        char b[256] = {};
        return s && api_.CFStringGetCString(s, b, sizeof b, kUtf8) ? std::string(b) : std::string();
    }

    Status subscribe()
    {
        CFRef group = api_.CFStringCreateWithCString(nullptr, "Energy Model", kUtf8);
        void* chans = api_.IOReportCopyChannelsInGroup(group, nullptr, 0, 0, 0);
        api_.CFRelease(group);
        if (!chans)
            return Error{"IOReport has no 'Energy Model' channel group on this Mac"};
        chan_ = api_.CFDictionaryCreateMutableCopy(nullptr, api_.CFDictionaryGetCount(chans), chans);
        api_.CFRelease(chans);
        sub_ = api_.IOReportCreateSubscription(nullptr, chan_, &subbed_, 0, nullptr);
        if (!sub_)
            return Error{"IOReportCreateSubscription to the 'Energy Model' group failed"};
        key_ = api_.CFStringCreateWithCString(nullptr, "IOReportChannels", kUtf8);
        prev_ = api_.IOReportCreateSamples(sub_, chan_, nullptr);
        if (!prev_)
            return Error{"IOReportCreateSamples returned no sample"};
        // A second sample proves the GPU Energy channel is there and its unit is known.
        CFRef probe = api_.IOReportCreateSamples(sub_, chan_, nullptr);
        if (!probe)
            return Error{"IOReportCreateSamples returned no sample"};
        auto d = gpuEnergyNj(prev_, probe);
        api_.CFRelease(probe);
        if (!d)
            return Error{d.error()};
        return Ok{};
    }

    // The GPU Energy channel's advance from sample a to sample b, in nJ.
    Result<double> gpuEnergyNj(CFRef a, CFRef b)
    {
        CFRef delta = api_.IOReportCreateSamplesDelta(a, b, nullptr);
        if (!delta)
            return Error{"IOReportCreateSamplesDelta returned nothing"};
        CFRef arr = api_.CFDictionaryGetValue(delta, key_);
        double total = 0;
        bool found = false;
        const CFIndex n = arr ? api_.CFArrayGetCount(arr) : 0;
        for (CFIndex i = 0; i < n; ++i) {
            CFRef ch = api_.CFArrayGetValueAtIndex(arr, i);
            if (str(api_.IOReportChannelGetChannelName(ch)) != "GPU Energy")
                continue;
            const std::string label = str(api_.IOReportChannelGetUnitLabel(ch));
            auto factor = ioreportUnitToNj(label);
            if (!factor) {
                api_.CFRelease(delta);
                return Error{factor.error()};
            }
            unit_label_ = label;
            found = true;
            total += double(api_.IOReportSimpleGetIntegerValue(ch, 0)) * *factor;
        }
        api_.CFRelease(delta);
        if (!found)
            return Error{"IOReport's 'Energy Model' group has no 'GPU Energy' channel on this Mac"};
        return total;
    }

    Api api_;
    void* chan_ = nullptr;
    void* sub_ = nullptr;
    void* subbed_ = nullptr;
    CFRef key_ = nullptr;
    CFRef prev_ = nullptr;
    std::string unit_label_;
    std::int64_t total_nj_ = 0;
    double carry_nj_ = 0;
};

}  // namespace

CounterStatus ioreportGpuStatus()
{
    CounterStatus s{
        "ioreport-gpu", true, false, {}, "Apple GPU energy, the whole GPU (IOReport Energy Model)"};
    auto c = IOReportGpuCounter::open();
    s.available = c.ok();
    if (!c)
        s.reason = c.error();
    return s;
}

Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter()
{
    return IOReportGpuCounter::open();
}

}  // namespace jb

#endif  // Q_OS_MACOS
