#include <jb/counters/NvmlCounter.h>

#include <jb/counters/NvmlLibrary.h>

#include <jb/base/Clock.h>

#include <charconv>

namespace jb {

namespace {

constexpr const char* kDescription = "NVIDIA GPU total energy (NVML nvmlDeviceGetTotalEnergyConsumption)";

constexpr const char* kPowerDescription =
    "NVIDIA GPU power (NVML's instantaneous field, else nvmlDeviceGetPowerUsage's average) integrated over time";

bool isPowerSpec(const std::string& spec)
{
    return spec == "nvml-power" || spec.rfind("nvml-power:", 0) == 0;
}

// "nvml" is GPU 0, "nvml:N" GPU N (the same for nvml-power).
Result<int> parseSpec(const std::string& spec)
{
    const bool power = isPowerSpec(spec);
    if (spec == "nvml" || spec == "nvml-power")
        return 0;
    const std::string prefix = power ? "nvml-power:" : "nvml:";
    if (spec.rfind(prefix, 0) == 0 && spec.size() > prefix.size()) {
        int index = -1;
        const char* b = spec.data() + prefix.size();
        const char* e = spec.data() + spec.size();
        const auto [p, ec] = std::from_chars(b, e, index);
        if (ec == std::errc() && p == e && index >= 0)
            return index;
    }
    return Error{"counter spec '" + spec + "': expected " + (power ? "nvml-power:N" : "nvml:N") +
                 ", N a GPU index as nvidia-smi numbers them"};
}

// What both NVML counters share: the GPU they read, its name and UUID for the record, and an
// error that names the spec and the GPU.
struct NvmlDevice {
    std::string spec;
    std::shared_ptr<NvmlLibrary> lib;
    void* device = nullptr;
    int index = 0;
    std::string name, uuid;

    Error error(const std::string& why) const
    {
        return Error{spec + " (GPU " + std::to_string(index) + "): " + why};
    }
    nlohmann::ordered_json info(const char* kind, const char* unit, const char* source) const
    {
        nlohmann::ordered_json j;
        j["kind"] = kind;
        j["library"] = lib->path();
        j["index"] = index;
        j["name"] = name;
        j["uuid"] = uuid;
        j["unit"] = unit;
        j["source"] = source;
        return j;
    }
};

// nvml:N: the driver's energy counter since it was loaded, in mJ.
class NvmlCounter final : public EnergyCounter {
public:
    NvmlCounter(NvmlDevice dev, std::uint64_t start_mj) : dev_(std::move(dev)), start_mj_(start_mj) {}

    std::string spec() const override { return dev_.spec; }

    Result<std::int64_t> readNj() override
    {
        auto mj = dev_.lib->totalEnergyMj(dev_.device);
        if (!mj)
            return dev_.error(mj.error());
        // The driver's counter only grows; a smaller value means the driver was reloaded.
        if (*mj < start_mj_)
            return Error{dev_.spec + ": the GPU energy counter went back from " + std::to_string(start_mj_) +
                         " to " + std::to_string(*mj) + " mJ (driver reloaded?)"};
        return std::int64_t(*mj - start_mj_) * 1'000'000;
    }

    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j = dev_.info("nvml", "mJ", "nvmlDeviceGetTotalEnergyConsumption");
        j["resolution_nj"] = 1'000'000;
        return j;
    }

private:
    NvmlDevice dev_;
    std::uint64_t start_mj_;
};

// nvml-power:N: a power reading integrated between reads. The instantaneous field
// (NVML_FI_DEV_POWER_INSTANT) where the driver has it; else nvmlDeviceGetPowerUsage, which on
// recent drivers is the averaged field (a 1 s moving average updated every 100 ms on an H200:
// integrating it smears a round's energy into its after-bracket). The info names which.
class NvmlPowerCounter final : public EnergyCounter {
public:
    NvmlPowerCounter(NvmlDevice dev, bool instant, std::string why_not_instant, std::uint64_t first_mw)
        : dev_(std::move(dev)), instant_(instant), why_not_instant_(std::move(why_not_instant)),
          energy_(double(first_mw) / 1000.0, monotonicNs())
    {}

    std::string spec() const override { return dev_.spec; }

    Result<std::int64_t> readNj() override
    {
        auto mw = read(*dev_.lib, dev_.device, instant_);
        if (!mw)
            return dev_.error(mw.error());
        return energy_.addNj(double(*mw) / 1000.0, monotonicNs());
    }

    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j = dev_.info(
            "nvml-power", "mW",
            instant_ ? "nvmlDeviceGetFieldValues(NVML_FI_DEV_POWER_INSTANT)" : "nvmlDeviceGetPowerUsage");
        j["integration"] = "trapezoid between reads";
        j["reading"] = instant_ ? "instant" : "average";
        if (instant_) {
            j["field_id"] = NvmlLibrary::kFieldPowerInstant;
            j["averaging_window_ms"] = nullptr;
        } else {
            // The driver does not publish its window; 1 s is what an H200 (driver 580) showed.
            j["averaging_window_ms"] = 1000;
            j["averaging_window_source"] = "typical of recent drivers (H200, driver 580: 1 s), not read from this GPU";
            j["instant_unavailable"] = why_not_instant_;
        }
        return j;
    }

