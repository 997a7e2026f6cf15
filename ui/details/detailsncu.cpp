// SPDX-License-Identifier: MIT
#include "detailsncu.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <QObject>
#include <QRegularExpression>

namespace ridgeline::ui {

QString ncuMessageText(const std::string& message)
{
    // "@url:CUDA Best Practices Guide:https://...@", "@section:Occupancy:Occupancy@": the hypertext.
    static const QRegularExpression link(QStringLiteral("@(?:url|section|sass|source):([^:@]*):[^@]*@"));
    QString text = QString::fromStdString(message);
    text.replace(link, QStringLiteral("\\1"));
    return text;
}

QString ncuEstimatesSection(const NcuDetails& ncu)
{
    if (!ncu.estimates || ncu.estimates->empty())
        return {};
    QString html = QStringLiteral("<h4>%1</h4><p>%2</p>")
                       .arg(QObject::tr("ncu estimates"),
                           ncu.launch ? QObject::tr("Nsight Compute's own rule results for this launch.")
                                      : QObject::tr("Nsight Compute's own rule results; speedups are the mean over "
                                                    "the launches that give one, weighted by their time."));
    html += QObject::tr("<table border=0 cellspacing=0 cellpadding=3><tr><th align=left>Rule</th><th>Type</th>"
                        "<th>Estimated speedup</th><th align=left>Message</th></tr>");
    for (const auto& e : *ncu.estimates) {
        QString rule = htmlText(e.name);
        if (!ncu.launch && e.launches > 1)
            rule += QObject::tr("<br><small>%1 launches</small>").arg(htmlText(core::formatCount(e.launches)));
        const std::string speedup = core::ncuSpeedupText(e);
        html += QStringLiteral("<tr><td valign=top>%1</td><td valign=top>%2</td><td valign=top align=right>%3</td>"
                               "<td valign=top>%4</td></tr>")
                    .arg(rule, htmlText(e.type), speedup.empty() ? QStringLiteral("–") : htmlText(speedup),
                        ncuMessageText(e.message).toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

} // namespace ridgeline::ui
