// SPDX-License-Identifier: MIT
#include "displaytext.h"

#include "ridgeline/core/base/units.h"

#include <QCoreApplication>

namespace ridgeline::ui {

QString durationLabel(double ns)
{
    return QString::fromStdString(core::formatDuration(ns));
}

QString durationLabel(std::int64_t ns)
{
    return durationLabel(static_cast<double>(ns));
}

QString verdictLabel(core::VerdictClass verdict, const std::string& boundBy)
{
    return QString::fromStdString(core::verdictText(verdict, boundBy));
}

QString latencyRecoverableNote()
{
    return QCoreApplication::translate("ridgeline::ui::OpportunityModel",
        "Latency-bound: no unit is busy, so a faster unit would not help; its time is recoverable by fewer, larger "
        "launches (fusing kernels, CUDA graphs, bigger batches).");
}

QString htmlText(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString htmlDuration(double ns)
{
    return durationLabel(ns).toHtmlEscaped();
}

QString htmlDuration(std::int64_t ns)
{
    return htmlDuration(static_cast<double>(ns));
}

} // namespace ridgeline::ui
