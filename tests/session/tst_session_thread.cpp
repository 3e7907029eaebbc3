// The session on a backend thread, as the dashboard runs it: moved with moveToThread (its
// timers are its children and move along), driven through queued calls, results queued back.
#include <jb/session/Session.h>

#include <QThread>
#include <QtTest>

using namespace jb;

class TestSessionThread : public QObject {
    Q_OBJECT
private slots:
    void runsOnABackendThread()
    {
        Plan p;
        p.label = "thread";
        p.rounds = 2;
        p.idle_s = 0.2;
        p.sample_ms = 20;
        p.counters = {"sim"};
        p.child = {JB_TEST_BIN_DIR "/fakechild", "serve", "--jobs", "1", "--job-ms", "30"};
        QThread backend;
        auto* s = new Session(p);
        s->moveToThread(&backend);
        connect(&backend, &QThread::finished, s, &QObject::deleteLater);
        backend.start();
        QSignalSpy rounds(s, &Session::roundFinished);
        QSignalSpy done(s, &Session::finished);
        QThread* ranOn = nullptr;
        connect(s, &Session::childReady, s, [&] { ranOn = QThread::currentThread(); }, Qt::DirectConnection);
        QMetaObject::invokeMethod(s, &Session::start, Qt::QueuedConnection);
        QVERIFY(done.wait(30000));
        QCOMPARE(ranOn, &backend);
        QCOMPARE(rounds.count(), 2);
        const Record r = done.takeFirst().at(0).value<Record>();
        QCOMPARE(QString::fromStdString(r.status.value_or("")), QStringLiteral("complete"));
        backend.quit();
        QVERIFY(backend.wait(5000));
    }
};

QTEST_GUILESS_MAIN(TestSessionThread)
#include "tst_session_thread.moc"
