// SPDX-License-Identifier: MIT
#include "detailsopportunity.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <QObject>
#include <algorithm>

namespace ridgeline::ui {

namespace {

bool oppDetailsHolds(const std::vector<core::OpportunityKernel>& kernels, std::int64_t nameId, std::int64_t deviceId)
{
    return std::any_of(kernels.begin(), kernels.end(),
        [&](const core::OpportunityKernel& k) { return k.nameId == nameId && k.deviceId == deviceId; });
}

QString oppDetailsRow(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><th align=left>%1</th><td>%2</td></tr>").arg(label, value);
}

QString oppDetailsPercent(double part, double whole)
{
    return whole > 0 ? QStringLiteral("%1 %").arg(100.0 * part / whole, 0, 'f', 1) : QStringLiteral("–");
}

QString oppDetailsRankedSection(const OpportunityDetails& in, int index)
{
    const auto& all = in.opportunities->rows;
    const auto& r = all[static_cast<std::size_t>(index)];
    QString html
        = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("Opportunity #%1 of %2").arg(index + 1).arg(all.size()));
    QString name = QStringLiteral("<code>%1</code>").arg(htmlText(r.name));
    if (!r.inputDims.empty())
        name += QStringLiteral(" <small><code>%1</code></small>").arg(htmlText(r.inputDims));
    html += QStringLiteral("<table>");
    html += oppDetailsRow(
        QObject::tr("Row"), name + QStringLiteral(" (%1)").arg(QString::fromLatin1(core::toString(r.kind))));
    html += oppDetailsRow(QObject::tr("Recoverable"),
        QObject::tr("<b>%1</b> of its %2 (%3)")
            .arg(htmlDuration(r.recoverableNs), htmlDuration(r.gpuTimeNs),
                oppDetailsPercent(static_cast<double>(r.recoverableNs), static_cast<double>(r.gpuTimeNs))));
    html += oppDetailsRow(QObject::tr("At its roof"),
        r.limitedBy.empty()
            ? htmlDuration(r.timeAtRoofNs)
            : QObject::tr("%1, limited by %2").arg(htmlDuration(r.timeAtRoofNs), htmlText(r.limitedBy)));
    html += oppDetailsRow(QObject::tr("Calls"), htmlText(core::formatCount(r.calls)));
    html += oppDetailsRow(QObject::tr("Verdict"), htmlText(core::verdictText(r.verdict, r.boundBy)));
    html += QStringLiteral("</table>");
    // A kernel row's reason is its kernel's verdict sentence, shown above when that kernel is selected.
    const bool reasonShown = r.kind == core::OpportunityKind::Kernel && r.kernels.size() == 1
        && r.kernels.front().nameId == in.nameId && r.kernels.front().deviceId == in.deviceId;
    if (!r.analysis.reason.empty() && !reasonShown)
        html += QStringLiteral("<p>%1</p>").arg(htmlText(r.analysis.reason));
    if (r.verdict == core::VerdictClass::LatencyBound)
        html += QStringLiteral("<p><i>%1</i></p>").arg(latencyRecoverableNote().toHtmlEscaped());
    if (r.overRoof)
        html += QStringLiteral("<p><b>%1</b></p>")
                    .arg(QObject::tr("Its figures exceed a roof: the ceiling or the counters are wrong."));
    if (r.figuresShare < 1)
        html += QStringLiteral("<p>%1</p>")
                    .arg(QObject::tr("Its figures come from %1 of its time; the rest is assumed to run as efficiently.")
                             .arg(oppDetailsPercent(r.figuresShare, 1.0)));
    html += QStringLiteral("<p>%1</p><ol>").arg(QObject::tr("What would give it back, most useful first:"));
    for (const auto& a : r.advice)
        html += QStringLiteral("<li>%1</li>").arg(htmlText(a));
    html += QStringLiteral("</ol>");
    if (in.nameId >= 0) {
        const auto holding = std::count_if(all.begin(), all.end(),
            [&](const core::Opportunity& o) { return oppDetailsHolds(o.kernels, in.nameId, in.deviceId); });
        if (r.kernels.size() > 1 || holding > 1)
            html += QStringLiteral("<p><small>%1</small></p>")
                        .arg(QObject::tr("The row stands for %1 kernel(s); this kernel is in %2 ranked row(s).")
                                 .arg(r.kernels.size())
                                 .arg(holding));
    }
    return html;
}

} // namespace

int opportunityRowFor(const OpportunityDetails& in)
{
    if (!in.opportunities)
        return -1;
    const auto& rows = in.opportunities->rows;
    const bool chosen = in.chosenRow >= 0 && static_cast<std::size_t>(in.chosenRow) < rows.size();
    if (in.nameId < 0)
        return chosen ? in.chosenRow : -1;
    if (chosen && oppDetailsHolds(rows[static_cast<std::size_t>(in.chosenRow)].kernels, in.nameId, in.deviceId))
        return in.chosenRow;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (oppDetailsHolds(rows[i].kernels, in.nameId, in.deviceId))
            return static_cast<int>(i);
    }
    return -1;
}

QString opportunitySection(const OpportunityDetails& in)
{
    const int index = opportunityRowFor(in);
    if (index >= 0)
        return oppDetailsRankedSection(in, index);
    if (!in.opportunities || in.nameId < 0)
        return {};
    for (const auto& u : in.opportunities->unranked) {
        if (oppDetailsHolds(u.kernels, in.nameId, in.deviceId))
            return QStringLiteral("<h4>%1</h4><p>%2</p>")
                .arg(QObject::tr("Opportunity"),
                    QObject::tr("No roof for its %1 (%2 %3): %4")
                        .arg(htmlDuration(u.gpuTimeNs), QString::fromLatin1(core::toString(u.kind)), htmlText(u.name),
                            htmlText(u.reason)));
    }
    return {};
}

} // namespace ridgeline::ui
