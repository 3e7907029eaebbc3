#include <jb/jobs/RunFolders.h>

#include <jb/base/Clock.h>
#include <jb/base/Version.h>
#include <jb/jobs/ProcessTree.h>

#include <fnmatch.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace jb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDriverFile = "driver.json";

std::string hostName()
{
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return "";
    return buf;
}

std::uint64_t startTicks(const std::string& proc_root, std::int64_t pid)
{
    auto e = readProcEntry(proc_root, pid);
    return e ? e->start_ticks : 0;
}

// The driver named in run_dir/driver.json, where it is still alive on this host.
std::optional<std::string> liveDriver(const std::string& run_dir, const std::string& proc_root)
{
    std::ifstream in(run_dir + "/" + kDriverFile);
    if (!in)
        return std::nullopt;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
        const std::int64_t pid = j.at("pid").get<std::int64_t>();
        const std::string host = j.at("hostname").get<std::string>();
        const std::uint64_t ticks = j.value("start_ticks", std::uint64_t(0));
        if (host != hostName() || pid <= 0)
            return std::nullopt;
        if (::kill(pid_t(pid), 0) != 0 && errno != EPERM)
            return std::nullopt;
        if (ticks != 0 && startTicks(proc_root, pid) != ticks)
            return std::nullopt;  // the pid was reused by another process
        return "driver pid " + std::to_string(pid) + " on " + host;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

void globInto(const fs::path& dir, const std::vector<std::string>& parts, std::size_t i,
              std::vector<std::string>& out)
{
    std::error_code ec;
    if (i == parts.size()) {
        if (fs::is_regular_file(dir, ec))
            out.push_back(dir.string());
        return;
    }
    const std::string& part = parts[i];
    if (part.find_first_of("*?[") == std::string::npos) {
        globInto(dir / part, parts, i + 1, out);
        return;
    }
    fs::directory_iterator it(dir, ec), end;
    if (ec)
        return;
    for (; it != end; it.increment(ec)) {
        if (ec)
            return;
        const std::string name = it->path().filename().string();
        if (::fnmatch(part.c_str(), name.c_str(), FNM_PERIOD) == 0)
            globInto(it->path(), parts, i + 1, out);
    }
}

// The Slurm job id recorded at submit; "" where none.
std::string submittedJobId(const std::string& run_dir)
{
    std::ifstream in(run_dir + "/" + kSlurmSubmitName);
    if (!in)
        return "";
    try {
        const auto j = nlohmann::json::parse(in);
        return j.at("job_id").get<std::string>();
    } catch (const nlohmann::json::exception&) {
        return "";
    }
}

nlohmann::json driverRecord(const std::string& proc_root)
{
    nlohmann::json d;
    d["pid"] = ::getpid();
    d["hostname"] = hostName();
    d["start_ticks"] = startTicks(proc_root, ::getpid());
    d["started_unix_time"] = unixSeconds();
    d["joulebench_version"] = std::string(kToolVersion);
    return d;
}

}  // namespace

Result<std::string> claimRunDirectory(const std::string& run_dir, const std::string& proc_root)
{
    if (auto st = writeJsonAtomic(run_dir + "/" + kDriverFile, driverRecord(proc_root)); !st)
        return Error{st.error()};
    return run_dir;
}

std::string diskStateName(DiskState s)
{
    switch (s) {
    case DiskState::NotRun:
        return "not_run";
    case DiskState::Preserved:
        return "preserved";
    case DiskState::Orphaned:
        return "orphaned";
    case DiskState::Running:
        return "running";
    case DiskState::Conflict:
        return "conflict";
    case DiskState::Submitted:
        return "submitted";
    }
    return "?";
}

std::optional<DiskState> diskStateFrom(const std::string& name)
{
    for (DiskState s : {DiskState::NotRun, DiskState::Preserved, DiskState::Orphaned, DiskState::Running,
                        DiskState::Conflict, DiskState::Submitted})
        if (diskStateName(s) == name)
            return s;
    return std::nullopt;
}

