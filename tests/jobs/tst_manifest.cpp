// The manifest as values and as the reference's JSON, and the run folders on disk.
#include <jb/jobs/Manifest.h>
#include <jb/jobs/ProcessTree.h>
#include <jb/jobs/RunFolders.h>

#include "JobsTestSupport.h"

#include <QTest>

#include <filesystem>

#include <unistd.h>

using nlohmann::json;
namespace fs = std::filesystem;

class TestManifest : public QObject {
    Q_OBJECT

private:
    static jb::JobEnergy energyOf(const json& j)
    {
        auto e = jb::JobEnergy::fromJson(j);
        if (!e.ok())
            qFatal("%s", e.error().c_str());
        return *e;
    }

    static jb::JobManifest sample()
    {
        jb::JobSpec spec;
        spec.name = "vgg16_bp";
        spec.argv = {"python3", "train.py", "--out", "{run_dir}"};
        spec.cwd = "/src";
        spec.env = {{"A", "1"}, {"B", std::nullopt}};
        spec.timeout_seconds = 3600;
        spec.grace_seconds = 5;
        spec.gpu = 5;
        spec.result_glob = "histogram_*.json";
        jb::JobManifest m;
        m.job = spec.toJson();
        m.source = {{"git_commit", "0123456789abcdef0123456789abcdef01234567"}, {"git_dirty", false}};
        m.status = jb::JobStatus::Timeout;
        m.return_code = -15;
        m.result = "/runs/vgg16_bp/driver_1/histogram_1.json";
        m.result_sha256 = std::string(64, 'a');
        m.driver_wall_seconds = 3600.25;
        m.started_unix_time = 1.7e9;
        m.completed_unix_time = 1.7e9 + 3611.5;
        m.hardware = {5,
                      "GPU-5",
                      "NVIDIA H200",
                      143771,
                      40960,
                      1.0,
                      "nvml",
                      "nvml",
                      3600,
                      2,
                      "nvidia-smi timed out",
                      jb::JobAccounting{false, {}, {}, 0, 0}};
        m.work = {{"method", "bp"}, {"expected_epochs", 100}};
        m.energy = energyOf({{"counters", {{"nvml:5", {{"total_j", 123.5}, {"marginal_j", 99.25}}}}}});
        m.logs = {{"stdout", "/runs/vgg16_bp/driver_1/stdout.log"},
                  {"stderr", "/runs/vgg16_bp/driver_1/stderr.log"}};
        m.run_directory = "/runs/vgg16_bp/driver_1";
        m.cuda_visible_devices = "5";
        m.argv_run = {"python3", "train.py", "--out", "/runs/vgg16_bp/driver_1"};
        m.concurrent_jobs = {"vgg16_dfa"};
        m.termination = jb::SessionEnding{true, true, {4242, 4243}, {}, 2.5};
        m.notes = {"a note", "caf\xc3\xa9"};
        m.joulebench_version = "0.1.0";
        return m;
    }

private Q_SLOTS:
    void roundTrip()
    {
        const jb::JobManifest m = sample();
        const json j = m.toJson();
        auto back = jb::JobManifest::fromJson(j);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(*back == m);
        // Through text as well (what is on disk).
        auto again = jb::JobManifest::fromJson(json::parse(jb::manifestText(j)));
        QVERIFY(again.ok());
        QVERIFY(*again == m);
    }

