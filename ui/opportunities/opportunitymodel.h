// SPDX-License-Identifier: MIT
// The ranked rows of the Opportunities page: one per operator shape, kernel or copy
// (core::Opportunity), in core's order (most recoverable time first), with the columns of
// `ridgeline report --opportunities`. The Recoverable column carries its share of the largest
// row's recoverable time (BarRole) for the bar drawn behind it.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/analysis/opportunities.h"

namespace ridgeline::ui {

class OpportunityModel final : public RowTableModel<core::Opportunity> {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        RecoverableColumn,
        GpuTimeColumn,
        AtRoofColumn,
        CallsColumn,
        KindColumn,
        VerdictColumn,
        LimitedByColumn,
        NameColumn, // operator rows: with their input dims
        ColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole, // numbers for numeric columns
        BarRole, // Recoverable column: recoverable / the largest row's recoverable, 0..1
        RowRole, // the row's index in core's order (its rank - 1), whatever the sorting
    };

    explicit OpportunityModel(QObject* parent = nullptr);

    void setRows(std::vector<core::Opportunity> rows);

private:
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const core::Opportunity& row, const QModelIndex& index, int role) const override;
    QVariant display(const core::Opportunity& row, int column) const;
    QVariant sortKey(const core::Opportunity& row, int column) const;
    QString toolTip(const core::Opportunity& row, int column) const;

    std::int64_t m_largestNs = 0;
};

} // namespace ridgeline::ui
