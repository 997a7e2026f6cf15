// SPDX-License-Identifier: MIT
#include "detailshtml.h"

#include "common/displaytext.h"
#include "common/verdictcolors.h"
#include "detailshost.h"
#include "ridgeline/core/analysis/advice.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/model/resource.h"

#include <cmath>
#include <span>

namespace ridgeline::ui {

namespace {

QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', fraction < 0.1 ? 1 : 0);
}

QString row(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><th align=left>%1</th><td>%2</td></tr>").arg(label, value);
}

QString dim(const core::Dim3& d)
{
    return QStringLiteral("%1 × %2 × %3").arg(d.x).arg(d.y).arg(d.z);
}

QString header(const DetailsInput& in, const core::KernelSummary& k)
{
    // Template arguments and parameters folded in the heading; the whole name ends the pane.
    QString html = QStringLiteral("<h3 style='font-family:monospace'>%1</h3><table>")
                       .arg(htmlText(core::shortKernelName(k.name)));
    QString device = htmlText(k.deviceName.empty() ? "unknown" : k.deviceName);
    if (in.device) {
        const std::string facts = core::describeDevice(*in.device);
        device += facts.empty() ? QObject::tr(" (GPU %1; the session describes it no further)").arg(in.device->ordinal)
                                : QObject::tr(" (GPU %1, %2)").arg(in.device->ordinal).arg(htmlText(facts));
    }
    html += row(QObject::tr("Device"), device);
    if (in.launchId >= 0)
        html += row(QObject::tr("Launch"), QObject::tr("#%1 of %2 launches").arg(in.launchId).arg(k.launches));
    html += row(QObject::tr("Launches"), htmlText(core::formatCount(k.launches)));
    html += row(QObject::tr("Total time"),
        QObject::tr("%1 (%2 of kernel time)")
            .arg(htmlText(core::formatDuration(static_cast<double>(k.totalNs))), percent(k.shareOfKernelTime)));
    html += row(QObject::tr("Average / min / max"),
        QStringLiteral("%1 / %2 / %3")
            .arg(htmlText(core::formatDuration(k.averageNs())),
                htmlText(core::formatDuration(static_cast<double>(k.minNs))),
                htmlText(core::formatDuration(static_cast<double>(k.maxNs)))));
    return html + QStringLiteral("</table>");
}

// The whole demangled name and the symbol, last: template names can fill a screen.
QString namesSection(const core::KernelSummary& k)
{
    QString html = QStringLiteral("<h4>%1</h4><p><small><code>%2</code></small></p>")
                       .arg(QObject::tr("Full name"), htmlText(k.name));
    if (k.mangledName != k.name && !k.mangledName.empty())
        html += QStringLiteral("<h4>%1</h4><p><small><code>%2</code></small></p>")
                    .arg(QObject::tr("Symbol"), htmlText(k.mangledName));
    return html;
}

QString verdictSection(const core::KernelAnalysis& a)
{
    const QColor colour = verdictColor(a.verdict);
    QString html = QStringLiteral("<h4>%1</h4><p><span style='background:%2;color:#fff'>&nbsp;%3&nbsp;</span>")
                       .arg(QObject::tr("Verdict"), colour.name(), QString::fromLatin1(core::toString(a.verdict)));
    if (!a.boundBy.empty())
        html += QObject::tr(" bound by <b>%1</b>").arg(htmlText(a.boundBy));
    if (a.boundUtilization)
        html += QObject::tr(" at %1 of its ceiling").arg(percent(*a.boundUtilization));
    html += QStringLiteral("</p><p>%1</p><h4>%2</h4><ul>").arg(htmlText(a.reason), QObject::tr("What to try"));
    for (const auto& advice : core::adviceFor(a))
        html += QStringLiteral("<li>%1</li>").arg(htmlText(advice));
    return html + QStringLiteral("</ul>");
}

QString rooflineSection(const core::KernelSummary& k)
{
    QString html = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("Roofline position"));
    const std::span<const core::KernelSummary> one(&k, 1);
    core::RooflineChartOptions options;
    const auto combined = core::buildRooflineChart({}, one, options);
    if (combined.points.empty()) {
        const auto reason = combined.unplotted.empty() ? std::string("no counters") : combined.unplotted.front().reason;
        return html + QObject::tr("<p>Not on the roofline: %1.</p>").arg(htmlText(reason));
    }
    options.mode = core::RooflinePointMode::PerPrecision;
    const auto split = core::buildRooflineChart({}, one, options);
    html += QObject::tr("<table border=0 cellspacing=0 cellpadding=3><tr><th>Level</th><th>Work</th>"
                        "<th>Intensity</th><th>Achieved</th><th>Roof here</th><th>% of roof</th></tr>");
    for (const auto* points : { &combined.points, &split.points }) {
        for (const auto& p : *points) {
            html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3 FLOP/B</td><td align=right>%4</td>"
                                   "<td align=right>%5</td><td align=right>%6</td></tr>")
                        .arg(htmlText(p.level), p.precision.empty() ? QObject::tr("all FLOPs") : htmlText(p.precision))
                        .arg(p.intensity, 0, 'g', 4)
                        .arg(htmlText(core::formatRate(p.flopsPerS, "FLOP/s")),
                            p.attainable ? htmlText(core::formatRate(*p.attainable, "FLOP/s")) : QStringLiteral("–"),
                            p.fractionOfRoof ? percent(*p.fractionOfRoof) : QStringLiteral("–"));
        }
    }
    html += QStringLiteral("</table>");
    if (k.analysis.mixCeilingFlopsPerS)
        html += QObject::tr("<p>Ceiling of this kernel's precision mix: %1.</p>")
                    .arg(htmlText(core::formatRate(*k.analysis.mixCeilingFlopsPerS, "FLOP/s")));
    return html;
}

