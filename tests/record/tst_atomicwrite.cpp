// writeFileAtomic: the target is either untouched or entirely new, the temporary file never
// stays behind, and failures name the path and the system's reason.
#include <jb/record/AtomicWrite.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace jb;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

QStringList entries(const QTemporaryDir& dir)
{
    return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

mode_t modeOf(const std::string& path)
{
    struct stat st {};
    ::stat(path.c_str(), &st);
    return st.st_mode & 07777;
}

}  // namespace

class TestAtomicWrite : public QObject {
    Q_OBJECT
private slots:
    void writesThenReplaces()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("record.json")).toStdString();
        QVERIFY(writeFileAtomic(path, "first\n").ok());
        QCOMPARE(slurp(path), std::string("first\n"));
        const std::string big(3'000'000, 'x');
        QVERIFY(writeFileAtomic(path, big).ok());
        QCOMPARE(slurp(path), big);
        QVERIFY(writeFileAtomic(path, "").ok());
        QCOMPARE(slurp(path), std::string());
        QCOMPARE(entries(dir), QStringList{QStringLiteral("record.json")});
    }

    void modeOfNewAndReplacedFiles()
    {
        QTemporaryDir dir;
        const mode_t oldMask = ::umask(022);
        const std::string path = dir.filePath(QStringLiteral("r.json")).toStdString();
        QVERIFY(writeFileAtomic(path, "a").ok());
        ::umask(oldMask);
        QCOMPARE(modeOf(path), mode_t(0644));  // not mkstemp's 0600
        QVERIFY(::chmod(path.c_str(), 0600) == 0);
        QVERIFY(writeFileAtomic(path, "b").ok());
        QCOMPARE(modeOf(path), mode_t(0600));
    }

    void missingFolderIsNamed()
    {
        const Status st = writeFileAtomic("/nonexistent-folder/sub/record.json", "x");
        QVERIFY(!st.ok());
        QCOMPARE(st.error(),
                 std::string("cannot write /nonexistent-folder/sub/record.json: No such file or directory"));
    }

    void folderInTheWayLeavesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("record.json")));
        const std::string path = dir.filePath(QStringLiteral("record.json")).toStdString();
        const Status st = writeFileAtomic(path, "x");
        QVERIFY(!st.ok());
        QCOMPARE(st.error(), "cannot write " + path + ": Is a directory");
        QCOMPARE(entries(dir), QStringList{QStringLiteral("record.json")});
    }

    void failedWriteKeepsTheOldFileAndNoTemporary()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("record.json")).toStdString();
        QVERIFY(writeFileAtomic(path, "the old record\n").ok());

        // A file size limit stops the write half-way, as a full disk would.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &old) == 0);
        rlimit small = old;
        small.rlim_cur = 4096;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        const Status st = writeFileAtomic(path, std::string(100'000, 'y'));
        QVERIFY(setrlimit(RLIMIT_FSIZE, &old) == 0);

        QVERIFY(!st.ok());
        QCOMPARE(st.error(), "cannot write " + path + ": File too large");
        QCOMPARE(slurp(path), std::string("the old record\n"));
        QCOMPARE(entries(dir), QStringList{QStringLiteral("record.json")});
    }

    void relativePathInTheCurrentFolder()
    {
        QTemporaryDir dir;
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const Status st = writeFileAtomic("here.json", "{}\n");
        QDir::setCurrent(before);
        QVERIFY(st.ok());
        QCOMPARE(slurp(dir.filePath(QStringLiteral("here.json")).toStdString()), std::string("{}\n"));
        QCOMPARE(entries(dir), QStringList{QStringLiteral("here.json")});
    }

    void emptyNameIsAnError()
    {
        const Status st = writeFileAtomic("", "x");
        QVERIFY(!st.ok());
        QCOMPARE(st.error(), std::string("cannot write a file with an empty name"));
    }
};

QTEST_GUILESS_MAIN(TestAtomicWrite)
#include "tst_atomicwrite.moc"
