// SPDX-License-Identifier: MIT
// The main window's parts a test looks at, found by their object names: MainWindow hands out no
// getters to its internals.
#pragma once

#include "cluster/clusterpage.h"
#include "common/selectionmodel.h"
#include "kernels/kernelpage.h"

#include <QObject>
#include <QString>
#include <QTabWidget>

namespace ridgeline::testing {

inline ui::KernelPage* kernelPageOf(const QObject& window)
{
    return window.findChild<ui::KernelPage*>(QStringLiteral("kernelPage"));
}

inline ui::ClusterPage* clusterPageOf(const QObject& window)
{
    return window.findChild<ui::ClusterPage*>(QStringLiteral("clusterPage"));
}

inline QTabWidget* pagesOf(const QObject& window)
{
    return window.findChild<QTabWidget*>(QStringLiteral("pages"));
}

inline ui::SelectionModel* selectionOf(const QObject& window)
{
    return window.findChild<ui::SelectionModel*>(QStringLiteral("selection"));
}

} // namespace ridgeline::testing
