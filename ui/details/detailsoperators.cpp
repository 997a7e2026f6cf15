// SPDX-License-Identifier: MIT
#include "detailsoperators.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

namespace ridgeline::ui {

namespace {

constexpr std::size_t kMaxLaunchers = 12;
constexpr int kMaxFrames = 40;

// Which operators (or modules) launched the kernel, with its GPU time under each.
QString launchersTable(const core::OperatorGroups& groups, std::int64_t nameId, std::int64_t deviceId)
{
    const auto places = groups.placesOf(nameId, deviceId);
    if (places.empty())
        return {};
    std::int64_t total = 0;
    for (const auto& p : places)
        total += groups.groups[p.group].children[p.child].gpuTimeNs;
    QString html = QObject::tr("<p>Launched by:</p><table border=0 cellspacing=0 cellpadding=2>"
                               "<tr><th align=left>Operator</th><th>Launches</th><th>GPU time</th><th>Share</th></tr>");
    for (std::size_t i = 0; i < places.size() && i < kMaxLaunchers; ++i) {
        const auto& group = groups.groups[places[i].group];
        const auto& child = group.children[places[i].child];
        const QString name = group.unattributed ? QObject::tr("<i>no operator (unattributed)</i>")
                                                : QStringLiteral("<code>%1</code>").arg(htmlText(group.row.name));
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4 %</td>"
                               "</tr>")
                    .arg(name, htmlText(core::formatCount(child.gpuOps)), htmlDuration(child.gpuTimeNs))
                    .arg(total > 0 ? 100.0 * static_cast<double>(child.gpuTimeNs) / static_cast<double>(total) : 0.0, 0,
                        'f', 1);
    }
    html += QStringLiteral("</table>");
    if (places.size() > kMaxLaunchers)
        html += QObject::tr("<p>… and %1 more operators.</p>").arg(places.size() - kMaxLaunchers);
    return html;
}

QString callStack(const std::string& text)
{
    QStringList frames = QString::fromStdString(text).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    const qsizetype more = frames.size() - kMaxFrames;
    if (more > 0)
        frames = frames.mid(0, kMaxFrames);
    QString html;
    for (const auto& frame : frames)
        html += QStringLiteral("<code>%1</code><br>").arg(frame.trimmed().toHtmlEscaped());
    if (more > 0)
        html += QObject::tr("… %1 more frames").arg(more);
    return html;
}

QString stackTable(const OperatorStack& stack)
{
    QString html = QStringLiteral("<table border=0 cellspacing=0 cellpadding=2>");
    for (std::size_t i = 0; i < stack.operators.size(); ++i) {
        const auto& op = stack.operators[i];
        const bool python = op.domain == "python_function";
        QString cell = QStringLiteral("%1<code>%2</code>")
                           .arg(QString(static_cast<qsizetype>(std::min<std::size_t>(i, 12) * 2), QChar(0x00a0)),
                               i == 0 ? QStringLiteral("<b>%1</b>").arg(htmlText(op.name)) : htmlText(op.name));
        if (python)
            cell += QObject::tr(" <small>(Python)</small>");
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>").arg(cell, htmlDuration(op.durationNs()));
        QStringList facts;
        if (!op.inputDims.empty())
            facts << QObject::tr("shapes %1").arg(htmlText(op.inputDims));
        if (!op.inputTypes.empty()) {
            std::string types = op.inputTypes;
            std::erase(types, '"');
            facts << QObject::tr("types %1").arg(htmlText(types));
        }
        if (i < stack.modules.size() && !stack.modules[i].empty()
            && (i + 1 >= stack.modules.size() || stack.modules[i + 1] != stack.modules[i]))
            facts << QObject::tr("module %1").arg(htmlText(stack.modules[i]));
        if (!facts.isEmpty())
            html += QStringLiteral("<tr><td colspan=2><small>%1%2</small></td></tr>")
                        .arg(QString(static_cast<qsizetype>(std::min<std::size_t>(i, 12) * 2 + 4), QChar(0x00a0)),
                            facts.join(QStringLiteral(" · ")));
    }
    return html + QStringLiteral("</table>");
}

} // namespace

core::Result<OperatorStack> loadOperatorStack(core::SessionReader& reader, const core::OperatorLookup& lookup,
    std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId)
{
    OperatorStack out;
    if (launchId >= 0) {
        auto kernels = reader.kernelsById({ launchId });
        if (kernels.hasError())
            return kernels.error();
        if (!kernels.value().empty())
            out.launchNs = kernels.value().front().durationNs();
        out.launchId = launchId;
    } else {
        // The longest launch that has an operator; the longest of all when none has.
        auto launches = reader.kernelsOfName(nameId, deviceId);
        if (launches.hasError())
            return launches.error();
        bool withOperator = false;
        for (const auto& k : launches.value()) {
            const bool has = lookup.ofKernel(k.id).innermost != core::OperatorLookup::kNone;
            if (out.launchId < 0 || (has && !withOperator) || (has == withOperator && k.durationNs() > out.launchNs)) {
                out.launchId = k.id;
                out.launchNs = k.durationNs();
                withOperator = has;
            }
        }
        out.longest = true;
    }
    const auto launch = lookup.ofKernel(out.launchId);
    if (out.launchId < 0 || launch.innermost == core::OperatorLookup::kNone)
        return out;
    std::vector<std::int64_t> ids, chunks;
    for (const std::uint32_t op : lookup.stack(launch.innermost)) {
        ids.push_back(lookup.id(op));
        chunks.push_back(lookup.chunkOf(op));
        out.modules.emplace_back(lookup.module(op));
    }
    auto operators = reader.operatorsInChunks(chunks, ids);
    if (operators.hasError())
        return operators.error();
    out.operators = std::move(operators).value();
    if (out.operators.size() != ids.size())
        out.modules.resize(out.operators.size()); // a changed file; the texts still belong to their operators
    return out;
}

QString operatorSection(const OperatorDetails& d)
{
    if (!d.operators)
        return {};
    QString html = QStringLiteral("<h4>%1</h4>").arg(QObject::tr("PyTorch operators"));
    if (!d.launch)
        html += launchersTable(d.operators->byOperator, d.nameId, d.deviceId);
    if (!d.error.isEmpty())
        return html + QStringLiteral("<p>%1</p>").arg(d.error.toHtmlEscaped());
    if (!d.stack)
        return html + QObject::tr("<p>Reading the operator stack…</p>");
    const auto& s = *d.stack;
    if (s.launchId < 0)
        return html;
    const QString which = s.longest
        ? QObject::tr("of its longest launch with an operator, #%1 (%2)").arg(s.launchId).arg(htmlDuration(s.launchNs))
        : QObject::tr("of launch #%1 (%2)").arg(s.launchId).arg(htmlDuration(s.launchNs));
    if (s.operators.empty())
        return html
            + QObject::tr("<p>No operator launched %1: it is unattributed (launched from a thread without operators, "
                          "such as NCCL's, outside the profiled operators, or without its launching call in the "
                          "session).</p>")
                  .arg(s.longest ? QObject::tr("any launch of this kernel") : QObject::tr("this launch"));
    html += QObject::tr("<p>Operator stack %1, innermost first:</p>").arg(which) + stackTable(s);
    const auto withStack = std::find_if(
        s.operators.begin(), s.operators.end(), [](const core::Operator& op) { return !op.callStack.empty(); });
    if (withStack != s.operators.end())
        html += QObject::tr("<p>Call stack (of <code>%1</code>):<br>%2</p>")
                    .arg(htmlText(withStack->name), callStack(withStack->callStack));
    return html;
}

} // namespace ridgeline::ui
