// The IOReport `Energy Model` subscription, loaded at run time with dlopen as the reference
// loads it (libIOReport is a private library without headers), so nothing links against
// private frameworks and the glue compiles on every platform: the library paths are
// parameters (AppleLibraries), macOS's system paths by default, stand-ins in the tests. Only
// plain C types cross the boundary. Ownership follows CoreFoundation's rules: what a Create or
// Copy call returns is released exactly once; what a Get call returns is borrowed.
#include <jb/counters/IOReportGpu.h>

#include <jb/base/Clock.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
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

    // Every channel's raw value in one sample (what IOReportSimpleGetIntegerValue gives for the
    // sample itself, not a delta): a frozen channel keeps its value, a dead one reads 0.
    std::vector<ChannelDelta> values(CFRef sample)
    {
        std::vector<ChannelDelta> out;
        CFRef arr = sample ? api_.CFDictionaryGetValue(sample, key_) : nullptr;
        const CFIndex n = arr ? api_.CFArrayGetCount(arr) : 0;
        for (CFIndex i = 0; i < n; ++i)
            if (CFRef ch = api_.CFArrayGetValueAtIndex(arr, i))
                out.push_back({str(api_.IOReportChannelGetChannelName(ch)),
                               str(api_.IOReportChannelGetUnitLabel(ch)),
                               api_.IOReportSimpleGetIntegerValue(ch, 0)});
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

std::string publishedTwice(const std::string& channel, int copies)
{
    return "IOReport's 'Energy Model' group publishes '" + channel + "' " + std::to_string(copies) +
        " times with nothing to tell the copies apart (as an M1 Ultra's DTL channels); JouleBench reads "
        "no channel whose name is published more than once rather than add the copies together";
}

// The named channel's advance in nJ among the deltas; the error names a missing channel, an
// unknown unit, or a name published more than once (never added together).
Result<double> channelNj(const std::vector<ChannelDelta>& deltas, const std::string& channel)
{
    double total = 0;
    int found = 0;
    for (const ChannelDelta& d : deltas) {
        if (d.name != channel)
            continue;
        auto factor = ioreportUnitToNj(d.unit);
        if (!factor)
            return Error{"IOReport's 'Energy Model' channel '" + channel + "': " + factor.error()};
        ++found;
        total = double(d.value) * *factor;
    }
    if (found == 0)
        return Error{"IOReport's 'Energy Model' group has no '" + channel + "' channel on this Mac"};
    if (found > 1)
        return Error{publishedTwice(channel, found)};
    return total;
}

bool isDieCpuTotal(const std::string& name)
{
    const IOReportChannelRole r = ioreportChannelRole(name);
    return r.role == IOReportRole::CpuTotal && !r.die.empty();
}

// The channels ioreport:cpu adds up on this machine: CPU Energy, else every DIE_<n>_CPU Energy.
Result<std::vector<std::string>> cpuTotalChannels(const std::vector<ChannelDelta>& deltas)
{
    std::vector<std::string> dies;
    for (const ChannelDelta& d : deltas) {
        if (d.name == "CPU Energy")
            return std::vector<std::string>{"CPU Energy"};
        if (isDieCpuTotal(d.name) && std::find(dies.begin(), dies.end(), d.name) == dies.end())
            dies.push_back(d.name);
    }
    if (dies.empty())
        return Error{"IOReport's 'Energy Model' group has neither a 'CPU Energy' channel nor a "
                     "'DIE_<n>_CPU Energy' channel per die on this Mac, so there is no CPU total to read"};
    std::sort(dies.begin(), dies.end());
    return dies;
}

// How a counter's channels have published over its reads, for counter_info: every read, every
// so often (a coarse channel), or never (frozen at a value, or stuck at 0).
struct Publication {
    std::int64_t reads = 0;     // reads since the counter opened
    std::int64_t advances = 0;  // reads whose delta was not zero
    std::vector<std::int64_t> advance_ns;
    std::int64_t raw_value = 0;  // the channels' raw value in the latest sample (summed)

    void note(double delta_nj, std::int64_t raw)
    {
        ++reads;
        raw_value = raw;
        if (delta_nj != 0) {
            ++advances;
            if (advance_ns.size() < 100000)
                advance_ns.push_back(monotonicNs());
        }
    }
    std::optional<double> medianGapMs() const
    {
        if (advance_ns.size() < 2)
            return std::nullopt;
        std::vector<double> g;
        for (std::size_t i = 1; i < advance_ns.size(); ++i)
            g.push_back(double(advance_ns[i] - advance_ns[i - 1]) / 1e6);
        std::nth_element(g.begin(), g.begin() + std::ptrdiff_t(g.size() / 2), g.end());
        return g[g.size() / 2];
    }
    // "every-read", "periodic", "frozen", "zero" or "too-few-reads".
    std::string state() const
    {
        if (reads < 3)
            return "too-few-reads";
        if (advances == 0)
            return raw_value == 0 ? "zero" : "frozen";
        return advances * 10 >= reads * 9 ? "every-read" : "periodic";
    }
    nlohmann::ordered_json json(const std::string& what) const
    {
        nlohmann::ordered_json j;
        const std::string st = state();
        j["state"] = st;
        j["reads"] = reads;
        j["advances"] = advances;
        const auto gap = medianGapMs();
        j["median_advance_gap_ms"] = gap ? nlohmann::ordered_json(*gap) : nlohmann::ordered_json(nullptr);
        j["raw_value"] = raw_value;
        std::string note;
        if (st == "zero")
            note = what +
                " read 0 at every read and never advanced: the channel is published but dead "
                "(macOS 27 betas' CPU Energy does this); its energy is missing";
        else if (st == "frozen")
            note = what + " never advanced in " + std::to_string(reads) + " reads: frozen at " +
                std::to_string(raw_value) +
                " (a power manager that publishes rarely, e.g. every 30 minutes "
                "on a headless M5 Ultra); its energy is missing";
        else if (st == "periodic")
            note = what + " advanced at " + std::to_string(advances) + " of " + std::to_string(reads) +
                " reads" +
                (gap ? ", about every " + std::to_string(std::llround(*gap)) + " ms" : std::string()) +
                ": it publishes coarser than the sampling period";
        else if (st == "every-read")
            note = what + " advanced at " + std::to_string(advances) + " of " + std::to_string(reads) +
                " reads";
        j["note"] = note.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(note);
        return j;
    }
};

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
        notePublication(*d, cur);
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
        std::string joined;
        for (const std::string& c : channels_)
            joined += (joined.empty() ? "" : " + ") + c;
        j["channel"] = joined;
        if (channel_ == "cpu") {
            j["total"] = channels_.size() == 1
                ? "the chip's CPU Energy channel"
                : "the sum of the dies' CPU Energy channels (no plain CPU Energy)";
            j["parts"] = channels_;
        }
        std::lock_guard g(pub_mutex_);
        j["unit"] = unit_label_;
        j["publication"] = publication_.json("'" + joined + "'");
        return j;
    }

