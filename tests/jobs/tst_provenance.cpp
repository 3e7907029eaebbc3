// Provenance: hashes as the reference computes them, a git source that must be clean, the
// environment listing.
#include <jb/jobs/Provenance.h>
#include <jb/jobs/Subprocess.h>

#include "../NeedTool.h"
#include "JobsTestSupport.h"

#include <QCryptographicHash>
#include <QStandardPaths>
#include <QTest>

#include <filesystem>

using jbtest::writeText;

class TestProvenance : public QObject {
    Q_OBJECT

private:
    static void git(const std::string& dir, std::vector<std::string> args)
    {
        std::vector<std::string> argv{"git",
                                      "-C",
                                      dir,
                                      "-c",
                                      "user.name=Test",
                                      "-c",
                                      "user.email=test@example.org",
                                      "-c",
                                      "commit.gpgsign=false"};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = jb::runCapture(argv, "", 30'000);
        QVERIFY2(r.ok() && r->exit_code == 0, r.ok() ? r->err.c_str() : r.error().c_str());
    }

    // A committed repository with one tracked file.
    static std::string makeRepo(const QTemporaryDir& tmp)
    {
        const std::string repo = jbtest::str(tmp.path()) + "/src";
        std::filesystem::create_directories(repo);
        writeText(repo + "/protocol.json", "{\"epochs\": 10}\n");
        git(repo, {"init", "-q"});
        git(repo, {"add", "protocol.json"});
        git(repo, {"commit", "-q", "-m", "first"});
        return repo;
    }

private Q_SLOTS:
    void initTestCase()
    {
        JB_NEED_TOOL("git", "git");
    }

    void sha256OfText()
    {
        QCOMPARE(jb::sha256Text("abc"),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void hashTreeAsTheReference()
    {
        QTemporaryDir tmp;
        const std::string t = jbtest::str(tmp.path()) + "/tree";
        std::filesystem::create_directories(t + "/a");
        std::filesystem::create_directories(t + "/empty");
        writeText(t + "/b.txt", "B");
        writeText(t + "/a/x.bin", "xx");
        writeText(t + "/a-b", "1");
        std::filesystem::create_directory_symlink(t + "/a", t + "/linked_dir");  // listed, not entered
        std::filesystem::create_symlink(t + "/b.txt", t + "/f.lnk");             // read through

        auto h = jb::hashTree(t);
        QVERIFY2(h.ok(), h.ok() ? "" : h.error().c_str());
        // Relative paths in byte order ('-' sorts before '/'), each with a NUL, then its bytes.
        QCryptographicHash expected(QCryptographicHash::Sha256);
        const std::pair<const char*, const char*> files[] = {
            {"a-b", "1"}, {"a/x.bin", "xx"}, {"b.txt", "B"}, {"f.lnk", "B"}};
        for (const auto& [rel, content] : files) {
            expected.addData(QByteArrayView(rel));
            expected.addData(QByteArrayView("\0", 1));
            expected.addData(QByteArrayView(content));
        }
        QCOMPARE(h->at("sha256").get<std::string>(), expected.result().toHex().toStdString());
        QCOMPARE(h->at("num_files").get<int>(), 4);
        QCOMPARE(h->at("bytes").get<int>(), 5);
        QCOMPARE(h->at("path").get<std::string>(), std::filesystem::canonical(t).string());

        writeText(t + "/a/x.bin", "xy");  // one byte changed: another digest
        QVERIFY(jb::hashTree(t)->at("sha256") != h->at("sha256"));
        QVERIFY(!jb::hashTree(t + "/missing").ok());
    }

    void cleanSourceIsRecorded()
    {
        QTemporaryDir tmp;
        const std::string repo = makeRepo(tmp);
        writeText(repo + "/untracked.txt", "not tracked: does not make it dirty");
        std::filesystem::create_directories(repo + "/data");
        writeText(repo + "/data/d.txt", "data");
        jb::ProvenanceSettings p;
        p.source = repo;
        p.files = {"protocol.json"};
        p.trees = {"data"};
        p.environment_command = {"/bin/sh", "-c", "printf 'a==1\\nb==2\\n'"};
        auto r = jb::sourceReport(p);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->at("git_commit").get<std::string>().size(), std::size_t(40));
        QCOMPARE(r->at("git_dirty").get<bool>(), false);
        QVERIFY(r->at("git_branch").is_string());
        QVERIFY(!r->at("git_branch").get<std::string>().empty());
        QCOMPARE(r->at("files").at("protocol.json").get<std::string>(),
                 *jb::sha256File(repo + "/protocol.json"));
        QCOMPARE(r->at("trees").at("data").at("num_files").get<int>(), 1);
        QCOMPARE(r->at("environment_sha256").get<std::string>(), jb::sha256Text("a==1\nb==2\n"));
        QCOMPARE(r->at("environment_lines").get<int>(), 2);

        auto light = jb::sourceReport(p, false);  // a dry run: git state only
        QVERIFY(light.ok());
        QVERIFY(!light->contains("files"));
    }

    void dirtySourceIsRefused()
    {
        QTemporaryDir tmp;
        const std::string repo = makeRepo(tmp);
        writeText(repo + "/protocol.json", "{\"epochs\": 11}\n");
        jb::ProvenanceSettings p;
        p.source = repo;
        auto r = jb::sourceReport(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("refusing to run") != std::string::npos, r.error().c_str());
        QVERIFY2(r.error().find("uncommitted changes") != std::string::npos, r.error().c_str());
        QVERIFY2(r.error().find("protocol.json") != std::string::npos, r.error().c_str());

        p.require_clean = false;  // recorded instead of refused
        auto ok = jb::sourceReport(p);
        QVERIFY(ok.ok());
        QCOMPARE(ok->at("git_dirty").get<bool>(), true);
    }

    void notGitIsRefusedWhenCleanRequired()
    {
        QTemporaryDir tmp;
        jb::ProvenanceSettings p;
        p.source = jbtest::str(tmp.path());
        auto r = jb::sourceReport(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("not a git work tree") != std::string::npos, r.error().c_str());
        p.require_clean = false;
        auto ok = jb::sourceReport(p);
        QVERIFY(ok.ok());
        QVERIFY(ok->at("git_commit").is_null());
    }

    void badInputsAreRefused()
    {
        QTemporaryDir tmp;
        const std::string repo = makeRepo(tmp);
        jb::ProvenanceSettings p;
        p.source = repo;
        p.files = {"missing.json"};
        auto r = jb::sourceReport(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("provenance.files: cannot read") != std::string::npos, r.error().c_str());

        p.files.clear();
        p.environment_command = {"/bin/sh", "-c", "echo broken >&2; exit 3"};
        r = jb::sourceReport(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("exit code 3") != std::string::npos, r.error().c_str());
        QVERIFY2(r.error().find("broken") != std::string::npos, r.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
