#include <jb/counters/IOReportGpu.h>

#include <QtGlobal>

#include <array>
#include <optional>
#include <regex>
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

// The rule table: for each naming scheme, the shapes of its CPU-side names (after any DIE_<n>_
// prefix) and their role. `cluster` is built from the captures: "$1" the first group, or a
// fixed name. Order matters: the first rule that matches wins.
struct Rule {
    const char* scheme;
    std::regex shape;
    IOReportRole role;
    const char* cluster;  // "" none, "$0" the name itself, "$1" group 1, else a fixed name
};

const std::vector<Rule>& rules()
{
    using R = IOReportRole;
    static const std::vector<Rule> kRules{
        {"all", std::regex("CPU Energy"), R::CpuTotal, ""},
        // Channels whose place in the totals is not published.
        {"all", std::regex("(.+)_SRAM"), R::Unpublished, "sram"},
        {"M1", std::regex("([EP])CPM"), R::Unpublished, "$1CPU"},
        {"ACC", std::regex("([EPM]ACC[0-9]*)_CPM"), R::Unpublished, "$1_CPU"},
        {"M5", std::regex("MCPM([0-9]+)"), R::Unpublished, "MCPU$1"},
        {"all", std::regex("[A-Z]+[0-9]*DTL[0-9a-f]+"), R::Unpublished, ""},
        // Clusters.
        {"M1", std::regex("[EP]CPU"), R::Cluster, "$0"},
        {"ACC", std::regex("[EPM]ACC[0-9]*_CPU"), R::Cluster, "$0"},
        {"M5", std::regex("MCPU[0-9]+"), R::Cluster, "$0"},
        // Cores: the cluster's name and a number. M5's P cores are PACC_<n>, in the P cluster
        // PCPU (six of each on an M5 Max, as PCPU0_SRAM..PCPU5_SRAM).
        {"M1", std::regex("([EP]CPU)[0-9]+"), R::Core, "$1"},
        {"ACC", std::regex("([EPM]ACC[0-9]*_CPU)[0-9]+"), R::Core, "$1"},
        {"M5", std::regex("(MCPU[0-9]+)_[0-9]+"), R::Core, "$1"},
        {"M5", std::regex("PACC_[0-9]+"), R::Core, "PCPU"},
        // The GPU: one rail published twice, GPU Energy (nJ) and GPU0 / GPU0_<die> (mJ).
        {"all", std::regex("GPU Energy"), R::GpuTotal, ""},
        {"all", std::regex("GPU[0-9]+(_[0-9]+)?"), R::GpuPart, ""},
    };
    return kRules;
}

std::string clusterOf(const Rule& r, const std::smatch& m)
{
    const std::string c = r.cluster;
    if (c == "$0")
        return m.str(0);
    if (c.rfind("$1", 0) == 0)
        return m.str(1) + c.substr(2);
    if (auto at = c.find("$1"); at != std::string::npos)
        return c.substr(0, at) + m.str(1) + c.substr(at + 2);
    return c;
}

}  // namespace

IOReportChannelRole ioreportChannelRole(std::string_view name_view)
{
    IOReportChannelRole out;
    std::string name(name_view);
    static const std::regex kDie("(DIE_[0-9]+_)(.+)");
    if (std::smatch d; std::regex_match(name, d, kDie)) {
        out.die = d.str(1);
        name = d.str(2);
    }
    out.stem = name;
    for (const Rule& r : rules()) {
        std::smatch m;
        if (!std::regex_match(name, m, r.shape))
            continue;
        out.role = r.role;
        if (std::string(r.cluster) == "sram") {
            // An SRAM channel belongs to what it names: a core's, a cluster's or a CPM's.
            out.stem = m.str(1);
            const IOReportChannelRole owner = ioreportChannelRole(out.stem);
            out.cluster = owner.role == IOReportRole::Cluster ? out.stem : owner.cluster;
        } else {
            out.cluster = clusterOf(r, m);
        }
        return out;
    }
    if (name.find("CPU") != std::string::npos)
        out.role = IOReportRole::Core;  // a CPU-side name no rule knows: inside the CPU totals
    return out;
}

