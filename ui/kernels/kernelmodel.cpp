// SPDX-License-Identifier: MIT
#include "kernelmodel.h"

#include "baseline/baselinecells.h"
#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"
#include "common/palette.h"

namespace ridgeline::ui {

namespace {

std::optional<double> dramIntensity(const core::KernelAnalysis& a)
{
    auto it = a.intensity.find(core::resource::DRAM);
    return it == a.intensity.end() ? std::nullopt : std::optional<double>(it->second);
}

// Missing numbers sort below every real one.
QVariant optionalKey(const std::optional<double>& value)
{
    return value.value_or(-1.0);
}

} // namespace

KernelModel::KernelModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void KernelModel::setRows(std::vector<core::KernelSummary> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    compare();
    endResetModel();
}

void KernelModel::setBaseline(const SessionDocumentPtr& baseline)
{
    if (baseline == m_baseline)
        return;
    if (!baseline) {
        beginRemoveColumns({}, BaselineColumn, DeltaColumn);
        m_baseline.reset();
        compare();
        endRemoveColumns();
        return;
    }
    if (!m_baseline) {
        beginInsertColumns({}, BaselineColumn, DeltaColumn);
        m_baseline = baseline;
        compare();
        endInsertColumns();
        return;
    }
    m_baseline = baseline;
    compare();
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, BaselineColumn), index(rowCount() - 1, DeltaColumn));
}

void KernelModel::compare()
{
    m_comparison = m_baseline ? core::compareKernels(m_rows, m_baseline->report.kernels) : core::KernelComparison {};
}

QVariant KernelModel::baselineData(int row, int column, int role) const
{
    const auto* delta = m_comparison.deltaOf(static_cast<std::size_t>(row));
    if (!delta)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return column == BaselineColumn ? baselineText(*delta) : deltaText(*delta);
    case SortRole:
        return column == BaselineColumn ? baselineSortKey(*delta) : deltaSortKey(*delta);
    case Qt::ToolTipRole:
        return deltaToolTip(m_rows[static_cast<std::size_t>(row)], *delta);
    case Qt::ForegroundRole:
        return column == DeltaColumn ? deltaForeground(*delta) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

int KernelModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int KernelModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_baseline ? ColumnCountWithBaseline : ColumnCount;
}

QVariant KernelModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& r = m_rows[static_cast<std::size_t>(index.row())];
    if (index.column() >= BaselineColumn && role != MangledNameRole && role != ReasonRole && role != NameIdRole
        && role != DeviceIdRole && role != LaunchIdRole)
        return baselineData(index.row(), index.column(), role);
    if (auto value = summaryRoleData(r, role))
        return *value;
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case SortRole:
        return sortKey(r, index.column());
    case Qt::ToolTipRole:
        if (index.column() == NameColumn)
            return QString::fromStdString(r.name);
        return QString::fromStdString(r.analysis.reason);
    case LaunchIdRole:
        return qlonglong(-1);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        if (index.column() == VerdictColumn)
            return verdictCellData(r.analysis.verdict, role);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == NameColumn || index.column() == VerdictColumn || index.column() == BoundByColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant KernelModel::display(const core::KernelSummary& r, int column) const
{
    switch (column) {
    case TimeShareColumn:
        return QStringLiteral("%1 %").arg(r.shareOfKernelTime * 100.0, 0, 'f', 2);
    case TotalColumn:
        return durationLabel(static_cast<double>(r.totalNs));
    case LaunchesColumn:
        return QString::fromStdString(core::formatCount(r.launches));
    case AverageColumn:
        return durationLabel(r.averageNs());
    case MinColumn:
        return durationLabel(static_cast<double>(r.minNs));
    case MaxColumn:
        return durationLabel(static_cast<double>(r.maxNs));
    case VerdictColumn:
        return QString::fromLatin1(core::toString(r.analysis.verdict));
    case BoundByColumn:
        return QString::fromStdString(r.analysis.boundBy);
    case RoofColumn:
        return r.analysis.boundUtilization ? QStringLiteral("%1 %").arg(*r.analysis.boundUtilization * 100.0, 0, 'f', 0)
                                           : QString();
    case FlopsColumn:
        return r.analysis.achievedFlopsPerS
            ? QString::fromStdString(core::formatRate(*r.analysis.achievedFlopsPerS, "FLOP/s"))
            : QString();
    case IntensityColumn: {
        const auto ai = dramIntensity(r.analysis);
        return ai ? QString::number(*ai, 'g', 3) : QString();
    }
    case DeviceColumn:
        return r.deviceName.empty()
            ? QString::number(r.deviceId)
            : QStringLiteral("%1: %2").arg(r.deviceId).arg(QString::fromStdString(r.deviceName));
    case NameColumn:
        return QString::fromStdString(r.displayName()); // the full name is the tooltip
    default:
        return {};
    }
}

QVariant KernelModel::sortKey(const core::KernelSummary& r, int column) const
{
    switch (column) {
    case TimeShareColumn:
        return r.shareOfKernelTime;
    case TotalColumn:
        return static_cast<qlonglong>(r.totalNs);
    case LaunchesColumn:
        return static_cast<qlonglong>(r.launches);
    case AverageColumn:
        return r.averageNs();
    case MinColumn:
        return static_cast<qlonglong>(r.minNs);
    case MaxColumn:
        return static_cast<qlonglong>(r.maxNs);
    case VerdictColumn:
        return QString::fromLatin1(core::toString(r.analysis.verdict));
    case BoundByColumn:
        return QString::fromStdString(r.analysis.boundBy);
    case RoofColumn:
        return optionalKey(r.analysis.boundUtilization);
    case FlopsColumn:
        return optionalKey(r.analysis.achievedFlopsPerS);
    case IntensityColumn:
        return optionalKey(dramIntensity(r.analysis));
    case DeviceColumn:
        return static_cast<qlonglong>(r.deviceId);
    case NameColumn:
        return QString::fromStdString(r.displayName() + '\n' + r.name); // as shown, then by full name
    default:
        return {};
    }
}

int KernelModel::rowOf(std::int64_t nameId, std::int64_t deviceId) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].nameId == nameId && m_rows[i].deviceId == deviceId)
            return static_cast<int>(i);
    }
    return -1;
}

QVariant KernelModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && m_baseline && section >= BaselineColumn)
        return section == BaselineColumn ? tr("Total time in the baseline session %1").arg(m_baseline->path)
                                         : tr("Change of total time since the baseline session (now − baseline)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeShareColumn:
        return tr("Time %");
    case TotalColumn:
        return tr("Total");
    case LaunchesColumn:
        return tr("Launches");
    case AverageColumn:
        return tr("Average");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case VerdictColumn:
        return tr("Verdict");
    case BoundByColumn:
        return tr("Bound by");
    case RoofColumn:
        return tr("% of roof");
    case FlopsColumn:
        return tr("FLOP/s");
    case IntensityColumn:
        return tr("AI (DRAM)");
    case DeviceColumn:
        return tr("Device");
    case NameColumn:
        return tr("Kernel");
    case BaselineColumn:
        return m_baseline ? tr("Baseline") : QVariant();
    case DeltaColumn:
        return m_baseline ? tr("Δ time") : QVariant();
    default:
        return {};
    }
}

} // namespace ridgeline::ui
