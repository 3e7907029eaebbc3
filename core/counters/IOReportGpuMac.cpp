// The IOReport `Energy Model` subscription, loaded at run time with dlopen as the reference
// loads it (libIOReport is a private library without headers), so nothing links against
// private frameworks and the glue compiles on every platform: the library paths are
// parameters (AppleLibraries), macOS's system paths by default, stand-ins in the tests. Only
// plain C types cross the boundary. Ownership follows CoreFoundation's rules: what a Create or
// Copy call returns is released exactly once; what a Get call returns is borrowed.
#include <jb/counters/IOReportGpu.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <utility>

namespace jb {

namespace {

using CFRef = const void*;
using CFIndex = long;
constexpr std::uint32_t kUtf8 = 0x08000100;  // kCFStringEncodingUTF8
constexpr const char* kGroup = "Energy Model";

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
Status bind(void* lib, const std::string& path, const char* name, F& f)
{
    void* p = dlsym(lib, name);
    if (!p)
        return Error{path + " has no " + name + " (not the library IOReport needs?)"};
    f = reinterpret_cast<F>(p);
    return Ok{};
}

// The handles stay loaded for the life of the process, as the reference's CDLL objects.
Result<Api> loadApi(const AppleLibraries& libs)
{
    void* cf = dlopen(libs.corefoundation.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!cf)
        return Error{"cannot load CoreFoundation (" + libs.corefoundation + "): " + dlerrorText()};
    void* io = dlopen(libs.ioreport.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!io)
        return Error{"cannot load libIOReport (" + libs.ioreport + "): " + dlerrorText()};
    const std::string& c = libs.corefoundation;
    const std::string& i = libs.ioreport;
    Api a;
    for (const Status& s :
         {bind(cf, c, "CFStringCreateWithCString", a.CFStringCreateWithCString),
          bind(cf, c, "CFDictionaryGetCount", a.CFDictionaryGetCount),
          bind(cf, c, "CFDictionaryCreateMutableCopy", a.CFDictionaryCreateMutableCopy),
          bind(cf, c, "CFDictionaryGetValue", a.CFDictionaryGetValue),
          bind(cf, c, "CFArrayGetCount", a.CFArrayGetCount),
          bind(cf, c, "CFArrayGetValueAtIndex", a.CFArrayGetValueAtIndex),
          bind(cf, c, "CFStringGetCString", a.CFStringGetCString),
          bind(cf, c, "CFRelease", a.CFRelease),
          bind(io, i, "IOReportCopyChannelsInGroup", a.IOReportCopyChannelsInGroup),
          bind(io, i, "IOReportCreateSubscription", a.IOReportCreateSubscription),
          bind(io, i, "IOReportCreateSamples", a.IOReportCreateSamples),
          bind(io, i, "IOReportCreateSamplesDelta", a.IOReportCreateSamplesDelta),
          bind(io, i, "IOReportChannelGetChannelName", a.IOReportChannelGetChannelName),
          bind(io, i, "IOReportChannelGetUnitLabel", a.IOReportChannelGetUnitLabel),
          bind(io, i, "IOReportSimpleGetIntegerValue", a.IOReportSimpleGetIntegerValue)})
        if (!s)
            return Error{s.error()};
    return a;
}

// One channel's advance between two samples, in its own unit.
struct ChannelDelta {
    std::string name;
    std::string unit;
    std::int64_t value = 0;
};

// A subscription to the whole Energy Model group; owns every CF object it created.
class Subscription {
public:
    static Result<std::unique_ptr<Subscription>> open(const AppleLibraries& libs)
    {
        auto api = loadApi(libs);
        if (!api)
            return Error{api.error()};
        std::unique_ptr<Subscription> s(new Subscription(*api));
        if (auto st = s->subscribe(); !st)
            return Error{st.error()};
        return s;
    }

    ~Subscription()
    {
        for (CFRef r : {key_, CFRef(subbed_), CFRef(sub_), CFRef(chan_)})
            if (r)
                api_.CFRelease(r);
    }
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;

    // A new sample (owned by the caller: release it), or nullptr.
    CFRef sample() { return api_.IOReportCreateSamples(sub_, chan_, nullptr); }
    void release(CFRef r) { if (r) api_.CFRelease(r); }

