// The rapl zone reader against fake zone folders: wraparound, each failure's message.
#include "FakeZone.h"
#include <jb/counters/RaplCounter.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace jb;
using namespace jbtest;

namespace {
bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }
}  // namespace

class TestRaplCounter : public QObject {
    Q_OBJECT
private slots:
    void readsAdvanceInNanojoules()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 262143328850, 1000));
        auto c = RaplCounter::open(s(zone), "rapl");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QCOMPARE(c.value()->spec(), std::string("rapl"));
        QCOMPARE(c.value()->zoneName(), std::string("package-0"));
        auto r0 = c.value()->readNj();
        QVERIFY(r0.ok());
        QCOMPARE(*r0, std::int64_t(0));  // nothing advanced since open
        QVERIFY(setEnergy(zone, 1500));
        QCOMPARE(*c.value()->readNj(), std::int64_t(500'000));
        QVERIFY(setEnergy(zone, 4000));
        QCOMPARE(*c.value()->readNj(), std::int64_t(3'000'000));
    }

    void wraparoundIsUndone()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        const qint64 range = 262143328850;
        QVERIFY(writeZone(zone, "package-0", range, range - 100));
        auto c = RaplCounter::open(s(zone), "rapl");
        QVERIFY(c.ok());
        QVERIFY(setEnergy(zone, 50));  // wrapped: as the reference, d = 50 - (range-100) + range = 150
        QCOMPARE(*c.value()->readNj(), std::int64_t(150'000));
        QVERIFY(setEnergy(zone, 250));
        QCOMPARE(*c.value()->readNj(), std::int64_t(350'000));
        // A second wrap keeps accumulating.
        QVERIFY(setEnergy(zone, 10));
        QCOMPARE(*c.value()->readNj(), std::int64_t((350 + (10 - 250 + range)) * 1000));
    }

    void infoNamesTheZone()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:1"));
        QVERIFY(writeZone(zone, "psys", 65712999613, 7));
        auto c = RaplCounter::open(s(zone), "rapl:psys");
        QVERIFY(c.ok());
        const auto info = c.value()->info();
        std::vector<std::string> keys;
        for (auto it = info.begin(); it != info.end(); ++it)
            keys.push_back(it.key());
        QCOMPARE(keys, (std::vector<std::string>{"kind", "path", "name", "max_energy_range_uj", "unit"}));
        // With a scope (as the registry opens it), the scope follows as a new key.
        auto scoped = RaplCounter::open(s(zone), "rapl:psys", "the whole platform");
        QVERIFY(scoped.ok());
        QCOMPARE(scoped.value()->info()["scope"].get<std::string>(), std::string("the whole platform"));
        QCOMPARE(info["kind"].get<std::string>(), std::string("rapl"));
        QCOMPARE(info["path"].get<std::string>(), s(zone));
        QCOMPARE(info["name"].get<std::string>(), std::string("psys"));
        QCOMPARE(info["max_energy_range_uj"].get<std::int64_t>(), std::int64_t(65712999613));
        QCOMPARE(info["unit"].get<std::string>(), std::string("uJ"));
        QCOMPARE(c.value()->spec(), std::string("rapl:psys"));
    }

    void missingZoneSaysSo()
    {
        QTemporaryDir tmp;
        const std::string zone = s(tmp.filePath(QStringLiteral("intel-rapl:0")));
        auto c = RaplCounter::open(zone, "rapl");
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), "no such RAPL zone") && contains(c.error(), zone), c.error().c_str());
    }

    void missingFileIsNamed()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 1000, 5));
        QVERIFY(QFile::remove(zone + QStringLiteral("/energy_uj")));
        auto c = RaplCounter::open(s(zone), "rapl");
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), s(zone) + "/energy_uj does not exist"), c.error().c_str());
    }

    void garbageContentIsQuoted_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("letters") << QByteArray("12a34\n") << QStringLiteral("holds '12a34\\n', not a number");
        QTest::newRow("negative") << QByteArray("-5\n") << QStringLiteral("holds '-5\\n', not a number");
        QTest::newRow("empty") << QByteArray("\n") << QStringLiteral("is empty, expected a number");
        QTest::newRow("huge") << QByteArray("99999999999999999999999\n") << QStringLiteral("too large");
    }
    void garbageContentIsQuoted()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 1000, 5));
        // Opening reads energy_uj once, so garbage there fails at open ...
        QVERIFY(writeText(zone + QStringLiteral("/energy_uj"), content));
        auto bad = RaplCounter::open(s(zone), "rapl");
        QVERIFY(!bad.ok());
        QVERIFY2(contains(bad.error(), s(zone) + "/energy_uj") && contains(bad.error(), s(expected)),
                 bad.error().c_str());
        // ... and garbage appearing later fails the read, the counter stays usable after.
        QVERIFY(setEnergy(zone, 5));
        auto c = RaplCounter::open(s(zone), "rapl");
        QVERIFY(c.ok());
        QVERIFY(writeText(zone + QStringLiteral("/energy_uj"), content));
        auto r = c.value()->readNj();
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), s(expected)), r.error().c_str());
        QVERIFY(setEnergy(zone, 7));
        QCOMPARE(*c.value()->readNj(), std::int64_t(2000));
    }

    void garbageRangeIsNamed()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 1000, 5));
        QVERIFY(writeText(zone + QStringLiteral("/max_energy_range_uj"), "lots\n"));
        auto c = RaplCounter::open(s(zone), "rapl");
        QVERIFY(!c.ok());
        QVERIFY2(contains(c.error(), s(zone) + "/max_energy_range_uj holds 'lots\\n'"), c.error().c_str());
        QVERIFY(writeText(zone + QStringLiteral("/max_energy_range_uj"), "0\n"));
        auto z = RaplCounter::open(s(zone), "rapl");
        QVERIFY(!z.ok());
        QVERIFY2(contains(z.error(), "max_energy_range_uj is 0"), z.error().c_str());
    }

    void permissionDeniedExplainsTheFix()
    {
        QTemporaryDir tmp;
        const QString zone = tmp.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(writeZone(zone, "package-0", 1000, 5));
        const std::string file = s(zone) + "/energy_uj";
        QCOMPARE(::chmod(file.c_str(), 0), 0);
        // Root reads a mode-000 file anyway; there the errno-to-message function is what is left
        // to check, and it is the same function open() uses.
        const int fd = ::open(file.c_str(), O_RDONLY);
        const bool blocked = fd < 0 && errno == EACCES;
        if (fd >= 0)
            ::close(fd);
        const std::string msg = [&] {
            if (!blocked)
                return raplFileError(file, EACCES);
            auto c = RaplCounter::open(s(zone), "rapl");
            return c.ok() ? std::string("opened a mode-000 zone") : c.error();
        }();
        ::chmod(file.c_str(), 0644);
        QVERIFY2(contains(msg, file + ": permission denied"), msg.c_str());
        QVERIFY2(contains(msg, "packaging/linux/60-joulebench-powercap.rules"), msg.c_str());
        QVERIFY2(contains(msg, "'joulebench'"), msg.c_str());
        QVERIFY2(contains(msg, "CVE-2020-8694") && contains(msg, "Platypus"), msg.c_str());
        QVERIFY2(contains(msg, "side channel"), msg.c_str());
        QCOMPARE(raplFileError(file, EPERM), raplFileError(file, EACCES));
    }

    void otherErrnoUsesStrerror()
    {
        const std::string msg = raplFileError("/x/energy_uj", EIO);
        QVERIFY2(contains(msg, "cannot read /x/energy_uj: ") && contains(msg, "rror"), msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRaplCounter)
#include "tst_rapl_counter.moc"
