// joulebench: the live dashboard. Its pages: Measure (a live run), Inspector (saved records,
// comparison), Noise lab (noise demonstrations and the planner), Jobs (the GPU job queue).
// `joulebench [RECORD...]` opens records in the Inspector; `--start` presses Start once the
// window is up (with the form's remembered values, or the first-start demo run), which is what
// packaging/screenshots.sh uses; `--page NAME` shows a page first; `--connect HOST:PORT --token
// TOKEN` watches a served run (`--serve`) in the Measure page, as File > Connect to a Run... does. On start, journals that a
// crashed run left beside the records are rebuilt into aborted records and opened. SIGTERM,
// SIGINT and SIGHUP end a run and save it before the window closes.
#include "MainWindow.h"
#include "common/JournalRecovery.h"
#include "common/RecentFiles.h"
#include "common/RecordFiles.h"
#include "inspector/InspectorPage.h"
#include "jobs/JobsPage.h"
#include "library/InspectorBridge.h"
#include "library/LibraryPage.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"
#include "noise/NoiseLabPage.h"
#include <jb/base/StopSignals.h>
#include <jb/base/Version.h>
#include <jb/library/Library.h>
#include <jb/remote/RemoteTarget.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>
#include <optional>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("JouleBench"));
    QApplication::setOrganizationDomain(QStringLiteral("joulebench.github.io"));
    QApplication::setApplicationName(QStringLiteral("joulebench"));
    QApplication::setApplicationDisplayName(QStringLiteral("JouleBench"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(jb::kToolVersion.data(), qsizetype(jb::kToolVersion.size())));
    QApplication::setDesktopFileName(QStringLiteral("io.github.joulebench.JouleBench"));

    QCommandLineParser cli;
    cli.setApplicationDescription(
        QStringLiteral("JouleBench's live dashboard: measure a decoder child's energy per "
                       "decode, or view a saved record."));
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument(QStringLiteral("records"),
                              QStringLiteral("Records (JSON) to open in the Inspector, one tab each."),
                              QStringLiteral("[RECORD...]"));
    const QCommandLineOption start(QStringLiteral("start"),
                                   QStringLiteral("Press Start once the window is shown."));
    cli.addOption(start);
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("The page shown first: measure, inspector, noise, jobs or library."),
                                  QStringLiteral("NAME"));
    cli.addOption(page);
    const QCommandLineOption jobFile(QStringLiteral("jobs"), QStringLiteral("A job file to load on the Jobs page."),
                                     QStringLiteral("FILE"));
    cli.addOption(jobFile);
    const QCommandLineOption connectTo(QStringLiteral("connect"),
                                       QStringLiteral("Watch a run served by joulebench-cli --serve (docs/REMOTE.md)."),
                                       QStringLiteral("HOST:PORT"));
    cli.addOption(connectTo);
    const QCommandLineOption token(QStringLiteral("token"), QStringLiteral("The served run's token (with --connect)."),
                                   QStringLiteral("TOKEN"));
    cli.addOption(token);
    cli.process(app);
    std::optional<jb::RemoteTarget> watch;
    if (cli.isSet(connectTo)) {
        auto t = jb::parseRemoteTarget(cli.value(connectTo).toStdString(), cli.value(token).toStdString());
        if (!t) {
            std::fprintf(stderr, "joulebench: --connect: %s\n", t.error().c_str());
            return 2;
        }
        watch = t.value();
    }
    const QStringList records = cli.positionalArguments();

    jb::MainWindow window;
    auto* inspector = new jb::InspectorPage(&window);
    auto* noise = new jb::NoiseLabPage({}, &window);
    auto* jobs = new jb::JobsPage(&window);
    window.addPage(inspector, QObject::tr("Inspector"));
    window.addPage(noise, QObject::tr("Noise lab"));
    window.addPage(jobs, QObject::tr("Jobs"));
    const std::string librarySpec = jb::librarySpec({});
    auto* library = new jb::LibraryPage(librarySpec, &window);
    window.addPage(library, QObject::tr("Library"));
    // Records open in the Inspector, one tab each; a file that cannot be read gets a message
    // there and the other tabs stay.
    window.openRecordsHook = [&window, inspector](const QStringList& paths) {
        inspector->openRecords(paths);
        window.showPage(inspector);
    };
    QObject::connect(inspector, &jb::InspectorPage::recordOpened, window.recentFiles(), &jb::RecentFiles::add);
    // The Library page opens records, and two as a comparison, in the Inspector; a record the
    // dashboard saves joins the library, and one opened there when the user asks (Add to Library).
    new jb::InspectorBridge(library, inspector, [&window, inspector] { window.showPage(inspector); }, library);
    QObject::connect(inspector, &jb::InspectorPage::addToLibraryRequested, library, &jb::LibraryPage::addFile);
    QObject::connect(library, &jb::LibraryPage::fileAdded, inspector, &jb::InspectorPage::libraryAdded);
    // The runs add what they write to the library themselves (core/run, as the CLI's do); the
    // Library page shows them.
    window.measurePage()->setLibrary(librarySpec);
    jobs->setLibrary(librarySpec);
    // The Jobs page's local executor reads its counters where the Measure page's runs do (the
    // dashboard's CounterOptions: the defaults, as MainWindow gives the Measure page).
    jobs->setCounterOptions(jb::CounterOptions{});
    QObject::connect(window.measurePage(), &jb::MeasurePage::libraryAdded, library, &jb::LibraryPage::reload);
    QObject::connect(jobs, &jb::JobsPage::libraryAdded, library, &jb::LibraryPage::reload);
    // Connect to a Run... on an address that serves a job queue: the Jobs page watches it.
    QObject::connect(window.measurePage(), &jb::MeasurePage::queueServed, jobs,
                     [&window, jobs](const jb::RemoteTarget& target) {
                         if (jobs->watchRemote(target))
                             window.showPage(jobs);
                     });
    QObject::connect(inspector, &jb::InspectorPage::openFailed, window.recentFiles(),
                     [&window](const QString& path, const QString&) {
                         if (!QFileInfo::exists(path))
                             window.recentFiles()->remove(path);
                     });
    window.busyElsewhere = [jobs] {
        return jobs->running() ? QObject::tr("GPU jobs are running. Closing ends them; their manifests will "
                                             "say 'cancelled'. Close anyway?")
                               : QString();
    };
    // SIGTERM (a logout, `kill`), SIGINT and SIGHUP close the window without asking: a run is
    // ended and what it measured saved first, so no journal is left to recover.
    jb::StopSignals stops;
    QObject::connect(&stops, &jb::StopSignals::caught, &window,
                     [&window](int signo) { window.closeForSignal(jb::StopSignals::name(signo)); });
    window.show();

    QStringList open = records;
    const auto recovered = jb::recoverJournals(jb::autosaveFolder());
    QStringList recoveredNotes;
    for (const jb::RecoveredJournal& r : recovered) {
        if (!r.record.isEmpty()) {
            open << r.record;
            recoveredNotes << QObject::tr("%1: %n finished round(s) recovered", nullptr, r.rounds).arg(r.record);
        } else {
            recoveredNotes << QObject::tr("%1 could not be recovered: %2").arg(r.journal, r.error);
        }
    }
    if (!open.isEmpty())
        window.openRecordsHook(open);
    if (!recoveredNotes.isEmpty())
        QMessageBox::information(&window, QObject::tr("Runs that did not finish"),
                                 QObject::tr("A run ended before it could save its record (a crash or a kill). "
                                             "Its journal was rebuilt into an aborted record:\n\n") +
                                     recoveredNotes.join(QLatin1Char('\n')));
    if (cli.isSet(jobFile)) {
        jobs->loadJobFile(cli.value(jobFile));
        window.showPage(jobs);
    }
    if (cli.isSet(page)) {
        const QString p = cli.value(page).toLower();
        QWidget* w = p == QLatin1String("inspector") ? static_cast<QWidget*>(inspector)
                     : p == QLatin1String("noise")   ? static_cast<QWidget*>(noise)
                     : p == QLatin1String("jobs")    ? static_cast<QWidget*>(jobs)
                     : p == QLatin1String("library") ? static_cast<QWidget*>(library)
                                                     : static_cast<QWidget*>(window.measurePage());
        window.showPage(w);
    }
    if (watch) {
        window.showPage(window.measurePage());
        if (const jb::Status st = window.measurePage()->watchRemote(*watch); !st)
            std::fprintf(stderr, "joulebench: --connect: %s\n", st.error().c_str());
    } else if (records.isEmpty() && cli.isSet(start))
        QTimer::singleShot(0, window.measurePage(), &jb::MeasurePage::start);
    return app.exec();
}
