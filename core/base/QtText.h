#pragma once
// Core's text (UTF-8 std::string) and Qt's QString, both ways: the one pair of helpers behind
// every conversion core writes (a QProcess argument, an SQL bind value, a job's log line). The
// GUI's fmt::q and the CLI's toQ/toStd are these.
#include <QString>

#include <string>

namespace jb {

inline QString qtext(const std::string& s)
{
    return QString::fromStdString(s);
}

inline std::string stdtext(const QString& s)
{
    return s.toStdString();
}

}  // namespace jb
