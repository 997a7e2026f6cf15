// SPDX-License-Identifier: MIT
#include "operatortreemodel.h"

#include "common/displaytext.h"
#include "common/verdictcolors.h"
#include "kernelrowsource.h"
#include "ridgeline/core/base/units.h"

#include <QFont>
#include <algorithm>

namespace ridgeline::ui {

namespace {

// internalId of an index: 0 for a group row, 1 + group for a row under that group.
constexpr quintptr kGroupRow = 0;

QString count(std::int64_t n)
{
    return QString::fromStdString(core::formatCount(n));
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', 2);
}

// The verdict holding most of a group's GPU time.
core::VerdictClass mainVerdict(const core::OperatorReportRow& row)
{
    const auto& t = row.timeByVerdictNs;
    return static_cast<core::VerdictClass>(std::max_element(t.begin(), t.end()) - t.begin());
}

} // namespace

OperatorTreeModel::OperatorTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void OperatorTreeModel::setDocument(const SessionDocumentPtr& document, core::ReportGrouping by)
{
    beginResetModel();
    m_document = document;
    m_by = by;
    m_groups = nullptr;
    m_summaryOf.clear();
    if (m_document && m_document->operators)
        m_groups = by == core::ReportGrouping::Module ? &m_document->operators->byModule
                                                      : &m_document->operators->byOperator;
    if (m_document) {
        const auto& kernels = m_document->report.kernels;
        for (std::size_t i = 0; i < kernels.size(); ++i)
            m_summaryOf.insert({ kernels[i].nameId, kernels[i].deviceId }, static_cast<int>(i));
    }
    endResetModel();
}

QModelIndex OperatorTreeModel::indexOfKernel(qint64 nameId, qint64 deviceId) const
{
    if (!m_groups)
        return {};
    const auto places = m_groups->placesOf(nameId, deviceId);
    if (places.empty())
        return {};
    return index(static_cast<int>(places.front().child), 0, index(static_cast<int>(places.front().group), 0));
}

const core::KernelSummary* OperatorTreeModel::summaryOf(const QModelIndex& index) const
{
    if (!m_groups || !index.isValid() || index.internalId() == kGroupRow)
        return nullptr;
    const auto& child = m_groups->groups[index.internalId() - 1].children[static_cast<std::size_t>(index.row())];
    auto it = m_summaryOf.constFind({ child.nameId, child.deviceId });
    if (!child.isKernel() || it == m_summaryOf.constEnd())
        return nullptr;
    return &m_document->report.kernels[static_cast<std::size_t>(*it)];
}

QModelIndex OperatorTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_groups || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return static_cast<std::size_t>(row) < m_groups->groups.size() ? createIndex(row, column, kGroupRow)
                                                                       : QModelIndex();
    if (parent.internalId() != kGroupRow)
        return {};
    const auto& group = m_groups->groups[static_cast<std::size_t>(parent.row())];
    if (static_cast<std::size_t>(row) >= group.children.size())
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex OperatorTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kGroupRow)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kGroupRow);
}

int OperatorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_groups)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_groups->groups.size());
    if (parent.internalId() != kGroupRow || parent.column() != 0)
        return 0;
    return static_cast<int>(m_groups->groups[static_cast<std::size_t>(parent.row())].children.size());
}

int OperatorTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant OperatorTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_groups)
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            (index.column() == NameColumn || index.column() == VerdictColumn || index.column() == DeviceColumn
                    ? Qt::AlignLeft
                    : Qt::AlignRight)
            | Qt::AlignVCenter);
    if (index.internalId() == kGroupRow) {
        if (role == IsGroupRole)
            return true;
        return groupData(m_groups->groups[static_cast<std::size_t>(index.row())], index.column(), role);
    }
    if (role == IsGroupRole)
        return false;
    const auto& group = m_groups->groups[index.internalId() - 1];
    return childData(group.children[static_cast<std::size_t>(index.row())], index.column(), role);
}

