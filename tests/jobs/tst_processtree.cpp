// Which processes belong to a job: /proc stat parsing, the session/descendant/marker rule, and
// ending a real session whose members ignore SIGTERM and double-fork.
#include <jb/jobs/LocalExecutor.h>
#include <jb/jobs/ProcessTree.h>
#include <jb/jobs/Subprocess.h>

#include "JobsTestSupport.h"

#include <QTest>

#include <signal.h>
#include <sys/wait.h>

#include <fstream>

class TestProcessTree : public QObject {
    Q_OBJECT

private:
    static bool aliveNotZombie(std::int64_t pid)
    {
        std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(in, line))
            return false;
        auto e = jb::parseProcStat(line);
        return e.ok() && !e->dead();
    }

    static std::int64_t readPid(const std::string& file)
    {
        std::ifstream in(file);
        std::int64_t pid = 0;
        in >> pid;
        return pid;
    }

private Q_SLOTS:
    void parsesStatLines()
    {
        // A comm holding spaces and parentheses: fields count from the last ')'.
        const std::string line =
            "4242 (my (odd) name) S 17 4242 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 "
            "987654 1000 10 18446744073709551615\n";
        auto e = jb::parseProcStat(line);
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().c_str());
        QCOMPARE(e->pid, std::int64_t(4242));
        QCOMPARE(e->state, 'S');
        QCOMPARE(e->ppid, std::int64_t(17));
        QCOMPARE(e->pgrp, std::int64_t(4242));
        QCOMPARE(e->session, std::int64_t(4240));
        QCOMPARE(e->start_ticks, std::uint64_t(987654));
        QVERIFY(!jb::parseProcStat("garbage").ok());
        QVERIFY(!jb::parseProcStat("12 (x) S 1 2").ok());
    }

    void jobRule()
    {
        // 10 leads session 10; 11 its child; 12 a grandchild that moved to session 12 (setsid);
        // 13 a child of 12; 20 reparented to init but still in session 10; 30 unrelated except
        // for the marker; 40 unrelated; 14 a zombie of the session.
        auto e = [](std::int64_t pid, std::int64_t ppid, std::int64_t sid, char state = 'S') {
            jb::ProcEntry p;
            p.pid = pid;
            p.ppid = ppid;
            p.pgrp = sid;
            p.session = sid;
            p.state = state;
            return p;
        };
        const std::vector<jb::ProcEntry> all{e(1, 0, 1),    e(10, 1, 10),  e(11, 10, 10),
                                             e(12, 11, 12), e(13, 12, 12), e(20, 1, 10),
                                             e(30, 1, 30),  e(40, 1, 40),  e(14, 10, 10, 'Z')};
        auto found = jb::jobProcesses(all, 10, {10}, {});
        QCOMPARE(found, (std::set<std::int64_t>{10, 11, 12, 13, 20}));
        found = jb::jobProcesses(all, 10, {}, [](std::int64_t pid) { return pid == 30; });
        QCOMPARE(found, (std::set<std::int64_t>{10, 11, 12, 13, 20, 30}));
        QCOMPARE(jb::jobProcesses(all, 99, {}, {}), std::set<std::int64_t>{});
    }

    void scansThisProcess()
    {
        const auto all = jb::scanProcesses("/proc");
        const auto self = std::find_if(all.begin(), all.end(),
                                       [](const jb::ProcEntry& p) { return p.pid == getpid(); });
        QVERIFY(self != all.end());
        QCOMPARE(self->ppid, std::int64_t(getppid()));
        QCOMPARE(self->session, std::int64_t(getsid(0)));
    }

    void endsDoubleForkedDaemonsThatIgnoreSigterm()
    {
        QTemporaryDir tmp;
        const std::string dir = jbtest::str(tmp.path());
        // The leader ignores SIGTERM and leaves two daemons: one in its session, one that left it.
        std::vector<std::string> env = jb::mergedEnvironment({{"JOULEBENCH_JOB_MARKER", "tree-test"}});
        jb::SessionSpawn a{
            {jbtest::workerPath(), "--ignore-term", "--daemon", dir + "/d1.pid", "--sleep", "30"},
            dir,
            env,
            dir + "/out.log",
            dir + "/err.log"};
        auto leader = jb::spawnInSession(a);
        QVERIFY2(leader.ok(), leader.ok() ? "" : leader.error().c_str());
        QCOMPARE(std::int64_t(getsid(pid_t(*leader))), *leader);  // its own session
        // The new environment shows in /proc once exec has finished, a moment after posix_spawn.
        QTRY_VERIFY_WITH_TIMEOUT(jb::environHas("/proc", *leader, "JOULEBENCH_JOB_MARKER=tree-test"), 5000);
        QVERIFY(!jb::environHas("/proc", *leader, "JOULEBENCH_JOB_MARKER=tree"));
        QTRY_VERIFY_WITH_TIMEOUT(readPid(dir + "/d1.pid") > 0, 5000);
        const std::int64_t daemon = readPid(dir + "/d1.pid");
        QCOMPARE(std::int64_t(getsid(pid_t(daemon))), *leader);
        QVERIFY(daemon != *leader);

        jb::SessionSpawn b = a;  // a second job whose daemon calls setsid: found by its marker
        b.argv = {jbtest::workerPath(), "--daemon", dir + "/d2.pid", "--daemon-setsid", "--sleep", "30"};
        auto leader2 = jb::spawnInSession(b);
        QVERIFY(leader2.ok());
        QTRY_VERIFY_WITH_TIMEOUT(readPid(dir + "/d2.pid") > 0, 5000);
        const std::int64_t escaped = readPid(dir + "/d2.pid");
        QVERIFY(std::int64_t(getsid(pid_t(escaped))) != *leader2);

        auto found = jb::findJobProcesses("/proc", *leader, {*leader}, "JOULEBENCH_JOB_MARKER=tree-test");
        QVERIFY(found.count(*leader) && found.count(daemon) && found.count(*leader2) && found.count(escaped));

        bool reaped = false;
        int status = 0;
        const auto ending = jb::endSession("/proc", *leader, reaped, status,
                                           "JOULEBENCH_JOB_MARKER=tree-test", 0.2);
        QVERIFY(ending.sigterm_sent);
        QVERIFY(ending.sigkill_sent);  // they ignored SIGTERM
        QVERIFY(ending.survivors.empty());
        QVERIFY(reaped);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        // Nothing of either session is left (zombies waiting for init count as gone).
        QVERIFY(!aliveNotZombie(daemon));
        QVERIFY(!aliveNotZombie(escaped));
        int s2 = 0;
        ::waitpid(pid_t(*leader2), &s2, 0);  // the marker ended the second leader too
        for (const jb::ProcEntry& p : jb::scanProcesses("/proc"))
            QVERIFY2(p.dead() || (p.session != *leader && p.session != *leader2 && p.session != escaped),
                     qPrintable(QStringLiteral("pid %1 of the job's session survived").arg(p.pid)));
    }
};

QTEST_GUILESS_MAIN(TestProcessTree)
#include "tst_processtree.moc"
