#pragma once
// Numbers for people, in one place: the record keeps nJ, ns and W; the dashboard shows J, s
// and W with as many decimals as the figure deserves.
#include <jb/base/QtText.h>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>

namespace jb::fmt {

QString fixed(double v, int decimals);
QString fixedOrDash(std::optional<double> v, int decimals);
// "19.98 ± 0.08": the sd gets one more decimal where it would otherwise round to 0.
QString meanSd(double mean, double sd, int decimals = 2);
QString secondsFromNs(std::int64_t ns, int decimals = 3);
QString joulesFromNj(double nj, int decimals = 3);
// A figure in a few significant digits, for J per decode and ratios ("1.23", "0.0456", "137").
QString significant(double v, int digits = 3);
// "0:07", "12:34", "1:02:03": elapsed time and ETAs.
QString clock(double seconds);
// "1.2 ms", "350 µs", "2.4 s".
QString duration(double seconds);
// Core's text (UTF-8 std::string) as a QString (core's jb::qtext, base/QtText.h).
inline QString q(const std::string& s)
{
    return qtext(s);
}
// A rich-text label's words without the markup (for copying and for tool tips).
QString plainText(const QString& html);

}  // namespace jb::fmt
