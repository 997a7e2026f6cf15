// SPDX-License-Identifier: MIT
// The collectives table of the Communication page: one row per collective type, process group and
// message size (core::CollectiveRow, as `ridgeline report --by collective`), with S, calls, times,
// algbw, busbw, the link and how far the busbw is from it, and the verdict sentence.
#pragma once

#include "common/rowtablemodel.h"
#include "ridgeline/core/output/collectivereport.h"

namespace ridgeline::ui {

class CollectiveModel final : public RowTableModel<core::CollectiveRow> {
    Q_OBJECT
public:
    enum Column {
        CollectiveColumn,
        VerdictColumn,
        PctOfLinkColumn,
        BusBwColumn,
        LinkColumn,
        BytesColumn,
        CallsColumn,
        TotalColumn,
        AverageColumn,
        AlgBwColumn,
        RanksColumn,
        ProcessGroupColumn,
        ReasonColumn, // the verdict sentence
        ColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole, // numbers for numeric columns; missing ones sort below every real one
        ReasonRole, // the verdict sentence
    };

    explicit CollectiveModel(QObject* parent = nullptr);

    void setRows(std::vector<core::CollectiveRow> rows) { resetRows(std::move(rows)); }

private:
    static const char* const kTitles[ColumnCount];
    static const char* const kTips[ColumnCount];

    QVariant rowData(const core::CollectiveRow& row, const QModelIndex& index, int role) const override;
    QVariant display(const core::CollectiveRow& row, int column) const;
    QVariant sortKey(const core::CollectiveRow& row, int column) const;
};

} // namespace ridgeline::ui
