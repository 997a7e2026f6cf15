// SPDX-License-Identifier: MIT
// The collective instances matched across ranks (core::CrossRankAnalysis::instances), for the
// Communication page: which collective, when, the start and end skew and the rank that arrived
// last. Selecting one draws it across the ranks' timelines.
#pragma once

#include "ridgeline/core/analysis/collectives.h"

#include <QAbstractTableModel>
#include <vector>

namespace ridgeline::ui {

class InstanceModel final : public QAbstractTableModel {
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
    const std::vector<core::CollectiveInstance>& instances() const { return m_instances; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::int64_t startOf(const core::CollectiveInstance& instance) const;

    std::vector<core::CollectiveInstance> m_instances;
    std::int64_t m_origin = 0;
};

} // namespace ridgeline::ui
