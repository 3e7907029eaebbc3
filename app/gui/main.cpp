// joulebench: the live dashboard. `joulebench [RECORD]` opens a record at once; `--start`
// presses Start once the window is up (with the form's remembered values, or the first-start
// demo run), which is what packaging/screenshots.sh uses.
#include "MainWindow.h"
#include "base/Version.h"
#include "measure/MeasurePage.h"
#include "measure/RunForm.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

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
    cli.addPositionalArgument(QStringLiteral("record"), QStringLiteral("A record (JSON) to open, read-only."),
                              QStringLiteral("[RECORD]"));
    const QCommandLineOption start(QStringLiteral("start"),
                                   QStringLiteral("Press Start once the window is shown."));
    cli.addOption(start);
    cli.process(app);
    const QStringList records = cli.positionalArguments();
    if (records.size() > 1)
        cli.showHelp(2);

    jb::MainWindow window;
    window.show();
    if (!records.isEmpty()) {
        // A record that cannot be read is reported in a message; the dashboard stays open.
        window.openRecord(records.front());
    } else if (cli.isSet(start)) {
        QTimer::singleShot(0, window.measurePage(), &jb::MeasurePage::start);
    }
    return app.exec();
}
