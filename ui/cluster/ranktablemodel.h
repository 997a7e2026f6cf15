// SPDX-License-Identifier: MIT
// The ranks of the Cluster page, one row each (core::ClusterReport::ranks): the timeline figures,
// the time spent waiting in collectives, how late the rank was where it arrived last, its top
// kernel and its session. The slow ranks (core::SlowRank) come first, worst first.
#pragma once

#include "ridgeline/core/cluster/clusterreport.h"

#include <QAbstractTableModel>
#include <map>
#include <vector>

namespace ridgeline::ui {

class RankTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        HostColumn,
        LateColumn,
        CommWaitColumn,
        SpanColumn,
        BusyColumn,
        IdleColumn,
        ComputeColumn,
        CommunicationColumn,
        TopKernelColumn,
        SessionColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole, RankRole, SessionRole };

    explicit RankTableModel(QObject* parent = nullptr);

    void setReport(const core::ClusterReport* report); // null clears; the report outlives the model's use
    // Row of rank `rank`, -1 when it has none.
    int rowOfRank(int rank) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        const core::RankRow* rank;
        const core::SlowRank* slow; // null: the rank never arrived last
        int slowOrder; // its place among the slow ranks; large when none
    };
    QVariant display(const Row& row, int column) const;
    QVariant sortKey(const Row& row, int column) const;

    std::vector<Row> m_rows;
};

} // namespace ridgeline::ui
