#include <jb/jobs/JobRun.h>

#include <jb/base/Version.h>

#include <cstdlib>

namespace jb {

JobLaunch makeJobLaunch(const JobFile& file, std::size_t index, const std::string& run_dir, const GpuInfo& gpu,
                        const std::optional<std::string>& cuda_visible_devices)
{
    const JobSpec& job = file.jobs.at(index);
    JobLaunch l;
    l.name = job.name;
    auto fill = [&](const std::string& s) { return fillPlaceholders(s, run_dir, job.name, gpu.physical_index); };
    for (const std::string& a : job.argv)
        l.argv.push_back(fill(a));
    l.cwd = fill(job.cwd);
    for (const auto& [k, v] : job.env)
        l.env[k] = v ? std::optional<std::string>(fill(*v)) : std::nullopt;
    if (cuda_visible_devices) {
        // The job sees only its GPU; PCI bus order makes CUDA's index 0 the GPU nvidia-smi numbers so.
        l.env["CUDA_VISIBLE_DEVICES"] = *cuda_visible_devices;
        l.env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
    }
    l.env["JOULEBENCH_RUN_DIR"] = run_dir;
    l.env["JOULEBENCH_JOB_NAME"] = job.name;
    l.timeout_seconds = job.timeout_seconds;
    l.grace_seconds = job.grace_seconds;
    l.result_glob = job.result_glob.empty() ? std::string() : fill(job.result_glob);
    l.run_dir = run_dir;
    l.gpu = gpu;
    l.memory_sampling_period_seconds = file.memory_sampling_period_seconds;
    l.energy = file.energy;
    l.job_file = file.path;
    l.job_index = index;
    return l;
}

JobManifest makeJobManifest(const JobFile& file, std::size_t index, const JobLaunch& launch,
                            const JobOutcome& o, const nlohmann::json& source,
                            const std::vector<std::string>& concurrent_jobs)
{
    if (o.manifest)
        return *o.manifest;
    const JobSpec& job = file.jobs.at(index);
    JobManifest m;
    m.job = job.toJson();
    m.source = source;
    m.status = o.status;
    m.return_code = o.return_code;
    m.result = o.result;
    m.result_sha256 = o.result_sha256;
    m.driver_wall_seconds = o.wall_seconds;
    m.started_unix_time = o.started_unix_time;
    m.completed_unix_time = o.completed_unix_time;
    m.hardware.physical_index = launch.gpu.physical_index;
    m.hardware.uuid = launch.gpu.uuid;
    m.hardware.name = launch.gpu.name;
    m.hardware.total_memory_mib = launch.gpu.total_memory_mib;
    m.hardware.gpu_report_source = launch.gpu.source;
    m.hardware.peak_process_gpu_memory_mib = o.peak_memory_mib;
    m.hardware.memory_sampling_period_seconds = file.memory_sampling_period_seconds;
    m.hardware.memory_source = o.memory_source;
    m.hardware.memory_samples = o.memory_samples;
    m.hardware.memory_read_errors = o.memory_read_errors;
    m.hardware.memory_last_error = o.memory_last_error;
    m.hardware.accounting = o.accounting;
    m.work = job.work;
    m.energy = o.energy;
    m.logs = o.logs;
    m.run_directory = launch.run_dir;
    if (auto it = launch.env.find("CUDA_VISIBLE_DEVICES"); it != launch.env.end())
        m.cuda_visible_devices = it->second.value_or("");
    else if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"))
        m.cuda_visible_devices = v;
    m.argv_run = launch.argv;
    m.concurrent_jobs = concurrent_jobs;
    m.termination = o.termination;
    m.notes = o.notes;
    m.joulebench_version = std::string(kToolVersion);
    m.slurm = o.slurm;
    return m;
}

}  // namespace jb
