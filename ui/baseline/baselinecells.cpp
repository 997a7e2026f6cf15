// SPDX-License-Identifier: MIT
#include "baselinecells.h"

#include "common/displaytext.h"
#include "common/palette.h"
#include "ridgeline/core/base/units.h"

#include <QColor>
#include <QGuiApplication>
#include <QObject>
#include <cmath>

namespace ridgeline::ui {

DeltaKind deltaKind(const core::KernelDelta& delta)
{
    if (delta.isNew())
        return DeltaKind::New;
    if (delta.deltaPct && std::fabs(*delta.deltaPct) < kDeltaNoisePct)
        return DeltaKind::Same;
    if (delta.deltaNs == 0)
        return DeltaKind::Same;
    return delta.deltaNs > 0 ? DeltaKind::Slower : DeltaKind::Faster;
}

QString baselineText(const core::KernelDelta& delta)
{
    return delta.isNew() ? QObject::tr("new") : durationLabel(static_cast<double>(delta.baselineTotalNs));
}

QString deltaText(const core::KernelDelta& delta)
{
    const QString change = QString::fromStdString(core::formatDeltaDuration(delta.deltaNs));
    if (delta.isNew())
        return QObject::tr("%1 (new)").arg(change);
    if (!delta.deltaPct)
        return change;
    return QStringLiteral("%1 (%2)").arg(change, QString::fromStdString(core::formatDeltaPct(delta.deltaPct)));
}

QVariant baselineSortKey(const core::KernelDelta& delta)
{
    return delta.isNew() ? -1.0 : static_cast<double>(delta.baselineTotalNs);
}

QVariant deltaSortKey(const core::KernelDelta& delta)
{
    return static_cast<double>(delta.deltaNs);
}

QString deltaToolTip(const core::KernelSummary& now, const core::KernelDelta& delta)
{
    const QString current
        = QObject::tr("Now: %1 in %2 launches (average %3), %4")
              .arg(durationLabel(static_cast<double>(now.totalNs)))
              .arg(QString::fromStdString(core::formatCount(now.launches)))
              .arg(durationLabel(now.averageNs()), verdictLabel(delta.verdictAfter, delta.boundByAfter));
    if (delta.isNew())
        return QObject::tr("Not in the baseline session.") + QLatin1Char('\n') + current;
    QString tip
        = QObject::tr("Baseline: %1 in %2 launches (average %3), %4")
              .arg(durationLabel(static_cast<double>(delta.baselineTotalNs)))
              .arg(QString::fromStdString(core::formatCount(delta.baselineLaunches)))
              .arg(durationLabel(delta.baselineAverageNs), verdictLabel(delta.verdictBefore, delta.boundByBefore))
        + QLatin1Char('\n') + current + QLatin1Char('\n') + QObject::tr("Change: %1").arg(deltaText(delta));
    if (delta.roofBefore && delta.roofAfter)
        tip += QLatin1Char('\n')
            + QObject::tr("Roof: %1 % → %2 %")
                  .arg(*delta.roofBefore * 100.0, 0, 'f', 0)
                  .arg(*delta.roofAfter * 100.0, 0, 'f', 0);
    return tip;
}

QVariant deltaForeground(const core::KernelDelta& delta)
{
    const bool dark = isDark(QGuiApplication::palette());
    switch (deltaKind(delta)) {
    case DeltaKind::Slower:
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xb3, 0x26, 0x1e);
    case DeltaKind::Faster:
        return dark ? QColor(0x56, 0xd3, 0x64) : QColor(0x1a, 0x7f, 0x37);
    case DeltaKind::Same:
    case DeltaKind::New:
        return {};
    }
    return {};
}

QString comparisonSummary(const SessionDocument& current, const SessionDocument& baseline)
{
    const auto totals = core::compareKernels(current.report.kernels, baseline.report.kernels).totals;
    return QCoreApplication::translate("ridgeline::ui::MainWindow",
        "Comparing with baseline %1: %2 kernel(s) matched, %3 new, %4 gone; kernel time %5 → %6 (%7)")
        .arg(baseline.path)
        .arg(totals.matched)
        .arg(totals.added)
        .arg(totals.gone)
        .arg(durationLabel(totals.kernelNsBefore), durationLabel(totals.kernelNsAfter),
            QString::fromStdString(core::formatDeltaPct(totals.deltaPct())));
}

} // namespace ridgeline::ui