QVariant OperatorTreeModel::groupData(const core::OperatorGroup& group, int column, int role) const
{
    const auto& r = group.row;
    const core::VerdictClass verdict = mainVerdict(r);
    const bool hasCpu = !group.unattributed;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case GpuTimeColumn:
            return durationLabel(r.gpuTimeNs);
        case ShareColumn:
            return percent(r.shareOfGpuTime);
        case GpuOpsColumn:
            return count(r.gpuOps);
        case CallsColumn:
            return hasCpu ? count(r.calls) : QString();
        case CpuTimeColumn:
            return hasCpu ? durationLabel(r.cpuTimeNs) : QString();
        case VerdictColumn:
            return r.gpuTimeNs > 0 ? QString::fromLatin1(core::toString(verdict)) : QString();
        default:
            return {};
        }
    case SortRole:
        switch (column) {
        case NameColumn:
            return QString::fromStdString(r.name);
        case GpuTimeColumn:
        case ShareColumn:
            return static_cast<qlonglong>(r.gpuTimeNs);
        case GpuOpsColumn:
            return static_cast<qlonglong>(r.gpuOps);
        case CallsColumn:
            return static_cast<qlonglong>(r.calls);
        case CpuTimeColumn:
            return static_cast<qlonglong>(r.cpuTimeNs);
        case VerdictColumn:
            return QString::fromLatin1(core::toString(verdict));
        default:
            return QString();
        }
    case VerdictRole:
        return static_cast<int>(verdict);
    case Qt::ToolTipRole:
        if (group.unattributed)
            return tr("GPU ops no operator launched: launched from a thread without operators (NCCL), outside the "
                      "profiled operators, or without a launching call in the session.");
        return tr("%1: %2 of GPU time in %3 GPU ops launched by %4 call(s); %5 of CPU time (%6 self).")
            .arg(QString::fromStdString(r.name), durationLabel(r.gpuTimeNs), count(r.gpuOps), count(r.calls),
                durationLabel(r.cpuTimeNs), durationLabel(r.selfCpuTimeNs));
    case NameIdRole:
    case DeviceIdRole:
    case LaunchIdRole:
        return qlonglong(-1);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        return column == VerdictColumn && r.gpuTimeNs > 0 ? verdictCellData(verdict, role) : QVariant();
    case Qt::FontRole: {
        QFont font;
        font.setBold(column == NameColumn);
        return font;
    }
    default:
        return {};
    }
}

QVariant OperatorTreeModel::childData(const core::OperatorGroupChild& child, int column, int role) const
{
    auto it = m_summaryOf.constFind({ child.nameId, child.deviceId });
    const core::KernelSummary* kernel = child.isKernel() && it != m_summaryOf.constEnd()
        ? &m_document->report.kernels[static_cast<std::size_t>(*it)]
        : nullptr;
    const QString name = kernel ? QString::fromStdString(kernel->displayName())
        : child.isKernel()      ? tr("kernel name %1").arg(child.nameId)
                                : QString::fromLatin1(core::toString(child.memOpKind));
    if (kernel) {
        if (auto value = rowRoleData(*kernel, -1, role))
            return *value;
    }
    const double share = m_groups->gpuTimeNs > 0
        ? static_cast<double>(child.gpuTimeNs) / static_cast<double>(m_groups->gpuTimeNs)
        : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return name;
        case GpuTimeColumn:
            return durationLabel(child.gpuTimeNs);
        case ShareColumn:
            return percent(share);
        case GpuOpsColumn:
            return count(child.gpuOps);
        case VerdictColumn:
            return kernel ? QString::fromLatin1(core::toString(kernel->analysis.verdict)) : QString();
        case DeviceColumn:
            return kernel && !kernel->deviceName.empty()
                ? QStringLiteral("%1: %2").arg(child.deviceId).arg(QString::fromStdString(kernel->deviceName))
                : QString::number(child.deviceId);
        default:
            return QString();
        }
    case SortRole:
        switch (column) {
        case NameColumn:
            return name;
        case GpuTimeColumn:
        case ShareColumn:
            return static_cast<qlonglong>(child.gpuTimeNs);
        case GpuOpsColumn:
            return static_cast<qlonglong>(child.gpuOps);
        case VerdictColumn:
            return kernel ? QString::fromLatin1(core::toString(kernel->analysis.verdict)) : QString();
        case DeviceColumn:
            return static_cast<qlonglong>(child.deviceId);
        default:
            return qlonglong(0);
        }
    case Qt::ToolTipRole:
        if (!kernel)
            return name;
        return column == NameColumn ? QString::fromStdString(kernel->name)
                                    : QString::fromStdString(kernel->analysis.reason);
    // A copy, a memset, or a kernel without a summary: no kernel to select.
    case MangledNameRole:
    case ReasonRole:
        return QString();
    case NameIdRole:
    case DeviceIdRole:
    case LaunchIdRole:
        return qlonglong(-1);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        return column == VerdictColumn && kernel ? verdictCellData(kernel->analysis.verdict, role) : QVariant();
    default:
        return {};
    }
}

QVariant OperatorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return m_by == core::ReportGrouping::Module ? tr("Module, then kernel") : tr("Operator, then kernel");
    case GpuTimeColumn:
        return tr("GPU time");
    case ShareColumn:
        return tr("Share");
    case GpuOpsColumn:
        return tr("GPU ops");
    case CallsColumn:
        return m_by == core::ReportGrouping::Module ? tr("Operators") : tr("Calls");
    case CpuTimeColumn:
        return tr("CPU time");
    case VerdictColumn:
        return tr("Verdict");
    case DeviceColumn:
        return tr("Device");
    default:
        return {};
    }
}

} // namespace ridgeline::ui

#include "moc_operatortreemodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
