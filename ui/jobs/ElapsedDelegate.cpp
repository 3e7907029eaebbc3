#include "jobs/ElapsedDelegate.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace jb {

ElapsedDelegate::ElapsedDelegate(int progressRole, int colorRole, QObject* parent)
    : QStyledItemDelegate(parent), progressRole_(progressRole), colorRole_(colorRole)
{}

void ElapsedDelegate::paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& index) const
{
    const QVariant fraction = index.data(progressRole_);
    if (!fraction.isValid()) {
        QStyledItemDelegate::paint(p, opt, index);
        return;
    }
    QStyleOptionViewItem o(opt);
    initStyleOption(&o, index);
    const QString text = o.text;
    o.text.clear();
    const QStyle* style = o.widget ? o.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &o, p, o.widget);  // background, selection, focus

    const QRectF bar = QRectF(o.rect).adjusted(3, 3, -3, -3);
    const double f = std::clamp(fraction.toDouble(), 0.0, 1.0);
    QColor fill = index.data(colorRole_).value<QColor>();
    if (!fill.isValid())
        fill = o.palette.color(QPalette::Highlight);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(fill.darker(130), 1));
    p->setBrush(o.palette.color(QPalette::Base));
    p->drawRoundedRect(bar, 3, 3);
    if (f > 0) {
        QRectF filled = bar;
        filled.setWidth(bar.width() * f);
        p->setPen(Qt::NoPen);
        p->setBrush(fill);
        p->drawRoundedRect(filled, 3, 3);
    }
    // Dark text on the light fills (and on the base colour), whatever the selection.
    p->setPen(o.palette.color(QPalette::Text));
    p->drawText(bar, Qt::AlignCenter, text);
    p->restore();
}

QSize ElapsedDelegate::sizeHint(const QStyleOptionViewItem& opt, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(opt, index);
    s.setWidth(std::max(s.width() + 16, 150));
    return s;
}

}  // namespace jb