    static Result<std::uint64_t> read(const NvmlLibrary& lib, void* device, bool instant)
    {
        if (instant)
            return lib.powerFieldMw(device, NvmlLibrary::kFieldPowerInstant);
        auto mw = lib.powerUsageMw(device);
        if (!mw)
            return Error{mw.error()};
        return std::uint64_t(*mw);
    }

private:
    NvmlDevice dev_;
    bool instant_;
    std::string why_not_instant_;
    PowerIntegral energy_;
};

}  // namespace

std::vector<CounterStatus> listNvmlPowerCounters(const CounterOptions& opt)
{
    auto lib = NvmlLibrary::load(opt.nvml_library);
    if (!lib)
        return {};
    auto count = (*lib)->deviceCount();
    if (!count)
        return {};
    std::vector<CounterStatus> out;
    for (int i = 0; i < *count; ++i) {
        CounterStatus s{"nvml-power:" + std::to_string(i), true, false, "", kPowerDescription};
        auto dev = (*lib)->deviceByIndex(i);
        if (!dev) {
            s.reason = dev.error();
        } else {
            auto mw = (*lib)->powerUsageMw(*dev);
            s.available = mw.ok() || (*lib)->powerFieldMw(*dev, NvmlLibrary::kFieldPowerInstant).ok();
            if (!s.available)
                s.reason = mw.error();
            if (auto name = (*lib)->name(*dev))
                s.description = "GPU " + std::to_string(i) + " " + *name + " power integrated over time (NVML)";
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<CounterStatus> listNvmlCounters(const CounterOptions& opt)
{
    auto lib = NvmlLibrary::load(opt.nvml_library);
    if (!lib)
        return {{"nvml", true, false, lib.error(), kDescription}};
    auto count = (*lib)->deviceCount();
    if (!count)
        return {{"nvml", true, false, count.error(), kDescription}};
    if (*count == 0)
        return {{"nvml", true, false, "NVML reports no GPU on this machine", kDescription}};
    std::vector<CounterStatus> out;
    for (int i = 0; i < *count; ++i) {
        CounterStatus s{"nvml:" + std::to_string(i), true, false, "", kDescription};
        auto dev = (*lib)->deviceByIndex(i);
        if (!dev) {
            s.reason = dev.error();
        } else {
            auto name = (*lib)->name(*dev);
            if (name)
                s.description = "GPU " + std::to_string(i) + " " + *name + " total energy (NVML)";
            auto mj = (*lib)->totalEnergyMj(*dev);
            s.available = mj.ok();
            if (!mj)
                s.reason = mj.error();
        }
        out.push_back(std::move(s));
    }
    return out;
}

Result<std::unique_ptr<EnergyCounter>> openNvmlCounter(const std::string& spec, const CounterOptions& opt)
{
    auto index = parseSpec(spec);
    if (!index)
        return Error{index.error()};
    auto lib = NvmlLibrary::load(opt.nvml_library);
    if (!lib)
        return Error{spec + ": " + lib.error()};
    auto count = (*lib)->deviceCount();
    if (!count)
        return Error{spec + ": " + count.error()};
    if (*index >= *count)
        return Error{spec + ": NVML reports " + std::to_string(*count) + " GPU(s), so no GPU " +
                     std::to_string(*index) + " (nvidia-smi -L lists them)"};
    auto dev = (*lib)->deviceByIndex(*index);
    if (!dev)
        return Error{spec + ": " + dev.error()};
    auto name = (*lib)->name(*dev);
    auto uuid = (*lib)->uuid(*dev);
    NvmlDevice device{spec, *lib, *dev, *index, name ? *name : "", uuid ? *uuid : ""};
    if (isPowerSpec(spec)) {
        // The instantaneous field where the driver answers it; the averaged reading only where not.
        if (auto inst = (*lib)->powerFieldMw(*dev, NvmlLibrary::kFieldPowerInstant))
            return std::unique_ptr<EnergyCounter>(new NvmlPowerCounter(std::move(device), true, "", *inst));
        else {
            const std::string why = inst.error();
            auto mw = (*lib)->powerUsageMw(*dev);
            if (!mw)
                return Error{spec + ": " + mw.error() + " (and " + why + ")"};
            return std::unique_ptr<EnergyCounter>(new NvmlPowerCounter(std::move(device), false, why, *mw));
        }
    }
    auto start = (*lib)->totalEnergyMj(*dev);
    if (!start)
        return Error{spec + ": " + start.error()};
    return std::unique_ptr<EnergyCounter>(new NvmlCounter(std::move(device), *start));
}

}  // namespace jb
