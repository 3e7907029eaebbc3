#include "chart/ChartLegend.h"

#include "common/Palette.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace jb {

namespace {
constexpr int kSwatch = 18;  // a swatch's width
constexpr int kGap = 14;     // between entries
constexpr int kPad = 5;      // swatch to text
}  // namespace

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("chartLegend"));
    QSizePolicy sp(QSizePolicy::Preferred, QSizePolicy::Preferred);
    sp.setHeightForWidth(true);
    setSizePolicy(sp);
}

void ChartLegend::setEntries(std::vector<LegendEntry> entries)
{
    if (entries == entries_)
        return;
    entries_ = std::move(entries);
    setVisible(!entries_.empty());
    updateGeometry();
    update();
}

QStringList ChartLegend::texts() const
{
    QStringList out;
    for (const LegendEntry& e : entries_)
        out << e.text;
    return out;
}

std::vector<QRect> ChartLegend::layout(int width) const
{
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    std::vector<QRect> out;
    int x = 0, y = 0;
    for (const LegendEntry& e : entries_) {
        const int w = kSwatch + kPad + fm.horizontalAdvance(e.text);
        if (x > 0 && x + w > width) {
            x = 0;
            y += h + 2;
        }
        out.emplace_back(x, y, w, h);
        x += w + kGap;
    }
    return out;
}

int ChartLegend::heightForWidth(int width) const
{
    const auto boxes = layout(width);
    return boxes.empty() ? 0 : boxes.back().bottom() + 1;
}

QSize ChartLegend::sizeHint() const
{
    const auto boxes = layout(QWIDGETSIZE_MAX);
    return boxes.empty() ? QSize(0, 0) : QSize(boxes.back().right() + 1, fontMetrics().height());
}

QSize ChartLegend::minimumSizeHint() const
{
    return QSize(kSwatch * 4, fontMetrics().height());
}

void ChartLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const auto boxes = layout(width());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const LegendEntry& e = entries_[i];
        const QRect& b = boxes[i];
        const QRectF sw(b.left() + 0.5, b.top() + 3.5, kSwatch - 1, b.height() - 7);
        const double mid = sw.center().y();
        switch (e.mark) {
        case LegendEntry::Line:
            p.setPen(QPen(e.color, 2));
            p.drawLine(QPointF(sw.left(), mid), QPointF(sw.right(), mid));
            break;
        case LegendEntry::DashedLine:
            p.setPen(QPen(e.color, 1.5, Qt::DashLine));
            p.drawLine(QPointF(sw.left(), mid), QPointF(sw.right(), mid));
            break;
        case LegendEntry::Band:
            p.fillRect(sw, palette().base());
            p.fillRect(sw, e.color);
            p.setPen(QPen(palette::bandMean(), 1.2));
            p.drawLine(QPointF(sw.left(), mid), QPointF(sw.right(), mid));
            break;
        case LegendEntry::Unshaded:
            p.fillRect(sw, palette().base());
            p.setPen(QPen(palette().mid().color(), 1, Qt::DotLine));
            p.drawRect(sw);
            break;
        case LegendEntry::Fill:
            // Over the plot's own background, as the chart shows it, with a faint edge.
            p.fillRect(sw, palette().base());
            p.fillRect(sw, e.color);
            p.setPen(QPen(palette().mid().color(), 0.8));
            p.drawRect(sw);
            break;
        }
        p.setPen(palette().windowText().color());
        p.drawText(QRect(b.left() + kSwatch + kPad, b.top(), b.width() - kSwatch - kPad, b.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, e.text);
    }
}

bool ChartLegend::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* h = static_cast<QHelpEvent*>(e);
        const auto boxes = layout(width());
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i].contains(h->pos())) {
                QToolTip::showText(h->globalPos(), entries_[i].tip, this, boxes[i]);
                return true;
            }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace jb