QString figuresSection(const core::KernelAnalysis& a)
{
    QString html;
    if (!a.ceilingsUsed.empty()) {
        html += QStringLiteral("<h4>%1</h4><table>").arg(QObject::tr("Ceilings and utilisation"));
        for (const auto& [res, c] : a.ceilingsUsed) {
            const bool bytes = core::kindOf(res) != core::ResourceKind::Compute;
            QString value = QStringLiteral("%1 <i>(%2)</i>")
                                .arg(htmlText(core::formatRate(c.value, bytes ? "B/s" : "FLOP/s")),
                                    htmlText(core::toString(c.source)));
            const auto util = a.utilization.find(res);
            if (util != a.utilization.end())
                value += QObject::tr(" — used at %1").arg(percent(util->second));
            html += row(htmlText(core::toString(res)), value);
        }
        if (const auto tensor = a.utilization.find(core::Resource::Tensor); tensor != a.utilization.end())
            html += row(QObject::tr("tensor (all types)"), QObject::tr("used at %1").arg(percent(tensor->second)));
        html += QStringLiteral("</table>");
    }
    if (a.figures == core::FigureSource::Shapes && a.shapes && a.shapes->call) {
        // Not counted: worked out from the shapes of the operator that launched the kernel.
        const core::ShapeCall& call = *a.shapes->call;
        html += QStringLiteral("<h4>%1</h4><table>").arg(QObject::tr("Operator shapes (from shapes, not counted)"));
        html += row(QObject::tr("Operator"), htmlText(call.operatorName));
        html += row(QObject::tr("Model"), htmlText(call.work.family + " (" + call.work.precision + ")"));
        html += row(QObject::tr("Per call"), htmlText(call.work.formula));
        html += row(QObject::tr("Call's work"),
            htmlText(core::formatRate(call.work.flops, "FLOP") + ", " + core::formatBytes(call.work.bytes)));
        if (a.shapes->share < 1)
            html += row(QObject::tr("This launch's share"), percent(a.shapes->share));
        html += QStringLiteral("</table>");
    }
    if (!a.flopsByPrecision.empty() || !a.bytesByLevel.empty()) {
        html += QStringLiteral("<h4>%1</h4><table>")
                    .arg(a.figures == core::FigureSource::Shapes
                            ? QObject::tr("Work and traffic (from shapes)")
                            : QObject::tr("Work and traffic (launches with counters)"));
        for (const auto& [precision, ops] : a.flopsByPrecision)
            html += row(htmlText(core::toString(precision)),
                htmlText(core::formatRate(ops, precision == core::Resource::INT8Tensor ? "op" : "FLOP")));
        for (const auto& [level, bytes] : a.bytesByLevel)
            html += row(htmlText(core::toString(level)), htmlText(core::formatBytes(bytes)));
        if (a.achievedFlopsPerS)
            html += row(QObject::tr("Achieved"), htmlText(core::formatRate(*a.achievedFlopsPerS, "FLOP/s")));
        html += QStringLiteral("</table>");
    }
    return html;
}

