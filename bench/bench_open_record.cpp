// Opening a record of a million samples in the Inspector: the record is made up
// (tests/ui_inspector/MakeRecord.h) and written with the record room's writer (jb::dumpRecord)
// into a temporary file; then, offscreen, the time from InspectorPage::openRecord to the tab
// shown with its power chart drawn (load off the GUI thread, verify, record view, first
// redraw and a paint of the whole page). The core reader (jb::loadRecord, the same reader), the
// general JSON tree reader (jb::parseRecordTree) and `joulebench-cli verify` on the same file
// (a process, start to exit) are timed alongside. Budgets: open under 1 s; the CLI's verify
// within 1.5x of the Inspector's open.
//   bench_open_record [--samples N] [--repeat R]   (default 1000000, 3)
#include "../tests/ui_inspector/MakeRecord.h"
#include "chart/PowerChart.h"
#include "common/RecordView.h"
#include "inspector/InspectorPage.h"
#include "inspector/RecordLoader.h"
#include "inspector/RecordTab.h"
#include <jb/record/RecordJson.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace jb;

namespace {

double ms(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

}  // namespace

int main(int argc, char** argv)
{
    long samples = 1'000'000;
    int repeat = 3;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--samples"))
            samples = std::max(1000L, std::atol(argv[++i]));
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::max(1, std::atoi(argv[++i]));
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    // 1 ms sampling through rounds of 2 s idle and 3 s busy: about 5,000 samples a round.
    jbtest::RunShape shape;
    shape.label = "bench";
    shape.period_ns = 1'000'000;
    shape.cadence_ns = 1'000'000;
    shape.idle_s = 2.0;
    shape.busy_s = 3.0;
    shape.rounds = std::max(1, int(double(samples) / 5000.0));  // a little over `samples`
    QElapsedTimer t;
    t.start();
    const Record r = jbtest::makeRecord(shape);
    const double make_ms = ms(t);
    t.restart();
    const std::string text = dumpRecord(r);
    const double dump_ms = ms(t);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("million.json"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(text.data(), qint64(text.size())) != qint64(text.size())) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return 2;
        }
    }
    const std::size_t n = r.samples.front().second.size();
    std::printf(
        "record: %zu samples, %zu rounds, %.1f MB (made in %.0f ms, written by jb::dumpRecord in %.0f ms)\n",
        n, r.rounds.size(), double(text.size()) / 1048576.0, make_ms, dump_ms);

    t.restart();
    const auto core = loadRecord(path.toStdString());
    const double core_ms = ms(t);
    if (!core) {
        std::fprintf(stderr, "%s\n", core.error().c_str());
        return 2;
    }
    std::printf("jb::loadRecord alone (the core reader, for comparison): %.0f ms\n", core_ms);
    t.restart();
    const auto tree = parseRecordTree(text);
    std::printf("jb::parseRecordTree on the text (the general JSON tree, no samples scanner): %.0f ms\n", ms(t));
    if (!tree)
        return 2;

    std::vector<double> totals, reads, verifies, shows, draws;
    for (int k = 0; k < repeat; ++k) {
        InspectorPage page;
        page.showError = [](const QString&, const QString& m) {
            std::fprintf(stderr, "%s\n", qPrintable(m));
        };
        page.resize(1400, 860);
        page.show();
        app.processEvents();
        QEventLoop loop;
        bool ok = false;
        QObject::connect(&page, &InspectorPage::recordOpened, &loop, [&] {
            ok = true;
            loop.quit();
        });
        QObject::connect(&page, &InspectorPage::openFailed, &loop, [&] { loop.quit(); });
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        QElapsedTimer total;
        total.start();
        page.openRecord(path);
        const double started_ms = ms(total);
        loop.exec();
        const double shown_ms = ms(total);
        if (!ok) {
            std::fprintf(stderr, "the record did not open\n");
            return 1;
        }
        RecordTab* tab = page.recordTab(0);
        QElapsedTimer draw;
        draw.start();
        tab->recordView()->chart()->redraw();  // decimate the whole run for the first picture
        const QPixmap shot = page.grab();      // and paint every widget once
        const double draw_ms = ms(draw);
        const double all_ms = ms(total);
        totals.push_back(all_ms);
        reads.push_back(tab->loaded()->read_ms);
        verifies.push_back(tab->loaded()->verify_ms);
        shows.push_back(shown_ms);
        draws.push_back(draw_ms);
        std::printf(
            "run %d: open -> drawn %.0f ms (tab made in %.0f ms; read+parse %.0f ms on the worker%s, verify %.0f ms, "
            "tab shown at %.0f ms, first redraw + paint %.0f ms, %d chart points)\n",
            k + 1, all_ms, started_ms, tab->loaded()->read_ms,
            tab->loaded()->fast_samples ? ", samples scanner" : "", tab->loaded()->verify_ms, shown_ms,
            draw_ms, tab->recordView()->chart()->pointCount());
        if (shot.isNull())
            return 1;
    }
    const double med = median(totals);
    std::printf(
        "median of %d: open -> drawn %.0f ms (read %.0f, verify %.0f, shown %.0f, draw %.0f); budget 1000 ms: %s\n",
        repeat, med, median(reads), median(verifies), median(shows), median(draws),
        med < 1000 ? "met" : "OVER");

    // The CLI reads a record with the same reader: `verify` on the same file, start to exit.
    const QString cli = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../bin/joulebench-cli"));
    std::vector<double> clis;
    for (int k = 0; k < repeat; ++k) {
        QProcess p;
        QElapsedTimer c;
        c.start();
        p.start(cli, {QStringLiteral("verify"), path});
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit) {
            std::fprintf(stderr, "%s verify did not finish: %s\n", qPrintable(cli), qPrintable(p.errorString()));
            return 1;
        }
        clis.push_back(ms(c));
        if (p.exitCode() != 0) {
            std::fprintf(stderr, "%s verify exited %d:\n%s\n", qPrintable(cli), p.exitCode(),
                         p.readAllStandardError().constData());
            return 1;
        }
    }
    const double cli_ms = median(clis);
    std::printf("joulebench-cli verify on the same file, median of %d: %.0f ms = %.2fx the Inspector's open; budget 1.5x: %s\n",
                repeat, cli_ms, cli_ms / med, cli_ms <= 1.5 * med ? "met" : "OVER");
    return 0;
}
