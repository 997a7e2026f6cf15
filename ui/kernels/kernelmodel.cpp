// SPDX-License-Identifier: MIT
#include "kernelmodel.h"

#include "baseline/baselinecells.h"
#include "common/displaytext.h"
#include "common/verdictcolors.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/metricnames.h"

#include <iterator>

namespace ridgeline::ui {

namespace {

std::optional<double> dramIntensity(const core::KernelAnalysis& a)
{
    auto it = a.intensity.find(core::Resource::DRAM);
    return it == a.intensity.end() ? std::nullopt : std::optional<double>(it->second);
}

// Missing numbers sort below every real one.
QVariant optionalKey(const std::optional<double>& value)
{
    return value.value_or(-1.0);
}

QVariant percentOrEmpty(const std::optional<double>& share)
{
    return share ? QStringLiteral("%1 %").arg(*share * 100.0, 0, 'f', 0) : QString();
}

// A column of the per-name table: its title (translated in KernelModel's context), the side its
// text keeps to, and what a kernel's row shows in it (DisplayRole) and sorts by (SortRole).
struct KernelColumn {
    KernelModel::Column column;
    const char* title;
    Qt::AlignmentFlag side;
    QVariant (*text)(const core::KernelSummary&);
    QVariant (*sortKey)(const core::KernelSummary&);
};

// Every column of the table without a baseline, in the order of KernelModel::Column (checked
// below): a column added to the enum and not here does not compile.
constexpr KernelColumn kKernelColumns[] = {
    { KernelModel::TimeShareColumn, QT_TR_NOOP("Time %"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant {
            return QStringLiteral("%1 %").arg(r.shareOfKernelTime * 100.0, 0, 'f', 2);
        },
        [](const core::KernelSummary& r) -> QVariant { return r.shareOfKernelTime; } },
    { KernelModel::NameColumn, QT_TR_NOOP("Kernel"), Qt::AlignLeft,
        // The full name is the tooltip.
        [](const core::KernelSummary& r) -> QVariant { return QString::fromStdString(r.displayName()); },
        // As shown, then by full name.
        [](const core::KernelSummary& r) -> QVariant {
            return QString::fromStdString(r.displayName() + '\n' + r.name);
        } },
    { KernelModel::VerdictColumn, QT_TR_NOOP("Verdict"), Qt::AlignLeft,
        // Figures worked out from the operator's shapes, not counted, say so.
        [](const core::KernelSummary& r) -> QVariant {
            const auto verdict = QString::fromLatin1(core::toString(r.analysis.verdict));
            return r.analysis.figures == core::FigureSource::Shapes ? KernelModel::tr("%1 (shapes)").arg(verdict)
                                                                    : verdict;
        },
        [](const core::KernelSummary& r) -> QVariant {
            return QString::fromLatin1(core::toString(r.analysis.verdict));
        } },
    { KernelModel::BoundByColumn, QT_TR_NOOP("Bound by"), Qt::AlignLeft,
        [](const core::KernelSummary& r) -> QVariant { return QString::fromStdString(r.analysis.boundBy); },
        [](const core::KernelSummary& r) -> QVariant { return QString::fromStdString(r.analysis.boundBy); } },
    { KernelModel::RoofColumn, QT_TR_NOOP("% of roof"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return percentOrEmpty(r.analysis.boundUtilization); },
        [](const core::KernelSummary& r) -> QVariant { return optionalKey(r.analysis.boundUtilization); } },
    { KernelModel::TotalColumn, QT_TR_NOOP("Total"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return durationLabel(static_cast<double>(r.totalNs)); },
        [](const core::KernelSummary& r) -> QVariant { return static_cast<qlonglong>(r.totalNs); } },
    { KernelModel::LaunchesColumn, QT_TR_NOOP("Launches"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return QString::fromStdString(core::formatCount(r.launches)); },
        [](const core::KernelSummary& r) -> QVariant { return static_cast<qlonglong>(r.launches); } },
    { KernelModel::AverageColumn, QT_TR_NOOP("Average"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return durationLabel(r.averageNs()); },
        [](const core::KernelSummary& r) -> QVariant { return r.averageNs(); } },
    { KernelModel::MinColumn, QT_TR_NOOP("Min"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return durationLabel(static_cast<double>(r.minNs)); },
        [](const core::KernelSummary& r) -> QVariant { return static_cast<qlonglong>(r.minNs); } },
    { KernelModel::MaxColumn, QT_TR_NOOP("Max"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant { return durationLabel(static_cast<double>(r.maxNs)); },
        [](const core::KernelSummary& r) -> QVariant { return static_cast<qlonglong>(r.maxNs); } },
    { KernelModel::FlopsColumn, QT_TR_NOOP("FLOP/s"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant {
            return r.analysis.achievedFlopsPerS
                ? QString::fromStdString(core::formatRate(*r.analysis.achievedFlopsPerS, "FLOP/s"))
                : QString();
        },
        [](const core::KernelSummary& r) -> QVariant { return optionalKey(r.analysis.achievedFlopsPerS); } },
    { KernelModel::IntensityColumn, QT_TR_NOOP("AI (DRAM)"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant {
            const auto ai = dramIntensity(r.analysis);
            return ai ? QString::number(*ai, 'g', 3) : QString();
        },
        [](const core::KernelSummary& r) -> QVariant { return optionalKey(dramIntensity(r.analysis)); } },
    { KernelModel::DeviceColumn, QT_TR_NOOP("Device"), Qt::AlignRight,
        [](const core::KernelSummary& r) -> QVariant {
            return r.deviceName.empty()
                ? QString::number(r.deviceId)
                : QStringLiteral("%1: %2").arg(r.deviceId).arg(QString::fromStdString(r.deviceName));
        },
        [](const core::KernelSummary& r) -> QVariant { return static_cast<qlonglong>(r.deviceId); } },
};
static_assert(std::size(kKernelColumns) == KernelModel::ColumnCount, "one entry per column");
static_assert(
    [] {
        for (std::size_t i = 0; i < std::size(kKernelColumns); ++i) {
            if (kKernelColumns[i].column != static_cast<int>(i))
                return false;
        }
        return true;
    }(),
    "entries in the order of KernelModel::Column");

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
    // First what the whole row answers (which kernel), then the cell of the column.
    if (auto value = rowRoleData(r, -1, role))
        return *value;
    if (index.column() >= BaselineColumn)
        return baselineData(index.row(), index.column(), role);
    const KernelColumn& column = kKernelColumns[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return column.text(r);
    case SortRole:
        return column.sortKey(r);
    case Qt::ToolTipRole:
        return QString::fromStdString(column.column == NameColumn ? r.name : r.analysis.reason);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        return column.column == VerdictColumn ? verdictCellData(r.analysis.verdict, role) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(column.side | Qt::AlignVCenter);
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
    if (orientation != Qt::Horizontal || section < 0)
        return {};
    if (section < ColumnCount)
        return role == Qt::DisplayRole ? tr(kKernelColumns[static_cast<std::size_t>(section)].title) : QVariant();
    if (!m_baseline || section >= ColumnCountWithBaseline)
        return {};
    if (role == Qt::DisplayRole)
        return section == BaselineColumn ? tr("Baseline") : tr("Δ time");
    if (role == Qt::ToolTipRole)
        return section == BaselineColumn ? tr("Total time in the baseline session %1").arg(m_baseline->path)
                                         : tr("Change of total time since the baseline session (now − baseline)");
    return {};
}

} // namespace ridgeline::ui

#include "moc_kernelmodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