    // The typed energy, accounting and Slurm reports read and write exactly the JSON the
    // executors have always written (keys, nulls, integer or float), so a manifest on disk is
    // rewritten byte for byte.
    static json fullReports()
    {
        json j = sample().toJson();
        const json bracket = {{"intervals", 100}, {"mean_w", 250.5}, {"sd_w", 3.25}, {"span_seconds", 10.0}};
        j["energy"] = {
            {"idle_seconds", 1.0},
            {"sampling_period_seconds", 0.1},
            {"counters",
             {{"nvml:5",
               {{"spec", "nvml:5"}, {"available", true}, {"info", {{"kind", "nvml"}, {"update_cadence_ms", 20.0}}},
                {"total_j", 123.5}, {"covered_seconds", 10.2}, {"busy", bracket}, {"idle_before", bracket},
                {"idle_after", bracket}, {"marginal_j", 99.25}, {"ratio", 12.5}, {"verdict", "clean"},
                {"intervals", 140}, {"read_errors", 0}, {"last_error", nullptr}}},
              {"rapl",
               {{"spec", "rapl"}, {"available", true}, {"info", json::object()}, {"total_j", 0.0},
                {"covered_seconds", 0.0}, {"busy", nullptr}, {"idle_before", nullptr}, {"idle_after", nullptr},
                {"marginal_j", nullptr}, {"ratio", nullptr}, {"verdict", nullptr},
                {"marginal_note", "fewer than two intervals in the job or an idle bracket"}, {"intervals", 1},
                {"read_errors", 2}, {"last_error", "EIO"}}},
              {"nvml:1", {{"spec", "nvml:1"}, {"available", false}, {"reason", "NVML not loaded"}}}}},
            {"gpu_counter", "nvml:5"},
            {"package_counter", "rapl"}};
        j["hardware"]["accounting"] = {{"enabled", true},
                                       {"per_process_max_memory_mib", {{"4242", 512}, {"10", 7}}},
                                       {"max_process_memory_mib", 512},
                                       {"sum_of_process_max_memory_mib", 519}};
        j["slurm"] = {{"job_id", "77"}, {"cluster", "lab"}, {"partition", "gpu"}, {"node", "n1"},
                      {"cuda_visible_devices", "0"}, {"job_gpus", "5"},
                      {"gpus", {{{"physical_index", 5}, {"uuid", "GPU-5"}, {"name", "NVIDIA H200"}}}},
                      {"state", "COMPLETED"}, {"reason", nullptr}, {"submit_time", "2024-05-01T10:00:00"},
                      {"start_time", "2024-05-01T10:00:01"}, {"end_time", "2024-05-01T11:00:01"},
                      {"exit_code", 0}, {"signal", 0}, {"state_source", "scontrol"}};
        return j;
    }

    static std::string rewritten(const json& j)
    {
        auto m = jb::JobManifest::fromJson(json::parse(jb::manifestText(j)));
        if (!m.ok())
            return "error: " + m.error();
        return jb::manifestText(m->toJson());
    }

    void reportsRoundTripByteForByte()
    {
        const json j = fullReports();
        QCOMPARE(rewritten(j), jb::manifestText(j));
        auto m = jb::JobManifest::fromJson(j);
        QVERIFY(m.ok());
        // Typed all the way down.
        QVERIFY(m->energy);
        const jb::CounterEnergy* gpu = m->energy->gpuCounter();
        QVERIFY(gpu);
        QCOMPARE(gpu->marginal_j, std::optional<double>(99.25));
        QCOMPARE(gpu->busy->intervals, std::int64_t(100));
        QCOMPARE(gpu->info.at("kind").get<std::string>(), std::string("nvml"));
        QCOMPARE(m->energy->counters.at("rapl").marginal_note,
                 std::optional<std::string>("fewer than two intervals in the job or an idle bracket"));
        QCOMPARE(m->energy->counters.at("nvml:1").available, false);
        QCOMPARE(m->energy->counters.at("nvml:1").reason, std::string("NVML not loaded"));
        QVERIFY(m->hardware.accounting);
        QCOMPARE(m->hardware.accounting->per_process_max_memory_mib.at(4242), std::int64_t(512));
        QCOMPARE(m->hardware.accounting->sum_of_process_max_memory_mib, std::int64_t(519));
        QVERIFY(m->slurm && m->slurm->allocation && m->slurm->end);
        QCOMPARE(m->slurm->allocation->gpus.at(0).uuid, std::string("GPU-5"));
        QCOMPARE(m->slurm->end->state, std::optional<std::string>("COMPLETED"));
        QCOMPARE(m->slurm->end->exit_code, std::optional<int>(0));
        QVERIFY(!m->slurm->end->reason);
        QVERIFY(!m->slurm->written_by);
        // Values to JSON and back are the same values.
        auto again = jb::JobManifest::fromJson(m->toJson());
        QVERIFY(again.ok());
        QVERIFY(*again == *m);
    }

