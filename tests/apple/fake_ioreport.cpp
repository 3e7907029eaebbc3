// A stand-in libIOReport for the macOS glue's tests, built on the fake CoreFoundation. It has
// one group, `Energy Model`, whose channels and power come from the file that the environment
// variable FAKE_IOREPORT_CONFIG names, read when the group is copied:
//   channel UNIT IDLE_W BUSY_W NAME...   a channel counting energy in UNIT (nJ, uJ, mJ or any
//                                        label, to test an unknown one)
//   channels PATH                        every channel of a chip's list (tests/fixtures/apple:
//                                        `UNIT NAME` lines, `#` comments), in its order, duplicate
//                                        names included, at 0 W
//   power IDLE_W BUSY_W NAME...          the power of the channel(s) of that name
//   publish MS NAME...                   the channel publishes its count every MS ms, as a real
//                                        chip's coarse channels (NAME `unit:mJ`: every mJ channel)
//   frozen VALUE NAME...                 the channel reads VALUE and never advances
//   zero NAME...                         the channel reads 0 and never advances
//   flag PATH                            BUSY_W is added while PATH exists (the fake child's flag)
//   nogroup                              the machine has no Energy Model group
// A thread integrates each channel's power every millisecond into whole counts of its unit,
// as the real channels advance, and each sample first books the energy up to its own moment;
// fakeioreport_inject adds an exact energy to a channel. With
// FAKE_IOREPORT_NO_DELTA the library lacks IOReportCreateSamplesDelta (an older system).
#include "FakeCF.h"
#include "../clients/BusyFlag.h"

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Channel {
    std::string name, unit;
    double idle_w = 0, busy_w = 0;
    double per_joule = 1e9;   // counts of the unit per joule
    std::int64_t truth = 0;   // cumulative, in the unit
    std::int64_t count = 0;   // what samples show: truth, as of the last publication
    double carry = 0;         // fraction of a count not yet whole
    int publish_ms = 0;       // 0: publishes at once
    std::int64_t published_ns = 0;
    bool still = false;  // frozen or zero: count never moves
};

struct State {
    std::mutex m;
    std::vector<Channel> channels;
    std::string flag;
    busyflag::Watcher watch;
    std::int64_t last_ns = 0;
    bool group = true;
    std::atomic<bool> stop{false};
    std::thread ticker;

    ~State()
    {
        stop = true;
        if (ticker.joinable())
            ticker.join();
    }
};

State& state()
{
    static State s;
    return s;
}

double countsPerJoule(const std::string& unit)
{
    if (unit == "nJ")
        return 1e9;
    if (unit == "uJ")
        return 1e6;
    if (unit == "mJ")
        return 1e3;
    if (unit == "J")
        return 1;
    return 1e9;  // unknown labels still count; the glue must refuse them
}

void add(Channel& c, double joules)
{
    const double x = joules * c.per_joule + c.carry;
    const double whole = std::floor(x);
    c.truth += std::int64_t(whole);
    c.carry = x - whole;
    if (!c.still && c.publish_ms == 0)
        c.count = c.truth;
}

// A coarse channel shows its count only every publish_ms, on a grid from its first moment.
void publish(Channel& c, std::int64_t now_ns)
{
    if (c.still || c.publish_ms == 0)
        return;
    if (c.published_ns == 0)
        c.published_ns = now_ns;
    const std::int64_t step = std::int64_t(c.publish_ms) * 1000000;
    if (now_ns - c.published_ns >= step) {
        c.published_ns += (now_ns - c.published_ns) / step * step;
        c.count = c.truth;
    }
}

// The channels a config line names: every channel of that name, or `unit:U` every one in U.
template <class F>
void forNamed(std::vector<Channel>& chans, const std::string& name, F f)
{
    for (Channel& c : chans)
        if (c.name == name || (name.rfind("unit:", 0) == 0 && c.unit == name.substr(5)))
            f(c);
}

