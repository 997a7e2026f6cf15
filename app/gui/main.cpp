// SPDX-License-Identifier: MIT
// `ridgeline-ui`: the desktop app. Wires the main window to the command line.
#include "mainwindow.h"
#include "ridgeline/core/version.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QApplication::setApplicationVersion(QString::fromLatin1(ridgeline::core::kVersion));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Ridgeline: GPU kernel profiler and roofline analyser."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("SESSION"), QStringLiteral("Session file (.ridge) to open"));
    parser.process(app);

    ridgeline::ui::MainWindow window;
    window.show();
    if (const auto files = parser.positionalArguments(); !files.isEmpty())
        window.openSession(files.first());
    return QApplication::exec();
}
