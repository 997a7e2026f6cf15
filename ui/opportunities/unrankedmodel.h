// SPDX-License-Identifier: MIT
// The GPU time of the Opportunities page that no roof could be put on (core::UnrankedTime): one row
// per operator, kernel or copy, by GPU time, with its share of all GPU time and the reason.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/analysis/opportunities.h"

namespace ridgeline::ui {

class UnrankedModel final : public RowTableModel<core::UnrankedTime> {
    Q_OBJECT
public:
    enum Column { GpuTimeColumn, ShareColumn, CallsColumn, KindColumn, NameColumn, ReasonColumn, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole,
        RowRole, // the row's index in core's order
    };

    explicit UnrankedModel(QObject* parent = nullptr);

    // `gpuTimeNs`: all GPU time of the session (the share column's whole).
    void setRows(std::vector<core::UnrankedTime> rows, std::int64_t gpuTimeNs);

private:
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const core::UnrankedTime& row, const QModelIndex& index, int role) const override;
    QVariant display(const core::UnrankedTime& row, int column) const;
    QVariant sortKey(const core::UnrankedTime& row, int column) const;

    std::int64_t m_gpuTimeNs = 0;
};

} // namespace ridgeline::ui
