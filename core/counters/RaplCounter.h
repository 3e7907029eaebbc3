#pragma once
// A powercap RAPL zone (`rapl`, `rapl:NAME`): energy_uj with its wraparound at
// max_energy_range_uj undone, as the reference's Rapl. The reader takes its zone folder, so
// tests feed fixture folders.
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/EnergyCounter.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jb {

class RaplCounter final : public EnergyCounter {
public:
    // Reads name, max_energy_range_uj and a first energy_uj, so a zone that cannot be read
    // fails here with the reason rather than in the sampler. `scope` (what hardware the zone
    // covers, what it contains) goes into info() where given.
    static Result<std::unique_ptr<RaplCounter>> open(const std::string& zone_dir, const std::string& spec,
                                                     const std::string& scope = {});

    std::string spec() const override { return spec_; }
    Result<std::int64_t> readNj() override;
    nlohmann::ordered_json info() const override;
    double plausibleMaxW() const override { return kRaplCeilingW; }

    // No RAPL zone draws this much: an interval above it is a read fault, not energy.
    static constexpr double kRaplCeilingW = 2000.0;

    const std::string& zoneName() const { return name_; }
    std::int64_t maxEnergyRangeUj() const { return range_uj_; }

private:
    RaplCounter() = default;

    std::string spec_;
    std::string dir_;
    std::string name_;
    std::string scope_;
    std::int64_t range_uj_ = 0;
    std::int64_t last_uj_ = 0;   // raw energy_uj of the previous read
    std::int64_t total_uj_ = 0;  // advance since open, wraps undone
};

// One zone found under a powercap root.
struct RaplZone {
    std::string path;    // the zone folder
    std::string name;    // its `name` file ("package-0", "core", "psys", ...)
    std::string parent;  // the parent zone's name for a subzone ("package-1"), else empty
    bool mmio = false;   // an intel-rapl-mmio:X zone (the package's counter read through MMIO)
    std::string spec;    // its spec: rapl:NAME, rapl:PARENT/NAME where NAME repeats, rapl:mmio/NAME
    std::string scope;   // what hardware it covers and what it contains, for people
};

// Every intel-rapl:X zone under root, every nested intel-rapl:X:Y and every intel-rapl-mmio:X,
// each folder once (sysfs lists nested zones both at the top and inside their parent), in
// numeric order (MMIO zones last), each with its spec and scope. Zones whose `name` cannot be
// read are left out.
std::vector<RaplZone> findRaplZones(const std::string& powercap_root);

// The zone folder a `rapl` / `rapl:NAME` / `rapl:PARENT/NAME` / `rapl:mmio/NAME` spec means (a
// bare NAME a second socket repeats means the first in numeric order); the error names the
// root, the name and the zones that were found.
Result<std::string> raplZoneFor(const std::string& spec, const CounterOptions& opt);

// The zone a spec means, with its scope (rapl:packages has none: it is a sum).
Result<RaplZone> raplZoneInfoFor(const std::string& spec, const CounterOptions& opt);

// `rapl:packages`: the sum of every package-N zone (not MMIO, not subzones), each zone's wraps
// undone on its own.
Result<std::unique_ptr<EnergyCounter>> openRaplPackages(const CounterOptions& opt);
inline constexpr const char* kRaplPackagesSpec = "rapl:packages";

// Refuses a set of --counter specs that would count the same RAPL energy twice: psys with a
// package or subzone, a package with its own subzone, an MMIO zone with the package it
// mirrors, rapl:packages with any package or subzone, two specs for the same zone. The
// message names both and says which to keep. Specs that do not resolve are left to openCounter.
Status checkRaplOverlap(const std::vector<std::string>& specs, const CounterOptions& opt);

// The message for a zone file that could not be opened with the given errno: a missing zone,
// a permission problem (with the udev fix and why the counter is not world-readable) or other.
std::string raplFileError(const std::string& file, int err);

// Parses a counter file's content (an unsigned decimal number and a newline); the error names
// the file and quotes the content.
Result<std::int64_t> parseRaplNumber(const std::string& file, const std::string& content,
                                     const char* unit = "microjoules");

}  // namespace jb