QString launchSection(const DetailsInput& in)
{
    QString html = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("Launch configuration"));
    if (!in.loadError.isEmpty())
        return html + QStringLiteral("<p>%1</p>").arg(in.loadError.toHtmlEscaped());
    if (!in.details)
        return html + QObject::tr("<p>Loading launch configuration and counters…</p>");
    html += QObject::tr("<table border=0 cellspacing=0 cellpadding=3><tr><th>Grid</th><th>Block</th>"
                        "<th>Registers/thread</th><th>Shared memory (static + dynamic)</th><th>Launches</th></tr>");
    for (const auto& c : in.details->configs) {
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td><td align=right>%4 + %5</td>"
                               "<td align=right>%6</td></tr>")
                    .arg(dim(c.grid), dim(c.block))
                    .arg(c.registersPerThread)
                    .arg(htmlText(core::formatBytes(c.staticSharedBytes)),
                        htmlText(core::formatBytes(c.dynamicSharedBytes)), htmlText(core::formatCount(c.launches)));
    }
    html += QStringLiteral("</table><h4>%1</h4>").arg(QObject::tr("Hardware counters"));
    const auto& d = *in.details;
    if (!d.countersLaunch || d.metrics.empty())
        return html
            + QObject::tr("<p>No hardware counters were recorded for this %1.</p>")
                  .arg(in.launchId >= 0 ? QObject::tr("launch") : QObject::tr("kernel"));
    html += QObject::tr("<p>Of launch #%1 (%2)%3.</p><table border=0 cellspacing=0 cellpadding=2>")
                .arg(d.countersLaunch->id)
                .arg(htmlText(core::formatDuration(static_cast<double>(d.countersLaunch->durationNs()))))
                .arg(in.launchId >= 0 ? QString() : QObject::tr(", the longest launch with counters"));
    for (const auto& m : d.metrics) {
        html += QStringLiteral("<tr><td><code>%1</code></td><td align=right>%2</td><td align=right>%3 %4</td></tr>")
                    .arg(htmlText(m.name), formatMetric(m.value, m.unit).toHtmlEscaped())
                    .arg(m.value, 0, 'g', 12)
                    .arg(htmlText(m.unit));
    }
    return html + QStringLiteral("</table>");
}

} // namespace

QString formatMetric(double value, const std::string& unit)
{
    if (unit == "byte")
        return QString::fromStdString(core::formatBytes(value));
    if (unit == "ns")
        return QString::fromStdString(core::formatDuration(value));
    if (unit == "byte/s" || unit == "B/s")
        return QString::fromStdString(core::formatRate(value, "B/s"));
    if (unit == "Hz")
        return QString::fromStdString(core::formatRate(value, "Hz"));
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9e15) {
        QString count = QString::fromStdString(core::formatCount(static_cast<std::int64_t>(value)));
        return unit.empty() ? count : count + QLatin1Char(' ') + QString::fromStdString(unit);
    }
    QString number = QString::number(value, 'g', 4);
    return unit.empty() ? number : number + QLatin1Char(' ') + QString::fromStdString(unit);
}

QString detailsHtml(const DetailsInput& in)
{
    const QString opportunity = in.opportunity ? opportunitySection(*in.opportunity) : QString();
    if (!in.kernel && !opportunity.isEmpty())
        return opportunity; // a row chosen on the Opportunities page with no kernel (copies)
    if (!in.kernel)
        return QObject::tr("<p>Select a kernel in the table, the roofline or the timeline to see its details.</p>");
    core::KernelSummary k = *in.kernel;
    if (in.details && in.details->launchAnalysis)
        k.analysis = *in.details->launchAnalysis; // the figures of the selected launch alone
    return header(in, *in.kernel) + baselineSection(*in.kernel, in.baseline) + verdictSection(k.analysis) + opportunity
        + ncuEstimatesSection(in.ncu) + (in.operators ? operatorSection(*in.operators) : QString()) + rooflineSection(k)
        + figuresSection(k.analysis) + launchSection(in)
        + (in.details ? hostSection(*in.details, in.launchId, in.kernel->launches) : QString())
        + namesSection(*in.kernel);
}

} // namespace ridgeline::ui