// (Re)reads the configuration; channels keep their counts when they stay.
void configure()
{
    State& s = state();
    const char* path = std::getenv("FAKE_IOREPORT_CONFIG");
    std::vector<Channel> chans;
    std::string flag;
    bool group = true;
    if (path) {
        std::ifstream in(path);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream ls(line);
            std::string what;
            ls >> what;
            if (what == "channel") {
                Channel c;
                ls >> c.unit >> c.idle_w >> c.busy_w;
                std::getline(ls >> std::ws, c.name);
                c.per_joule = countsPerJoule(c.unit);
                chans.push_back(c);
            } else if (what == "channels") {
                std::string list;
                std::getline(ls >> std::ws, list);
                std::ifstream lf(list);
                std::string l;
                while (std::getline(lf, l)) {
                    if (l.empty() || l[0] == '#')
                        continue;
                    std::istringstream cs(l);
                    Channel c;
                    cs >> c.unit;
                    std::getline(cs >> std::ws, c.name);
                    c.per_joule = countsPerJoule(c.unit);
                    chans.push_back(c);
                }
            } else if (what == "power") {
                double idle = 0, busy = 0;
                std::string name;
                ls >> idle >> busy;
                std::getline(ls >> std::ws, name);
                forNamed(chans, name, [&](Channel& c) {
                    c.idle_w = idle;
                    c.busy_w = busy;
                });
            } else if (what == "publish") {
                int ms = 0;
                std::string name;
                ls >> ms;
                std::getline(ls >> std::ws, name);
                forNamed(chans, name, [&](Channel& c) { c.publish_ms = ms; });
            } else if (what == "frozen" || what == "zero") {
                std::int64_t value = 0;
                if (what == "frozen")
                    ls >> value;
                std::string name;
                std::getline(ls >> std::ws, name);
                forNamed(chans, name, [&](Channel& c) {
                    c.still = true;
                    c.truth = c.count = value;
                });
            } else if (what == "flag") {
                std::getline(ls >> std::ws, flag);
            } else if (what == "nogroup") {
                group = false;
            }
        }
    }
    std::lock_guard g(s.m);
    for (Channel& c : chans)
        for (const Channel& old : s.channels)
            if (old.name == c.name && old.unit == c.unit && !c.still && !old.still) {
                c.truth = old.truth;
                c.count = old.count;
                c.carry = old.carry;
                c.published_ns = c.publish_ms == old.publish_ms ? old.published_ns : 0;
            }
    s.channels = std::move(chans);
    if (flag != s.flag && s.ticker.joinable())
        s.watch = busyflag::Watcher(flag);
    s.flag = std::move(flag);
    s.group = group;
}

// Books every channel's energy up to now (the caller holds s.m): idle power for the whole
// step, busy power for exactly the part of it the fake child's flag was up (BusyFlag.h). The
// ticker calls it every millisecond and each sample calls it before it reads the counts, so a
// sample holds the energy up to the moment it is taken however late the ticker runs.
void advanceLocked(State& s)
{
    const std::int64_t now = busyflag::nowNs();
    if (s.last_ns == 0)
        s.last_ns = now;
    const double dt = double(now - s.last_ns) * 1e-9;
    const busyflag::Watcher::Share share = s.watch.tick(s.last_ns, now);
    s.last_ns = now;
    for (Channel& c : s.channels) {
        add(c, c.idle_w * dt + share.joules([&](double) { return c.busy_w; }));
        publish(c, now);
    }
    s.watch.published();
}

void startTicker()
{
    State& s = state();
    std::lock_guard g(s.m);
    if (s.ticker.joinable())
        return;
    s.watch = busyflag::Watcher(s.flag);  // from now on the fake child waits for these counts
    s.ticker = std::thread([&s] {
        while (!s.stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            std::lock_guard lg(s.m);
            advanceLocked(s);
        }
    });
}

// dict[key] = value, the dict keeping its own references.
void put(const void* dict, const char* key, const void* value)
{
    const void* k = CFStringCreateWithCString(nullptr, key, 0x08000100);
    fakecf_dict_set(dict, k, value);
    CFRelease(k);
    CFRelease(value);
}

const void* str(const std::string& s) { return CFStringCreateWithCString(nullptr, s.c_str(), 0x08000100); }

// {"IOReportChannels": [{"name", "unit"[, "value"]} ...]}: the group's legend, or a sample.
const void* channelsDict(bool with_values)
{
    State& s = state();
    const void* arr = fakecf_array_create();
    {
        std::lock_guard g(s.m);
        if (with_values)
            advanceLocked(s);
        for (const Channel& c : s.channels) {
            const void* ch = fakecf_dict_create();
            put(ch, "IOReportGroupName", str("Energy Model"));
            put(ch, "name", str(c.name));
            put(ch, "unit", str(c.unit));
            if (with_values)
                put(ch, "value", fakecf_number_create(c.count));
            fakecf_array_append(arr, ch);
            CFRelease(ch);
        }
    }
    const void* d = fakecf_dict_create();
    put(d, "IOReportChannels", arr);
    return d;
}

[[maybe_unused]] const void* channelsOf(const void* sample)
{
    return sample && fakecf_is(sample, "dict") ? fakecf_dict_get_cstr(sample, "IOReportChannels") : nullptr;
}

}  // namespace

