#include <jb/jobs/DryRun.h>

#include <jb/jobs/GpuProbe.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace jb {

namespace fs = std::filesystem;

namespace {

// Scripts an interpreter is handed: a missing one is a sure failure.
bool isScript(const std::string& arg)
{
    static const char* const kExt[] = {".py", ".sh", ".bash", ".pl", ".rb",
                                       ".jl", ".R",  ".lua",  ".js", ".ipynb"};
    if (arg.empty() || arg.front() == '-' || arg.find('{') != std::string::npos)
        return false;
    const std::string ext = fs::path(arg).extension().string();
    return std::any_of(std::begin(kExt), std::end(kExt), [&](const char* e) { return ext == e; });
}

bool executable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Where the program would be found, or why not.
Result<std::string> findProgram(const std::string& program, const std::string& cwd, const std::string& path)
{
    if (program.empty())
        return Error{"the command is empty"};
    if (program.find('/') != std::string::npos) {
        fs::path p(program);
        if (p.is_relative() && !cwd.empty())
            p = fs::path(cwd) / p;
        std::error_code ec;
        if (!fs::exists(p, ec))
            return Error{"the program " + p.string() + " does not exist"};
        if (fs::is_directory(p, ec))
            return Error{"the program " + p.string() + " is a folder"};
        if (!executable(p))
            return Error{"the program " + p.string() + " is not executable (chmod +x it)"};
        return p.string();
    }
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const fs::path p = fs::path(dir.empty() ? "." : dir) / program;
        if (executable(p))
            return p.string();
    }
    return Error{"the program " + program + " is not on PATH"};
}

// {run_dir}, {name} and, where the GPU is known, {gpu} filled (as fillPlaceholders at launch).
std::string fill(const std::string& s, const std::string& run_dir, const std::string& name, int gpu)
{
    if (gpu >= 0)
        return fillPlaceholders(s, run_dir, name, gpu);
    std::string out;
    const std::string keep = "{gpu}";
    std::size_t from = 0;
    for (std::size_t at = s.find(keep); at != std::string::npos; at = s.find(keep, from)) {
        out += fillPlaceholders(s.substr(from, at - from), run_dir, name, 0) + keep;
        from = at + keep.size();
    }
    return out + fillPlaceholders(s.substr(from), run_dir, name, 0);
}

bool needsShellQuote(const std::string& s)
{
    return s.empty() || s.find_first_of(" \t\"'\\$`*?;&|<>()") != std::string::npos;
}

}  // namespace