    // Every channel's advance from sample a to sample b.
    Result<std::vector<ChannelDelta>> deltas(CFRef a, CFRef b)
    {
        CFRef delta = api_.IOReportCreateSamplesDelta(a, b, nullptr);
        if (!delta)
            return Error{"IOReportCreateSamplesDelta returned nothing"};
        std::vector<ChannelDelta> out;
        CFRef arr = api_.CFDictionaryGetValue(delta, key_);
        const CFIndex n = arr ? api_.CFArrayGetCount(arr) : 0;
        for (CFIndex i = 0; i < n; ++i) {
            CFRef ch = api_.CFArrayGetValueAtIndex(arr, i);
            if (!ch)
                continue;
            out.push_back({str(api_.IOReportChannelGetChannelName(ch)), str(api_.IOReportChannelGetUnitLabel(ch)),
                           api_.IOReportSimpleGetIntegerValue(ch, 0)});
        }
        api_.CFRelease(delta);
        return out;
    }

    // Two samples' deltas: the channels the machine reports right now.
    Result<std::vector<ChannelDelta>> probe()
    {
        CFRef a = sample();
        if (!a)
            return Error{"IOReportCreateSamples returned no sample"};
        CFRef b = sample();
        if (!b) {
            release(a);
            return Error{"IOReportCreateSamples returned no sample"};
        }
        auto d = deltas(a, b);
        release(a);
        release(b);
        return d;
    }

private:
    explicit Subscription(const Api& api) : api_(api) {}

    std::string str(CFRef s) const
    {
        char b[256] = {};
        return s && api_.CFStringGetCString(s, b, sizeof b, kUtf8) ? std::string(b) : std::string();
    }

    Status subscribe()
    {
        CFRef group = api_.CFStringCreateWithCString(nullptr, kGroup, kUtf8);
        void* chans = api_.IOReportCopyChannelsInGroup(group, nullptr, 0, 0, 0);
        api_.CFRelease(group);
        if (!chans)
            return Error{"IOReport has no 'Energy Model' channel group on this Mac"};
        chan_ = api_.CFDictionaryCreateMutableCopy(nullptr, api_.CFDictionaryGetCount(chans), chans);
        api_.CFRelease(chans);
        if (!chan_)
            return Error{"CFDictionaryCreateMutableCopy of the 'Energy Model' channels failed"};
        sub_ = api_.IOReportCreateSubscription(nullptr, chan_, &subbed_, 0, nullptr);
        if (!sub_)
            return Error{"IOReportCreateSubscription to the 'Energy Model' group failed"};
        key_ = api_.CFStringCreateWithCString(nullptr, "IOReportChannels", kUtf8);
        return Ok{};
    }

    Api api_;
    void* chan_ = nullptr;
    void* sub_ = nullptr;
    void* subbed_ = nullptr;
    CFRef key_ = nullptr;
};

// The named channel's advance in nJ among the deltas; the error names a missing channel or
// an unknown unit.
Result<double> channelNj(const std::vector<ChannelDelta>& deltas, const std::string& channel)
{
    double total = 0;
    bool found = false;
    for (const ChannelDelta& d : deltas) {
        if (d.name != channel)
            continue;
        auto factor = ioreportUnitToNj(d.unit);
        if (!factor)
            return Error{"IOReport's 'Energy Model' channel '" + channel + "': " + factor.error()};
        found = true;
        total += double(d.value) * *factor;
    }
    if (!found)
        return Error{"IOReport's 'Energy Model' group has no '" + channel + "' channel on this Mac"};
    return total;
}

class IOReportCounter final : public EnergyCounter {
public:
    static Result<std::unique_ptr<EnergyCounter>> open(const std::string& spec, const AppleLibraries& libs)
    {
        const auto channel = ioreportChannelOf(spec);
        if (!channel)
            return Error{"not an IOReport counter: " + spec};
        if (libs.corefoundation.empty() || libs.ioreport.empty())
            return Error{ioreportNeedsMac(spec)};
        auto sub = Subscription::open(libs);
        if (!sub)
            return Error{sub.error()};
        std::unique_ptr<IOReportCounter> c(new IOReportCounter(spec, *channel, std::move(sub.value())));
        if (auto st = c->start(); !st)
            return Error{st.error()};
        return std::unique_ptr<EnergyCounter>(std::move(c));
    }

    ~IOReportCounter() override { sub_->release(prev_); }

    std::string spec() const override { return spec_; }

