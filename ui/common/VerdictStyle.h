#pragma once
// How a verdict looks, everywhere it is shown: the table's badge, the chart's busy shading,
// the summary strip.
#include <QColor>
#include <QString>

#include <optional>
#include <string>

namespace jb {

struct VerdictStyle {
    QString text;       // "clean", "relative-only", ..., "no verdict"
    QColor background;  // badge fill
    QColor foreground;  // badge text, readable on the fill
};

VerdictStyle verdictStyle(const std::optional<std::string>& verdict);
// The thresholds in words (jb::verdictThresholdsText), with this round's ratio if any.
QString verdictTooltip(const std::optional<std::string>& verdict, std::optional<double> ratio);

}  // namespace jb
