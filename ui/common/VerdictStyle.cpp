#include "common/VerdictStyle.h"

#include "common/Format.h"
#include "stats/Statistics.h"

namespace jb {

VerdictStyle verdictStyle(const std::optional<std::string>& verdict)
{
    // Green to red in the order of trust; amber carries dark text for contrast.
    if (!verdict)
        return {QStringLiteral("no verdict"), QColor(0x9e, 0x9e, 0x9e), Qt::white};
    const std::string& v = *verdict;
    if (v == "clean")
        return {QStringLiteral("clean"), QColor(0x2e, 0x7d, 0x32), Qt::white};
    if (v == "relative-only")
        return {QStringLiteral("relative-only"), QColor(0xf9, 0xa8, 0x25), QColor(0x21, 0x21, 0x21)};
    if (v == "noisy")
        return {QStringLiteral("noisy"), QColor(0xef, 0x6c, 0x00), Qt::white};
    if (v == "unusable")
        return {QStringLiteral("unusable"), QColor(0xc6, 0x28, 0x28), Qt::white};
    return {QString::fromStdString(v), QColor(0x61, 0x61, 0x61), Qt::white};
}

QString verdictTooltip(const std::optional<std::string>& verdict, std::optional<double> ratio)
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

}  // namespace jb