    Result<std::int64_t> readNj() override
    {
        CFRef cur = sub_->sample();
        if (!cur)
            return Error{"IOReportCreateSamples returned no sample"};
        auto d = advanceNj(prev_, cur);
        if (!d) {
            sub_->release(cur);
            return Error{d.error()};
        }
        sub_->release(prev_);
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
        j["kind"] = spec_ == "ioreport-gpu" ? "ioreport-gpu" : "ioreport";
        j["group"] = kGroup;
        j["channel"] = channel_;
        j["unit"] = unit_label_;
        return j;
    }

private:
    IOReportCounter(std::string spec, std::string channel, std::unique_ptr<Subscription> sub)
        : spec_(std::move(spec)), channel_(std::move(channel)), sub_(std::move(sub))
    {
    }

    // A first sample, and a second one that proves the channel is there with a known unit.
    Status start()
    {
        prev_ = sub_->sample();
        if (!prev_)
            return Error{"IOReportCreateSamples returned no sample"};
        CFRef probe = sub_->sample();
        if (!probe)
            return Error{"IOReportCreateSamples returned no sample"};
        auto d = advanceNj(prev_, probe);
        sub_->release(probe);
        if (!d)
            return Error{d.error()};
        return Ok{};
    }

    Result<double> advanceNj(CFRef a, CFRef b)
    {
        auto d = sub_->deltas(a, b);
        if (!d)
            return Error{d.error()};
        for (const ChannelDelta& c : *d)
            if (c.name == channel_)
                unit_label_ = c.unit;
        return channelNj(*d, channel_);
    }

    std::string spec_;
    std::string channel_;
    std::unique_ptr<Subscription> sub_;
    CFRef prev_ = nullptr;
    std::string unit_label_;
    std::int64_t total_nj_ = 0;
    double carry_nj_ = 0;
};

const char* kGpuDescription = "Apple GPU energy, the whole GPU (IOReport Energy Model)";

}  // namespace

Result<std::vector<IOReportChannel>> ioreportEnergyChannels(const AppleLibraries& libs)
{
    if (libs.corefoundation.empty() || libs.ioreport.empty())
        return Error{ioreportNeedsMac("ioreport")};
    auto sub = Subscription::open(libs);
    if (!sub)
        return Error{sub.error()};
    auto d = sub.value()->probe();
    if (!d)
        return Error{d.error()};
    std::vector<IOReportChannel> out;
    for (const ChannelDelta& c : *d) {
        bool seen = false;
        for (const IOReportChannel& o : out)
            seen = seen || o.name == c.name;
        if (!seen && !c.name.empty())
            out.push_back({c.name, c.unit});
    }
    return out;
}

std::vector<CounterStatus> ioreportStatuses(const AppleLibraries& libs)
{
    std::vector<CounterStatus> list;
    CounterStatus gpu{"ioreport-gpu", true, false, {}, kGpuDescription};
    auto chans = ioreportEnergyChannels(libs);
    if (!chans) {
        gpu.reason = libs.corefoundation.empty() || libs.ioreport.empty() ? ioreportNeedsMac("ioreport-gpu")
                                                                          : chans.error();
        list.push_back(gpu);
        return list;
    }
    gpu.reason = "IOReport's 'Energy Model' group has no 'GPU Energy' channel on this Mac";
    list.push_back(gpu);
    for (const IOReportChannel& c : *chans) {
        CounterStatus s{"ioreport:" + c.name, true, false, {},
                        "Apple IOReport Energy Model channel '" + c.name + "' (" + c.unit + ")"};
        if (auto f = ioreportUnitToNj(c.unit); f)
            s.available = true;
        else
            s.reason = "IOReport's 'Energy Model' channel '" + c.name + "': " + f.error();
        if (c.name == "GPU Energy") {
            list.front().available = s.available;
            list.front().reason = s.reason;
        }
        list.push_back(std::move(s));
    }
    return list;
}

CounterStatus ioreportGpuStatus(const AppleLibraries& libs)
{
    CounterStatus s{"ioreport-gpu", true, false, {}, kGpuDescription};
    auto c = IOReportCounter::open("ioreport-gpu", libs);
    s.available = c.ok();
    if (!c)
        s.reason = c.error();
    return s;
}

Result<std::unique_ptr<EnergyCounter>> openIOReportCounter(const std::string& spec, const AppleLibraries& libs)
{
    return IOReportCounter::open(spec, libs);
}

Result<std::unique_ptr<EnergyCounter>> openIOReportGpuCounter(const AppleLibraries& libs)
{
    return IOReportCounter::open("ioreport-gpu", libs);
}

}  // namespace jb
