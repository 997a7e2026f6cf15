// SPDX-License-Identifier: MIT
#include "detailshost.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <QObject>

namespace ridgeline::ui {

namespace {

QString launchingCall(const core::ApiCall& call, const core::Kernel& launch)
{
    return QObject::tr("<p>Launched by <code>%1</code> (%2) on thread %3, a call of %4; the kernel started "
                       "%5 after the call began (launch delay).</p>")
        .arg(QString::fromStdString(call.name).toHtmlEscaped(), QString::fromStdString(call.domain).toHtmlEscaped())
        .arg(call.threadId)
        .arg(htmlDuration(static_cast<double>(call.endNs - call.startNs)),
            htmlDuration(static_cast<double>(launch.startNs - call.startNs)));
}

} // namespace

QString hostSection(const core::KernelDetails& details, qint64 launchId, std::int64_t kernelLaunches)
{
    const QString heading = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("Host side"));
    if (launchId >= 0) {
        if (!details.launchingCall || !details.countersLaunch)
            return {};
        return heading + launchingCall(*details.launchingCall, *details.countersLaunch);
    }
    const auto& d = details.launchDelays;
    if (d.launches == 0)
        return {};
    QString html = heading + QStringLiteral("<table>");
    const auto row = [&html](const QString& label, const QString& value) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label, value);
    };
    row(QObject::tr("Launch delay"),
        QObject::tr("avg %1 · min %2 · max %3 (GPU start − launching call start)")
            .arg(htmlDuration(d.averageNs), htmlDuration(static_cast<double>(d.minNs)),
                htmlDuration(static_cast<double>(d.maxNs))));
    row(QObject::tr("Launch call"), QObject::tr("avg %1 of CPU time per launch").arg(htmlDuration(d.averageCallNs)));
    row(QObject::tr("Launches"),
        QObject::tr("%1 of %2 have their launching call in the session")
            .arg(QString::fromStdString(core::formatCount(d.launches)),
                QString::fromStdString(core::formatCount(kernelLaunches))));
    html += QStringLiteral("</table>");
    return html
        + QObject::tr("<p>Long delays mean launches queue behind earlier GPU work: the host runs ahead, as it "
                      "should. Delays close to the call's own time mean the GPU waited for the host to launch.</p>");
}

} // namespace ridgeline::ui
