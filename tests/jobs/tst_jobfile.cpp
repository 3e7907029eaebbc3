// The job file: the documented example parses, defaults and paths resolve, and every bad file
// is refused with the JSON path and what was expected.
#include <jb/jobs/JobFile.h>

#include <QTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

class TestJobFile : public QObject {
    Q_OBJECT

private:
    static json minimal()
    {
        return json::parse(R"({
          "output_root": "runs",
          "allowed_gpus": [5, 7],
          "jobs": [{"name": "a", "argv": ["true"], "timeout_seconds": 5, "gpu": 5}]
        })");
    }

private Q_SLOTS:
    void documentedExampleParses()
    {
        auto f = jb::readJobFile(JB_SOURCE_DIR "/docs/examples/jobs.json");
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        QCOMPARE(f->jobs.size(), std::size_t(3));
        QCOMPARE(f->allowed_gpus, (std::vector<int>{5, 7}));
        QCOMPARE(f->output_root, std::string(JB_SOURCE_DIR "/docs/examples/runs"));
        QCOMPARE(f->provenance.source, std::string(JB_SOURCE_DIR "/docs"));
        QCOMPARE(f->provenance.environment_command.size(), std::size_t(4));
        const jb::JobSpec& third = f->jobs[2];
        QCOMPARE(third.timeout_seconds, 7200.0);  // its own
        QCOMPARE(third.grace_seconds, 30.0);      // from defaults
        QVERIFY(!third.gpu.has_value());          // "any"
        QCOMPARE(third.result_glob, std::string("histogram_*.json"));
        // env from defaults merged with the job's own
        QCOMPARE(third.env.at("PYTHONUNBUFFERED"), std::optional<std::string>("1"));
        QCOMPARE(third.env.at("OMP_NUM_THREADS"), std::optional<std::string>("4"));
        QVERIFY(third.work.at("method") == json("ep"));
        QCOMPARE(f->jobs[0].gpu, std::optional<int>(5));
    }

    void defaultsAndPaths()
    {
        json j = minimal();
        j["defaults"] = {{"grace_seconds", 2}, {"env", {{"A", "1"}, {"B", "2"}}}, {"cwd", "work"}};
        j["jobs"][0]["env"] = {{"B", nullptr}};
        j["nvml_library"] = "lib/fake.so";
        j["nvidia_smi"] = "nvidia-smi";
        auto f = jb::parseJobFileText(j.dump(), "/base");
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        QCOMPARE(f->output_root, std::string("/base/runs"));
        QCOMPARE(f->jobs[0].cwd, std::string("/base/work"));
        QCOMPARE(f->jobs[0].grace_seconds, 2.0);
        QCOMPARE(f->jobs[0].env.at("A"), std::optional<std::string>("1"));
        QVERIFY(!f->jobs[0].env.at("B").has_value());  // null removes it
        QCOMPARE(f->nvml_library, std::string("/base/lib/fake.so"));
        QCOMPARE(f->nvidia_smi, std::string("nvidia-smi"));  // a bare name stays a PATH lookup
        QCOMPARE(f->memory_sampling_period_seconds, 1.0);
        QCOMPARE(f->energy.idle_seconds, 5.0);
        QCOMPARE(f->energy.package_counter, std::string("rapl"));
        QVERIFY(f->jobs[0].toJson().at("gpu") == json(5));
    }

    void placeholders()
    {
        QCOMPARE(jb::fillPlaceholders("--out={run_dir}/{name}.json gpu{gpu} {other} {", "/r", "j", 7),
                 std::string("--out=/r/j.json gpu7 {other} {"));
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("mutation");  // a JSON merge patch applied to minimal()
        QTest::addColumn<QString>("expected");  // the error must contain this

        QTest::newRow("not json") << QString() << QStringLiteral("not valid JSON");
        QTest::newRow("no output_root")
            << QStringLiteral(R"({"output_root": null})") << QStringLiteral("$.output_root: missing");
        QTest::newRow("output_root type") << QStringLiteral(R"({"output_root": 3})")
                                          << QStringLiteral("$.output_root: expected a string, found 3");
        QTest::newRow("allowed_gpus empty") << QStringLiteral(R"({"allowed_gpus": []})")
                                            << QStringLiteral("$.allowed_gpus: expected a non-empty array");
        QTest::newRow("allowed_gpus negative") << QStringLiteral(R"({"allowed_gpus": [5, -1]})")
                                               << QStringLiteral("$.allowed_gpus[1]: expected an integer >= 0");
        QTest::newRow("allowed_gpus huge")
            << QStringLiteral(R"({"allowed_gpus": [5, 1000000000000]})")
            << QStringLiteral("$.allowed_gpus[1]: GPU index 1000000000000 is not a GPU index");
        QTest::newRow("unknown top key")
            << QStringLiteral(R"({"output_rot": "x"})") << QStringLiteral("$.output_rot: unknown key");
        QTest::newRow("jobs empty") << QStringLiteral(R"({"jobs": []})")
                                    << QStringLiteral("$.jobs: expected a non-empty array");
        QTest::newRow("argv not strings")
            << QStringLiteral(
                   R"({"jobs": [{"name": "a", "argv": ["x", 1], "timeout_seconds": 1, "gpu": 5}]})")
            << QStringLiteral("$.jobs[0].argv[1]: expected a string, found 1");
        QTest::newRow("argv empty")
            << QStringLiteral(R"({"jobs": [{"name": "a", "argv": [], "timeout_seconds": 1, "gpu": 5}]})")
            << QStringLiteral("$.jobs[0].argv: expected a non-empty array");
        QTest::newRow("no timeout") << QStringLiteral(R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5}]})")
                                    << QStringLiteral("$.jobs[0].timeout_seconds: missing");
        QTest::newRow("timeout zero")
            << QStringLiteral(R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout_seconds": 0}]})")
            << QStringLiteral("$.jobs[0].timeout_seconds: expected a number > 0");
        QTest::newRow("gpu not allowed")
            << QStringLiteral(R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 3, "timeout_seconds": 1}]})")
            << QStringLiteral("$.jobs[0].gpu: GPU 3 is not in allowed_gpus [5, 7]");
        QTest::newRow("gpu word")
            << QStringLiteral(
                   R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": "all", "timeout_seconds": 1}]})")
            << QStringLiteral("$.jobs[0].gpu: expected a GPU index (an integer >= 0) or \"any\"");
        QTest::newRow("bad name")
            << QStringLiteral(R"({"jobs": [{"name": "a/b", "argv": ["x"], "gpu": 5, "timeout_seconds": 1}]})")
            << QStringLiteral("$.jobs[0].name: \"a/b\" cannot name a folder");
        QTest::newRow("duplicate name")
            << QStringLiteral(R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout_seconds": 1},
                                           {"name": "a", "argv": ["y"], "gpu": 7, "timeout_seconds": 1}]})")
            << QStringLiteral("$.jobs[1].name: \"a\" names an earlier job too");
        QTest::newRow("env value")
            << QStringLiteral(
                   R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout_seconds": 1, "env": {"N": 3}}]})")
            << QStringLiteral("$.jobs[0].env.N: expected a string, found 3");
        // A key that is not a plain name is quoted in brackets, as in a record's "rapl:psys".
        QTest::newRow("env value, odd name")
            << QStringLiteral(
                   R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout_seconds": 1, "env": {"MY-VAR": []}}]})")
            << QStringLiteral("$.jobs[0].env[\"MY-VAR\"]: expected a string, found an empty array");
        QTest::newRow("unknown job key")
            << QStringLiteral(R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout": 1}]})")
            << QStringLiteral("$.jobs[0].timeout: unknown key");
        QTest::newRow("work not object")
            << QStringLiteral(
                   R"({"jobs": [{"name": "a", "argv": ["x"], "gpu": 5, "timeout_seconds": 1, "work": [1]}]})")
            << QStringLiteral("$.jobs[0].work: expected an object, found an array of 1");
        QTest::newRow("provenance without source")
            << QStringLiteral(R"({"provenance": {"require_clean": true}})")
            << QStringLiteral("$.provenance.source: missing");
        QTest::newRow("provenance files")
            << QStringLiteral(R"({"provenance": {"source": ".", "files": "a.txt"}})")
            << QStringLiteral("$.provenance.files: expected an array of strings, found \"a.txt\"");
        QTest::newRow("energy period")
            << QStringLiteral(R"({"energy": {"sampling_period_seconds": -1}})")
            << QStringLiteral("$.energy.sampling_period_seconds: expected a number >= 0.001");
        QTest::newRow("defaults gpu not allowed")
            << QStringLiteral(
                   R"({"defaults": {"gpu": 2}, "jobs": [{"name": "a", "argv": ["x"], "timeout_seconds": 1}]})")
            << QStringLiteral("$.defaults.gpu: GPU 2 is not in allowed_gpus [5, 7] (job \"a\")");
        QTest::newRow("executor unknown key")
            << QStringLiteral(R"({"executor": {"kind": "slurm", "partiton": "gpu"}})")
            << QStringLiteral("$.executor.partiton: unknown key");
        QTest::newRow("executor local with slurm keys")
            << QStringLiteral(R"({"executor": {"kind": "local", "partition": "gpu"}})")
            << QStringLiteral("$.executor.partition: unknown key");
        QTest::newRow("executor kind")
            << QStringLiteral(R"({"executor": {"kind": "pbs"}})")
            << QStringLiteral("$.executor.kind: unknown executor \"pbs\"; expected \"local\" or \"slurm\"");
        QTest::newRow("executor no kind") << QStringLiteral(R"({"executor": {"partition": "gpu"}})")
                                          << QStringLiteral("$.executor.kind: missing");
        QTest::newRow("executor gpus_per_job")
            << QStringLiteral(R"({"executor": {"kind": "slurm", "gpus_per_job": -1}})")
            << QStringLiteral("$.executor.gpus_per_job: expected an integer >= 0");
        QTest::newRow("executor sbatch_args")
            << QStringLiteral(R"({"executor": {"kind": "slurm", "sbatch_args": ["--x", 2]}})")
            << QStringLiteral("$.executor.sbatch_args[1]: expected a string, found 2");
        QTest::newRow("slurm fixed gpu")
            << QStringLiteral(R"({"executor": {"kind": "slurm"}})")
            << QStringLiteral("$.jobs[0].gpu: a fixed GPU index (5) belongs to the local executor; with Slurm");
        QTest::newRow("version") << QStringLiteral(R"({"version": 2})")
                                 << QStringLiteral("$.version: this JouleBench reads job files of version 1");
    }

    void slurmExecutor()
    {
        json j = json::parse(R"({
          "output_root": "runs",
          "executor": {"kind": "slurm", "partition": "gpu", "account": "lab", "qos": "normal",
                       "gpus_per_job": 2, "cpus_per_job": 8, "mem_per_job": "16G",
                       "sbatch_args": ["--constraint=h200"], "slurm_bin": "bin", "slurm_conf": "etc/slurm.conf"},
          "jobs": [{"name": "a", "argv": ["true"], "timeout_seconds": 5},
                   {"name": "b", "argv": ["true"], "timeout_seconds": 5, "gpu": "any"}]
        })");
        auto f = jb::parseJobFileText(j.dump(), "/base");  // no allowed_gpus, no gpu: Slurm's
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        const jb::ExecutorSettings& e = f->executor;
        QCOMPARE(e.kind, jb::ExecutorKind::Slurm);
        QCOMPARE(e.partition, std::string("gpu"));
        QCOMPARE(e.account, std::string("lab"));
        QCOMPARE(e.qos, std::string("normal"));
        QCOMPARE(e.gpus_per_job, 2);
        QCOMPARE(e.cpus_per_job, std::optional<int>(8));
        QCOMPARE(e.mem_per_job, std::string("16G"));
        QCOMPARE(e.sbatch_args, std::vector<std::string>{"--constraint=h200"});
        QCOMPARE(e.slurm_bin, std::string("/base/bin"));
        QCOMPARE(e.slurm_conf, std::string("/base/etc/slurm.conf"));
        QVERIFY(f->allowed_gpus.empty());
        QVERIFY(!f->jobs[0].gpu.has_value());
        QVERIFY(!f->jobs[1].gpu.has_value());

        // The same file with the local executor needs what the local executor needs.
        auto local = jb::parseJobFileText(j.dump(), "/base", "jobs.json", jb::ExecutorKind::Local);
        QVERIFY(!local.ok());
        QVERIFY2(local.error().find("$.allowed_gpus: missing") != std::string::npos, local.error().c_str());

        // A local file run with `--executor slurm`: its fixed GPU indices are refused.
        auto over = jb::parseJobFileText(minimal().dump(), "/base", "jobs.json", jb::ExecutorKind::Slurm);
        QVERIFY(!over.ok());
        QVERIFY2(over.error().find("$.jobs[0].gpu: a fixed GPU index (5) belongs to the local executor") !=
                     std::string::npos,
                 over.error().c_str());
        json any = minimal();
        any["jobs"][0]["gpu"] = "any";
        auto ok = jb::parseJobFileText(any.dump(), "/base", "jobs.json", jb::ExecutorKind::Slurm);
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().c_str());
        QCOMPARE(ok->executor.kind, jb::ExecutorKind::Slurm);
        QCOMPARE(ok->executor.gpus_per_job, 1);  // the default
        auto plain = jb::parseJobFileText(minimal().dump(), "/base");
        QCOMPARE(plain->executor.kind, jb::ExecutorKind::Local);
    }

    void numberOutOfRangeIsAnError()
    {
        // Found by fuzzing: nlohmann throws out_of_range (not parse_error) for 11e308, which
        // ended the program; it is now a message like any broken JSON.
        auto f = jb::parseJobFileText(R"({"output_root": "x", "memory_sampling_period_seconds": 11e308})", "/base",
                                      "jobs.json");
        QVERIFY(!f.ok());
        QVERIFY2(f.error() == "jobs.json: $.memory_sampling_period_seconds: expected a number, found 11e308 (beyond "
                              "any number a double holds)",
                 f.error().c_str());
    }

    // Item 9 of issue 30: seconds are bounded where they are read (1e10 s overflowed the
    // nanosecond deadline: an instant timeout), and a number beyond a double names its path.
    void secondsAreBoundedAndNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString job = QStringLiteral(R"({"output_root": "x", "allowed_gpus": [0], "jobs": [%1]})");
        QTest::newRow("timeout 1e10")
            << job.arg(QStringLiteral(R"({"name": "a", "argv": ["true"], "timeout_seconds": 1e10})"))
            << QStringLiteral("jobs.json: $.jobs[0].timeout_seconds: expected seconds up to 10000000 (about 115 "
                              "days), found 10000000000.0");
        QTest::newRow("timeout 1e400")
            << job.arg(QStringLiteral(R"({"name": "a", "argv": ["true"], "timeout_seconds": 1e400})"))
            << QStringLiteral("jobs.json: $.jobs[0].timeout_seconds: expected a number, found 1e400 (beyond any "
                              "number a double holds)");
        QTest::newRow("second job's grace")
            << job.arg(QStringLiteral(R"({"name": "a", "argv": ["true"], "timeout_seconds": 1}, )"
                                      R"({"name": "b", "argv": ["true"], "timeout_seconds": 1, "grace_seconds": [1, -1e999]})"))
            << QStringLiteral("jobs.json: $.jobs[1].grace_seconds[1]: expected a number, found -1e999");
        QTest::newRow("idle seconds")
            << QStringLiteral(R"({"output_root": "x", "allowed_gpus": [0], "energy": {"idle_seconds": 2e7}, )"
                              R"("jobs": [{"name": "a", "argv": ["true"], "timeout_seconds": 1}]})")
            << QStringLiteral("jobs.json: $.energy.idle_seconds: expected seconds up to 10000000");
    }
    void secondsAreBoundedAndNamed()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto f = jb::parseJobFileText(text.toStdString(), "/base", "jobs.json");
        QVERIFY(!f.ok());
        QVERIFY2(f.error().rfind(expected.toStdString(), 0) == 0, f.error().c_str());
        auto fine = jb::parseJobFileText(
            R"({"output_root": "x", "allowed_gpus": [0], "jobs": [{"name": "a", "argv": ["true"], "timeout_seconds": 1e7, "gpu": 0}]})",
            "/base", "jobs.json");
        QVERIFY2(fine.ok(), fine.ok() ? "" : fine.error().c_str());
    }

    void badFiles()
    {
        QFETCH(QString, mutation);
        QFETCH(QString, expected);
        std::string text;
        if (mutation.isEmpty()) {
            text = "{\"output_root\": ";
        } else {
            json j = minimal();
            j.merge_patch(json::parse(mutation.toStdString()));
            text = j.dump();
        }
        auto f = jb::parseJobFileText(text, "/base", "jobs.json");
        QVERIFY(!f.ok());
        QVERIFY2(f.error().rfind("jobs.json: ", 0) == 0, f.error().c_str());
        QVERIFY2(f.error().find(expected.toStdString()) != std::string::npos, f.error().c_str());
    }

    void unreadableFile()
    {
        auto f = jb::readJobFile("/nonexistent/jobs.json");
        QVERIFY(!f.ok());
        QVERIFY2(f.error().find("cannot read job file '/nonexistent/jobs.json'") != std::string::npos,
                 f.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TestJobFile)
#include "tst_jobfile.moc"
