#pragma once
// Clipping by geometry, for the 1280x720 layout tests: every visible button, spin box, combo
// box and one-line label under `root` gets at least the width its text needs (its
// minimumSizeHint) and lies inside the window, unless a scroll area shows it (then its scroll
// bar must be able to reach it). Returns one line per widget that fails, empty when none.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QWidget>

namespace jbtest {

inline QString describeWidget(const QWidget* w)
{
    QString what = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        what += QLatin1Char('#') + w->objectName();
    if (auto* b = qobject_cast<const QAbstractButton*>(w))
        what += QStringLiteral(" \"%1\"").arg(b->text());
    else if (auto* l = qobject_cast<const QLabel*>(w))
        what += QStringLiteral(" \"%1\"").arg(l->text().left(40));
    return what;
}

inline QStringList clippedWidgets(QWidget* root)
{
    QStringList out;
    const QRect window = root->window()->rect();
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root->window()) || !w->isVisible())
            continue;
        const bool button = qobject_cast<QAbstractButton*>(w) != nullptr;
        const bool spin = qobject_cast<QAbstractSpinBox*>(w) != nullptr;
        const bool combo = qobject_cast<QComboBox*>(w) != nullptr;
        auto* label = qobject_cast<QLabel*>(w);
        const bool oneLine = label && !label->wordWrap() && !label->text().isEmpty() &&
            label->sizePolicy().horizontalPolicy() != QSizePolicy::Ignored && label->pixmap().isNull();
        if (!button && !spin && !combo && !oneLine)
            continue;
        // Inside a scroll area: clipped only where the scroll area cannot scroll to it.
        QScrollArea* scroll = nullptr;
        for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
            if ((scroll = qobject_cast<QScrollArea*>(p)))
                break;
        if (w->width() + 1 < w->minimumSizeHint().width())
            out << QStringLiteral("%1: %2 px wide, needs %3")
                       .arg(describeWidget(w))
                       .arg(w->width())
                       .arg(w->minimumSizeHint().width());
        if (scroll) {
            const QRect inContent(w->mapTo(scroll->widget(), QPoint(0, 0)), w->size());
            const int reachW = scroll->viewport()->width() +
                (scroll->horizontalScrollBar()->isVisible() ? scroll->horizontalScrollBar()->maximum() : 0);
            if (inContent.right() >= reachW + 1)
                out << QStringLiteral("%1: past its scroll area's right edge").arg(describeWidget(w));
            continue;
        }
        const QRect inWindow(w->mapTo(root->window(), QPoint(0, 0)), w->size());
        if (!window.contains(inWindow))
            out << QStringLiteral("%1: outside the window (%2,%3 %4x%5)")
                       .arg(describeWidget(w))
                       .arg(inWindow.x())
                       .arg(inWindow.y())
                       .arg(inWindow.width())
                       .arg(inWindow.height());
    }
    return out;
}

}  // namespace jbtest
