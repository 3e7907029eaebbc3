#include "common/VerdictDelegate.h"

#include "common/Palette.h"

#include <QApplication>
#include <QPainter>

namespace jb {

namespace {
// The role holds the verdict's word (the record's spelling); empty or another word: none.
std::optional<Verdict> verdictAt(const QModelIndex& index, int role)
{
    return parseVerdict(index.data(role).toString().toStdString());
}
}  // namespace

VerdictDelegate::VerdictDelegate(int verdictRole, QObject* parent)
    : QStyledItemDelegate(parent), role_(verdictRole)
{}

void VerdictDelegate::paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& index) const
{
    // The cell's own background (selection, alternate rows) first, then the badge on top.
    QStyleOptionViewItem base = opt;
    initStyleOption(&base, index);
    base.text.clear();
    const QWidget* w = opt.widget;
    QStyle* style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &base, p, w);

    const VerdictStyle vs = verdictStyle(verdictAt(index, role_));
    const QFontMetrics fm(opt.font);
    const int textW = fm.horizontalAdvance(vs.text);
    const int h = std::min(opt.rect.height() - 4, fm.height() + 4);
    QRect badge(0, 0, textW + 16, h);
    badge.moveCenter(opt.rect.center());
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(Qt::NoPen);
    p->setBrush(vs.background);
    p->drawRoundedRect(badge, h / 2.0, h / 2.0);
    QFont f = opt.font;
    f.setBold(true);
    p->setFont(f);
    p->setPen(vs.foreground);
    p->drawText(badge, Qt::AlignCenter, vs.text);
    p->restore();
}

QSize VerdictDelegate::sizeHint(const QStyleOptionViewItem& opt, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(opt, index);
    QFont f = opt.font;
    f.setBold(true);
    const int w = QFontMetrics(f).horizontalAdvance(verdictStyle(verdictAt(index, role_)).text) + 28;
    return {std::max(s.width(), w), std::max(s.height(), QFontMetrics(f).height() + 8)};
}

}  // namespace jb
