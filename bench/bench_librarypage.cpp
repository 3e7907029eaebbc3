// The Library page at 10,000 records (offscreen): the first load, three filters, a label's
// trend, and scrolling the table a page at a time, each step repainted at once (a stall is a
// step over 100 ms). For the load, the filters and the trend (whose queries run on the page's
// worker) it gives the time until the result is on screen and the GUI thread's longest block. The
// library is bench_library's (BenchLibrary.h), SQLite in a temporary folder.
//   QT_QPA_PLATFORM=offscreen bench_librarypage [--records N]
#include "library/LibraryModel.h"
#include "library/LibraryPage.h"

#include "BenchLibrary.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    int n = 10000;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--records") && i + 1 < argc)
            n = std::atoi(argv[++i]);
    QTemporaryDir tmp;
    const std::string spec = QString(tmp.path() + QStringLiteral("/library.sqlite")).toStdString();
    {
        auto lib = jb::Library::open(spec);
        if (!lib) {
            std::fprintf(stderr, "bench_librarypage: %s\n", lib.error().c_str());
            return 1;
        }
        if (auto st = jbbench::fillLibrary(**lib, n); !st) {
            std::fprintf(stderr, "bench_librarypage: %s\n", st.error().c_str());
            return 1;
        }
    }
    // The GUI thread's longest block while the page works: a 1 ms timer's largest gap between
    // ticks (what a user feels as a stall), beside the time until the result is on screen.
    QElapsedTimer gap;
    double worst_gap = 0;
    QTimer probe;
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        worst_gap = std::max(worst_gap, msSince(gap));
        gap.restart();
    });
    probe.start();
    const auto waitIdle = [&](jb::LibraryPage& page) {
        gap.restart();
        worst_gap = 0;
        while (page.busy())
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        page.view()->viewport()->repaint();
        QApplication::processEvents();
        worst_gap = std::max(worst_gap, msSince(gap));
        return worst_gap;
    };

    QElapsedTimer t;
    t.start();
    jb::LibraryPage page(spec);
    page.resize(1300, 800);
    page.show();
    const double load_block = waitIdle(page);
    const double load_ms = msSince(t);
    const int rows = page.model()->rowCount();

    // The trend of one label (its 100 records, a bootstrap per point) on the page's worker.
    const QString counter = page.model()->index(0, 0).data(jb::LibraryModel::CounterRole).toString();
    std::vector<double> trend_ms, trend_block;
    for (int rep = 0; rep < 5; ++rep) {
        page.showTrend(QString(), QString());
        t.restart();
        page.showTrend(QStringLiteral("decoder-7"), counter);
        trend_block.push_back(waitIdle(page));
        trend_ms.push_back(msSince(t));
    }
    // Filters with that trend shown: each one asks for the trend again (within the filter).
    std::vector<double> filter_ms, filter_block;
    for (int rep = 0; rep < 5; ++rep)
        for (const char* terms : {"label=decoder-7", "meta.q=3 meta.codec=jpeg", ""}) {
            t.restart();
            page.filter()->setText(QString::fromLatin1(terms));
            page.reload();
            filter_block.push_back(waitIdle(page));
            filter_ms.push_back(msSince(t));
            if (rep == 0)
                std::fprintf(stderr, "filter '%s': %d rows in %.1f ms, the GUI thread blocked at most %.1f ms\n",
                             terms, page.model()->rowCount(), filter_ms.back(), filter_block.back());
        }
    probe.stop();
    QScrollBar* bar = page.view()->verticalScrollBar();
    std::vector<double> step_ms;
    for (int step = 0; step < 200 && bar->value() < bar->maximum(); ++step) {
        t.restart();
        bar->setValue(bar->value() + bar->pageStep());
        page.view()->viewport()->repaint();
        step_ms.push_back(msSince(t));
    }
    auto med = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    auto most = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
    const auto stalls = std::count_if(step_ms.begin(), step_ms.end(), [](double v) { return v > 100.0; });
    std::printf("| records | rows shown | first load (GUI blocked) | filter until shown, median / max of %zu (GUI "
                "blocked, max) | trend until shown, median / max of %zu (GUI blocked, max) | scroll step "
                "(median / max of %zu) | steps over 100 ms |\n| --- | --- | --- | --- | --- | --- | --- |\n",
                filter_ms.size(), trend_ms.size(), step_ms.size());
    std::printf("| %d | %d | %.0f ms (%.0f ms) | %.1f / %.1f ms (%.1f ms) | %.0f / %.0f ms (%.1f ms) | %.2f / %.2f ms | "
                "%ld |\n",
                n, rows, load_ms, load_block, med(filter_ms), most(filter_ms), most(filter_block), med(trend_ms),
                most(trend_ms), most(trend_block), med(step_ms), most(step_ms), long(stalls));
    return 0;
}
