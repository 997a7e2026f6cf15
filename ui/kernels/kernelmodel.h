// SPDX-License-Identifier: MIT
#pragma once

#include "kernelrowsource.h"
#include "ridgeline/core/analysis/kernelcompare.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "session/sessiondocument.h"

#include <QAbstractTableModel>
#include <vector>

namespace ridgeline::ui {

// Qt adapter over core's kernel summary rows (one per kernel name and device).
class KernelModel final : public QAbstractTableModel, public KernelRowSource {
    Q_OBJECT
public:
    enum Column {
        // What bounds a kernel is the point of the table: verdict next to the name.
        TimeShareColumn,
        NameColumn,
        VerdictColumn,
        BoundByColumn,
        RoofColumn,
        TotalColumn,
        LaunchesColumn,
        AverageColumn,
        MinColumn,
        MaxColumn,
        FlopsColumn,
        IntensityColumn,
        DeviceColumn,
        ColumnCount, // without a baseline
        // Present only while a baseline session is set (setBaseline): columnCount() grows by two.
        BaselineColumn = ColumnCount,
        DeltaColumn,
        ColumnCountWithBaseline
    };
    // Kept here so that KernelModel::SortRole reads naturally at call sites.
    enum Roles {
        SortRole = ui::SortRole,
        MangledNameRole = ui::MangledNameRole,
        ReasonRole = ui::ReasonRole,
        NameIdRole = ui::NameIdRole,
        DeviceIdRole = ui::DeviceIdRole,
        LaunchIdRole = ui::LaunchIdRole,
        VerdictRole = ui::VerdictRole
    };

    explicit KernelModel(QObject* parent = nullptr);

    void setRows(std::vector<core::KernelSummary> rows);
    const core::KernelSummary& row(int index) const { return m_rows.at(static_cast<std::size_t>(index)); }
    // The row of a kernel name on a device; -1 when there is none.
    int rowOf(std::int64_t nameId, std::int64_t deviceId) const;

    // The session to compare with (core::compareKernels); null removes the baseline columns.
    void setBaseline(const SessionDocumentPtr& baseline);
    bool hasBaseline() const { return m_baseline != nullptr; }
    const core::KernelComparison& comparison() const { return m_comparison; }

    const std::vector<core::KernelSummary>& summaries() const override { return m_rows; }
    int summaryIndex(int row) const override { return row; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant baselineData(int row, int column, int role) const;
    void compare();
    std::vector<core::KernelSummary> m_rows;
    SessionDocumentPtr m_baseline;
    core::KernelComparison m_comparison;
};

} // namespace ridgeline::ui
