#pragma once
// What the job tests share: a fake GPU machine (a fake nvidia-smi first on PATH, the fake NVML
// library's script, the file where fake jobs register their GPU memory), files in a temporary
// folder, and a job file builder.
#include <jb/jobs/Manifest.h>
#include <jb/jobs/RunFolders.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

// QCOMPARE prints these by name.
namespace QTest {
template <>
inline char* toString(const jb::JobStatus& s)
{
    return qstrdup(jb::statusName(s).c_str());
}
template <>
inline char* toString(const jb::DiskState& s)
{
    return qstrdup(jb::diskStateName(s).c_str());
}
}  // namespace QTest

namespace jbtest {

inline std::string str(const QString& s)
{
    return s.toStdString();
}

inline void writeText(const std::string& path, const std::string& text, bool executable = false)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (executable)
        QFile::setPermissions(QString::fromStdString(path),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

inline std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string workerPath()
{
    return JB_TEST_BIN_DIR "/jobs_worker";
}

// Two fake GPUs, indices 0 and 1, as both NVML and nvidia-smi describe them.
inline constexpr const char* kGpusCsv = "0, GPU-00000000-fake-zero, Fake H200, 143771\n"
                                        "1, GPU-11111111-fake-one, Fake H200, 143771\n";

// A fake machine in a temporary folder; the environment changes are undone on destruction.
class FakeGpuMachine {
public:
    explicit FakeGpuMachine(const std::string& nvml_extra = {})
    {
        root = str(dir.path());
        procs = root + "/gpu_procs.txt";
        writeText(procs, "");
        bin = root + "/bin";
        QDir().mkpath(QString::fromStdString(bin));
        writeText(root + "/gpus.csv", kGpusCsv);
        // Lists live pids of the procs file (zombies count as gone, as in the fake NVML).
        writeText(bin + "/nvidia-smi",
                  "#!/bin/sh\n"
                  "# fake nvidia-smi written by the JouleBench tests\n"
                  "echo \"$@\" >> '" +
                      root +
                      "/smi_calls.txt'\n"
                      "case \"$1\" in\n"
                      "  --query-gpu=index,uuid,name,memory.total) cat '" +
                      root +
                      "/gpus.csv'; exit 0;;\n"
                      "  --query-compute-apps=pid,gpu_uuid,used_memory)\n"
                      "    while read gpu pid bytes; do\n"
                      "      state=$(sed 's/.*) \\(.\\).*/\\1/' /proc/$pid/stat 2>/dev/null)\n"
                      "      if [ -n \"$state\" ] && [ \"$state\" != Z ]; then\n"
                      "        uuid=$(sed -n \"s/^$gpu, \\([^,]*\\),.*/\\1/p\" '" +
                      root +
                      "/gpus.csv')\n"
                      "        echo \"$pid, $uuid, $((bytes / 1048576))\"\n"
                      "      fi\n"
                      "    done < \"$JB_FAKE_GPU_PROCS\"\n"
                      "    exit 0;;\n"
                      "esac\n"
                      "echo \"fake nvidia-smi: unexpected arguments $*\" >&2\n"
                      "exit 2\n",
                  true);
        nvml_script = root + "/nvml.txt";
        writeText(nvml_script,
                  "gpu 0 GPU-00000000-fake-zero 143771 Fake H200\n"
                  "gpu 1 GPU-11111111-fake-one 143771 Fake H200\n"
                  "idle_mw 0 50000\nbusy_mw 0 300000\n"
                  "idle_mw 1 60000\nbusy_mw 1 200000\n"
                  "procs " +
                      procs + "\n" + nvml_extra);
        old_path = qgetenv("PATH");
        qputenv("PATH", QByteArray::fromStdString(bin) + ":" + old_path);
        qputenv("JB_FAKE_GPU_PROCS", QByteArray::fromStdString(procs));
        qputenv("JB_FAKE_NVML", QByteArray::fromStdString(nvml_script));
    }
    ~FakeGpuMachine()
    {
        qputenv("PATH", old_path);
        qunsetenv("JB_FAKE_GPU_PROCS");
        qunsetenv("JB_FAKE_NVML");
    }

    QTemporaryDir dir;
    std::string root, procs, bin, nvml_script;
    QByteArray old_path;
};

// A job file for fast tests: short idle brackets and sampling periods.
inline nlohmann::json baseJobFile(const std::string& output_root)
{
    nlohmann::json f;
    f["output_root"] = output_root;
    f["allowed_gpus"] = {0, 1};
    f["memory_sampling_period_seconds"] = 0.1;
    f["energy"] = {{"idle_seconds", 0.15}, {"sampling_period_seconds", 0.02}, {"package_counter", nullptr}};
    f["defaults"] = {{"timeout_seconds", 10}, {"grace_seconds", 0.3}, {"gpu", "any"}};
    f["jobs"] = nlohmann::json::array();
    return f;
}

inline nlohmann::json workerJob(const std::string& name, std::vector<std::string> args)
{
    std::vector<std::string> argv{workerPath()};
    argv.insert(argv.end(), args.begin(), args.end());
    return {{"name", name}, {"argv", argv}};
}

}  // namespace jbtest
