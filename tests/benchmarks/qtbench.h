// SPDX-License-Identifier: MIT
// The main of the Qt benchmarks: offscreen unless a platform is set, and without the user's
// settings (grouping, geometry) in the figures.
#pragma once

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <benchmark/benchmark.h>

namespace ridgeline::testing {

inline int runQtBenchmarks(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace ridgeline::testing
