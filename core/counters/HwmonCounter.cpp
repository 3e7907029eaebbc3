#include <jb/counters/HwmonCounter.h>

#include <jb/base/Clock.h>
#include <jb/counters/RaplCounter.h>
#include <jb/counters/SysFile.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace jb {

namespace {

constexpr double kHwmonCeilingW = 2000.0;  // no hwmon-metered device draws more

int folderIndex(const std::string& f)
{
    if (f.rfind("hwmon", 0) != 0)
        return -1;
    int v = -1;
    const auto r = std::from_chars(f.data() + 5, f.data() + f.size(), v);
    return (r.ec == std::errc{} && r.ptr == f.data() + f.size()) ? v : -1;
}

std::string readTrimmed(const std::string& file)
{
    std::string t;
    return readSysFile(file, t) == 0 ? trimmed(t) : std::string();
}

std::string hwmonScope(const std::string& chip, const std::string& label)
{
    if (chip == "zenergy" || chip == "amd_energy") {
        if (label.rfind("Esocket", 0) == 0)
            return "AMD CPU socket " + label.substr(7) + " (all its cores and the rest of the package; contains its Ecore channels)";
        if (label.rfind("Ecore", 0) == 0)
            return "one AMD CPU core (" + label.substr(5) + "; inside its socket's Esocket channel)";
    }
    if (chip == "i915" || chip == "xe")
        return "the Intel GPU (" + chip + " driver)";
    if (chip == "amdgpu")
        return "the AMD GPU (" + label + ", as the driver reports it)";
    return "hwmon chip '" + chip + "', channel '" + label + "'";
}

Result<std::int64_t> readNumber(const std::string& file, const char* unit)
{
    std::string text;
    if (const int e = readSysFile(file, text); e != 0)
        return Error{hwmonFileError(file, e)};
    return parseRaplNumber(file, text, unit);
}

class HwmonEnergyCounter final : public EnergyCounter {
public:
    HwmonEnergyCounter(HwmonChannel ch, std::int64_t first)
        : ch_(std::move(ch))
        , last_uj_(first)
    {
    }
    std::string spec() const override { return spec_.empty() ? ch_.spec : spec_; }
    void setSpec(std::string s) { spec_ = std::move(s); }
    Result<std::int64_t> readNj() override
    {
        auto now = readNumber(ch_.file, "microjoules");
        if (!now)
            return Error{now.error()};
        if (*now < last_uj_) {  // no wrap range: an energy counter never goes back
            const std::int64_t was = last_uj_;
            last_uj_ = *now;
            return Error{"read fault: " + ch_.file + " went backwards from " + std::to_string(was) + " to " +
                         std::to_string(*now) + " uJ and has no wrap range; the step is left out"};
        }
        total_uj_ += *now - last_uj_;
        last_uj_ = *now;
        return total_uj_ * 1000;
    }
    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j;
        j["kind"] = "hwmon";
        j["path"] = ch_.file;
        j["chip"] = ch_.chip;
        j["label"] = ch_.label;
        j["unit"] = "uJ";
        j["max_energy_range_uj"] = nullptr;
        j["scope"] = ch_.scope;
        return j;
    }
    double plausibleMaxW() const override { return kHwmonCeilingW; }

private:
    HwmonChannel ch_;
    std::string spec_;
    std::int64_t last_uj_ = 0;
    std::int64_t total_uj_ = 0;
};

// Power integrated between reads (trapezoids): energy += (p_prev + p_now) / 2 x dt.
class HwmonPowerCounter final : public EnergyCounter {
public:
    HwmonPowerCounter(HwmonChannel ch, std::int64_t first_uw)
        : ch_(std::move(ch))
        , energy_(double(first_uw) * 1e-6, monotonicNs())
    {
    }
    std::string spec() const override { return spec_.empty() ? ch_.spec : spec_; }
    void setSpec(std::string s) { spec_ = std::move(s); }
    Result<std::int64_t> readNj() override
    {
        auto now = readNumber(ch_.file, "microwatts");
        const std::int64_t t = monotonicNs();
        if (!now)
            return Error{now.error()};
        return energy_.addNj(double(*now) * 1e-6, t);
    }
    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j;
        j["kind"] = "hwmon-power";
        j["path"] = ch_.file;
        j["chip"] = ch_.chip;
        j["label"] = ch_.label;
        j["unit"] = "uW";
        j["integrated_from_power_readings"] = true;
        j["sensor_average_ms"] = ch_.average_ms > 0 ? nlohmann::ordered_json(ch_.average_ms) : nlohmann::ordered_json(nullptr);
        j["scope"] = ch_.scope;
        return j;
    }
    double plausibleMaxW() const override { return kHwmonCeilingW; }

private:
    HwmonChannel ch_;
    std::string spec_;
    PowerIntegral energy_;
};

Result<HwmonChannel> channelFor(const std::string& spec, const CounterOptions& opt)
{
    const std::vector<HwmonChannel> all = findHwmonChannels(opt.hwmon_root);
    for (const HwmonChannel& c : all)
        if (c.spec == spec || "hwmon:" + c.folder + ":" + c.label == spec)
            return c;
    std::string names;
    for (const HwmonChannel& c : all)
        names += (names.empty() ? "" : ", ") + c.spec;
    return Error{"no hwmon channel '" + spec + "' under " + opt.hwmon_root +
                 (names.empty() ? std::string("; no hwmon chip there has an energy or power file")
                                : "; channels found: " + names)};
}

}  // namespace

