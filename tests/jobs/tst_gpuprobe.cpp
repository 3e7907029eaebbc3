// The GPU report and the job processes' GPU memory: nvidia-smi CSV (a fake script first on
// PATH) where NVML cannot be loaded, NVML (the fake library) where it can.
#include <jb/jobs/GpuProbe.h>

#include "JobsTestSupport.h"

#include <QTest>

#include <unistd.h>

class TestGpuProbe : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesQueryGpu()
    {
        auto rows = jb::parseQueryGpu("5, GPU-aaaa, NVIDIA H200, 143771\n7, GPU-bbbb, Odd, Name, 1024\n\n");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().c_str());
        QCOMPARE(rows->size(), std::size_t(2));
        QCOMPARE((*rows)[0], (jb::GpuInfo{5, "GPU-aaaa", "NVIDIA H200", 143771, "nvidia-smi"}));
        QCOMPARE((*rows)[1].name, std::string("Odd, Name"));  // a comma in the name survives
        QCOMPARE((*rows)[1].total_memory_mib, std::int64_t(1024));
        auto bad = jb::parseQueryGpu("5, GPU-aaaa, NVIDIA H200, 143771\nfive, x, y, z\n");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("line 2") != std::string::npos, bad.error().c_str());
    }

    void parsesQueryComputeApps()
    {
        auto rows = jb::parseQueryComputeApps("123, GPU-aaaa, 512\n124, GPU-aaaa, [N/A]\n125, GPU-bbbb, 7\n");
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), std::size_t(2));  // [N/A] is left out
        QCOMPARE(rows->at(0).pid, std::int64_t(123));
        QCOMPARE(rows->at(0).used_mib, std::int64_t(512));
        QCOMPARE(rows->at(1).gpu_uuid, std::string("GPU-bbbb"));
        QVERIFY(jb::parseQueryComputeApps("No running processes found\n")->empty());
        QVERIFY(jb::parseQueryComputeApps("")->empty());
        auto bad = jb::parseQueryComputeApps("123, GPU-aaaa\n");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("expected 'pid, gpu_uuid, used_memory'") != std::string::npos,
                 bad.error().c_str());
    }

    void nvidiaSmiWhereNvmlIsMissing()
    {
        jbtest::FakeGpuMachine m;
        jbtest::writeText(m.procs, "0 " + std::to_string(getpid()) + " 536870912\n");
        jb::GpuProbe probe("/nonexistent/libnvidia-ml.so.1", "");  // nvidia-smi from PATH: the fake
        QVERIFY(probe.nvmlProblem().find("cannot load NVML library") != std::string::npos);
        auto gpu = probe.physicalGpu(1);
        QVERIFY2(gpu.ok(), gpu.ok() ? "" : gpu.error().c_str());
        QCOMPARE(*gpu, (jb::GpuInfo{1, "GPU-11111111-fake-one", "Fake H200", 143771, "nvidia-smi"}));
        auto g0 = probe.physicalGpu(0);
        QVERIFY(g0.ok());
        auto mem = probe.processMemory(*g0, {std::int64_t(getpid())});
        QVERIFY2(mem.ok(), mem.ok() ? "" : mem.error().c_str());
        QCOMPARE(mem->source, std::string("nvidia-smi"));
        QCOMPARE(mem->total_mib, std::int64_t(512));
        // Another GPU's or another process's memory does not count.
        QCOMPARE(probe.processMemory(*gpu, {std::int64_t(getpid())})->total_mib, std::int64_t(0));
        QCOMPARE(probe.processMemory(*g0, {1})->total_mib, std::int64_t(0));
        QVERIFY(!probe.powerW(*g0).has_value());
        QVERIFY(!probe.accounting(*g0, {1}).has_value());
        const std::string calls = jbtest::readText(m.root + "/smi_calls.txt");
        QVERIFY(calls.find("--query-compute-apps=pid,gpu_uuid,used_memory --format=csv,noheader,nounits") !=
                std::string::npos);

        auto missing = probe.physicalGpu(3);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().find("cannot resolve physical GPU 3") != std::string::npos,
                 missing.error().c_str());
        QVERIFY2(missing.error().find("NVML: cannot load") != std::string::npos, missing.error().c_str());
        QVERIFY2(missing.error().find("0 GPU(s) with index 3 among 2") != std::string::npos,
                 missing.error().c_str());
    }

    void nvidiaSmiFailing()
    {
        jbtest::FakeGpuMachine m;
        jbtest::writeText(m.bin + "/broken-smi", "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n",
                          true);
        jb::GpuProbe probe("/nonexistent/libnvidia-ml.so.1", m.bin + "/broken-smi");
        auto gpu = probe.physicalGpu(0);
        QVERIFY(!gpu.ok());
        QVERIFY2(gpu.error().find("exit code 9") != std::string::npos, gpu.error().c_str());
        QVERIFY2(gpu.error().find("NVIDIA-SMI has failed") != std::string::npos, gpu.error().c_str());
        jb::GpuProbe absent("/nonexistent/libnvidia-ml.so.1", "/nonexistent/nvidia-smi");
        QVERIFY(absent.physicalGpu(0).error().find("'/nonexistent/nvidia-smi' does not exist") !=
                std::string::npos);
    }

    void nvmlFirst()
    {
        jbtest::FakeGpuMachine m("accounting 0 1\n");
        jbtest::writeText(m.procs, "0 " + std::to_string(getpid()) + " 268435456\n");
        jb::GpuProbe probe(JB_FAKE_NVML_LIB, "/nonexistent/nvidia-smi");  // nvidia-smi must not be needed
        QVERIFY(probe.nvmlProblem().empty());
        auto gpu = probe.physicalGpu(0);
        QVERIFY2(gpu.ok(), gpu.ok() ? "" : gpu.error().c_str());
        QCOMPARE(*gpu, (jb::GpuInfo{0, "GPU-00000000-fake-zero", "Fake H200", 143771, "nvml"}));
        auto mem = probe.processMemory(*gpu, {std::int64_t(getpid()), 1});
        QVERIFY(mem.ok());
        QCOMPARE(mem->source, std::string("nvml"));
        QCOMPARE(mem->total_mib, std::int64_t(256));
        QCOMPARE(mem->per_pid_mib.at(getpid()), std::int64_t(256));
        QCOMPARE(probe.powerW(*gpu), std::optional<double>(300.0));  // busy: a live process is registered
        const auto acc = probe.accounting(*gpu, {std::int64_t(getpid()), 1});
        QVERIFY(acc.has_value());
        QCOMPARE(acc->enabled, std::optional<bool>(true));
        QCOMPARE(acc->per_process_max_memory_mib.at(getpid()), std::int64_t(256));
        QCOMPARE(acc->max_process_memory_mib, std::int64_t(256));
        QVERIFY(!acc->per_process_max_memory_mib.contains(1));
        QVERIFY(!probe.physicalGpu(9).ok());
    }
};

QTEST_GUILESS_MAIN(TestGpuProbe)
#include "tst_gpuprobe.moc"
