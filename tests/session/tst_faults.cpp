// Faults from outside during a run: a counter file that vanishes or turns to garbage mid-run,
// and a child that never reads its stdin. Each gives a clear message and loses nothing.
#include "../FastTmp.h"  // the fake zones write on a tmpfs
#include <jb/session/Session.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace jb;

namespace {
QString testBin(const char* name)
{
    return QStringLiteral(JB_TEST_BIN_DIR "/") + QString::fromLatin1(name);
}
}  // namespace

class TestFaults : public QObject {
    Q_OBJECT
private slots:
    void counterFileFailsAndComesBack_data()
    {
        QTest::addColumn<bool>("unreadable");
        QTest::newRow("vanishes") << false;
        // Root reads a file whatever its mode, so "unreadable" is a folder where the file was:
        // every read of it fails (EISDIR), as one the kernel refuses does.
        QTest::newRow("turns unreadable") << true;
    }

    void counterFileFailsAndComesBack()
    {
        QFETCH(bool, unreadable);
        QTemporaryDir dir;
        const QString zone = dir.filePath(QStringLiteral("intel-rapl:0"));
        QVERIFY(QDir().mkpath(zone));
        const QStringList zoneArgs{zone, QStringLiteral("--tick-ms"), QStringLiteral("2"), QStringLiteral("--seconds"),
                                   QStringLiteral("120")};
        QProcess writer;
        writer.start(testBin("fakezone"), zoneArgs);
        QVERIFY(writer.waitForStarted());
        const QString energy = zone + QStringLiteral("/energy_uj");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(energy), 5000);

        Plan p;
        p.label = "faults";
        p.rounds = 3;
        p.idle_s = 0.4;
        p.sample_ms = 20;
        p.counters = {"rapl"};
        p.counter_options.rapl_zone = zone.toStdString();
        p.child = {testBin("fakechild").toStdString(), "serve", "--jobs", "1", "--job-ms", "200"};
        p.with_samples = true;
        Session s(p);
        QSignalSpy warnings(&s, &Session::warning);
        QSignalSpy done(&s, &Session::finished);
        QSignalSpy rounds(&s, &Session::roundFinished);
        s.start();
        QVERIFY(rounds.wait(20000));
        // Round 1 is in: the zone's writer stops and its file goes away.
        writer.kill();
        writer.waitForFinished();
        QVERIFY(QFile::remove(energy));
        if (unreadable)
            QVERIFY(QDir().mkdir(energy));
        QVERIFY(warnings.wait(5000));
        const QString w = warnings.first().at(0).toString();
        QVERIFY2(w.contains(energy), qPrintable(w));  // the message names the file
        // The sampler may read in the moment between the remove and the mkdir, so the folder's
        // "cannot read" can follow a first "does not exist"; it must come within a few reads.
        const QString expected = unreadable ? QStringLiteral("cannot read") : QStringLiteral("does not exist");
        const auto said = [&] {
            for (const QList<QVariant>& args : std::as_const(warnings)) {
                const QString m = args.at(0).toString();
                if (m.contains(expected) && m.contains(energy))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(said(), 5000);
        if (unreadable)
            QVERIFY(QDir().rmdir(energy));
        // It comes back (a driver reload, say): the sampler picks it up again.
        writer.start(testBin("fakezone"), zoneArgs);
        QVERIFY(writer.waitForStarted());
        QVERIFY(done.count() == 1 || done.wait(60000));
        writer.kill();
        writer.waitForFinished();
        const Record r = done.takeFirst().at(0).value<Record>();
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
        QCOMPARE(int(r.rounds.size()), 3);
        QCOMPARE(r.sampler.size(), std::size_t(1));
        const SamplerFigures& f = r.sampler.front().second;
        QVERIFY(f.read_errors > 0);
        QVERIFY(f.last_error && QString::fromStdString(*f.last_error).contains(energy));
        QVERIFY(r.extra.contains("warnings"));  // the record says what happened
        // Round 1's figures, measured before the fault, are whole.
        QVERIFY(r.rounds.front().counter("rapl") && r.rounds.front().counter("rapl")->has_marginal);
    }

    void childThatNeverReadsItsInputTimesOut()
    {
        Plan p;
        p.label = "deaf";
        p.rounds = 2;
        p.idle_s = 0.2;
        p.sample_ms = 20;
        p.counters = {"sim"};
        p.round_timeout_s = 0.5;
        p.child = {testBin("fakechild").toStdString(), "serve", "--mode", "nostdin"};
        Session s(p);
        QSignalSpy done(&s, &Session::finished);
        s.start();
        QVERIFY(done.wait(30000));
        const Record r = done.takeFirst().at(0).value<Record>();
        QVERIFY(r.isAborted());
        const QString e = QString::fromStdString(r.error.value_or(""));
        QVERIFY2(e.contains(QStringLiteral("round 1:")) && e.contains(QStringLiteral("--round-timeout")), qPrintable(e));
        QVERIFY(!r.samples.empty() || !p.with_samples);
        QCOMPARE(r.jobs, 4);  // what it said before going deaf is kept
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
