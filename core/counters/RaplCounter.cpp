#include <jb/counters/RaplCounter.h>

#include <jb/counters/SysFile.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
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

// "intel-rapl:0:1" -> {0, 1}, "intel-rapl-mmio:0" -> {1000000} (MMIO zones sort after the
// MSR ones); empty where the name is not a zone folder's.
constexpr int kMmioBase = 1'000'000;
std::vector<int> zoneIds(const std::string& folder)
{
    static const std::string prefix = "intel-rapl:";
    static const std::string mmio = "intel-rapl-mmio:";
    int base = 0;
    std::size_t skip = 0;
    if (folder.rfind(prefix, 0) == 0)
        skip = prefix.size();
    else if (folder.rfind(mmio, 0) == 0) {
        skip = mmio.size();
        base = kMmioBase;
    } else
        return {};
    std::vector<int> ids;
    const char* p = folder.data() + skip;
    const char* end = folder.data() + folder.size();
    for (;;) {
        int v = 0;
        const auto r = std::from_chars(p, end, v);
        if (r.ec != std::errc{} || v < 0 || v >= kMmioBase)
            return {};
        ids.push_back(ids.empty() ? base + v : v);
        if (r.ptr == end)
            return ids;
        if (*r.ptr != ':')
            return {};
        p = r.ptr + 1;
    }
}

std::string raplScope(const RaplZone& z)
{
    if (z.mmio)
        return "the same energy as the MSR zone '" + z.name +
               "', read through MMIO (a mirror: never add it to rapl:" + z.name + ")";
    if (z.name == "psys")
        return "the whole platform (SoC): contains every package and its core/uncore subzones";
    if (z.name.rfind("package-", 0) == 0)
        return "CPU socket " + z.name.substr(8) +
               ": cores, caches, uncore and integrated GPU; contains its core and uncore subzones, "
               "not its dram; inside psys";
    const std::string of = z.parent.empty() ? std::string("its socket") : z.parent;
    if (z.name == "core")
        return "the CPU cores of " + of + " (inside " + of + ")";
    if (z.name == "uncore")
        return "the uncore of " + of + " (integrated GPU, last-level cache; inside " + of + ")";
    if (z.name == "dram")
        return "the memory attached to " + of + " (separate from " + of + "'s package energy)";
    return "RAPL zone '" + z.name + "'" + (z.parent.empty() ? std::string() : " inside " + z.parent);
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

Result<std::int64_t> parseRaplNumber(const std::string& file, const std::string& content, const char* unit)
{
    const std::string t = trimmed(content);
    if (t.empty())
        return Error{file + " is empty, expected a number of " + std::string(unit)};
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc::result_out_of_range)
        return Error{file + " holds " + quoted(content) + ", a number too large for a counter"};
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || v < 0)
        return Error{file + " holds " + quoted(content) + ", not a number"};
    return v;
}

Result<std::unique_ptr<RaplCounter>> RaplCounter::open(const std::string& zone_dir, const std::string& spec,
                                                      const std::string& scope)
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
    c->scope_ = scope;

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
    if (!scope_.empty())
        j["scope"] = scope_;
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
        RaplZone z;
        z.path = p.string();
        z.name = trimmed(name);
        z.mmio = ids.front() >= kMmioBase;
        found.push_back({ids, std::move(z)});
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
    // Parents by their first id; names that repeat get the qualified spec.
    std::map<int, std::string> topName;
    std::map<std::string, int> nameCount;
    for (const Found& f : found) {
        if (f.ids.size() == 1)
            topName[f.ids.front()] = f.zone.name;
        if (!f.zone.mmio)
            ++nameCount[f.zone.name];
    }
    std::vector<RaplZone> zones;
    zones.reserve(found.size());
    std::set<std::string> firstTaken;
    for (auto& f : found) {
        RaplZone& z = f.zone;
        if (f.ids.size() > 1 && topName.count(f.ids.front()))
            z.parent = topName[f.ids.front()];
        if (z.mmio)
            z.spec = "rapl:mmio/" + z.name;
        else if (nameCount[z.name] > 1 && !z.parent.empty())
            z.spec = "rapl:" + z.parent + "/" + z.name;
        else
            z.spec = "rapl:" + z.name;
        z.scope = raplScope(z);
        zones.push_back(std::move(z));
    }
    return zones;
}

