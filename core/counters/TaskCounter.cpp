#include <jb/counters/TaskCounter.h>

#include <jb/counters/CpuTime.h>

#include <cmath>

namespace jb {

namespace {

std::optional<std::uint64_t> le64(std::span<const std::uint8_t> b, std::size_t off)
{
    if (b.size() < off + 8)
        return std::nullopt;
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | b[off + std::size_t(i)];
    return v;
}

std::optional<double> asDouble(std::optional<std::uint64_t> v)
{
    return v ? std::optional<double>(double(*v)) : std::nullopt;
}

// Linux (and other POSIX systems): the child's CPU time over all its threads; the kernel
// keeps no per-process energy.
class CpuTimeTaskReader final : public TaskReader {
public:
    explicit CpuTimeTaskReader(std::string proc_root) : proc_root_(std::move(proc_root)) {}

    Result<TaskSample> read(std::int64_t pid) override
    {
        auto ns = processCpuNs(pid, proc_root_);
        if (!ns)
            return Error{"task counter: " + ns.error()};
        TaskSample s;
        s.cpu_ns = double(*ns);
        return s;
    }

private:
    std::string proc_root_;
};

}  // namespace

TaskSample parseRusageV6(std::span<const std::uint8_t> bytes, double tick_ns)
{
    TaskSample s;
    const auto user = le64(bytes, 16);
    const auto system = le64(bytes, 24);
    if (user && system)
        s.cpu_ns = (double(*user) + double(*system)) * tick_ns;
    s.billed_nj = asDouble(le64(bytes, 264));
    s.serviced_nj = asDouble(le64(bytes, 272));
    s.energy_nj = asDouble(le64(bytes, 336));
    return s;
}

bool settledPair(const TaskSample& a, const TaskSample& b)
{
    return a.cpu_ns == b.cpu_ns && a.energy_nj == b.energy_nj;
}

nlohmann::ordered_json taskDelta(const TaskSample& before, const TaskSample& after)
{
    // Energies are whole nJ counts on macOS (integers in the reference's record); cpu_ns is
    // ticks x a timebase ratio there, a float in the reference, so it stays a double.
    auto energy = [](const std::optional<double>& a, const std::optional<double>& b) {
        return std::int64_t(std::llround(*b - *a));
    };
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (before.energy_nj && after.energy_nj)
        j["energy_nj"] = energy(before.energy_nj, after.energy_nj);
    j["cpu_ns"] = after.cpu_ns - before.cpu_ns;
    if (before.billed_nj && after.billed_nj)
        j["billed_nj"] = energy(before.billed_nj, after.billed_nj);
    if (before.serviced_nj && after.serviced_nj)
        j["serviced_nj"] = energy(before.serviced_nj, after.serviced_nj);
    return j;
}

std::unique_ptr<TaskReader> makeTaskReader(const std::string& proc_root)
{
    return std::make_unique<CpuTimeTaskReader>(proc_root);
}

}  // namespace jb
