#pragma once
// Clipping by geometry, for the 1280x720 layout tests: every visible button, spin box, combo
// box and one-line label under `root` gets at least the width its text needs (its
// minimumSizeHint) and lies inside the window, unless a scroll area shows it (then its scroll
// bar must be able to reach it). Returns one line per widget that fails, empty when none.
#include <QAbstractButton>
#include <algorithm>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QTableView>
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

// Charts cut short: Qt Charts draws a title, an axis label or title, or a legend entry that does
// not fit its room as text ending "..." (ChartPresenter::truncatedText). Every visible
// graphics view (a QChartView) under root is read, its scene's text items: one line per cut
// text, naming the view's class (and object name) and the text.
inline QStringList elidedChartTexts(QWidget* root)
{
    QStringList out;
    for (QGraphicsView* v : root->findChildren<QGraphicsView*>()) {
        if (!v->isVisible() || !v->scene())
            continue;
        for (QGraphicsItem* item : v->scene()->items()) {
            if (!item->isVisible())
                continue;
            QString text;
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
                text = t->toPlainText();
            else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                text = st->text();
            if (text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026)))
                out << QStringLiteral("%1: \"%2\" cut short")
                           .arg(describeWidget(v->parentWidget() ? v->parentWidget() : v), text);
        }
    }
    return out;
}

// Tables cut short: a visible table view's column narrower than its header's text or its
// widest cell (Qt elides them "..."), unless the table scrolls sideways to show it whole.
inline QStringList clippedTableColumns(QWidget* root)
{
    QStringList out;
    for (QTableView* t : root->findChildren<QTableView*>()) {
        if (!t->isVisible() || !t->model())
            continue;
        const QHeaderView* h = t->horizontalHeader();
        for (int c = 0; c < t->model()->columnCount(); ++c) {
            if (t->isColumnHidden(c))
                continue;
            const int need = std::max(h->sectionSizeHint(c), static_cast<const QAbstractItemView*>(t)->sizeHintForColumn(c));
            if (h->sectionSize(c) + 1 < need)
                out << QStringLiteral("%1 column %2 \"%3\": %4 px wide, needs %5")
                           .arg(describeWidget(t))
                           .arg(c)
                           .arg(t->model()->headerData(c, Qt::Horizontal).toString())
                           .arg(h->sectionSize(c))
                           .arg(need);
        }
        const int right = h->length();
        if (right > t->viewport()->width() + 1 && !t->horizontalScrollBar()->isVisible())
            out << QStringLiteral("%1: columns %2 px wide in a %3 px view, no scroll bar")
                       .arg(describeWidget(t))
                       .arg(right)
                       .arg(t->viewport()->width());
    }
    return out;
}

}  // namespace jbtest
