#include "common/SummaryStrip.h"

#include "common/Format.h"
#include "common/Palette.h"

#include <QTextDocumentFragment>

namespace jb {

namespace {

QString badge(std::optional<Verdict> verdict, int count)
{
    const VerdictStyle vs = verdictStyle(verdict);
    return QStringLiteral("<span style=\"background-color:%1; color:%2;\">&nbsp;%3 %4&nbsp;</span>")
        .arg(vs.background.name(), vs.foreground.name())
        .arg(count)
        .arg(vs.text.toHtmlEscaped());
}

}  // namespace

SummaryStrip::SummaryStrip(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setToolTip(QString::fromStdString(verdictThresholdsText()));
    setContentsMargins(4, 2, 4, 2);
    clearSummary(QStringLiteral("No rounds yet."));
}

QString SummaryStrip::describe(const QString& counter, const CounterSummary& s, int totalRounds)
{
    QStringList parts;
    QString head = QStringLiteral("<b>%1</b>: ").arg(counter.toHtmlEscaped());
    if (s.median_j_per_decode) {
        const double med = *s.median_j_per_decode;
        head += QStringLiteral("median <b>%1 J per decode</b>").arg(fmt::significant(med, 4));
        if (s.min_j_per_decode && s.max_j_per_decode && s.rounds > 1) {
            const double lo = *s.min_j_per_decode, hi = *s.max_j_per_decode;
            QString spread =
                QStringLiteral(" (range %1 – %2").arg(fmt::significant(lo, 4), fmt::significant(hi, 4));
            if (med != 0)
                spread += QStringLiteral(", ±%1 %").arg(
                    fmt::significant((hi - lo) / 2.0 / std::fabs(med) * 100.0, 2));
            head += spread + QLatin1Char(')');
        }
        head += QStringLiteral(" over %1 of %2 rounds").arg(s.rounds).arg(totalRounds);
    } else {
        head += totalRounds == 0 ? QStringLiteral("no rounds yet")
                                 : QStringLiteral("no marginal figure in %1 rounds").arg(totalRounds);
    }
    parts << head;
    QStringList badges;
    for (const Verdict v : kVerdicts)
        if (s.count(v) > 0)
            badges << badge(v, s.count(v));
    if (s.no_verdict > 0)
        badges << badge(std::nullopt, s.no_verdict);
    if (!badges.isEmpty())
        parts << badges.join(QLatin1Char(' '));
    if (!s.outlier_rounds.empty()) {
        QStringList r;
        for (int i : s.outlier_rounds)
            r << QString::number(i + 1);
        parts << QStringLiteral("outliers: round%1 %2")
                     .arg(r.size() > 1 ? QStringLiteral("s") : QString(), r.join(QStringLiteral(", ")));
    } else if (s.rounds >= 3) {
        parts << QStringLiteral("no outlier rounds");
    }
    return parts.join(QStringLiteral(" &nbsp;·&nbsp; "));
}

void SummaryStrip::setSummary(const QString& counter, const CounterSummary& s, int totalRounds)
{
    setText(describe(counter, s, totalRounds));
}

void SummaryStrip::setSummaries(const QString& counter, const std::vector<Part>& parts)
{
    QStringList lines;
    for (const Part& p : parts)
        lines << describe(p.workload + QStringLiteral(" · ") + counter, p.summary, p.rounds);
    setText(lines.join(QStringLiteral("<br>")));
}

void SummaryStrip::clearSummary(const QString& message)
{
    setText(message.toHtmlEscaped());
}

QString SummaryStrip::plainText() const
{
    return QTextDocumentFragment::fromHtml(text()).toPlainText();
}

}  // namespace jb
