// SPDX-License-Identifier: MIT
// The collectives table of the Communication page: one row per collective type, process group and
// message size (core::CollectiveRow, as `ridgeline report --by collective`), with S, calls, times,
// algbw, busbw, the link and how far the busbw is from it, and the verdict sentence.
#pragma once

#include "ridgeline/core/output/collectivereport.h"

#include <QAbstractTableModel>
#include <vector>

namespace ridgeline::ui {

class CollectiveModel final : public QAbstractTableModel {
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

    void setRows(std::vector<core::CollectiveRow> rows);
    const std::vector<core::CollectiveRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const core::CollectiveRow& row, int column) const;
    QVariant sortKey(const core::CollectiveRow& row, int column) const;

    std::vector<core::CollectiveRow> m_rows;
};

} // namespace ridgeline::ui
