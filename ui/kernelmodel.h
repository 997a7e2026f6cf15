// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/kernelsummary.h"

#include <QAbstractTableModel>
#include <QColor>
#include <vector>

namespace ridgeline::ui {

// Qt adapter over core's kernel summary rows (one per kernel name and device).
class KernelModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeShareColumn,
        NameColumn,
        DeviceColumn,
        TotalColumn,
        LaunchesColumn,
        AverageColumn,
        MinColumn,
        MaxColumn,
        VerdictColumn,
        BoundByColumn,
        RoofColumn,
        FlopsColumn,
        IntensityColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole, MangledNameRole, ReasonRole };

    static QColor verdictColor(const std::string& verdict);

    explicit KernelModel(QObject* parent = nullptr);

    void setRows(std::vector<core::KernelSummary> rows);
    const core::KernelSummary& row(int index) const { return m_rows.at(static_cast<std::size_t>(index)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const core::KernelSummary& row, int column) const;
    QVariant sortKey(const core::KernelSummary& row, int column) const;
    std::vector<core::KernelSummary> m_rows;
};

} // namespace ridgeline::ui
