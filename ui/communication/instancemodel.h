// SPDX-License-Identifier: MIT
// The collective instances matched across ranks (core::CrossRankAnalysis::instances), for the
// Communication page: which collective, when, the start and end skew and the rank that arrived
// last. Selecting one draws it across the ranks' timelines.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/analysis/collectives.h"

namespace ridgeline::ui {

class InstanceModel final : public RowTableModel<core::CollectiveInstance> {
    Q_OBJECT
public:
    enum Column {
        CollectiveColumn,
        IndexColumn,
        StartColumn,
        StartSkewColumn,
        EndSkewColumn,
        LastRankColumn,
        RanksColumn,
        ProcessGroupColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole, InstanceRole }; // InstanceRole: the index into instances()

    explicit InstanceModel(QObject* parent = nullptr);

    // `originNs`: the time the Start column counts from (the timeline's first op).
    void setInstances(std::vector<core::CollectiveInstance> instances, std::int64_t originNs);
    const std::vector<core::CollectiveInstance>& instances() const { return rows(); }

private:
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const core::CollectiveInstance& i, const QModelIndex& index, int role) const override;
    std::int64_t startOf(const core::CollectiveInstance& instance) const;

    std::int64_t m_origin = 0;
};

} // namespace ridgeline::ui
