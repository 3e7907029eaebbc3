// `joulebench-cli counters` against the fake Apple libraries: the Energy Model channels the
// machine reports are listed one counter each, and --probe reads each one's power.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QStringList appleFlags()
{
    return {QStringLiteral("--corefoundation-library"), QStringLiteral(JB_FAKE_CF_LIB),
            QStringLiteral("--ioreport-library"),       QStringLiteral(JB_FAKE_IOREPORT_LIB),
            QStringLiteral("--libproc-library"),        QStringLiteral(JB_FAKE_LIBPROC_LIB),
            QStringLiteral("--libsystem-library"),      QStringLiteral(JB_FAKE_LIBPROC_LIB)};
}

}  // namespace

class TestAppleCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QByteArray cli(const QStringList& args, int* rc)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FAKE_IOREPORT_CONFIG"), dir_.filePath(QStringLiteral("ioreport.conf")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"), args);
        if (!p.waitForFinished(60000))
            return {};
        *rc = p.exitCode();
        return p.readAllStandardOutput();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QFile f(dir_.filePath(QStringLiteral("ioreport.conf")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("channel mJ 4 0 CPU Energy\nchannel nJ 2 0 GPU Energy\nchannel mJ 0.5 0 ANE\nchannel W 1 0 Odd\n");
    }

    void listsEveryChannel()
    {
        int rc = -1;
        const QByteArray out = cli(QStringList{QStringLiteral("counters"), QStringLiteral("--json")} + appleFlags(), &rc);
        QCOMPARE(rc, 0);
        const QJsonArray a = QJsonDocument::fromJson(out).array();
        QMap<QString, QJsonObject> by;
        for (const QJsonValue& v : a)
            by[v.toObject().value(QStringLiteral("spec")).toString()] = v.toObject();
        for (const char* spec : {"ioreport-gpu", "ioreport:CPU Energy", "ioreport:GPU Energy", "ioreport:ANE"})
            QVERIFY2(by.value(QString::fromLatin1(spec)).value(QStringLiteral("available")).toBool(), spec);
        QVERIFY(!by.value(QStringLiteral("ioreport:Odd")).value(QStringLiteral("available")).toBool(true));
        QVERIFY(by.value(QStringLiteral("ioreport:Odd")).value(QStringLiteral("reason")).toString().contains(
            QStringLiteral("'W'")));
        QVERIFY(by.value(QStringLiteral("task")).value(QStringLiteral("description")).toString().contains(
            QStringLiteral("proc_pid_rusage")));
    }

    void probeReadsEachRailsPower()
    {
        int rc = -1;
        const QString out = QString::fromUtf8(cli(QStringList{QStringLiteral("counters"), QStringLiteral("--probe")} + appleFlags(), &rc));
        QCOMPARE(rc, 0);
        const auto watts = [&](const QString& spec) {
            const QRegularExpression re(QRegularExpression::escape(spec) + QStringLiteral(" +([0-9.]+) W\\n"));
            const auto m = re.match(out, out.indexOf(QStringLiteral("probe (1 s each)")));
            return m.hasMatch() ? m.captured(1).toDouble() : -1.0;
        };
        QVERIFY2(std::abs(watts(QStringLiteral("ioreport:CPU Energy")) - 4.0) < 0.4, qPrintable(out));
        QVERIFY2(std::abs(watts(QStringLiteral("ioreport-gpu")) - 2.0) < 0.2, qPrintable(out));
        QVERIFY2(std::abs(watts(QStringLiteral("ioreport:ANE")) - 0.5) < 0.05, qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestAppleCli)
#include "tst_apple_cli.moc"
