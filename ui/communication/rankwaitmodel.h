// SPDX-License-Identifier: MIT
// The ranks of the Communication page, the slow rank first (core::CrossRankAnalysis::ranks): how
// often each rank arrived last at a collective instance, and how long it waited for later ranks.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/analysis/collectives.h"

namespace ridgeline::ui {

class RankWaitModel final : public RowTableModel<core::RankWait> {
    Q_OBJECT
public:
    enum Column { RankColumn, LastArrivalsColumn, WaitedColumn, AverageWaitColumn, InstancesColumn, ColumnCount };
    enum Roles { SortRole = Qt::UserRole, RankRole };

    explicit RankWaitModel(QObject* parent = nullptr);

    // In the order given (core puts the rank that arrives last most often first).
    void setRanks(std::vector<core::RankWait> ranks) { resetRows(std::move(ranks)); }
    const std::vector<core::RankWait>& ranks() const { return rows(); }
    // The rank that makes the others wait: the first, when it arrived last at least once; else -1.
    int slowRank() const;

private:
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const core::RankWait& w, const QModelIndex& index, int role) const override;
};

} // namespace ridgeline::ui
