#include "common/Palette.h"

#include "common/Format.h"
#include <jb/stats/Statistics.h>

namespace jb {

VerdictStyle verdictStyle(std::optional<Verdict> verdict)
{
    // Green to red in the order of trust; amber carries dark text for contrast.
    if (!verdict)
        return {QStringLiteral("no verdict"), QColor(0x9e, 0x9e, 0x9e), Qt::white};
    const QString text = QString::fromLatin1(verdictName(*verdict));
    switch (*verdict) {
    case Verdict::Clean:
        return {text, QColor(0x2e, 0x7d, 0x32), Qt::white};
    case Verdict::RelativeOnly:
        return {text, QColor(0xf9, 0xa8, 0x25), QColor(0x21, 0x21, 0x21)};
    case Verdict::Noisy:
        return {text, QColor(0xef, 0x6c, 0x00), Qt::white};
    case Verdict::Unusable:
        break;
    }
    return {text, QColor(0xc6, 0x28, 0x28), Qt::white};
}

QString verdictTooltip(std::optional<Verdict> verdict, std::optional<double> ratio)
{
    QString head;
    if (ratio)
        head =
            QStringLiteral("ratio %1 → %2\n\n").arg(fmt::significant(*ratio, 3), verdictStyle(verdict).text);
    else
        head = QStringLiteral("No ratio: an idle or busy bracket had fewer than two intervals, or the "
                              "idle standard deviation was 0.\n\n");
    return head + QString::fromStdString(verdictThresholdsText());
}

ToneColors toneColors(Tone tone)
{
    // Light fills with dark ink of the same hue (Material's 50 / 900 shades), a border between.
    switch (tone) {
    case Tone::Neutral:
        return {QColor(0xec, 0xef, 0xf1), QColor(0x37, 0x47, 0x4f), QColor(0xcf, 0xd8, 0xdc)};
    case Tone::Info:
        return {QColor(0xe3, 0xf2, 0xfd), QColor(0x0d, 0x47, 0xa1), QColor(0x90, 0xca, 0xf9)};
    case Tone::Success:
        return {QColor(0xe8, 0xf5, 0xe9), QColor(0x1b, 0x5e, 0x20), QColor(0xa5, 0xd6, 0xa7)};
    case Tone::Warning:
        return {QColor(0xff, 0xf3, 0xe0), QColor(0x6d, 0x4c, 0x00), QColor(0xff, 0xcc, 0x80)};
    case Tone::Error:
        return {QColor(0xff, 0xeb, 0xee), QColor(0xb7, 0x1c, 0x1c), QColor(0xef, 0x9a, 0x9a)};
    case Tone::Alert:
        return {QColor(0xc6, 0x28, 0x28), Qt::white, QColor(0xb7, 0x1c, 0x1c)};
    }
    return toneColors(Tone::Neutral);
}

namespace palette {

QColor mutedText()
{
    return QColor(0x61, 0x61, 0x61);
}
QColor faintText()
{
    return QColor(0x9e, 0x9e, 0x9e);
}
QColor okText()
{
    return QColor(0x2e, 0x7d, 0x32);
}
QColor errorText()
{
    return toneColors(Tone::Error).ink;
}
QColor darkInk()
{
    return QColor(0x21, 0x21, 0x21);
}
QColor emptyFill()
{
    return QColor(0xee, 0xee, 0xee);
}
QColor placeholderText()
{
    return QColor(0x75, 0x75, 0x75);
}
QColor placeholderBorder()
{
    return QColor(0xbd, 0xbd, 0xbd);
}

QColor idleShade()
{
    return QColor(0x90, 0xa4, 0xae, 45);
}
QColor busyPending()
{
    return QColor(0xff, 0xa7, 0x26, 50);
}

QColor powerTrace()
{
    return QColor(0x15, 0x65, 0xc0);
}
QColor bandFill()
{
    return QColor(0x54, 0x6e, 0x7a, 60);
}
QColor bandMean()
{
    return QColor(0x37, 0x47, 0x4f, 200);
}
QColor gridLine()
{
    return QColor(0, 0, 0, 28);
}
QColor hoverGuide()
{
    return QColor(0, 0, 0, 90);
}
QColor recordA()
{
    return QColor(0x26, 0x32, 0x38);
}
QColor recordB()
{
    return QColor(0x6a, 0x1b, 0x9a);
}

namespace {
// The k-th of a qualitative set, repeating (k may be negative).
template <int N>
QColor nth(const QColor (&set)[N], int k)
{
    return set[((k % N) + N) % N];
}
}  // namespace

QColor workload(int k)
{
    static const QColor set[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                                 QColor(0xd5, 0x5e, 0x00), QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9),
                                 QColor(0x8c, 0x6d, 0x1f), QColor(0x55, 0x55, 0x55)};
    return nth(set, k);
}
QColor phase(int k)
{
    static const QColor set[] = {QColor(0x44, 0x77, 0xaa), QColor(0xee, 0x66, 0x77), QColor(0x22, 0x88, 0x33),
                                 QColor(0xcc, 0xbb, 0x44), QColor(0x66, 0xcc, 0xee), QColor(0xaa, 0x33, 0x77),
                                 QColor(0xbb, 0xbb, 0xbb)};
    return nth(set, k);
}
QColor histogramFill()
{
    return QColor(0x90, 0xa4, 0xae, 170);
}
QColor histogramBorder()
{
    return QColor(0x54, 0x6e, 0x7a);
}
QColor fitCurve()
{
    return verdictStyle(Verdict::Unusable).background;
}
QColor whiteNoise()
{
    return placeholderText();
}
QColor averagingLimit()
{
    return verdictStyle(Verdict::Noisy).background;
}
QColor jobMemory()
{
    return QColor(0x2b, 0x6c, 0xb0);
}
QColor jobPower()
{
    return QColor(0xd9, 0x53, 0x4f);
}

QColor disagreeFill()
{
    return QColor(0xff, 0xcd, 0xd2);
}
QColor agreeFill()
{
    return QColor(0xc8, 0xe6, 0xc9);
}

RowColors jobStatus(const QString& key)
{
    if (key == QLatin1String("completed"))
        return {QColor(0xd4, 0xed, 0xda), QColor(0x15, 0x57, 0x24)};
    if (key == QLatin1String("running") || key == QLatin1String("starting"))
        return {QColor(0xcf, 0xe2, 0xff), QColor(0x08, 0x42, 0x98)};
    if (key == QLatin1String("queued") || key == QLatin1String("would_run"))
        return {QColor(0xe9, 0xec, 0xef), QColor(0x34, 0x3a, 0x40)};
    if (key == QLatin1String("cancelled") || key == QLatin1String("running_elsewhere"))
        return {QColor(0xfd, 0xf1, 0xc7), QColor(0x66, 0x4d, 0x03)};
    if (key == QLatin1String("orphaned") || key == QLatin1String("conflict"))
        return {QColor(0xff, 0xe5, 0xb4), QColor(0x7a, 0x3e, 0x00)};
    if (key == QLatin1String("not_run"))
        return {QColor(), QColor()};
    // timeout, nonzero_exit, missing_result, failed_to_start, failed
    return {QColor(0xf8, 0xd7, 0xda), QColor(0x84, 0x20, 0x29)};
}

QColor jobBar(const QString& key, bool nearTimeout)
{
    if (key == QLatin1String("timeout"))
        return QColor(0xe0, 0x6c, 0x75);
    if (key == QLatin1String("completed"))
        return QColor(0x8f, 0xd1, 0x9e);
    if (key == QLatin1String("running") || key == QLatin1String("starting"))
        return nearTimeout ? QColor(0xf0, 0xad, 0x4e) : QColor(0x7a, 0xb0, 0xf5);
    if (key == QLatin1String("cancelled"))
        return QColor(0xf3, 0xd0, 0x6b);
    return QColor(0xc8, 0xcc, 0xd0);
}

QColor logStderr()
{
    return QColor(0xa3, 0x1d, 0x1d);
}
QColor logDriver()
{
    return QColor(0x5a, 0x62, 0x70);
}

QString textStyle(const QColor& c, bool bold)
{
    return bold ? QStringLiteral("color: %1; font-weight: bold;").arg(c.name())
                : QStringLiteral("color: %1;").arg(c.name());
}

}  // namespace palette
}  // namespace jb