FAKE_EXPORT void* IOReportCopyChannelsInGroup(const void* group, const void*, std::uint64_t, std::uint64_t,
                                              std::uint64_t)
{
    configure();
    char name[64] = {};
    if (!group || !CFStringGetCString(group, name, sizeof name, 0x08000100) || std::string(name) != "Energy Model")
        return nullptr;
    if (!state().group)
        return nullptr;
    return const_cast<void*>(channelsDict(false));
}

FAKE_EXPORT void* IOReportCreateSubscription(const void*, void* channels, void** subscribed, std::uint64_t,
                                             const void*)
{
    if (!channels || !fakecf_is(channels, "dict"))
        return nullptr;
    if (subscribed)
        *subscribed = CFDictionaryCreateMutableCopy(nullptr, 0, channels);
    startTicker();
    return const_cast<void*>(fakecf_opaque_create("IOReportSubscription"));
}

FAKE_EXPORT const void* IOReportCreateSamples(void* subscription, void* channels, const void*)
{
    if (!subscription || !fakecf_is(subscription, "IOReportSubscription") || !channels ||
        !fakecf_is(channels, "dict"))
        return nullptr;
    return channelsDict(true);
}

#ifndef FAKE_IOREPORT_NO_DELTA
FAKE_EXPORT const void* IOReportCreateSamplesDelta(const void* a, const void* b, const void*)
{
    const void* ca = channelsOf(a);
    const void* cb = channelsOf(b);
    if (!ca || !cb)
        return nullptr;
    // Sample a's values by name, each copy of a name published twice in its order.
    std::map<std::string, std::vector<std::int64_t>> in_a;
    for (long j = 0; j < CFArrayGetCount(ca); ++j) {
        const void* cha = CFArrayGetValueAtIndex(ca, j);
        char name_a[256] = {};
        CFStringGetCString(fakecf_dict_get_cstr(cha, "name"), name_a, sizeof name_a, 0x08000100);
        in_a[name_a].push_back(fakecf_number_value(fakecf_dict_get_cstr(cha, "value")));
    }
    std::map<std::string, std::size_t> seen;
    const void* arr = fakecf_array_create();
    for (long i = 0; i < CFArrayGetCount(cb); ++i) {
        const void* chb = CFArrayGetValueAtIndex(cb, i);
        const void* nb = fakecf_dict_get_cstr(chb, "name");
        char name_b[256] = {};
        CFStringGetCString(nb, name_b, sizeof name_b, 0x08000100);
        std::int64_t before = 0;
        const auto& copies = in_a[name_b];
        if (const std::size_t k = seen[name_b]++; k < copies.size())
            before = copies[k];
        const void* ch = fakecf_dict_create();
        const void* key = str("name");
        fakecf_dict_set(ch, key, nb);
        CFRelease(key);
        put(ch, "unit", str([&] {
                char u[64] = {};
                CFStringGetCString(fakecf_dict_get_cstr(chb, "unit"), u, sizeof u, 0x08000100);
                return std::string(u);
            }()));
        put(ch, "value", fakecf_number_create(fakecf_number_value(fakecf_dict_get_cstr(chb, "value")) - before));
        fakecf_array_append(arr, ch);
        CFRelease(ch);
    }
    const void* d = fakecf_dict_create();
    put(d, "IOReportChannels", arr);
    return d;
}
#endif

FAKE_EXPORT const void* IOReportChannelGetChannelName(const void* ch)
{
    return ch && fakecf_is(ch, "dict") ? fakecf_dict_get_cstr(ch, "name") : nullptr;
}

FAKE_EXPORT const void* IOReportChannelGetUnitLabel(const void* ch)
{
    return ch && fakecf_is(ch, "dict") ? fakecf_dict_get_cstr(ch, "unit") : nullptr;
}

FAKE_EXPORT std::int64_t IOReportSimpleGetIntegerValue(const void* ch, std::int32_t)
{
    return ch && fakecf_is(ch, "dict") ? fakecf_number_value(fakecf_dict_get_cstr(ch, "value")) : 0;
}

// Tests only: adds an exact energy to a channel (0 if there is no such channel).
FAKE_EXPORT int fakeioreport_inject(const char* name, double joules)
{
    State& s = state();
    std::lock_guard g(s.m);
    for (Channel& c : s.channels)
        if (c.name == name) {
            add(c, joules);
            return 1;
        }
    return 0;
}

// Tests only: a channel's count in its unit (-1 if there is no such channel).
FAKE_EXPORT std::int64_t fakeioreport_count(const char* name)
{
    State& s = state();
    std::lock_guard g(s.m);
    for (const Channel& c : s.channels)
        if (c.name == name)
            return c.count;
    return -1;
}
