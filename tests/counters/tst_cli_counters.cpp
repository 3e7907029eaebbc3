// `joulebench-cli counters` run as a user would, against the fixture powercap root.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exit_code = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList& args, const QString& command = QStringLiteral("counters"))
{
    QProcess p;
    p.start(QStringLiteral(JB_BIN_DIR "/joulebench-cli"), QStringList{command} + args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(30000))
        return r;
    r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

const QString kRoot = QStringLiteral(JB_FIXTURES "/counters/powercap");
// No NVML and no hwmon channels: the listing holds the fixture's zones only.
const QStringList kNoNvml{QStringLiteral("--nvml-library"), QStringLiteral(JB_FIXTURES "/counters/no-such-nvml.so"),
                          QStringLiteral("--hwmon-root"), QStringLiteral(JB_FIXTURES "/counters/no-hwmon")};

}  // namespace

class TestCliCounters : public QObject {
    Q_OBJECT
private slots:
    void jsonListsTheFixtureZones()
    {
        const Run r = cli(QStringList{QStringLiteral("--json"), QStringLiteral("--powercap-root"), kRoot} + kNoNvml);
        QVERIFY2(r.exit_code == 0, r.err.constData());
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QVERIFY(doc.isArray());
        QStringList specs;
        QJsonObject psys, ioreport;
        for (const QJsonValue& v : doc.array()) {
            const QJsonObject o = v.toObject();
            specs << o.value(QStringLiteral("spec")).toString();
            QVERIFY(o.contains(QStringLiteral("available")) && o.contains(QStringLiteral("reason")) &&
                    o.contains(QStringLiteral("description")) && o.contains(QStringLiteral("whole_device")));
            if (specs.last() == QLatin1String("rapl:psys"))
                psys = o;
            if (specs.last() == QLatin1String("ioreport-gpu"))
                ioreport = o;
        }
        QCOMPARE(specs.mid(0, 10), (QStringList{QStringLiteral("rapl"), QStringLiteral("rapl:package-0"),
                                                QStringLiteral("rapl:core"), QStringLiteral("rapl:uncore"),
                                                QStringLiteral("rapl:psys"), QStringLiteral("rapl:packages"),
                                                QStringLiteral("task"), QStringLiteral("ioreport-gpu"),
                                                QStringLiteral("ioreport:cpu"), QStringLiteral("sim")}));
        // Scope, unit, source file and wrap range of each.
        QVERIFY2(psys.value(QStringLiteral("scope")).toString().contains(QLatin1String("contains every package")),
                 r.out.constData());
        QCOMPARE(psys.value(QStringLiteral("unit")).toString(), QStringLiteral("uJ"));
        QVERIFY(psys.value(QStringLiteral("source")).toString().endsWith(QLatin1String("intel-rapl:1/energy_uj")));
        QVERIFY(psys.value(QStringLiteral("wrap_range")).toDouble() > 0);
        QCOMPARE(psys.value(QStringLiteral("available")).toBool(), true);
        QVERIFY(psys.value(QStringLiteral("description")).toString().contains(QLatin1String("intel-rapl:1")));
#ifdef Q_OS_LINUX
        QCOMPARE(ioreport.value(QStringLiteral("reason")).toString(),
                 QStringLiteral("ioreport-gpu needs macOS (IOReport); this machine runs Linux"));
#endif
    }

    void bestPicksRaplWhereReadableElseSim()
    {
        const Run rapl = cli(QStringList{QStringLiteral("--best"), QStringLiteral("--powercap-root"), kRoot} + kNoNvml);
        QVERIFY2(rapl.exit_code == 0, rapl.err.constData());
        QCOMPARE(rapl.out, QByteArray("rapl\n"));
        QTemporaryDir empty;
        const Run sim = cli(QStringList{QStringLiteral("--best"), QStringLiteral("--powercap-root"), empty.path()} + kNoNvml);
        QVERIFY2(sim.exit_code == 0, sim.err.constData());
        QCOMPARE(sim.out, QByteArray("sim\n"));
    }

