// SPDX-License-Identifier: MIT
// What the kernel table's models share: every row belongs to one kernel summary (a kernel name
// on a device), so filters are worked out once per summary and looked up per row.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"

#include <Qt>
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
};

class KernelRowSource {
public:
    virtual ~KernelRowSource() = default;
    virtual const std::vector<core::KernelSummary>& summaries() const = 0;
    // Index into summaries() of a row of the model.
    virtual int summaryIndex(int row) const = 0;
};

} // namespace ridgeline::ui