Result<RaplZone> raplZoneInfoFor(const std::string& spec, const CounterOptions& opt)
{
    if (spec == "rapl") {
        RaplZone z;
        z.path = opt.rapl_zone.empty() ? opt.powercap_root + "/intel-rapl:0" : opt.rapl_zone;
        std::error_code ec;
        const fs::path want = fs::weakly_canonical(z.path, ec);
        for (const RaplZone& f : findRaplZones(opt.rapl_zone.empty() ? opt.powercap_root
                                                                     : fs::path(z.path).parent_path().string()))
            if (fs::weakly_canonical(f.path, ec) == want)
                return f;
        std::string name;
        if (readSysFile(z.path + "/name", name) == 0)
            z.name = trimmed(name);
        z.spec = spec;
        z.scope = raplScope(z);
        return z;
    }
    if (spec.rfind("rapl:", 0) != 0)
        return Error{"'" + spec + "' is not a RAPL counter spec (rapl or rapl:NAME)"};
    const std::string name = spec.substr(5);
    if (name.empty())
        return Error{"'rapl:' needs a zone name, as in rapl:package-0 or rapl:psys"};
    const std::vector<RaplZone> zones = findRaplZones(opt.powercap_root);
    for (const RaplZone& z : zones)  // the spec as listed (qualified or not)
        if (z.spec == spec)
            return z;
    for (const RaplZone& z : zones)  // a bare name a second socket repeats: the first one
        if (!z.mmio && z.name == name)
            return z;
    for (const RaplZone& z : zones)  // the qualified form of a unique name
        if (!z.mmio && !z.parent.empty() && z.parent + "/" + z.name == name)
            return z;
    if (zones.empty())
        return Error{"no RAPL zone named '" + name + "': this machine exposes no powercap RAPL zones under " +
                     opt.powercap_root + " (no intel-rapl:* folders); '--counter sim' measures without one"};
    std::string names;
    for (const RaplZone& z : zones)
        names += (names.empty() ? "" : ", ") + z.name + " (" + fs::path(z.path).filename().string() + ")";
    return Error{"no RAPL zone named '" + name + "' under " + opt.powercap_root + "; zones found: " + names};
}

Result<std::string> raplZoneFor(const std::string& spec, const CounterOptions& opt)
{
    auto z = raplZoneInfoFor(spec, opt);
    if (!z)
        return Error{z.error()};
    return z->path;
}

namespace {

bool isPackageName(const std::string& n)
{
    return n.rfind("package-", 0) == 0;
}

// The sum of several zones, each read and unwrapped by its own RaplCounter.
class RaplSumCounter final : public EnergyCounter {
public:
    RaplSumCounter(std::string spec, std::vector<std::unique_ptr<RaplCounter>> parts)
        : spec_(std::move(spec))
        , parts_(std::move(parts))
    {
    }
    std::string spec() const override { return spec_; }
    Result<std::int64_t> readNj() override
    {
        std::int64_t sum = 0;
        for (auto& p : parts_) {
            auto v = p->readNj();
            if (!v)
                return Error{v.error()};
            sum += *v;
        }
        return sum;
    }
    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j;
        j["kind"] = "rapl-sum";
        nlohmann::ordered_json parts = nlohmann::ordered_json::array();
        for (const auto& p : parts_)
            parts.push_back(p->info());
        j["zones"] = std::move(parts);
        j["unit"] = "uJ";
        j["scope"] = "every CPU socket's package zone added up (each wrap undone on its own); "
                     "excludes dram and psys";
        return j;
    }
    double plausibleMaxW() const override { return RaplCounter::kRaplCeilingW * double(parts_.size()); }

private:
    std::string spec_;
    std::vector<std::unique_ptr<RaplCounter>> parts_;
};

