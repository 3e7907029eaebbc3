#include "common/Format.h"

#include <QTextDocumentFragment>

#include <cmath>

namespace jb::fmt {

QString fixed(double v, int decimals)
{
    if (!std::isfinite(v))
        return QStringLiteral("–");
    return QString::number(v, 'f', decimals);
}

QString fixedOrDash(std::optional<double> v, int decimals)
{
    return v ? fixed(*v, decimals) : QStringLiteral("–");
}

QString meanSd(double mean, double sd, int decimals)
{
    int sdDecimals = decimals;
    while (sd > 0 && sdDecimals < decimals + 2 && sd < 0.5 * std::pow(10.0, -sdDecimals))
        ++sdDecimals;
    return fixed(mean, decimals) + QStringLiteral(" ± ") + fixed(sd, sdDecimals);
}

QString secondsFromNs(std::int64_t ns, int decimals)
{
    return fixed(double(ns) / 1e9, decimals);
}

QString joulesFromNj(double nj, int decimals)
{
    return fixed(nj / 1e9, decimals);
}

QString significant(double v, int digits)
{
    if (!std::isfinite(v))
        return QStringLiteral("–");
    if (v == 0)
        return QStringLiteral("0");
    const int magnitude = int(std::floor(std::log10(std::fabs(v))));
    const int decimals = std::max(0, digits - 1 - magnitude);
    return QString::number(v, 'f', std::min(decimals, 9));
}

QString clock(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        seconds = 0;
    const auto total = static_cast<long long>(std::llround(seconds));
    const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
    const QString ss = QStringLiteral("%1").arg(s, 2, 10, QLatin1Char('0'));
    if (h > 0)
        return QStringLiteral("%1:%2:").arg(h).arg(m, 2, 10, QLatin1Char('0')) + ss;
    return QString::number(m) + QLatin1Char(':') + ss;
}

QString duration(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("–");
    const double a = std::fabs(seconds);
    if (a < 1e-3)
        return significant(seconds * 1e6, 2) + QStringLiteral(" µs");
    if (a < 1.0)
        return significant(seconds * 1e3, 2) + QStringLiteral(" ms");
    return significant(seconds, 3) + QStringLiteral(" s");
}

QString plainText(const QString& html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

}  // namespace jb::fmt