private:
    IOReportCounter(std::string spec, std::string channel, std::unique_ptr<Subscription> sub)
        : spec_(std::move(spec)), channel_(std::move(channel)), channels_{channel_}, sub_(std::move(sub))
    {
    }

    // A first sample, and a second one that proves the channels are there with a known unit
    // (and, for ioreport:cpu, finds which channels make the CPU total on this chip).
    Status start()
    {
        prev_ = sub_->sample();
        if (!prev_)
            return Error{"IOReportCreateSamples returned no sample"};
        CFRef probe = sub_->sample();
        if (!probe)
            return Error{"IOReportCreateSamples returned no sample"};
        if (channel_ == "cpu") {
            auto d = sub_->deltas(prev_, probe);
            auto parts = d ? cpuTotalChannels(*d) : Result<std::vector<std::string>>(Error{d.error()});
            if (!parts) {
                sub_->release(probe);
                return Error{parts.error()};
            }
            channels_ = *parts;
        }
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
        double sum = 0;
        std::string units;
        for (const std::string& channel : channels_) {
            for (const ChannelDelta& c : *d)
                if (c.name == channel && units.find(c.unit) == std::string::npos)
                    units += (units.empty() ? "" : ", ") + c.unit;
            auto nj = channelNj(*d, channel);
            if (!nj)
                return Error{nj.error()};
            sum += *nj;
        }
        std::lock_guard g(pub_mutex_);
        unit_label_ = units;
        return sum;
    }

    void notePublication(double delta_nj, CFRef sample)
    {
        std::int64_t raw = 0;
        for (const ChannelDelta& v : sub_->values(sample))
            if (std::find(channels_.begin(), channels_.end(), v.name) != channels_.end())
                raw += v.value;
        std::lock_guard g(pub_mutex_);
        publication_.note(delta_nj, raw);
    }

    std::string spec_;
    std::string channel_;                // the spec's channel ("cpu" for ioreport:cpu)
    std::vector<std::string> channels_;  // the channels read and added (CPU total: one per die)
    std::unique_ptr<Subscription> sub_;
    mutable std::mutex pub_mutex_;  // guards publication_ and unit_label_: readNj (sampler
                                    // thread) writes them, info() reads them
    Publication publication_;
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
        if (c.name.empty())
            continue;
        auto seen = std::find_if(out.begin(), out.end(),
                                 [&](const IOReportChannel& o) { return o.name == c.name; });
        if (seen != out.end())
            ++seen->copies;
        else
            out.push_back({c.name, c.unit, 1});
    }
    return out;
}

