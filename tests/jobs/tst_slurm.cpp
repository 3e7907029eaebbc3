// What JouleBench reads from Slurm (scontrol, sbatch, the jobcomp log) on output captured from a
// real one-node cluster (tests/fixtures/slurm/README.md), and the sbatch line and batch script
// it writes.
#include <jb/jobs/Slurm.h>

#include "JobsTestSupport.h"

#include <QTest>

#include <cstdlib>

namespace {

std::string fixture(const char* name)
{
    return jbtest::readText(std::string(JB_FIXTURES "/slurm/") + name);
}

}  // namespace

class TestSlurm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scontrolStates_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("signal");
        QTest::addColumn<bool>("finished");
        QTest::newRow("running") << "scontrol_running.txt" << "RUNNING" << "" << "vm" << 0 << 0 << false;
        QTest::newRow("pending") << "scontrol_pending_priority.txt" << "PENDING" << "Priority" << "" << 0 << 0
                                 << false;
        QTest::newRow("completed") << "scontrol_completed.txt" << "COMPLETED" << "" << "vm" << 0 << 0 << true;
        QTest::newRow("failed") << "scontrol_failed.txt" << "FAILED" << "NonZeroExitCode" << "vm" << 3 << 0
                                << true;
        QTest::newRow("timeout") << "scontrol_timeout.txt" << "TIMEOUT" << "TimeLimit" << "vm" << 0 << 15 << true;
        QTest::newRow("cancelled while pending")
            << "scontrol_cancelled_pending.txt" << "CANCELLED" << "Resources" << "" << 0 << 0 << true;
    }

    void scontrolStates()
    {
        QFETCH(QString, file);
        QFETCH(QString, state);
        QFETCH(QString, reason);
        QFETCH(QString, node);
        QFETCH(int, exitCode);
        QFETCH(int, signal);
        QFETCH(bool, finished);
        auto info = jb::parseScontrolJob(fixture(file.toStdString().c_str()));
        QVERIFY2(info.ok(), info.ok() ? "" : info.error().c_str());
        QCOMPARE(QString::fromStdString(info->state), state);
        QCOMPARE(QString::fromStdString(info->reason), reason);
        QCOMPARE(QString::fromStdString(info->node), node);
        QCOMPARE(info->exit_code, std::optional<int>(exitCode));
        QCOMPARE(info->signal, std::optional<int>(signal));
        QCOMPARE(info->finished(), finished);
        QCOMPARE(info->partition, std::string("debug"));
        QVERIFY(!info->job_id.empty());
        QVERIFY(info->submit_time.rfind("2026-", 0) == 0);
        QCOMPARE(info->source, std::string("scontrol"));
    }

    void scontrolDetails()
    {
        auto run = jb::parseScontrolJob(fixture("scontrol_running.txt"));
        QVERIFY(run.ok());
        QCOMPARE(run->job_id, std::string("37701003"));
        QCOMPARE(run->start_time, std::string("2026-12-01T07:40:39"));
        QCOMPARE(run->end_time, std::string());  // "Unknown"
        QCOMPARE(run->std_out, std::string("/tmp/jbslurm/slurm-37701003.out"));
        auto pend = jb::parseScontrolJob(fixture("scontrol_pending_priority.txt"));
        QVERIFY(pend.ok());
        QVERIFY(pend->pending());
        QCOMPARE(pend->name, std::string("pender"));
        QCOMPARE(pend->start_time, std::string());

        // What scontrol says for a job it no longer knows is not a record.
        auto gone = jb::parseScontrolJob(fixture("scontrol_invalid_job.txt"));
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error().find("no job record") != std::string::npos, gone.error().c_str());
    }

    void jobcomp()
    {
        const std::string log = fixture("jobcomp.txt");
        auto failed = jb::findInJobcomp(log, "37701001");
        QVERIFY(failed.has_value());
        QCOMPARE(failed->state, std::string("FAILED"));
        QCOMPARE(failed->exit_code, std::optional<int>(3));
        QVERIFY(!failed->signal.has_value());  // the log drops it
        QCOMPARE(failed->node, std::string("vm"));
        QCOMPARE(failed->source, std::string("jobcomp"));
        auto timeout = jb::findInJobcomp(log, "37701002");
        QVERIFY(timeout.has_value());
        QCOMPARE(timeout->state, std::string("TIMEOUT"));
        QVERIFY(!jb::findInJobcomp(log, "3770100").has_value());  // a prefix of ids is not an id
        QVERIFY(!jb::findInJobcomp(log, "99").has_value());
        QVERIFY(!jb::parseJobcompLine("nothing here").ok());

        QCOMPARE(jb::jobcompLogFromConfig(fixture("scontrol_config.txt")),
                 std::string("/tmp/jbslurm/c/log/jobcomp.txt"));
        QCOMPARE(jb::jobcompLogFromConfig("JobCompType = jobcomp/none\nJobCompLoc = /x\n"), std::string());
    }

    void sbatchReplies()
    {
        auto ok = jb::parseSbatchParsable(fixture("sbatch_parsable.txt"));
        QVERIFY(ok.ok());
        QCOMPARE(ok->job_id, std::string("37701000"));
        auto cl = jb::parseSbatchParsable("sbatch: warning: something\n42;gpu-cluster\n");
        QVERIFY(cl.ok());
        QCOMPARE(cl->job_id, std::string("42"));
        QCOMPARE(cl->cluster, std::string("gpu-cluster"));
        QVERIFY(!jb::parseSbatchParsable("").ok());
        QVERIFY(!jb::parseSbatchParsable(fixture("sbatch_bad_partition.txt")).ok());
        QVERIFY(jb::scontrolSaysNotFound(fixture("scontrol_partition_missing.txt")));
        QVERIFY(!jb::scontrolSaysNotFound(fixture("scontrol_partition.txt")));
    }

    void statuses()
    {
        QCOMPARE(jb::statusForSlurmState("TIMEOUT"), std::optional<jb::JobStatus>(jb::JobStatus::Timeout));
        QCOMPARE(jb::statusForSlurmState("CANCELLED"), std::optional<jb::JobStatus>(jb::JobStatus::Cancelled));
        QCOMPARE(jb::statusForSlurmState("NODE_FAIL"), std::optional<jb::JobStatus>(jb::JobStatus::NodeFailed));
        QCOMPARE(jb::statusForSlurmState("PREEMPTED"), std::optional<jb::JobStatus>(jb::JobStatus::Preempted));
        QVERIFY(!jb::statusForSlurmState("RUNNING").has_value());
        QCOMPARE(jb::statusName(jb::JobStatus::NodeFailed), std::string("node_failed"));
        QCOMPARE(jb::jobStatusFrom("preempted"), std::optional<jb::JobStatus>(jb::JobStatus::Preempted));
    }

    void gpusOfTheAllocation()
    {
        QCOMPARE(jb::allocatedGpus(std::string("1"), std::string("0")), (std::vector<int>{1}));  // physical first
        QCOMPARE(jb::allocatedGpus(std::nullopt, std::string("0,1")), (std::vector<int>{0, 1}));
        QCOMPARE(jb::allocatedGpus(std::nullopt, std::string("GPU-1234")), std::vector<int>{});
        QCOMPARE(jb::allocatedGpus(std::nullopt, std::nullopt), std::vector<int>{});
        const auto rec = jb::slurmNodeRecord({"SLURM_JOB_ID=7", "SLURMD_NODENAME=n1", "CUDA_VISIBLE_DEVICES=0"}, {})
                             .toJson();
        QVERIFY(rec["job_id"] == "7");
        QVERIFY(rec["node"] == "n1");
        QVERIFY(rec["partition"].is_null());
    }

    void sbatchLineAndScript()
    {
        jb::ExecutorSettings s;
        s.kind = jb::ExecutorKind::Slurm;
        s.partition = "gpu";
        s.account = "lab";
        s.qos = "high";
        s.gpus_per_job = 2;
        s.cpus_per_job = 4;
        s.mem_per_job = "8G";
        s.sbatch_args = {"--constraint=h200"};
        jb::SlurmPrograms progs{"/opt/slurm/bin", "/etc/slurm/x.conf"};
        const auto argv = jb::sbatchArgv(progs, s, {"a", "/runs/a/d", "/runs/a/d/slurm_job.sh", 7});
        const std::vector<std::string> want{"/usr/bin/env",        "SLURM_CONF=/etc/slurm/x.conf",
                                            "/opt/slurm/bin/sbatch", "--parsable",
                                            "--job-name=jb-a",       "--chdir=/runs/a/d",
                                            "--output=/runs/a/d/slurm-%j.out", "--time=7",
                                            "--partition=gpu",       "--account=lab",
                                            "--qos=high",            "--gres=gpu:2",
                                            "--cpus-per-task=4",     "--mem=8G",
                                            "--constraint=h200",     "/runs/a/d/slurm_job.sh"};
        QCOMPARE(argv, want);
        s = jb::ExecutorSettings{};
        s.gpus_per_job = 0;
        const auto bare = jb::sbatchArgv({}, s, {"b", "/r", "/r/s.sh", 1});
        QCOMPARE(bare.front(), std::string("sbatch"));
        QCOMPARE(bare.size(), std::size_t(7));

        QCOMPARE(jb::shellQuote("it's"), std::string("'it'\\''s'"));
        const std::string script = jb::batchScript({"/bin/jb cli", "jobs", "exec"});
        QVERIFY(script.rfind("#!/bin/sh\n", 0) == 0);
        QVERIFY2(script.find("\nexec '/bin/jb cli' 'jobs' 'exec'\n") != std::string::npos, script.c_str());

        // Slurm's limit stays behind the job's own timeout, grace and brackets.
        QCOMPARE(jb::backstopMinutes(1, 0.3, 0.15), 3);
        QCOMPARE(jb::backstopMinutes(3600, 30, 5), 63);
    }

    void keyValues()
    {
        const auto kv = jb::parseKeyValues("JobId=5 JobName=x\n   AllocNode:Sid=localhost:4321 Empty= bare");
        QCOMPARE(kv.at("JobId"), std::string("5"));
        QCOMPARE(kv.at("AllocNode:Sid"), std::string("localhost:4321"));
        QCOMPARE(kv.at("Empty"), std::string());
        QVERIFY(!kv.count("bare"));
    }
};

QTEST_GUILESS_MAIN(TestSlurm)
#include "tst_slurm.moc"
