// The manifest as values and as the reference's JSON, and the run folders on disk.
#include "jobs/Manifest.h"
#include "jobs/ProcessTree.h"
#include "jobs/RunFolders.h"

#include "JobsTestSupport.h"

#include <QTest>

#include <filesystem>

#include <unistd.h>

using nlohmann::json;
namespace fs = std::filesystem;

class TestManifest : public QObject {
    Q_OBJECT

private:
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
                      json{{"enabled", false}}};
        m.work = {{"method", "bp"}, {"expected_epochs", 100}};
        m.energy = {{"counters", {{"nvml:5", {{"total_j", 123.5}, {"marginal_j", 99.25}}}}}};
        m.logs = {{"stdout", "/runs/vgg16_bp/driver_1/stdout.log"},
                  {"stderr", "/runs/vgg16_bp/driver_1/stderr.log"}};
        m.run_directory = "/runs/vgg16_bp/driver_1";
        m.cuda_visible_devices = "5";
        m.argv_run = {"python3", "train.py", "--out", "/runs/vgg16_bp/driver_1"};
        m.concurrent_jobs = {"vgg16_dfa"};
        m.termination = {{"sigterm_sent", true}, {"sigkill_sent", true}};
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
