// The jobs dry run's checks (core/jobs/DryRun): the documented example on a machine without its
// train.py, python3 or GPUs names each problem; placeholders are filled; a file whose programs,
// scripts and GPUs are all there has nothing blocking.
#include <jb/jobs/DryRun.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestDryRun : public QObject {
    Q_OBJECT

    // GPU 5 answers, GPU 7 does not; NVML does not load.
    static jb::DryRunEnvironment machine(const std::string& path)
    {
        jb::DryRunEnvironment env;
        env.path = path;
        env.gpu = [](int i) -> jb::Status {
            if (i == 5)
                return jb::Ok{};
            return jb::Error{"nvidia-smi knows no GPU " + std::to_string(i)};
        };
        env.nvml_problem = [] { return std::string("libnvidia-ml.so.1: cannot open shared object file"); };
        return env;
    }

private Q_SLOTS:
    void theExampleOnABareMachineNamesEveryProblem()
    {
        auto f = jb::readJobFile(JB_SOURCE_DIR "/docs/examples/jobs.json");
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        QTemporaryDir empty;  // a PATH without python3
        const jb::DryRunReport r = jb::dryRunCheck(f.value(), machine(empty.path().toStdString()));
        QVERIFY(r.blocking());
        QCOMPARE(r.jobs.size(), std::size_t(3));
        const jb::DryRunJob& first = r.jobs[0];
        QCOMPARE(first.gpu, std::string("5"));
        // {run_dir} filled: the command as it would run.
        const std::string run_dir = JB_SOURCE_DIR "/docs/examples/runs/vgg16_bp_seed0/driver_<start time>";
        QCOMPARE(first.run_dir, run_dir);
        QCOMPARE(first.argv.back(), run_dir);
        QVERIFY2(first.commandLine().find("python3 train.py --arch vgg16") == 0, first.commandLine().c_str());
        QVERIFY(first.commandLine().find("{run_dir}") == std::string::npos);
        const std::string text = r.text();
        QVERIFY2(text.find("vgg16_bp_seed0: the program python3 is not on PATH") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("vgg16_bp_seed0: the file train.py does not exist") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("GPU 7 cannot be reached: nvidia-smi knows no GPU 7") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("GPU 5 cannot") == std::string::npos, text.c_str());
        // Without NVML the jobs run, without GPU energy: a note, not a problem.
        QVERIFY2(text.find("NVML") == std::string::npos, text.c_str());
        QVERIFY2(r.notesText().find("NVML cannot be loaded: libnvidia-ml.so.1") != std::string::npos,
                 r.notesText().c_str());
        // The job that takes any allowed GPU shows the first one in its command.
        QCOMPARE(r.jobs[2].gpu, std::string("any allowed"));
    }

    void aRunnableFileHasNothingBlocking()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        std::ofstream(root + "/job.sh") << "#!/bin/sh\nexit 0\n";
        json j = {{"output_root", "runs"},
                  {"allowed_gpus", {5}},
                  {"energy", {{"gpu", false}}},
                  {"jobs",
                   {{{"name", "a"},
                     {"argv", {"sh", "job.sh", "--gpu", "{gpu}", "--out", "{run_dir}/x"}},
                     {"timeout_seconds", 5},
                     {"gpu", 5}}}}};
        auto f = jb::parseJobFileText(j.dump(), root);
        QVERIFY2(f.ok(), f.ok() ? "" : f.error().c_str());
        const jb::DryRunReport r = jb::dryRunCheck(f.value(), machine("/usr/bin:/bin"));
        QVERIFY2(!r.blocking(), r.text().c_str());
        QCOMPARE(r.jobs[0].argv[3], std::string("5"));
        QCOMPARE(r.jobs[0].argv[5], root + "/runs/a/driver_<start time>/x");

        // The program given by path, missing: named.
        j["jobs"][0]["argv"] = {"./bin/trainer", "{run_dir}"};
        f = jb::parseJobFileText(j.dump(), root);
        QVERIFY(f.ok());
        const jb::DryRunReport missing = jb::dryRunCheck(f.value(), machine("/usr/bin:/bin"));
        QVERIFY(missing.blocking());
        QVERIFY2(missing.text() == "a: the program " + root + "/./bin/trainer does not exist" ||
                     missing.text() == "a: the program " + root + "/bin/trainer does not exist",
                 missing.text().c_str());
    }
};

QTEST_GUILESS_MAIN(TestDryRun)
#include "tst_dryrun.moc"
