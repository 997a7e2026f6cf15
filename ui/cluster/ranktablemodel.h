// SPDX-License-Identifier: MIT
// The ranks of the Cluster page, one row each (core::ClusterReport::ranks): the timeline figures,
// the time spent waiting in collectives, how late the rank was where it arrived last, its top
// kernel and its session. The slow ranks (core::SlowRank) come first, worst first.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/cluster/clusterreport.h"

namespace ridgeline::ui {

// A row of the rank table: a rank of the report and, where it arrived last, its place among the slow ranks.
struct RankTableRow {
    const core::RankRow* rank;
    const core::SlowRank* slow; // null: the rank never arrived last
    int slowOrder; // its place among the slow ranks; large when none
};

class RankTableModel final : public RowTableModel<RankTableRow> {
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
        RecoverableColumn,
        TopKernelColumn,
        SessionColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole, RankRole, SessionRole };

    explicit RankTableModel(QObject* parent = nullptr);

    void setReport(const core::ClusterReport* report); // null clears; the report outlives the model's use
    // Row of rank `rank`, -1 when it has none.
    int rowOfRank(int rank) const;

private:
    using Row = RankTableRow;
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const Row& row, const QModelIndex& index, int role) const override;
    QVariant display(const Row& row, int column) const;
    QVariant sortKey(const Row& row, int column) const;
};

} // namespace ridgeline::ui
