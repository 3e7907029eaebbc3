#pragma once
// A QTabWidget that does not repaint itself whole on every layout request from its pages.
//
// QTabWidget answers each LayoutRequest with setUpLayout(), which lays out its tab bar and
// page stack and then repaints the whole tab widget. A LayoutRequest reaches it whenever a
// widget anywhere on the current page changes its size hint (a label's text, a table's
// header), so during a run the status line's text repainted the entire Measure page (the chart,
// the rounds table, the form and its scroll bar) about twice a second (docs/BENCHMARKS.md,
// "Whole-page repaints"). The page's own layout moves its widgets without that; what
// setUpLayout() lays out depends only on the tab bar's and the corner widgets' size hints and
// on the tab widget's size, and a resize or a tab change lays it out anyway. So PageTabs lets a
// request through only when those hints changed, and otherwise only passes a change of its own
// size hints on to the widget above it (a page that grew), without the repaint.
#include <QSize>
#include <QTabWidget>

#include <array>
#include <optional>

namespace jb {

class PageTabs : public QTabWidget {
    Q_OBJECT
public:
    using QTabWidget::QTabWidget;

    // How many layout requests were let through to QTabWidget (each repaints it), for tests.
    int layoutsPassed() const { return passed_; }

protected:
    bool event(QEvent* e) override;

private:
    using Hints = std::array<QSize, 3>;
    using OwnHints = std::array<QSize, 2>;
    Hints barHints() const;
    std::optional<Hints> bar_;
    std::optional<OwnHints> own_;
    int passed_ = 0;
};

}  // namespace jb
