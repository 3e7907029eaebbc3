#include <jb/session/Plan.h>

#include <jb/counters/IOReportGpu.h>

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <cmath>

namespace jb {

std::vector<std::string> Plan::wholeDeviceCounters() const
{
    std::vector<std::string> out;
    for (const std::string& c : counters)
        if (isWholeDeviceSpec(c) && std::find(out.begin(), out.end(), c) == out.end())
            out.push_back(c);
    return out;
}

bool Plan::hasTask() const
{
    return std::find(counters.begin(), counters.end(), "task") != counters.end();
}

bool Plan::hasGpuTime() const
{
    return std::any_of(counters.begin(), counters.end(),
                       [](const std::string& c) { return ioreportChannelOf(c) == std::string("GPU Energy"); });
}

std::int64_t PhaseOffsets::nextNs(double period_ms)
{
    const double u = double(rng_() >> 11) * 0x1.0p-53;  // [0, 1) from the top 53 bits
    return period_ms > 0 ? std::int64_t(u * period_ms * 1e6) : 0;
}

double Plan::phasePeriodMs() const
{
    if (!random_phase || wholeDeviceCounters().empty())
        return 0.0;
    return std::max(phase_period_ms, sample_ms);
}

double Plan::expectedDurationS(double busy_s) const
{
    const double settle_s = wholeDeviceCounters().empty() ? 0.0 : 2.0 * periodS();
    const int n = totalRounds();
    // Each bracket before a round waits half a phase period on average.
    return idle_s * (n + 1) + n * (busy_s + settle_s + phasePeriodMs() / 2000.0);
}

PlanProgress planProgress(const Plan& p, std::optional<double> since_first_idle_s, double busy_s)
{
    const double total_s = std::max(p.expectedDurationS(std::max(busy_s, 0.0)), 1e-3);
    const double done_s = std::clamp(since_first_idle_s.value_or(0.0), 0.0, total_s);
    return {std::min(done_s / total_s, 0.99), total_s - done_s};
}

Status validatePlan(const Plan& p)
{
    if (p.rounds < 1)
        return Error{"--rounds must be at least 1 (got " + std::to_string(p.rounds) + ")"};
    if (p.k < 1)
        return Error{"--k must be at least 1 (got " + std::to_string(p.k) + ")"};
    if (!std::isfinite(p.idle_s) || p.idle_s < 0)
        return Error{"--idle-s must be a number of seconds >= 0"};
    if (!std::isfinite(p.sample_ms) || p.sample_ms < 1 || p.sample_ms > 60000)
        return Error{"--sample-ms must lie between 1 and 60000"};
    if (!p.wholeDeviceCounters().empty() && p.idle_s * 1000.0 < 2 * p.sample_ms)
        return Error{"--idle-s is too short for --sample-ms: an idle bracket needs at least two "
                     "sample periods to have a mean and a standard deviation"};
    for (const std::string& c : p.counters) {
        const bool known = c == "task" || isWholeDeviceSpec(c);
        if (!known)
            return Error{"--counter " + c + ": unknown counter (known: rapl, rapl:NAME, rapl:packages, "
                         "hwmon:CHIP:LABEL, task, ioreport-gpu, sim, nvml:N, ioreport:CHANNEL; 'joulebench-cli "
                         "counters' lists them)"};
    }
    if (Status o = checkIOReportOverlap(p.counters); !o)
        return o;
    if (Status o = checkCounterOverlap(p.wholeDeviceCounters(), p.counter_options); !o)
        return o;
    if (!p.meta.is_object())
        return Error{"--meta must be a JSON object"};
    if (p.child.empty() && p.children.empty())
        return Error{"no child command: give the decoder's command line after '--'"};
    if (p.children.size() == 1)
        return Error{"one child is not an interleaved run: give it as the plan's child"};
    for (std::size_t i = 0; i < p.children.size(); ++i)
        if (p.children[i].argv.empty())
            return Error{"child " + std::to_string(i + 1) + " (" + p.children[i].name + ") has no command line"};
    if (p.warmup < 0)
        return Error{"--warmup must be 0 or more (got " + std::to_string(p.warmup) + ")"};
    if (p.warmup > 0 && p.children.empty())
        return Error{"--warmup needs several children (-- A ::: B): with one child, leave the first rounds out "
                     "with fewer --rounds or a longer first --idle-s"};
    if (p.keep_going && p.children.empty())
        return Error{"--keep-going drops a failed child and goes on with the others: it needs several children "
                     "(-- A ::: B)"};
    if (!p.children.empty() && !p.journal_path.empty())
        return Error{"--journal keeps one child's rounds: an interleaved run of several children has none"};
    if (!(p.ready_timeout_s > 0))
        return Error{"--ready-timeout must be a positive number of seconds"};
    if (!std::isfinite(p.phase_period_ms) || p.phase_period_ms < 0 || p.phase_period_ms > 600000)
        return Error{"the phase period must lie between 0 and 600000 ms (got " +
                     std::to_string(p.phase_period_ms) + ")"};
    if (p.round_timeout_s && !(*p.round_timeout_s > 0))
        return Error{"--round-timeout must be a positive number of seconds"};
    return Ok{};
}

std::string execShimPath(const Plan& p)
{
    if (!p.exec_shim.empty())
        return p.exec_shim;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("joulebench-exec")).toStdString();
}

Plan launchPlan(const Plan& p)
{
    if (!p.exec)
        return p;
    Plan l = p;
    const std::string shim = execShimPath(p);
    auto wrap = [&](const std::vector<std::string>& argv) {
        std::vector<std::string> w{shim, "--"};
        w.insert(w.end(), argv.begin(), argv.end());
        return w;
    };
    l.child = wrap(p.child);
    for (PlanChild& c : l.children)
        c.argv = wrap(c.argv);
    return l;
}

nlohmann::ordered_json execRecordField(const Plan& p, const std::vector<std::string>& launched)
{
    std::vector<std::string> command = launched;  // without launchPlan's [shim, --]
    if (command.size() >= 2 && command[1] == "--")
        command.erase(command.begin(), command.begin() + 2);
    nlohmann::ordered_json e = nlohmann::ordered_json::object();
    e["command"] = command;
    e["shim"] = execShimPath(p);
    e["startup_in_decode"] = true;
    return e;
}

}  // namespace jb