    void partialReportsRoundTripByteForByte()
    {
        json j = fullReports();
        // No NVML, no energy report, a local job (no slurm key at all).
        j["hardware"]["accounting"] = nullptr;
        j["energy"] = nullptr;
        j.erase("slurm");
        QCOMPARE(rewritten(j), jb::manifestText(j));
        auto m = jb::JobManifest::fromJson(j);
        QVERIFY(m.ok());
        QVERIFY(!m->energy && !m->hardware.accounting && !m->slurm);
        QVERIFY(!m->toJson().contains("slurm"));
        // Accounting off, and unreadable; the node's record before the driver added Slurm's end;
        // the driver's own record where the node wrote none.
        j["hardware"]["accounting"] = {{"enabled", false}};
        j["slurm"] = {{"job_id", nullptr}, {"cluster", nullptr}, {"partition", nullptr}, {"node", "n1"},
                      {"cuda_visible_devices", "0"}, {"job_gpus", nullptr}, {"gpus", json::array()}};
        QCOMPARE(rewritten(j), jb::manifestText(j));
        j["hardware"]["accounting"] = {{"enabled", nullptr}, {"error", "NVML: not supported"}};
        j["slurm"] = {{"job_id", "78"}, {"partition", nullptr}, {"node", nullptr}, {"state", "CANCELLED"},
                      {"reason", nullptr}, {"submit_time", nullptr}, {"start_time", nullptr},
                      {"end_time", nullptr}, {"exit_code", nullptr}, {"signal", nullptr},
                      {"state_source", "jobcomp"}, {"written_by", "driver"}};
        QCOMPARE(rewritten(j), jb::manifestText(j));
        m = jb::JobManifest::fromJson(j);
        QVERIFY(m.ok());
        QVERIFY(!m->hardware.accounting->enabled);
        QCOMPARE(m->hardware.accounting->error, std::string("NVML: not supported"));
        QVERIFY(!m->slurm->allocation);
        QCOMPARE(m->slurm->written_by, std::optional<std::string>("driver"));
    }

    void reportsWithWrongValuesNameThePath()
    {
        auto errorOf = [](const json& j) {
            auto m = jb::JobManifest::fromJson(j, "m.json");
            return m.ok() ? std::string("ok") : m.error();
        };
        json j = fullReports();
        j["energy"]["counters"]["nvml:5"]["total_j"] = "lots";
        QCOMPARE(errorOf(j), std::string("m.json: $.energy.counters[\"nvml:5\"].total_j: expected a number, found \"lots\""));
        j = fullReports();
        j["hardware"]["accounting"]["per_process_max_memory_mib"]["abc"] = 1;
        QVERIFY2(errorOf(j).find("$.hardware.accounting.per_process_max_memory_mib.abc") != std::string::npos,
                 errorOf(j).c_str());
        j = fullReports();
        j["slurm"]["gpus"][0]["physical_index"] = "five";
        QCOMPARE(errorOf(j), std::string("m.json: $.slurm.gpus[0].physical_index: expected an integer, found \"five\""));
        j = fullReports();
        j["slurm"]["exit_code"] = 1.5;
        QVERIFY2(errorOf(j).find("$.slurm.exit_code") != std::string::npos, errorOf(j).c_str());
        // The session's ending and the log paths are typed too.
        j = fullReports();
        j["termination"]["surviving_pids"] = {12, "x"};
        QVERIFY2(errorOf(j).find("m.json: $.termination.surviving_pids[1]: expected") != std::string::npos,
                 errorOf(j).c_str());
        j = fullReports();
        j["termination"].erase("seconds");
        QCOMPARE(errorOf(j), std::string("m.json: $.termination: missing key \"seconds\" (a number)"));
        j = fullReports();
        j["logs"]["stdout"] = 5;
        QCOMPARE(errorOf(j), std::string("m.json: $.logs.stdout: expected a string, found 5"));
        j = fullReports();
        j["termination"] = nullptr;  // no session was started
        auto none = jb::JobManifest::fromJson(j);
        QVERIFY(none.ok() && !none->termination);
        QCOMPARE(rewritten(j), jb::manifestText(j));
    }

