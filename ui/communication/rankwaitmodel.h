// SPDX-License-Identifier: MIT
// The ranks of the Communication page, the slow rank first (core::CrossRankAnalysis::ranks): how
// often each rank arrived last at a collective instance, and how long it waited for later ranks.
#pragma once

#include "ridgeline/core/analysis/collectives.h"

#include <QAbstractTableModel>
#include <vector>

namespace ridgeline::ui {

class RankWaitModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RankColumn, LastArrivalsColumn, WaitedColumn, AverageWaitColumn, InstancesColumn, ColumnCount };
    enum Roles { SortRole = Qt::UserRole, RankRole };

    explicit RankWaitModel(QObject* parent = nullptr);

    // In the order given (core puts the rank that arrives last most often first).
    void setRanks(std::vector<core::RankWait> ranks);
    const std::vector<core::RankWait>& ranks() const { return m_ranks; }
    // The rank that makes the others wait: the first, when it arrived last at least once; else -1.
    int slowRank() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<core::RankWait> m_ranks;
};

} // namespace ridgeline::ui
