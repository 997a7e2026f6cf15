// SPDX-License-Identifier: MIT
#include "opportunitymodel.h"

#include "common/displaytext.h"
#include "common/verdictcolors.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>

namespace ridgeline::ui {

namespace {

QString oppText(const std::string& s)
{
    return QString::fromStdString(s);
}

double oppShare(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

OpportunityModel::OpportunityModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

void OpportunityModel::setRows(std::vector<core::Opportunity> rows)
{
    m_largestNs = 0;
    for (const auto& r : rows)
        m_largestNs = std::max(m_largestNs, r.recoverableNs);
    resetRows(std::move(rows));
}

QVariant OpportunityModel::display(const core::Opportunity& row, int column) const
{
    switch (column) {
    case RankColumn: // rowData answers it
        return {};
    case RecoverableColumn:
        return durationLabel(row.recoverableNs);
    case GpuTimeColumn:
        return durationLabel(row.gpuTimeNs);
    case AtRoofColumn:
        return durationLabel(row.timeAtRoofNs);
    case CallsColumn:
        return oppText(core::formatCount(row.calls));
    case KindColumn:
        return QString::fromLatin1(core::toString(row.kind));
    case VerdictColumn:
        return QString(verdictLabel(row.verdict, row.boundBy)
            + (row.verdict == core::VerdictClass::LatencyBound ? tr(": fewer launches") : QString()));
    case LimitedByColumn:
        return row.limitedBy.empty() ? QStringLiteral("–") : oppText(row.limitedBy);
    case NameColumn:
        return row.inputDims.empty() ? oppText(row.name)
                                     : QString(oppText(row.name) + QStringLiteral("  ") + oppText(row.inputDims));
    default:
        return {};
    }
}

QVariant OpportunityModel::sortKey(const core::Opportunity& row, int column) const
{
    switch (column) {
    case RankColumn: // rowData answers it
        return {};
    case RecoverableColumn:
        return qint64(row.recoverableNs);
    case GpuTimeColumn:
        return qint64(row.gpuTimeNs);
    case AtRoofColumn:
        return qint64(row.timeAtRoofNs);
    case CallsColumn:
        return qint64(row.calls);
    default:
        return display(row, column);
    }
}

QString OpportunityModel::toolTip(const core::Opportunity& row, int column) const
{
    switch (column) {
    case RecoverableColumn:
    case GpuTimeColumn:
    case AtRoofColumn:
        return tr("%1 of its %2 recoverable (%3 %): at its roof it would take %4.")
            .arg(durationLabel(row.recoverableNs), durationLabel(row.gpuTimeNs))
            .arg(100.0 * oppShare(row.recoverableNs, row.gpuTimeNs), 0, 'f', 1)
            .arg(durationLabel(row.timeAtRoofNs));
    case VerdictColumn: {
        QString tip = oppText(row.analysis.reason).toHtmlEscaped();
        if (row.verdict == core::VerdictClass::LatencyBound)
            tip = QStringLiteral("<b>") + latencyRecoverableNote().toHtmlEscaped() + QStringLiteral("</b><br>") + tip;
        return tip;
    }
    case NameColumn: {
        QString tip = oppText(row.fullName).toHtmlEscaped();
        if (!row.inputDims.empty())
            tip += QStringLiteral("<br>") + tr("Input dims: %1").arg(oppText(row.inputDims).toHtmlEscaped());
        if (!row.inputTypes.empty())
            tip += QStringLiteral("<br>") + tr("Input types: %1").arg(oppText(row.inputTypes).toHtmlEscaped());
        if (!row.advice.empty())
            tip += QStringLiteral("<br><i>") + oppText(row.advice.front()).toHtmlEscaped() + QStringLiteral("</i>");
        return tip;
    }
    default:
        return row.advice.empty() ? QString() : oppText(row.advice.front()).toHtmlEscaped();
    }
}

QVariant OpportunityModel::rowData(const core::Opportunity& row, const QModelIndex& index, int role) const
{
    const int column = index.column();
    if (column == RankColumn && (role == Qt::DisplayRole || role == SortRole))
        return index.row() + 1; // the rows are in core's order
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortKey(row, column);
    case BarRole:
        return column == RecoverableColumn ? QVariant(oppShare(row.recoverableNs, m_largestNs)) : QVariant();
    case RowRole:
        return index.row();
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return verdictCellData(row.verdict, role);
        return {};
    case Qt::TextAlignmentRole:
        if (column == KindColumn || column == VerdictColumn || column == LimitedByColumn || column == NameColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const OpportunityModel::kTitles[ColumnCount]
    = { QT_TR_NOOP("#"), QT_TR_NOOP("Recoverable"), QT_TR_NOOP("GPU time"), QT_TR_NOOP("At roof"), QT_TR_NOOP("Calls"),
          QT_TR_NOOP("Kind"), QT_TR_NOOP("Verdict"), QT_TR_NOOP("Limited by"), QT_TR_NOOP("Name") };
const char* const OpportunityModel::kTips[ColumnCount] = {
    QT_TR_NOOP("Rank by recoverable time"),
    QT_TR_NOOP("GPU time − time at roof: what running at its roof would give back"),
    QT_TR_NOOP("Its GPU time, over all its calls"),
    QT_TR_NOOP("The time its FLOPs and bytes would take at the roof that limits it"),
    QT_TR_NOOP("Operator calls, kernel launches or copies"),
    QT_TR_NOOP("op: a PyTorch operator by input shape; kernel: a kernel by name and device; copy: copies or "
               "memsets by kind and device"),
    QT_TR_NOOP("Its verdict; latency-bound time is recoverable by fewer, larger launches, not a faster unit"),
    QT_TR_NOOP("The roof that gives its time at roof: compute, memory, throughput (Nsight Compute) or link"),
    QT_TR_NOOP("The operator and its input dims, the kernel, or the copy kind"),
};

} // namespace ridgeline::ui

#include "moc_opportunitymodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
