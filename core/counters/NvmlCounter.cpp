#include "counters/NvmlCounter.h"

#include "counters/NvmlLibrary.h"

#include <charconv>

namespace jb {

namespace {

constexpr const char* kDescription = "NVIDIA GPU total energy (NVML nvmlDeviceGetTotalEnergyConsumption)";

// "nvml" is GPU 0, "nvml:N" GPU N.
Result<int> parseSpec(const std::string& spec)
{
    if (spec == "nvml")
        return 0;
    const std::string prefix = "nvml:";
    if (spec.rfind(prefix, 0) == 0 && spec.size() > prefix.size()) {
        int index = -1;
        const char* b = spec.data() + prefix.size();
        const char* e = spec.data() + spec.size();
        const auto [p, ec] = std::from_chars(b, e, index);
        if (ec == std::errc() && p == e && index >= 0)
            return index;
    }
    return Error{"counter spec '" + spec + "': expected nvml:N, N a GPU index as nvidia-smi numbers them"};
}

class NvmlCounter final : public EnergyCounter {
public:
    NvmlCounter(std::string spec, std::shared_ptr<NvmlLibrary> lib, void* device, int index, std::string name,
                std::string uuid, std::uint64_t start_mj)
        : spec_(std::move(spec)),
          lib_(std::move(lib)),
          device_(device),
          index_(index),
          name_(std::move(name)),
          uuid_(std::move(uuid)),
          start_mj_(start_mj)
    {}

    std::string spec() const override { return spec_; }

    Result<std::int64_t> readNj() override
    {
        auto mj = lib_->totalEnergyMj(device_);
        if (!mj)
            return Error{spec_ + " (GPU " + std::to_string(index_) + "): " + mj.error()};
        // The driver's counter only grows; a smaller value means the driver was reloaded.
        if (*mj < start_mj_)
            return Error{spec_ + ": the GPU energy counter went back from " + std::to_string(start_mj_) +
                         " to " + std::to_string(*mj) + " mJ (driver reloaded?)"};
        return std::int64_t(*mj - start_mj_) * 1'000'000;
    }

    nlohmann::ordered_json info() const override
    {
        nlohmann::ordered_json j;
        j["kind"] = "nvml";
        j["library"] = lib_->path();
        j["index"] = index_;
        j["name"] = name_;
        j["uuid"] = uuid_;
        j["unit"] = "mJ";
        j["resolution_nj"] = 1'000'000;
        j["source"] = "nvmlDeviceGetTotalEnergyConsumption";
        return j;
    }

private:
    std::string spec_;
    std::shared_ptr<NvmlLibrary> lib_;
    void* device_;
    int index_;
    std::string name_, uuid_;
    std::uint64_t start_mj_;
};

}  // namespace

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
    auto start = (*lib)->totalEnergyMj(*dev);
    if (!start)
        return Error{spec + ": " + start.error()};
    auto name = (*lib)->name(*dev);
    auto uuid = (*lib)->uuid(*dev);
    return std::unique_ptr<EnergyCounter>(
        new NvmlCounter(spec, *lib, *dev, *index, name ? *name : "", uuid ? *uuid : "", *start));
}

}  // namespace jb