    void referenceFields()
    {
        const json j = sample().toJson();
        // The job's fields at the top level, as the reference's **job.
        for (const char* k :
             {"name", "argv", "cwd", "env", "timeout_seconds", "grace_seconds", "gpu", "result_glob"})
            QVERIFY2(j.contains(k), k);
        for (const char* k : {"source", "status", "return_code", "histogram", "histogram_sha256", "result",
                              "result_sha256", "driver_wall_seconds", "completed_unix_time", "hardware",
                              "work", "energy", "logs", "joulebench_version"})
            QVERIFY2(j.contains(k), k);
        QVERIFY(j.at("histogram") == j.at("result"));
        QVERIFY(j.at("histogram_sha256") == j.at("result_sha256"));
        QCOMPARE(j.at("status").get<std::string>(), std::string("timeout"));
        for (const char* k : {"physical_index", "uuid", "name", "total_memory_mib",
                              "peak_process_gpu_memory_mib", "memory_sampling_period_seconds"})
            QVERIFY2(j.at("hardware").contains(k), k);
        QCOMPARE(j.at("hardware").at("peak_process_gpu_memory_mib").get<int>(), 40960);
    }

    void samplingPeriodKeepsTheReferenceType()
    {
        // The reference writes `"memory_sampling_period_seconds": 1` (an integer); a whole number
        // stays one, a fraction is a float.
        jb::JobManifest m = sample();
        m.hardware.memory_sampling_period_seconds = 1.0;
        json h = m.toJson().at("hardware");
        QVERIFY(h.at("memory_sampling_period_seconds").is_number_integer());
        QCOMPARE(h.at("memory_sampling_period_seconds").get<int>(), 1);
        QVERIFY(jb::manifestText(m.toJson()).find("\"memory_sampling_period_seconds\": 1,") != std::string::npos);
        m.hardware.memory_sampling_period_seconds = 0.25;
        h = m.toJson().at("hardware");
        QVERIFY(h.at("memory_sampling_period_seconds").is_number_float());
        QCOMPARE(h.at("memory_sampling_period_seconds").get<double>(), 0.25);
    }

    void textAsPythonWritesIt()
    {
        const std::string text = jb::manifestText(
            json{{"b", 1}, {"a", {{"d", "caf\xc3\xa9"}, {"c", nullptr}}}, {"e", json::array()}});
        // json.dump(indent=2, sort_keys=True) + "\n"; non-ASCII escaped as Python's default.
        QCOMPARE(
            text,
            std::string(
                "{\n  \"a\": {\n    \"c\": null,\n    \"d\": \"caf\\u00e9\"\n  },\n  \"b\": 1,\n  \"e\": []\n}\n"));
    }

