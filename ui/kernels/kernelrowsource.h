// SPDX-License-Identifier: MIT
// What the kernel table's models share: every row belongs to one kernel summary (a kernel name
// on a device), so filters are worked out once per summary and looked up per row.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"

#include <QModelIndex>
#include <QString>
#include <QVariant>
#include <Qt>
#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline::ui {

// Item data roles of both kernel table models.
enum KernelTableRole {
    SortRole = Qt::UserRole, // numbers as numbers
    MangledNameRole,
    ReasonRole, // the verdict sentence
    NameIdRole,
    DeviceIdRole,
    LaunchIdRole, // -1 in the per-name model
    VerdictRole, // the kernel's verdict: core::VerdictClass as an int
};

// The roles of a row as a whole, the same in each of its columns: which kernel (its summary) and
// which launch (`launchId`, -1 for a row of the kernel as a whole); nullopt for a role of the cell.
// A model answers these before it asks the column, so no column can miss one.
inline std::optional<QVariant> rowRoleData(const core::KernelSummary& summary, std::int64_t launchId, int role)
{
    switch (role) {
    case LaunchIdRole:
        return static_cast<qlonglong>(launchId);
    case MangledNameRole:
        return QString::fromStdString(summary.mangledName);
    case ReasonRole:
        return QString::fromStdString(summary.analysis.reason);
    case NameIdRole:
        return static_cast<qlonglong>(summary.nameId);
    case DeviceIdRole:
        return static_cast<qlonglong>(summary.deviceId);
    case VerdictRole:
        return static_cast<int>(summary.analysis.verdict);
    default:
        return std::nullopt;
    }
}

// The verdict of the kernel a row shows (VerdictRole); nullopt for a row without one.
inline std::optional<core::VerdictClass> verdictOfRow(const QModelIndex& index)
{
    const QVariant verdict = index.data(VerdictRole);
    return verdict.isValid() ? std::optional(static_cast<core::VerdictClass>(verdict.toInt())) : std::nullopt;
}

class KernelRowSource {
public:
    virtual ~KernelRowSource() = default;
    virtual const std::vector<core::KernelSummary>& summaries() const = 0;
    // Index into summaries() of a row of the model.
    virtual int summaryIndex(int row) const = 0;
};

} // namespace ridgeline::ui