std::vector<CounterStatus> ioreportStatuses(const AppleLibraries& libs)
{
    std::vector<CounterStatus> list;
    CounterStatus gpu{"ioreport-gpu", true, false, {}, kGpuDescription};
    CounterStatus cpu{
        kIOReportCpuSpec, true, false, {}, "Apple CPU energy, the whole CPU (IOReport Energy Model)"};
    auto chans = ioreportEnergyChannels(libs);
    if (!chans) {
        const bool none = libs.corefoundation.empty() || libs.ioreport.empty();
        gpu.reason = none ? ioreportNeedsMac("ioreport-gpu") : chans.error();
        cpu.reason = none ? ioreportNeedsMac(kIOReportCpuSpec) : chans.error();
        list.push_back(gpu);
        list.push_back(cpu);
        return list;
    }
    gpu.reason = "IOReport's 'Energy Model' group has no 'GPU Energy' channel on this Mac";
    list.push_back(gpu);
    // The CPU total: CPU Energy, else the dies' totals added.
    {
        std::vector<ChannelDelta> names;
        for (const IOReportChannel& c : *chans)
            names.push_back({c.name, c.unit, 0});
        auto parts = cpuTotalChannels(names);
        if (parts) {
            std::string joined;
            for (const std::string& p : *parts)
                joined += (joined.empty() ? "'" : "' + '") + p;
            cpu.description += parts->size() == 1 ? ": " + joined + "'" : ": the sum of " + joined + "'";
            cpu.available = true;
            for (const std::string& p : *parts)
                for (const IOReportChannel& c : *chans)
                    if (c.name == p && (!ioreportUnitToNj(c.unit) || c.copies > 1)) {
                        cpu.available = false;
                        cpu.reason = c.copies > 1 ? publishedTwice(p, c.copies)
                                                  : "IOReport's 'Energy Model' channel '" + p +
                                "': " + ioreportUnitToNj(c.unit).error();
                    }
        } else {
            cpu.reason = parts.error();
        }
    }
    list.push_back(cpu);
    for (const IOReportChannel& c : *chans) {
        CounterStatus s{"ioreport:" + c.name, true, false, {},
                        "Apple IOReport Energy Model channel '" + c.name + "' (" + c.unit + ")"};
        if (auto f = ioreportUnitToNj(c.unit); !f)
            s.reason = "IOReport's 'Energy Model' channel '" + c.name + "': " + f.error();
        else if (c.copies > 1)
            s.reason = publishedTwice(c.name, c.copies);
        else
            s.available = true;
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
