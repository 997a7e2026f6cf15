// SPDX-License-Identifier: MIT
#include "collectivemodel.h"

#include "common/verdictcolors.h"
#include "ridgeline/core/base/units.h"

namespace ridgeline::ui {

namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

QString rate(const std::optional<double>& value)
{
    return value ? text(core::formatRate(*value, "B/s")) : QStringLiteral("–");
}

double averageNs(const core::CollectiveRow& row)
{
    return row.calls > 0 ? static_cast<double>(row.timeNs) / static_cast<double>(row.calls) : 0.0;
}

} // namespace

CollectiveModel::CollectiveModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

QVariant CollectiveModel::display(const core::CollectiveRow& row, int column) const
{
    switch (column) {
    case CollectiveColumn:
        return text(row.collective);
    case VerdictColumn:
        return text(row.verdict);
    case PctOfLinkColumn:
        return row.pctOfLink ? QString::number(*row.pctOfLink, 'f', *row.pctOfLink < 1 ? 1 : 0) + QStringLiteral(" %")
                             : QStringLiteral("–");
    case BusBwColumn:
        return rate(row.busBytesPerS);
    case LinkColumn:
        if (row.link.name.empty())
            return QStringLiteral("–");
        return row.link.bytesPerS > 0 ? tr("%1 %2%3").arg(text(row.link.name),
                   text(core::formatRate(row.link.bytesPerS, "B/s")), row.link.inferred ? tr(" (inferred)") : QString())
                                      : text(row.link.name);
    case BytesColumn:
        return row.bytes > 0 ? text(core::formatBytes(static_cast<double>(row.bytes))) : QStringLiteral("–");
    case CallsColumn:
        return text(core::formatCount(row.calls));
    case TotalColumn:
        return text(core::formatDuration(static_cast<double>(row.timeNs)));
    case AverageColumn:
        return text(core::formatDuration(averageNs(row)));
    case AlgBwColumn:
        return rate(row.algBytesPerS);
    case RanksColumn:
        return row.groupSize > 0 ? QString::number(row.groupSize) : QStringLiteral("–");
    case ProcessGroupColumn:
        return row.processGroup.empty() ? QStringLiteral("–") : text(row.processGroup);
    case ReasonColumn:
        return text(row.reason);
    default:
        return {};
    }
}

QVariant CollectiveModel::sortKey(const core::CollectiveRow& row, int column) const
{
    switch (column) {
    case PctOfLinkColumn:
        return row.pctOfLink.value_or(-1.0);
    case BusBwColumn:
        return row.busBytesPerS.value_or(-1.0);
    case LinkColumn:
        return row.link.bytesPerS;
    case BytesColumn:
        return qint64(row.bytes);
    case CallsColumn:
        return qint64(row.calls);
    case TotalColumn:
        return qint64(row.timeNs);
    case AverageColumn:
        return averageNs(row);
    case AlgBwColumn:
        return row.algBytesPerS.value_or(-1.0);
    case RanksColumn:
        return row.groupSize;
    default:
        return display(row, column);
    }
}

QVariant CollectiveModel::rowData(const core::CollectiveRow& row, const QModelIndex& index, int role) const
{
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortKey(row, column);
    case ReasonRole:
        return text(row.reason);
    case Qt::ToolTipRole: {
        QString tip = text(row.reason).toHtmlEscaped();
        if (!row.link.note.empty())
            tip += QStringLiteral("<br><i>") + tr("Link: %1").arg(text(row.link.note).toHtmlEscaped())
                + QStringLiteral("</i>");
        return tip;
    }
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return verdictColor(QString::fromStdString(row.verdict));
        return {};
    case Qt::TextAlignmentRole:
        if (column == CollectiveColumn || column == VerdictColumn || column == LinkColumn
            || column == ProcessGroupColumn || column == ReasonColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const CollectiveModel::kTitles[ColumnCount]
    = { QT_TR_NOOP("Collective"), QT_TR_NOOP("Verdict"), QT_TR_NOOP("% of link"), QT_TR_NOOP("busbw"),
          QT_TR_NOOP("Link"), QT_TR_NOOP("Bytes (S)"), QT_TR_NOOP("Calls"), QT_TR_NOOP("Total"), QT_TR_NOOP("Average"),
          QT_TR_NOOP("algbw"), QT_TR_NOOP("Ranks"), QT_TR_NOOP("Process group"), QT_TR_NOOP("Why") };
const char* const CollectiveModel::kTips[ColumnCount] = {
    QT_TR_NOOP("The collective, as the trace names it"),
    QT_TR_NOOP("communication-bound at 60 % or more of the link; otherwise not bandwidth-bound"),
    QT_TR_NOOP("busbw as a share of the link's ceiling, one direction"),
    QT_TR_NOOP("Bus bandwidth (nccl-tests): algbw x 2(n-1)/n for AllReduce, x (n-1)/n for AllGather, "
               "ReduceScatter and AlltoAll, x 1 for Broadcast, Reduce and point-to-point"),
    QT_TR_NOOP("The link the collective runs over and its ceiling per direction; inferred when the session "
               "does not record it"),
    QT_TR_NOOP("Message size S as nccl-tests counts it (the whole output of an AllGather, the whole input of "
               "a ReduceScatter)"),
    QT_TR_NOOP("Calls on every rank"),
    QT_TR_NOOP("Time in these calls, summed over ranks"),
    QT_TR_NOOP("Time per call"),
    QT_TR_NOOP("Algorithm bandwidth: S / time"),
    QT_TR_NOOP("Ranks taking part (n)"),
    QT_TR_NOOP("The process group, when the trace names it"),
    QT_TR_NOOP("The verdict sentence: busbw against the link, the protocol, and the rank waited for"),
};

} // namespace ridgeline::ui

#include "moc_collectivemodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