struct Resolved {
    std::string spec;
    RaplZone zone;
    bool packages = false;
};

std::optional<std::string> raplOverlap(const Resolved& a, const Resolved& b)
{
    const std::string both = "--counter " + a.spec + " and --counter " + b.spec;
    if (!a.packages && !b.packages && a.zone.path == b.zone.path)
        return both + " read the same RAPL zone (" + a.zone.path + "); keep one of them";
    for (int pass = 0; pass < 2; ++pass) {
        const Resolved& x = pass ? b : a;
        const Resolved& y = pass ? a : b;
        if (!x.packages && !x.zone.mmio && x.zone.name == "psys")
            return both + " overlap: psys is the whole platform and contains " + y.spec +
                   ", so their energies would be counted twice; keep " + x.spec + " for the platform total, or " +
                   y.spec + " for the part";
        if (x.packages) {
            if (y.packages)
                return both + " are the same sum; keep one of them";
            const bool inPackage = isPackageName(y.zone.name) || y.zone.mmio ||
                                   (isPackageName(y.zone.parent) && y.zone.name != "dram");
            if (inPackage)
                return both + " overlap: " + x.spec + " is the sum of every package and includes " + y.spec +
                       "; keep " + x.spec + " for the total, or the single zones (rapl:package-N) for the parts";
        }
        if (!x.packages && !y.packages && !x.zone.mmio && isPackageName(x.zone.name) &&
            y.zone.parent == x.zone.name && !y.zone.mmio && y.zone.name != "dram")
            return both + " overlap: " + x.zone.name + " contains its subzone '" + y.zone.name +
                   "', so their energies would be counted twice; keep " + x.spec + " for the package, or " + y.spec +
                   " (with its sibling subzones) for the parts";
        if (!x.packages && !y.packages && x.zone.mmio && !y.zone.mmio &&
            (y.zone.name == x.zone.name || (y.zone.parent == x.zone.name && y.zone.name != "dram")))
            return both + " overlap: the MMIO zone " + x.spec + " mirrors the package zone '" + x.zone.name +
                   "' (the same energy read another way); keep rapl:" + x.zone.name + " and drop " + x.spec;
    }
    return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<EnergyCounter>> openRaplPackages(const CounterOptions& opt)
{
    std::vector<std::unique_ptr<RaplCounter>> parts;
    for (const RaplZone& z : findRaplZones(opt.powercap_root)) {
        if (z.mmio || !z.parent.empty() || !isPackageName(z.name))
            continue;
        auto c = RaplCounter::open(z.path, z.spec, z.scope);
        if (!c)
            return Error{c.error()};
        parts.push_back(std::move(c.value()));
    }
    if (parts.empty())
        return Error{"no package-N zone under " + opt.powercap_root + " to add up ('joulebench-cli counters' "
                     "lists the zones found)"};
    return std::unique_ptr<EnergyCounter>(std::make_unique<RaplSumCounter>(kRaplPackagesSpec, std::move(parts)));
}

Status checkRaplOverlap(const std::vector<std::string>& specs, const CounterOptions& opt)
{
    std::vector<Resolved> r;
    for (const std::string& s : specs) {
        if (s == kRaplPackagesSpec) {
            r.push_back({s, {}, true});
            continue;
        }
        if (s != "rapl" && s.rfind("rapl:", 0) != 0)
            continue;
        auto z = raplZoneInfoFor(s, opt);
        if (z)
            r.push_back({s, *z, false});
    }
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = i + 1; j < r.size(); ++j)
            if (r[i].spec != r[j].spec)
                if (auto m = raplOverlap(r[i], r[j]))
                    return Error{*m};
    return Ok{};
}

}  // namespace jb