JobDiskInfo inspectJob(const std::string& output_root, const std::string& name, const std::string& proc_root)
{
    JobDiskInfo d;
    d.job_folder = (fs::path(output_root) / name).string();
    std::error_code ec;
    if (!fs::exists(d.job_folder, ec)) {
        d.state = DiskState::NotRun;
        return d;
    }
    if (!fs::is_directory(d.job_folder, ec)) {
        d.state = DiskState::Conflict;
        d.detail = d.job_folder + " exists and is not a folder";
        return d;
    }
    std::vector<std::string> runs, manifests;
    for (fs::directory_iterator it(d.job_folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (!it->is_directory(e2))
            continue;
        runs.push_back(it->path().string());
        if (fs::is_regular_file(it->path() / kManifestName, e2))
            manifests.push_back((it->path() / kManifestName).string());
    }
    std::sort(runs.begin(), runs.end());
    std::sort(manifests.begin(), manifests.end());
    if (manifests.size() > 1) {
        d.state = DiskState::Conflict;
        d.detail = "expected at most one manifest under " + d.job_folder + ", found " +
            std::to_string(manifests.size());
        return d;
    }
    if (manifests.size() == 1) {
        d.manifest_path = manifests.front();
        d.run_dir = fs::path(d.manifest_path).parent_path().string();
        auto m = readManifest(d.manifest_path);
        if (!m) {
            d.state = DiskState::Conflict;
            d.detail = m.error();
            return d;
        }
        d.state = DiskState::Preserved;
        d.manifest = std::move(*m);
        return d;
    }
    if (runs.size() == 1) {
        d.run_dir = runs.front();
        d.remote_job_id = submittedJobId(d.run_dir);
    }
    for (const std::string& r : runs)
        if (auto who = liveDriver(r, proc_root)) {
            d.state = DiskState::Running;
            d.run_dir = r;
            d.detail = *who;
            return d;
        }
    if (!d.remote_job_id.empty()) {
        d.state = DiskState::Submitted;
        d.detail = "submitted to Slurm as job " + d.remote_job_id + " by a driver that is gone";
        return d;
    }
    d.state = DiskState::Orphaned;
    d.detail = runs.empty() ? d.job_folder + " exists with no run folder and no manifest"
                            : std::to_string(runs.size()) + " run folder(s) under " + d.job_folder +
            " and no manifest (a driver that stopped before the job ended?)";
    return d;
}

Result<std::string> createRunDirectory(const std::string& output_root, const std::string& name,
                                       const std::string& proc_root)
{
    std::error_code ec;
    fs::create_directories(output_root, ec);
    if (ec)
        return Error{"cannot create output root '" + output_root + "': " + ec.message()};
    const std::string job_folder = (fs::path(output_root) / name).string();
    if (::mkdir(job_folder.c_str(), 0755) != 0)
        return Error{"cannot create '" + job_folder + "': " + std::strerror(errno) +
                     (errno == EEXIST ? " (another driver started it meanwhile?)" : "")};
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::localtime_r(&now, &tm);
    char stamp[64];
    std::strftime(stamp, sizeof stamp, "driver_%Y_%m_%d_%H_%M_%S", &tm);
    const std::string run_dir = job_folder + "/" + stamp;
    if (::mkdir(run_dir.c_str(), 0755) != 0)
        return Error{"cannot create '" + run_dir + "': " + std::strerror(errno)};
    if (auto st = writeJsonAtomic(run_dir + "/" + kDriverFile, driverRecord(proc_root)); !st)
        return Error{st.error()};
    return run_dir;
}

std::vector<std::string> globFiles(const std::string& base_dir, const std::string& pattern)
{
    std::vector<std::string> parts;
    fs::path p(pattern);
    fs::path start = p.is_absolute() ? p.root_path() : fs::path(base_dir);
    for (const auto& c : p.relative_path())
        if (!c.empty() && c != ".")
            parts.push_back(c.string());
    std::vector<std::string> out;
    if (!parts.empty())
        globInto(start, parts, 0, out);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace jb
