#include "common/PageTabs.h"

#include <QEvent>
#include <QTabBar>

namespace jb {

PageTabs::Hints PageTabs::barHints() const
{
    auto hintOf = [](const QWidget* w) { return w && !w->isHidden() ? w->sizeHint() : QSize(); };
    return {tabBar()->sizeHint(), hintOf(cornerWidget(Qt::TopLeftCorner)),
            hintOf(cornerWidget(Qt::TopRightCorner))};
}

bool PageTabs::event(QEvent* e)
{
    if (e->type() != QEvent::LayoutRequest)
        return QTabWidget::event(e);
    const Hints bar = barHints();
    const OwnHints own{minimumSizeHint(), sizeHint()};
    const bool bar_same = bar_ && *bar_ == bar;
    const bool own_same = own_ && *own_ == own;
    bar_ = bar;
    own_ = own;
    if (!bar_same) {
        ++passed_;
        return QTabWidget::event(e);
    }
    if (!own_same)
        updateGeometry();  // what QTabWidget would do after its repaint: the window follows the page
    return QWidget::event(e);
}

}  // namespace jb
