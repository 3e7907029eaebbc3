#include "counters/RaplCounter.h"

#include "counters/SysFile.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace jb {

namespace {

constexpr const char* kRulesFile = "packaging/linux/60-joulebench-powercap.rules";

// Content quoted for a message: at most 40 characters, control characters escaped.
std::string quoted(const std::string& content)
{
    std::string q;
    for (char c : content.substr(0, 40)) {
        if (c == '\n')
            q += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            q += '?';
        else
            q += c;
    }
    if (content.size() > 40)
        q += "...";
    return "'" + q + "'";
}

Result<std::int64_t> readNumberFile(const std::string& file)
{
    std::string text;
    if (const int e = readSysFile(file, text); e != 0)
        return Error{raplFileError(file, e)};
    return parseRaplNumber(file, text);
}

// "intel-rapl:0:1" -> {0, 1}; empty where the name is not a zone folder's.
std::vector<int> zoneIds(const std::string& folder)
{
    static const std::string prefix = "intel-rapl:";
    if (folder.rfind(prefix, 0) != 0)
        return {};
    std::vector<int> ids;
    const char* p = folder.data() + prefix.size();
    const char* end = folder.data() + folder.size();
    for (;;) {
        int v = 0;
        const auto r = std::from_chars(p, end, v);
        if (r.ec != std::errc{} || v < 0)
            return {};
        ids.push_back(v);
        if (r.ptr == end)
            return ids;
        if (*r.ptr != ':')
            return {};
        p = r.ptr + 1;
    }
}

}  // namespace

std::string raplFileError(const std::string& file, int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return file +
            " does not exist: no such RAPL zone file (this machine exposes no powercap "
            "RAPL zone there; Linux needs a CPU with RAPL and the intel_rapl_msr module; "
            "'joulebench-cli counters' lists the zones found, '--counter sim' measures without one)";
    case EACCES:
    case EPERM:
        return file +
            ": permission denied. Linux lets only root read RAPL energy counters, because a "
            "world-readable energy_uj is a power side channel that leaks secrets from other "
            "processes (CVE-2020-8694, Platypus). Fix: install " +
            std::string(kRulesFile) +
            " into /etc/udev/rules.d/ (it makes energy_uj readable by the group 'joulebench', not by "
            "everyone) and create that group with 'sudo groupadd --system joulebench' (the JouleBench "
            "package does both); then 'sudo usermod -aG joulebench $USER', 'sudo udevadm control --reload "
            "&& sudo udevadm trigger --subsystem-match=powercap', and log in again";
    default:
        return "cannot read " + file + ": " + std::strerror(err);
    }
}

Result<std::int64_t> parseRaplNumber(const std::string& file, const std::string& content)
{
    const std::string t = trimmed(content);
    if (t.empty())
        return Error{file + " is empty, expected a number of microjoules"};
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc::result_out_of_range)
        return Error{file + " holds " + quoted(content) + ", a number too large for a counter"};
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || v < 0)
        return Error{file + " holds " + quoted(content) + ", not a number"};
    return v;
}

Result<std::unique_ptr<RaplCounter>> RaplCounter::open(const std::string& zone_dir, const std::string& spec)
{
    std::error_code ec;
    if (!fs::is_directory(zone_dir, ec))
        return Error{
            "no such RAPL zone: " + zone_dir +
            " is not a folder (this machine exposes no powercap RAPL zone there; "
            "'joulebench-cli counters' lists the zones found, '--counter sim' measures without one)"};
    std::unique_ptr<RaplCounter> c(new RaplCounter);
    c->spec_ = spec;
    c->dir_ = zone_dir;

    std::string name;
    const std::string name_file = zone_dir + "/name";
    if (const int e = readSysFile(name_file, name); e != 0)
        return Error{raplFileError(name_file, e)};
    c->name_ = trimmed(name);

    const std::string range_file = zone_dir + "/max_energy_range_uj";
    auto range = readNumberFile(range_file);
    if (!range)
        return Error{range.error()};
    if (*range <= 0)
        return Error{range_file +
                     " is 0: the zone reports no counter range, so a wraparound could not be undone"};
    c->range_uj_ = *range;

    auto first = readNumberFile(zone_dir + "/energy_uj");
    if (!first)
        return Error{first.error()};
    c->last_uj_ = *first;
    return c;
}

Result<std::int64_t> RaplCounter::readNj()
{
    auto now = readNumberFile(dir_ + "/energy_uj");
    if (!now)
        return Error{now.error()};
    std::int64_t d = *now - last_uj_;
    if (d < 0)  // the counter wrapped at max_energy_range_uj, as the reference undoes it
        d += range_uj_;
    last_uj_ = *now;
    total_uj_ += d;
    return total_uj_ * 1000;
}

nlohmann::ordered_json RaplCounter::info() const
{
    nlohmann::ordered_json j;
    j["kind"] = "rapl";
    j["path"] = dir_;
    j["name"] = name_;
    j["max_energy_range_uj"] = range_uj_;
    j["unit"] = "uJ";
    return j;
}

std::vector<RaplZone> findRaplZones(const std::string& powercap_root)
{
    struct Found {
        std::vector<int> ids;
        RaplZone zone;
    };
    std::vector<Found> found;
    std::set<std::string> seen;  // canonical folders: sysfs lists nested zones twice

    auto consider = [&](const fs::path& p) {
        const std::vector<int> ids = zoneIds(p.filename().string());
        std::error_code ec;
        if (ids.empty() || !fs::is_directory(p, ec))
            return;
        const fs::path canon = fs::canonical(p, ec);
        if (!seen.insert(ec ? p.string() : canon.string()).second)
            return;
        std::string name;
        if (readSysFile((p / "name").string(), name) != 0)
            return;
        found.push_back({ids, {p.string(), trimmed(name)}});
    };

    std::error_code ec;
    for (const auto& top : fs::directory_iterator(powercap_root, ec)) {
        consider(top.path());
        if (zoneIds(top.path().filename().string()).empty())
            continue;
        std::error_code ec2;
        for (const auto& sub : fs::directory_iterator(top.path(), ec2))
            consider(sub.path());
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.ids < b.ids; });
    std::vector<RaplZone> zones;
    zones.reserve(found.size());
    for (auto& f : found)
        zones.push_back(std::move(f.zone));
    return zones;
}

Result<std::string> raplZoneFor(const std::string& spec, const CounterOptions& opt)
{
    if (spec == "rapl")
        return opt.rapl_zone.empty() ? opt.powercap_root + "/intel-rapl:0" : opt.rapl_zone;
    if (spec.rfind("rapl:", 0) != 0)
        return Error{"'" + spec + "' is not a RAPL counter spec (rapl or rapl:NAME)"};
    const std::string name = spec.substr(5);
    if (name.empty())
        return Error{"'rapl:' needs a zone name, as in rapl:package-0 or rapl:psys"};
    const std::vector<RaplZone> zones = findRaplZones(opt.powercap_root);
    for (const RaplZone& z : zones)
        if (z.name == name)
            return z.path;
    if (zones.empty())
        return Error{"no RAPL zone named '" + name + "': this machine exposes no powercap RAPL zones under " +
                     opt.powercap_root + " (no intel-rapl:* folders); '--counter sim' measures without one"};
    std::string names;
    for (const RaplZone& z : zones)
        names += (names.empty() ? "" : ", ") + z.name + " (" + fs::path(z.path).filename().string() + ")";
    return Error{"no RAPL zone named '" + name + "' under " + opt.powercap_root + "; zones found: " + names};
}

}  // namespace jb
