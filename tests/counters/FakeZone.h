#pragma once
// Fake powercap zone folders written by a test, so the rapl reader runs against files whose
// content the test controls.
#include <QDir>
#include <QFile>
#include <QString>

#include <string>

namespace jbtest {

inline bool writeText(const QString& path, const QByteArray& content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(content) == content.size();
}

// Creates <dir> with name, max_energy_range_uj and energy_uj; true on success.
inline bool writeZone(const QString& dir, const QByteArray& name, qint64 range_uj, qint64 energy_uj)
{
    return QDir().mkpath(dir) && writeText(dir + QStringLiteral("/name"), name + '\n') &&
           writeText(dir + QStringLiteral("/max_energy_range_uj"), QByteArray::number(range_uj) + '\n') &&
           writeText(dir + QStringLiteral("/energy_uj"), QByteArray::number(energy_uj) + '\n');
}

inline bool setEnergy(const QString& dir, qint64 energy_uj)
{
    return writeText(dir + QStringLiteral("/energy_uj"), QByteArray::number(energy_uj) + '\n');
}

inline std::string s(const QString& q) { return q.toStdString(); }

}  // namespace jbtest