    void tableSaysWhyNot()
    {
        QTemporaryDir empty;
        const Run r = cli(QStringList{QStringLiteral("--powercap-root"), empty.path()} + kNoNvml);
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QLatin1String("COUNTER")) && text.contains(QLatin1String("READABLE")), r.out.constData());
        QVERIFY2(text.contains(QLatin1String("why: no such RAPL zone")), r.out.constData());
        QVERIFY2(text.contains(QLatin1String("best whole-device counter here: sim")), r.out.constData());
    }

    // A two-socket box with subzones, psys and an MMIO zone, and hwmon chips, written here.
    void jsonListsEveryZoneAndChannelOfATree()
    {
        QTemporaryDir tmp;
        const QString pc = tmp.filePath(QStringLiteral("powercap")), hw = tmp.filePath(QStringLiteral("hwmon"));
        auto put = [](const QString& path, const QByteArray& text) {
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
        };
        auto zone = [&](const QString& dir, const QByteArray& name) {
            return put(dir + QStringLiteral("/name"), name + '\n') &&
                   put(dir + QStringLiteral("/max_energy_range_uj"), "262143328850\n") &&
                   put(dir + QStringLiteral("/energy_uj"), "12345\n");
        };
        for (int p = 0; p < 2; ++p) {
            const QString pkg = pc + QStringLiteral("/intel-rapl:%1").arg(p);
            QVERIFY(zone(pkg, "package-" + QByteArray::number(p)));
            QVERIFY(zone(pkg + QStringLiteral("/intel-rapl:%1:0").arg(p), "core"));
            QVERIFY(zone(pkg + QStringLiteral("/intel-rapl:%1:1").arg(p), "dram"));
        }
        QVERIFY(zone(pc + QStringLiteral("/intel-rapl:2"), "psys"));
        QVERIFY(zone(pc + QStringLiteral("/intel-rapl-mmio:0"), "package-0"));
        QVERIFY(put(hw + QStringLiteral("/hwmon0/name"), "zenergy\n") &&
                put(hw + QStringLiteral("/hwmon0/energy1_input"), "100\n") &&
                put(hw + QStringLiteral("/hwmon0/energy1_label"), "Esocket0\n"));
        QVERIFY(put(hw + QStringLiteral("/hwmon1/name"), "amdgpu\n") &&
                put(hw + QStringLiteral("/hwmon1/power1_average"), "15000000\n"));
        const QStringList roots{QStringLiteral("--powercap-root"), pc, QStringLiteral("--hwmon-root"), hw,
                                QStringLiteral("--nvml-library"), QStringLiteral(JB_FIXTURES "/counters/no-such-nvml.so")};
        const Run r = cli(QStringList{QStringLiteral("--json")} + roots);
        QVERIFY2(r.exit_code == 0, r.err.constData());
        QMap<QString, QJsonObject> by;
        for (const QJsonValue& v : QJsonDocument::fromJson(r.out).array())
            by[v.toObject().value(QStringLiteral("spec")).toString()] = v.toObject();
        for (const char* spec : {"rapl:package-0", "rapl:package-0/core", "rapl:package-0/dram", "rapl:package-1",
                                 "rapl:package-1/core", "rapl:package-1/dram", "rapl:psys", "rapl:mmio/package-0",
                                 "rapl:packages", "hwmon:zenergy:Esocket0", "hwmon:amdgpu:power1"}) {
            const QJsonObject o = by.value(QString::fromLatin1(spec));
            QVERIFY2(!o.isEmpty(), spec);
            QVERIFY2(o.value(QStringLiteral("available")).toBool(), spec);
            QVERIFY2(!o.value(QStringLiteral("scope")).toString().isEmpty(), spec);
            QVERIFY2(!o.value(QStringLiteral("unit")).toString().isEmpty(), spec);
        }
        QCOMPARE(by[QStringLiteral("hwmon:amdgpu:power1")].value(QStringLiteral("unit")).toString(),
                 QStringLiteral("uW (integrated from power readings)"));
        QVERIFY(by[QStringLiteral("hwmon:zenergy:Esocket0")].value(QStringLiteral("wrap_range")).isNull());
        // A refused overlap is a usage error naming both and which to keep.
        const Run m = cli(QStringList{QStringLiteral("--counter"), QStringLiteral("rapl:psys"), QStringLiteral("--counter"),
                                      QStringLiteral("rapl:package-1")} +
                              roots + QStringList{QStringLiteral("--"), QStringLiteral("/bin/true")},
                          QStringLiteral("measure"));
        QCOMPARE(m.exit_code, 2);
        QVERIFY2(m.err.contains("--counter rapl:psys and --counter rapl:package-1 overlap") &&
                     m.err.contains("keep rapl:psys for the platform total"),
                 m.err.constData());
    }

    void badFlagsAreUsageErrors()
    {
        const Run unknown = cli({QStringLiteral("--frobnicate")});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY(unknown.err.contains("frobnicate"));
        const Run bad = cli({QStringLiteral("--sim-idle-w"), QStringLiteral("lots")});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY2(bad.err.contains("--sim-idle-w"), bad.err.constData());
        const Run extra = cli({QStringLiteral("rapl")});
        QCOMPARE(extra.exit_code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliCounters)
#include "tst_cli_counters.moc"