namespace {

enum class Relation { None, Contains, SameRail, SameEnergy, NotPublished };

bool isCpuSide(IOReportRole r)
{
    return r == IOReportRole::CpuTotal || r == IOReportRole::Cluster || r == IOReportRole::Core;
}

// How channel a (a total, where one is) stands to channel b; "cpu" is ioreport:cpu.
Relation relation(const std::string& a, const std::string& b)
{
    using R = IOReportRole;
    if (a == "cpu") {
        if (b == "CPU Energy")
            return Relation::SameEnergy;
        const IOReportChannelRole rb = ioreportChannelRole(b);
        return isCpuSide(rb.role)       ? Relation::Contains
            : rb.role == R::Unpublished ? Relation::NotPublished
                                        : Relation::None;
    }
    if (b == "cpu")
        return Relation::None;
    const IOReportChannelRole ra = ioreportChannelRole(a);
    const IOReportChannelRole rb = ioreportChannelRole(b);
    if (ra.role == R::GpuTotal && rb.role == R::GpuPart)
        return Relation::SameRail;
    if (ra.role == R::CpuTotal) {
        const bool whole = ra.die.empty();
        if (rb.role == R::Unpublished && (whole || rb.die.empty() || rb.die == ra.die))
            return Relation::NotPublished;  // an Ultra's DTL names carry no die
        if (isCpuSide(rb.role) && (whole || rb.die == ra.die) && !(rb.role == R::CpuTotal && rb.die.empty()))
            return Relation::Contains;
        return Relation::None;
    }
    if (ra.role == R::Cluster && ra.die == rb.die) {
        if (rb.role == R::Core && rb.cluster == ra.stem)
            return Relation::Contains;
        if (rb.role == R::Unpublished && rb.cluster == ra.stem)
            return Relation::NotPublished;
    }
    if (ra.role == R::Core && rb.role == R::Unpublished && ra.die == rb.die && rb.stem == ra.stem)
        return Relation::NotPublished;
    return Relation::None;
}

std::string channelWords(const std::string& c)
{
    return c == "cpu" ? std::string("ioreport:cpu (the CPU total)") : "IOReport's '" + c + "'";
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
            const std::string both = "--counter " + specs[i] + " and --counter " + specs[j];
            if (*a == *b && i < j)
                return Error{both + " read the same IOReport channel '" + *a + "'; keep one of them"};
            switch (relation(*a, *b)) {
            case Relation::Contains:
                return Error{both + " overlap: " + channelWords(*a) + " is a total that includes '" + *b +
                             "', so their energies would be counted twice; keep " + specs[i] +
                             " for the total, or " + specs[j] + " (with its sibling channels) for the parts"};
            case Relation::SameRail:
                return Error{both + " read one rail: IOReport publishes the GPU's energy twice, as '" + *a +
                             "' (nJ) and as '" + *b +
                             "' (mJ), so their energies would be counted twice; keep one of them (" +
                             specs[i] + ": nJ, the finer unit)"};
            case Relation::SameEnergy:
                return Error{both + " read the same energy: ioreport:cpu is '" + *b +
                             "' on a chip that publishes it; keep one of them"};
            case Relation::NotPublished:
                return Error{both + " may overlap: whether " + channelWords(*a) + " includes '" + *b +
                             "' is not published (Apple documents neither), so their sum could count energy "
                             "twice; measure " +
                             specs[j] + " in a run of its own"};
            case Relation::None:
                break;
            }
        }
    }
    return Ok{};
}

std::string ioreportScope(const std::string& spec)
{
    const auto c = ioreportChannelOf(spec);
    if (!c)
        return {};
    if (*c == "cpu")
        return "the whole CPU: 'CPU Energy', or the sum of the dies' 'DIE_<n>_CPU Energy' where there is "
               "no 'CPU Energy' (Ultra chips); Apple's Energy Model estimate";
    const IOReportChannelRole r = ioreportChannelRole(*c);
    const std::string die = r.die.empty() ? std::string() : " of die " + r.die.substr(4, r.die.size() - 5);
    switch (r.role) {
    case IOReportRole::CpuTotal:
        return "the whole CPU" + die + ": every cluster and core channel" + die +
            " (whether the *CPM, *_SRAM and *DTL* channels are inside is not published)";
    case IOReportRole::Cluster:
        return "one CPU cluster" + die + ", its cores included; inside the CPU total";
    case IOReportRole::Core:
        return "one CPU core" + (r.cluster.empty() ? std::string() : " of cluster " + r.cluster) + die +
            "; inside its cluster and the CPU total";
    case IOReportRole::Unpublished:
        return "a CPU-side channel" + die + " whose place in the CPU totals is not published";
    case IOReportRole::GpuTotal:
        return "the whole GPU; the same rail as 'GPU0' / 'GPU0_<n>' (mJ)";
    case IOReportRole::GpuPart:
        return "the GPU rail in mJ; the same rail as 'GPU Energy' (nJ)";
    case IOReportRole::Other:
        break;
    }
    return "one Energy Model rail (" + *c + "), apart from the CPU and GPU channels";
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
