// SPDX-License-Identifier: MIT
// `ridgeline-ui`: the desktop app. Wires the main window to the command line.
#include "mainwindow.h"
#include "ridgeline/core/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QPixmap>
#include <cstdio>

namespace {

// --screenshot: open the session, render the window offscreen-capable into a PNG, exit.
void screenshotWhenOpened(ridgeline::ui::MainWindow& window, const QString& target)
{
    QObject::connect(&window, &ridgeline::ui::MainWindow::sessionOpened, &window, [&window, target] {
        const bool saved = window.grab().save(target, "PNG");
        if (!saved)
            std::fprintf(stderr, "ridgeline-ui: cannot write %s\n", qPrintable(target));
        QApplication::exit(saved ? 0 : 3);
    });
    QObject::connect(
        &window, &ridgeline::ui::MainWindow::sessionFailed, &window, [](const QString&, const QString& message) {
            std::fprintf(stderr, "ridgeline-ui: %s\n", qPrintable(message));
            QApplication::exit(2);
        });
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QApplication::setApplicationVersion(QString::fromLatin1(ridgeline::core::kVersion));
    QApplication::setDesktopFileName(QStringLiteral("ridgeline")); // resources/ridgeline.desktop
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ridgeline/ridgeline.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Ridgeline: GPU kernel profiler and roofline analyser."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral(
            "Open SESSION, save a PNG of the window to FILE and exit (works with QT_QPA_PLATFORM=offscreen)."),
        QStringLiteral("FILE"));
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("SESSION"), QStringLiteral("Session file (.ridge) to open"));
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (parser.isSet(screenshot) && files.isEmpty()) {
        std::fprintf(stderr, "ridgeline-ui: --screenshot needs a SESSION\n");
        return 1;
    }
    ridgeline::ui::MainWindow window;
    if (parser.isSet(screenshot))
        screenshotWhenOpened(window, parser.value(screenshot));
    window.show();
    if (!files.isEmpty())
        window.openSession(files.first());
    return QApplication::exec();
}