std::string hwmonFileError(const std::string& file, int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return file + " does not exist (it vanished: the chip's driver was unloaded or the device removed; "
                      "'joulebench-cli counters' lists the hwmon channels that are there)";
    case EACCES:
    case EPERM:
        return file +
            ": permission denied. Recent kernels let only root read hwmon energy files, for the same "
            "power side-channel reason as RAPL (amd_energy, Platypus). Fix: the udev rule "
            "packaging/linux/60-joulebench-powercap.rules covers hwmon energy files too: install it into "
            "/etc/udev/rules.d/, create the group with 'sudo groupadd --system joulebench' (the JouleBench "
            "package does both), 'sudo usermod -aG joulebench $USER', 'sudo udevadm control --reload && "
            "sudo udevadm trigger --subsystem-match=hwmon', and log in again";
    default:
        return "cannot read " + file + ": " + std::strerror(err);
    }
}

std::vector<HwmonChannel> findHwmonChannels(const std::string& hwmon_root)
{
    std::vector<std::pair<int, fs::path>> folders;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(hwmon_root, ec))
        if (const int i = folderIndex(e.path().filename().string()); i >= 0)
            folders.emplace_back(i, e.path());
    std::sort(folders.begin(), folders.end());

    std::vector<HwmonChannel> out;
    std::map<std::string, int> chips;
    for (const auto& [index, dir] : folders) {
        const std::string chip = readTrimmed((dir / "name").string());
        if (chip.empty())
            continue;
        const bool repeated = chips[chip]++ > 0;
        std::vector<std::pair<int, std::string>> energy, power;  // N, file name
        std::error_code ec2;
        for (const auto& f : fs::directory_iterator(dir, ec2)) {
            const std::string n = f.path().filename().string();
            int k = -1;
            auto number = [&](const char* prefix, const char* suffix) {
                const std::string p = prefix, s = suffix;
                if (n.size() <= p.size() + s.size() || n.rfind(p, 0) != 0 || n.substr(n.size() - s.size()) != s)
                    return false;
                const auto r = std::from_chars(n.data() + p.size(), n.data() + n.size() - s.size(), k);
                return r.ec == std::errc{} && r.ptr == n.data() + n.size() - s.size();
            };
            if (number("energy", "_input"))
                energy.emplace_back(k, n);
            else if (number("power", "_average") || number("power", "_input"))
                power.emplace_back(k, n);
        }
        std::sort(energy.begin(), energy.end());
        std::sort(power.begin(), power.end());  // powerN_average sorts before powerN_input
        const bool integrated = energy.empty();
        const auto& use = integrated ? power : energy;
        int prev = -1;
        for (const auto& [k, name] : use) {
            if (k == prev)
                continue;  // powerN_input where powerN_average exists
            prev = k;
            HwmonChannel c;
            c.folder = dir.filename().string();
            c.chip = chip;
            const std::string stem = (integrated ? "power" : "energy") + std::to_string(k);
            c.label = readTrimmed((dir / (stem + "_label")).string());
            if (c.label.empty())
                c.label = stem;
            c.file = (dir / name).string();
            c.integrated = integrated;
            if (integrated) {
                std::string iv = readTrimmed((dir / (stem + "_average_interval")).string());
                if (iv.empty())
                    iv = readTrimmed((dir / "update_interval").string());
                std::int64_t ms = 0;
                if (!iv.empty() && std::from_chars(iv.data(), iv.data() + iv.size(), ms).ec == std::errc{})
                    c.average_ms = ms;
            }
            c.spec = "hwmon:" + (repeated ? c.folder : chip) + ":" + c.label;
            c.scope = hwmonScope(chip, c.label);
            out.push_back(std::move(c));
        }
    }
    return out;
}

std::vector<CounterStatus> listHwmonCounters(const CounterOptions& opt)
{
    std::vector<CounterStatus> list;
    for (const HwmonChannel& c : findHwmonChannels(opt.hwmon_root)) {
        CounterStatus s;
        s.spec = c.spec;
        s.whole_device = true;
        auto open = openHwmonCounter(c.spec, opt);
        s.available = open.ok();
        if (!open)
            s.reason = open.error();
        s.description = "hwmon " + c.chip + " " + (c.integrated ? "power" : "energy") + " channel '" + c.label +
                        "' (" + c.file + ")" +
                        (c.integrated ? ", integrated from power readings" +
                                            (c.average_ms > 0 ? " (the sensor averages over " +
                                                                    std::to_string(c.average_ms) + " ms)"
                                                              : std::string())
                                      : std::string());
        list.push_back(std::move(s));
    }
    return list;
}

Result<std::unique_ptr<EnergyCounter>> openHwmonCounter(const std::string& spec, const CounterOptions& opt)
{
    auto ch = channelFor(spec, opt);
    if (!ch)
        return Error{ch.error()};
    auto first = readNumber(ch->file, ch->integrated ? "microwatts" : "microjoules");
    if (!first)
        return Error{first.error()};
    if (ch->integrated) {
        auto c = std::make_unique<HwmonPowerCounter>(*ch, *first);
        c->setSpec(spec);
        return std::unique_ptr<EnergyCounter>(std::move(c));
    }
    auto c = std::make_unique<HwmonEnergyCounter>(*ch, *first);
    c->setSpec(spec);
    return std::unique_ptr<EnergyCounter>(std::move(c));
}

Status checkHwmonOverlap(const std::vector<std::string>& specs, const CounterOptions& opt)
{
    std::vector<std::pair<std::string, std::string>> files;  // spec, file
    for (const std::string& s : specs) {
        if (s.rfind("hwmon:", 0) != 0)
            continue;
        auto ch = channelFor(s, opt);
        if (!ch)
            continue;
        for (const auto& [other, file] : files)
            if (file == ch->file && other != s)
                return Error{"--counter " + other + " and --counter " + s + " read the same file (" + file +
                             "); keep one of them"};
        files.emplace_back(s, ch->file);
    }
    return Ok{};
}

}  // namespace jb