    void atomicWrite()
    {
        QTemporaryDir tmp;
        const std::string path = jbtest::str(tmp.path()) + "/manifest.json";
        QVERIFY(jb::writeJsonAtomic(path, sample().toJson()).ok());
        QVERIFY(jb::writeJsonAtomic(path, sample().toJson()).ok());  // over an existing one
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(tmp.path().toStdString()))
            names.push_back(e.path().filename().string());
        QCOMPARE(names, std::vector<std::string>{"manifest.json"});  // no temp file left
        auto m = jb::readManifest(path);
        QVERIFY(m.ok());
        QVERIFY(*m == sample());
        auto bad = jb::writeJsonAtomic("/nonexistent/dir/manifest.json", json::object());
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("/nonexistent/dir/manifest.json") != std::string::npos,
                 bad.error().c_str());
    }

    void readsAReferenceManifest()
    {
        // Shaped as the reference driver writes it: `histogram` only, and its own job fields.
        auto m = jb::readManifest(JB_FIXTURES "/jobs/reference_manifest.json");
        QVERIFY2(m.ok(), m.ok() ? "" : m.error().c_str());
        QCOMPARE(m->status, jb::JobStatus::Completed);
        QCOMPARE(m->return_code, std::optional<int>(0));
        QVERIFY(m->result.has_value());
        QVERIFY(m->result->find("histogram.json") != std::string::npos);
        QCOMPARE(m->result_sha256->size(), std::size_t(64));
        QCOMPARE(m->hardware.physical_index, 7);
        QCOMPARE(m->hardware.peak_process_gpu_memory_mib, std::int64_t(20480));
        QCOMPARE(m->hardware.memory_sampling_period_seconds, 1.0);
        QVERIFY(m->job.at("experiment_name") == json("p2_vgg16_dfa_seed0"));
        QVERIFY(m->job.contains("stage") && m->job.contains("command") && m->job.contains("timeout_seconds"));
        QCOMPARE(m->work.at("num_trainable_layers").get<int>(), 16);
        // Written back, every key it had is still there (plus JouleBench's).
        const json back = m->toJson();
        const json orig = json::parse(jbtest::readText(JB_FIXTURES "/jobs/reference_manifest.json"));
        for (auto it = orig.begin(); it != orig.end(); ++it)
            QVERIFY2(back.contains(it.key()), it.key().c_str());
        for (auto it = orig["hardware"].begin(); it != orig["hardware"].end(); ++it)
            QVERIFY2(back["hardware"].contains(it.key()), it.key().c_str());
    }

    void badManifestsNameThePath()
    {
        json j = sample().toJson();
        j["status"] = "finished";
        auto m = jb::JobManifest::fromJson(j, "m.json");
        QVERIFY(!m.ok());
        QVERIFY2(m.error().find("m.json: $.status: expected one of completed") != std::string::npos,
                 m.error().c_str());
        j = sample().toJson();
        j["hardware"]["uuid"] = 5;
        m = jb::JobManifest::fromJson(j, "m.json");
        QVERIFY(!m.ok());
        QVERIFY2(m.error().find("m.json: $.hardware.uuid: expected a string, found 5") !=
                     std::string::npos,
                 m.error().c_str());
        j = sample().toJson();
        j.erase("driver_wall_seconds");
        QVERIFY(jb::JobManifest::fromJson(j, "m.json").error().find("m.json: $.driver_wall_seconds: missing") !=
                std::string::npos);
    }

    void statusNames()
    {
        for (auto s : {jb::JobStatus::Completed, jb::JobStatus::NonzeroExit, jb::JobStatus::Timeout,
                       jb::JobStatus::MissingResult, jb::JobStatus::FailedToStart, jb::JobStatus::Cancelled})
            QCOMPARE(jb::jobStatusFrom(jb::statusName(s)), std::optional<jb::JobStatus>(s));
        QCOMPARE(jb::statusName(jb::JobStatus::MissingResult), std::string("missing_result"));
        QVERIFY(!jb::jobStatusFrom("missing_histogram").has_value());
    }

    void diskStateNames()
    {
        for (auto s : {jb::DiskState::NotRun, jb::DiskState::Preserved, jb::DiskState::Orphaned,
                       jb::DiskState::Running, jb::DiskState::Conflict, jb::DiskState::Submitted})
            QCOMPARE(jb::diskStateFrom(jb::diskStateName(s)), std::optional<jb::DiskState>(s));
        QCOMPARE(jb::diskStateName(jb::DiskState::NotRun), std::string("not_run"));
        QVERIFY(!jb::diskStateFrom("running_elsewhere").has_value());
    }

    void diskStates()
    {
        QTemporaryDir tmp;
        const std::string root = jbtest::str(tmp.path());
        QCOMPARE(jb::inspectJob(root, "fresh").state, jb::DiskState::NotRun);

        auto run = jb::createRunDirectory(root, "done");
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        QVERIFY(fs::path(*run).filename().string().rfind("driver_", 0) == 0);
        QVERIFY(fs::exists(*run + "/driver.json"));
        // This process is the live driver of a folder without a manifest: running, not orphaned.
        QCOMPARE(jb::inspectJob(root, "done").state, jb::DiskState::Running);
        QVERIFY(!jb::createRunDirectory(root, "done").ok());  // never two run folders
        QVERIFY(jb::writeJsonAtomic(*run + "/manifest.json", sample().toJson()).ok());
        auto d = jb::inspectJob(root, "done");
        QCOMPARE(d.state, jb::DiskState::Preserved);
        QCOMPARE(d.manifest_path, *run + "/manifest.json");
        QVERIFY(d.manifest.has_value());
        QCOMPARE(d.manifest->status, jb::JobStatus::Timeout);

        // A folder left by a driver that is gone: an orphan.
        fs::create_directories(root + "/crashed/driver_2020_01_01_00_00_00");
        jbtest::writeText(root + "/crashed/driver_2020_01_01_00_00_00/driver.json",
                          R"({"pid": 999999999, "hostname": "elsewhere", "start_ticks": 1})");
        auto o = jb::inspectJob(root, "crashed");
        QCOMPARE(o.state, jb::DiskState::Orphaned);
        QVERIFY2(o.detail.find("no manifest") != std::string::npos, o.detail.c_str());

        fs::create_directories(root + "/twice/a");
        fs::create_directories(root + "/twice/b");
        jbtest::writeText(root + "/twice/a/manifest.json", "{}");
        jbtest::writeText(root + "/twice/b/manifest.json", "{}");
        QCOMPARE(jb::inspectJob(root, "twice").state, jb::DiskState::Conflict);
        fs::create_directories(root + "/broken/a");
        jbtest::writeText(root + "/broken/a/manifest.json", "{not json");
        auto b = jb::inspectJob(root, "broken");
        QCOMPARE(b.state, jb::DiskState::Conflict);
        QVERIFY2(b.detail.find("not valid JSON") != std::string::npos, b.detail.c_str());
    }

    void driverLivenessReadsTheProcRootItIsGiven()
    {
        QTemporaryDir tmp;
        const std::string root = jbtest::str(tmp.path()) + "/runs";
        const std::string proc = jbtest::str(tmp.path()) + "/proc";
        const std::string self = std::to_string(::getpid());
        fs::create_directories(proc + "/" + self);
        auto fakeStat = [&](const char* start_ticks) {
            jbtest::writeText(proc + "/" + self + "/stat",
                              self + " (tst manifest) S 1 " + self + " " + self +
                                  " 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " + start_ticks + " 1000 10\n");
        };
        fakeStat("4242");
        auto run = jb::createRunDirectory(root, "j", proc);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        const json driver = json::parse(jbtest::readText(*run + "/driver.json"));
        QCOMPARE(driver.at("start_ticks").get<std::uint64_t>(), std::uint64_t(4242));
        QCOMPARE(jb::inspectJob(root, "j", proc).state, jb::DiskState::Running);
        // Another start time under the same pid: the pid was reused, the folder is an orphan.
        fakeStat("4343");
        QCOMPARE(jb::inspectJob(root, "j", proc).state, jb::DiskState::Orphaned);
        const auto missing = jb::readProcEntry(proc, 1);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().find(proc + "/1/stat") != std::string::npos, missing.error().c_str());
    }

    void globs()
    {
        QTemporaryDir tmp;
        const std::string root = jbtest::str(tmp.path());
        fs::create_directories(root + "/out/x1");
        fs::create_directories(root + "/out/x2");
        jbtest::writeText(root + "/out/x1/histogram_1.json", "1");
        jbtest::writeText(root + "/out/x2/histogram_2.json", "2");
        jbtest::writeText(root + "/out/.hidden.json", "h");
        jbtest::writeText(root + "/top.json", "t");
        QCOMPARE(
            jb::globFiles(root, "out/*/histogram_*.json"),
            (std::vector<std::string>{root + "/out/x1/histogram_1.json", root + "/out/x2/histogram_2.json"}));
        QCOMPARE(jb::globFiles(root, "out/x?/histogram_2.json"),
                 std::vector<std::string>{root + "/out/x2/histogram_2.json"});
        QCOMPARE(jb::globFiles(root, "out/*.json"), std::vector<std::string>{});  // no leading dot for '*'
        QCOMPARE(jb::globFiles("/elsewhere", root + "/top.json"),
                 std::vector<std::string>{root + "/top.json"});
        QCOMPARE(jb::globFiles(root, "out"), std::vector<std::string>{});  // folders are not results
    }
};

QTEST_GUILESS_MAIN(TestManifest)
#include "tst_manifest.moc"
