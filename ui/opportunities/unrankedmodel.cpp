// SPDX-License-Identifier: MIT
#include "unrankedmodel.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

namespace ridgeline::ui {

UnrankedModel::UnrankedModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

void UnrankedModel::setRows(std::vector<core::UnrankedTime> rows, std::int64_t gpuTimeNs)
{
    m_gpuTimeNs = gpuTimeNs;
    resetRows(std::move(rows));
}

QVariant UnrankedModel::display(const core::UnrankedTime& row, int column) const
{
    switch (column) {
    case GpuTimeColumn:
        return durationLabel(row.gpuTimeNs);
    case ShareColumn:
        return m_gpuTimeNs > 0
            ? QString::number(100.0 * static_cast<double>(row.gpuTimeNs) / static_cast<double>(m_gpuTimeNs), 'f', 1)
                + QStringLiteral(" %")
            : QStringLiteral("–");
    case CallsColumn:
        return QString::fromStdString(core::formatCount(row.calls));
    case KindColumn:
        return QString::fromLatin1(core::toString(row.kind));
    case NameColumn:
        return QString::fromStdString(row.name);
    case ReasonColumn:
        return QString::fromStdString(row.reason);
    default:
        return {};
    }
}

QVariant UnrankedModel::sortKey(const core::UnrankedTime& row, int column) const
{
    switch (column) {
    case GpuTimeColumn:
    case ShareColumn:
        return qint64(row.gpuTimeNs);
    case CallsColumn:
        return qint64(row.calls);
    default:
        return display(row, column);
    }
}

QVariant UnrankedModel::rowData(const core::UnrankedTime& row, const QModelIndex& index, int role) const
{
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortKey(row, column);
    case RowRole:
        return index.row();
    case Qt::ToolTipRole:
        return column == NameColumn ? QString::fromStdString(row.fullName).toHtmlEscaped()
                                    : QString::fromStdString(row.reason).toHtmlEscaped();
    case Qt::TextAlignmentRole:
        if (column == KindColumn || column == NameColumn || column == ReasonColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const UnrankedModel::kTitles[ColumnCount] = { QT_TR_NOOP("GPU time"), QT_TR_NOOP("Share"),
    QT_TR_NOOP("Calls"), QT_TR_NOOP("Kind"), QT_TR_NOOP("Name"), QT_TR_NOOP("Why no roof") };
const char* const UnrankedModel::kTips[ColumnCount] = {
    QT_TR_NOOP("Its GPU time, over all its calls"),
    QT_TR_NOOP("Of all GPU time (kernels, copies and memsets)"),
    QT_TR_NOOP("Operator calls, kernel launches or copies"),
    QT_TR_NOOP("op, kernel or copy"),
    QT_TR_NOOP("The operator, kernel or copy kind"),
    QT_TR_NOOP("Why no roof could be put on it: no counters, no shape model, no ceiling"),
};

} // namespace ridgeline::ui

#include "moc_unrankedmodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
