// SPDX-License-Identifier: MIT
// `ridgeline-ui`: the desktop app. Wires the main window to the command line and the importers.
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/version.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QPixmap>
#include <QSettings>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace {

using ridgeline::ui::MainWindow;

ridgeline::core::Result<std::string> importWithCollectors(
    const ridgeline::ui::ImportJob& job, const ridgeline::ui::ImportProgress& progress)
{
    ridgeline::collectors::ImportRequest request;
    request.inputs = job.inputs;
    request.output = job.output;
    request.progress = progress;
    request.gpuName = job.gpuName;
    auto result = ridgeline::collectors::importFiles(request);
    if (result.hasError())
        return result.error();
    return result.value().summary;
}

// Saves a PNG of the window once what is still being worked out off the GUI thread is shown: the
// details of a selected kernel (launch configurations, counters), the timeline's figures of a step.
void saveWhenShown(MainWindow& window, const QString& target)
{
    const auto retry = [&window, target] { saveWhenShown(window, target); };
    if (window.detailsLoading()) {
        QObject::connect(&window, &MainWindow::detailsLoaded, &window, retry, Qt::SingleShotConnection);
        return;
    }
    if (window.timelineSummaryLoading()) {
        QObject::connect(&window, &MainWindow::timelineSummaryShown, &window, retry, Qt::SingleShotConnection);
        return;
    }
    const bool saved = window.grab().save(target, "PNG");
    if (!saved)
        std::fprintf(stderr, "ridgeline-ui: cannot write %s\n", qPrintable(target));
    QApplication::exit(saved ? 0 : 3);
}

// --screenshot: open the session, show the view, save a PNG of the window and exit.
// `select`: the kernel to select first (a part of its name); the details view without one shows the
// kernel with the most time. `step`: the PyTorch profiler step to choose on the timeline first.
void screenshotWhenOpened(MainWindow& window, const QString& target, const QString& view, const QString& select,
    bool selectGiven, std::optional<std::int64_t> step)
{
    QObject::connect(&window, &MainWindow::sessionOpened, &window, [&window, target, view, select, selectGiven, step] {
        if ((selectGiven || view == QLatin1String("details")) && !window.selectKernel(select)) {
            std::fprintf(stderr, "ridgeline-ui: no kernel of the session matches '%s'\n", qPrintable(select));
            QApplication::exit(1);
            return;
        }
        if (step && !window.chooseProfilerStep(step)) {
            std::fprintf(
                stderr, "ridgeline-ui: the session has no profiler step %lld\n", static_cast<long long>(*step));
            QApplication::exit(1);
            return;
        }
        window.showView(view);
        saveWhenShown(window, target);
    });
    QObject::connect(&window, &MainWindow::sessionFailed, &window, [](const QString&, const QString& message) {
        std::fprintf(stderr, "ridgeline-ui: %s\n", qPrintable(message));
        QApplication::exit(2);
    });
}

// --screenshot --view cluster: open the sessions as a cluster, save a PNG of its page and exit.
void screenshotWhenClusterOpened(MainWindow& window, const QString& target)
{
    QObject::connect(&window, &MainWindow::clusterOpened, &window, [&window, target] {
        window.showView(QStringLiteral("cluster"));
        const bool saved = window.grab().save(target, "PNG");
        if (!saved)
            std::fprintf(stderr, "ridgeline-ui: cannot write %s\n", qPrintable(target));
        QApplication::exit(saved ? 0 : 3);
    });
    QObject::connect(&window, &MainWindow::clusterFailed, &window, [](const QString& message) {
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
    const QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral(
            "With --screenshot: the view to show (table, roofline, timeline, communication, cluster, opportunities, "
            "details; default table). cluster opens every FILE (sessions, folders of them) as one job."),
        QStringLiteral("VIEW"), QStringLiteral("table"));
    const QCommandLineOption select(QStringLiteral("select"),
        QStringLiteral("With --screenshot: select the kernel with the most time whose name contains TEXT first "
                       "(the details view selects the kernel with the most time when this is not given)."),
        QStringLiteral("TEXT"));
    const QCommandLineOption step(QStringLiteral("step"),
        QStringLiteral("With --screenshot: choose PyTorch profiler step N first (ProfilerStep#N): the timeline zooms "
                       "to it and its figures cover it."),
        QStringLiteral("N"));
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.addOption(select);
    parser.addOption(step);
    parser.addPositionalArgument(QStringLiteral("FILES"),
        QStringLiteral("Sessions (.ridge) to open (several, or a folder of them: the Cluster page); traces (Kineto "
                       "JSON, Nsight Systems SQLite, Nsight Compute CSV) to import"));
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    const bool headless = parser.isSet(screenshot);
    const bool cluster = parser.value(view) == QLatin1String("cluster");
    if (headless && (cluster ? files.isEmpty() : files.size() != 1)) {
        std::fprintf(stderr,
            "ridgeline-ui: --screenshot needs exactly one SESSION (with --view cluster: sessions or folders)\n");
        return 1;
    }
    // Screenshots neither read nor change the user's settings: same picture on every machine.
    QTemporaryDir screenshotSettings;
    if (headless) {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, screenshotSettings.path());
    }

    MainWindow window;
    window.setImportFunction(importWithCollectors);
    QStringList gpus;
    for (const auto& spec : ridgeline::collectors::gpuCatalogue())
        gpus.append(QString::fromStdString(spec.name));
    window.setKnownGpus(gpus);
    if (headless) {
        const QString name = parser.value(view);
        if (!window.viewNames().contains(name)) {
            std::fprintf(stderr, "ridgeline-ui: unknown view '%s'; valid views: %s\n", qPrintable(name),
                qPrintable(window.viewNames().join(QStringLiteral(", "))));
            return 1;
        }
        std::optional<std::int64_t> stepNumber;
        if (parser.isSet(step)) {
            bool ok = false;
            stepNumber = parser.value(step).toLongLong(&ok);
            if (!ok) {
                std::fprintf(
                    stderr, "ridgeline-ui: --step needs a step number, not '%s'\n", qPrintable(parser.value(step)));
                return 1;
            }
        }
        if (cluster)
            screenshotWhenClusterOpened(window, parser.value(screenshot));
        else
            screenshotWhenOpened(
                window, parser.value(screenshot), name, parser.value(select), parser.isSet(select), stepNumber);
    }
    window.show();
    if (headless && cluster)
        window.openCluster(files);
    else if (headless)
        window.openSession(files.first()); // never asks anything: not a session is an error
    else if (!files.isEmpty())
        window.openFiles(files);
    return QApplication::exec();
}