std::string DryRunJob::commandLine() const
{
    std::string out;
    for (const std::string& a : argv) {
        if (!out.empty())
            out += ' ';
        if (!needsShellQuote(a)) {
            out += a;
            continue;
        }
        out += '\'';
        for (char c : a)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

bool DryRunReport::blocking() const
{
    return problemCount() > 0;
}

int DryRunReport::problemCount() const
{
    int n = int(problems.size());
    for (const DryRunJob& j : jobs)
        n += int(j.problems.size());
    return n;
}

std::string DryRunReport::text() const
{
    std::string out;
    auto line = [&out](const std::string& s) { out += (out.empty() ? "" : "\n") + s; };
    for (const std::string& p : problems)
        line(p);
    for (const DryRunJob& j : jobs)
        for (const std::string& p : j.problems)
            line(j.name + ": " + p);
    return out;
}

std::string DryRunReport::notesText() const
{
    std::string out;
    for (const std::string& n : notes)
        out += (out.empty() ? "" : "\n") + n;
    return out;
}

std::string dryRunFolder(const JobFile& file, const std::string& job)
{
    return (fs::path(file.output_root) / job / "driver_<start time>").string();
}

DryRunReport dryRunCheck(const JobFile& file, DryRunEnvironment env)
{
    DryRunReport report;
    if (env.path.empty()) {
        const char* p = std::getenv("PATH");
        env.path = p ? p : "/usr/bin:/bin";
    }
    std::shared_ptr<GpuProbe> probe;
    auto gpuProbe = [&] {
        if (!probe)
            probe = std::make_shared<GpuProbe>(file.nvml_library, file.nvidia_smi);
        return probe;
    };
    if (!env.gpu)
        env.gpu = [&](int index) -> Status {
            auto g = gpuProbe()->physicalGpu(index);
            if (!g)
                return Error{g.error()};
            return Ok{};
        };
    if (!env.nvml_problem)
        env.nvml_problem = [&] { return gpuProbe()->nvmlProblem(); };

    const bool local = file.executor.kind == ExecutorKind::Local;
    std::set<int> gpus;  // the GPUs the jobs would use
    for (const JobSpec& spec : file.jobs) {
        DryRunJob j;
        j.name = spec.name;
        j.run_dir = dryRunFolder(file, spec.name);
        int gpu = -1;
        if (!local) {
            j.gpu = "the cluster's";
        } else if (spec.gpu) {
            gpu = *spec.gpu;
            j.gpu = std::to_string(gpu);
            gpus.insert(gpu);
        } else {
            j.gpu = "any allowed";
            if (!file.allowed_gpus.empty())
                gpu = file.allowed_gpus.front();  // the command shows the first one
            gpus.insert(file.allowed_gpus.begin(), file.allowed_gpus.end());
        }
        for (const std::string& a : spec.argv)
            j.argv.push_back(fill(a, j.run_dir, spec.name, gpu));
        j.cwd = fill(spec.cwd, j.run_dir, spec.name, gpu);

        // The working folder: one inside the run folder is made at launch.
        const bool cwd_later = spec.cwd.find("{run_dir}") != std::string::npos;
        std::error_code ec;
        if (!j.cwd.empty() && !cwd_later && !fs::is_directory(j.cwd, ec))
            j.problems.push_back("its working folder " + j.cwd + " does not exist");
        const std::string base = cwd_later || j.cwd.empty() ? fs::current_path(ec).string() : j.cwd;
        if (local && !j.argv.empty() && j.argv.front().find(j.run_dir) == std::string::npos) {
            if (auto found = findProgram(j.argv.front(), base, env.path); !found)
                j.problems.push_back(found.error());
        }
        for (std::size_t i = 1; local && i < j.argv.size(); ++i) {
            const std::string& a = j.argv[i];
            if (!isScript(a) || a.find(j.run_dir) != std::string::npos)
                continue;
            fs::path p(a);
            if (p.is_relative())
                p = fs::path(base) / p;
            if (!fs::exists(p, ec))
                j.problems.push_back("the file " + a + " does not exist (looked for " + p.string() + ")");
        }
        report.jobs.push_back(std::move(j));
    }

    if (!local) {
        report.notes.push_back(
            "the Slurm executor: the cluster places the jobs; programs, files and GPUs are "
            "checked on its nodes");
        return report;
    }
    for (int g : gpus)
        if (std::find(file.allowed_gpus.begin(), file.allowed_gpus.end(), g) == file.allowed_gpus.end())
            report.problems.push_back("GPU " + std::to_string(g) + " is not in allowed_gpus");
    if (file.jobs.empty())
        return report;
    for (int g : gpus)
        if (Status st = env.gpu(g); !st)
            report.problems.push_back("GPU " + std::to_string(g) + " cannot be reached: " + st.error());
    // The jobs run without NVML, but their manifests then have no GPU energy: worth knowing.
    if (file.energy.gpu) {
        if (const std::string why = env.nvml_problem(); !why.empty())
            report.notes.push_back("energy.gpu asks for each job GPU's nvml:N counter, but NVML cannot be "
                                   "loaded: " +
                                   why +
                                   "; the jobs would run without GPU energy (fix the "
                                   "library path in nvml_library, or set energy.gpu to false)");
    }
    return report;
}

}  // namespace jb
