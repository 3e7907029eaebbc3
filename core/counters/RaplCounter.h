#pragma once
// A powercap RAPL zone (`rapl`, `rapl:NAME`): energy_uj with its wraparound at
// max_energy_range_uj undone, as the reference's Rapl. The reader takes its zone folder, so
// tests feed fixture folders.
#include "counters/CounterRegistry.h"
#include "counters/EnergyCounter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jb {

class RaplCounter final : public EnergyCounter {
public:
    // Reads name, max_energy_range_uj and a first energy_uj, so a zone that cannot be read
    // fails here with the reason rather than in the sampler.
    static Result<std::unique_ptr<RaplCounter>> open(const std::string& zone_dir, const std::string& spec);

    std::string spec() const override { return spec_; }
    Result<std::int64_t> readNj() override;
    nlohmann::ordered_json info() const override;

    const std::string& zoneName() const { return name_; }
    std::int64_t maxEnergyRangeUj() const { return range_uj_; }

private:
    RaplCounter() = default;

    std::string spec_;
    std::string dir_;
    std::string name_;
    std::int64_t range_uj_ = 0;
    std::int64_t last_uj_ = 0;   // raw energy_uj of the previous read
    std::int64_t total_uj_ = 0;  // advance since open, wraps undone
};

// One zone found under a powercap root.
struct RaplZone {
    std::string path;  // the zone folder
    std::string name;  // its `name` file ("package-0", "core", "psys", ...)
};

// Every intel-rapl:X zone under root and every nested intel-rapl:X:Y, each folder once (sysfs
// lists nested zones both at the top and inside their parent), in numeric order. Zones whose
// `name` cannot be read are left out.
std::vector<RaplZone> findRaplZones(const std::string& powercap_root);

// The zone folder a `rapl` / `rapl:NAME` spec means; the error names the root, the name and
// the zone names that were found.
Result<std::string> raplZoneFor(const std::string& spec, const CounterOptions& opt);

// The message for a zone file that could not be opened with the given errno: a missing zone,
// a permission problem (with the udev fix and why the counter is not world-readable) or other.
std::string raplFileError(const std::string& file, int err);

// Parses a counter file's content (an unsigned decimal number and a newline); the error names
// the file and quotes the content.
Result<std::int64_t> parseRaplNumber(const std::string& file, const std::string& content);

}  // namespace jb
