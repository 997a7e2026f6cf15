// SPDX-License-Identifier: MIT
#include "detailsbaseline.h"

#include "baseline/baselinecells.h"
#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <QColor>
#include <QFileInfo>
#include <QObject>

namespace ridgeline::ui {

namespace {

QString row(const QString& label, const QString& before, const QString& after, const QString& change)
{
    return QStringLiteral("<tr><th align=left>%1</th><td align=right>%2</td><td align=right>%3</td>"
                          "<td align=right>%4</td></tr>")
        .arg(label, before, after, change);
}

QString colouredChange(const core::KernelDelta& d)
{
    const QVariant colour = deltaForeground(d);
    const QString text = deltaText(d).toHtmlEscaped();
    return colour.isValid() ? QStringLiteral("<b style='color:%1'>%2</b>").arg(colour.value<QColor>().name(), text)
                            : text;
}

} // namespace

QString baselineSection(const core::KernelSummary& now, const BaselineDetails& b)
{
    if (!b.delta)
        return {};
    const QString file = QFileInfo(b.path).fileName().toHtmlEscaped();
    QString html = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("Compared with the baseline %1").arg(file));
    if (b.delta->isNew() || !b.before)
        return html + QObject::tr("<p>New: this kernel did not run on the matching GPU of the baseline session.</p>");
    const auto& d = *b.delta;
    html += QObject::tr("<table border=0 cellspacing=0 cellpadding=3><tr><th></th><th>Baseline</th><th>Now</th>"
                        "<th>Change</th></tr>");
    html += row(QObject::tr("Total time"), htmlDuration(static_cast<double>(d.baselineTotalNs)),
        htmlDuration(static_cast<double>(now.totalNs)), colouredChange(d));
    html += row(QObject::tr("Launches"), htmlText(core::formatCount(d.baselineLaunches)),
        htmlText(core::formatCount(now.launches)), htmlText(core::formatCount(now.launches - d.baselineLaunches)));
    html += row(QObject::tr("Average"), htmlDuration(d.baselineAverageNs), htmlDuration(now.averageNs()),
        htmlText(core::formatDuration(now.averageNs() - d.baselineAverageNs)));
    html += row(QObject::tr("Verdict"), verdictLabel(d.verdictBefore, d.boundByBefore).toHtmlEscaped(),
        verdictLabel(d.verdictAfter, d.boundByAfter).toHtmlEscaped(),
        d.verdictChanged() ? QObject::tr("changed") : QObject::tr("same"));
    if (d.roofBefore && d.roofAfter) {
        const double points = (*d.roofAfter - *d.roofBefore) * 100.0;
        html += row(QObject::tr("% of roof"), QStringLiteral("%1 %").arg(*d.roofBefore * 100.0, 0, 'f', 0),
            QStringLiteral("%1 %").arg(*d.roofAfter * 100.0, 0, 'f', 0),
            QObject::tr("%1%2 points").arg(points >= 0 ? QStringLiteral("+") : QString()).arg(points, 0, 'f', 0));
    }
    html += QStringLiteral("</table>");
    if (b.before->deviceId != now.deviceId || b.before->deviceName != now.deviceName)
        html += QObject::tr("<p>Baseline device: %1 (device %2 of that session).</p>")
                    .arg(htmlText(b.before->deviceName.empty() ? std::string("unknown") : b.before->deviceName))
                    .arg(b.before->deviceId);
    return html;
}

} // namespace ridgeline::ui
