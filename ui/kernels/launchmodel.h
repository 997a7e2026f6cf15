// SPDX-License-Identifier: MIT
#pragma once

#include "kernelrowsource.h"
#include "launchrows.h"
#include "session/sessiondocument.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace ridgeline::ui {

// One row per kernel launch over a compact vector (LaunchRow, 12 bytes), so a million launches
// stay fast and small: data() is O(1), reading times, kernels.id and stream through the
// document's timeline, and sorting is done here on the vector, not by a proxy over QVariants.
// Name, device and verdict come from the launch's kernel summary (the verdict of the kernel).
class LaunchModel final : public QAbstractTableModel, public KernelRowSource {
    Q_OBJECT
public:
    enum Column { StartColumn, DurationColumn, NameColumn, VerdictColumn, DeviceColumn, StreamColumn, ColumnCount };

    explicit LaunchModel(QObject* parent = nullptr);

    // `document` supplies the timeline and the summaries that rows index into (launchRows() of
    // the same document); both may be empty. Without a timeline there are no rows.
    void setLaunches(SessionDocumentPtr document, std::vector<LaunchRow> rows);
    const LaunchRow& launch(int row) const { return m_rows[static_cast<std::size_t>(row)]; }
    // Of the launch on `row`: kernels.id, times and stream, from the timeline.
    std::int64_t launchId(int row) const { return idOf(launch(row)); }
    std::int64_t startNs(int row) const { return startOf(launch(row)); }
    std::int64_t endNs(int row) const { return endOf(launch(row)); }
    std::int64_t streamId(int row) const { return streamOf(launch(row)); }
    // The row of a launch, or (launchId -1) the first launch of the kernel; -1 when none.
    int rowOf(std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId) const;

    const std::vector<core::KernelSummary>& summaries() const override;
    int summaryIndex(int row) const override { return launch(row).summary; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    const core::TimelineRow& opRow(const LaunchRow& r) const { return m_timeline->row(r.op.row); }
    std::int64_t idOf(const LaunchRow& r) const { return opRow(r).sourceId(r.op.index); }
    std::int64_t startOf(const LaunchRow& r) const { return opRow(r).startNs(r.op.index); }
    std::int64_t endOf(const LaunchRow& r) const { return opRow(r).endNs(r.op.index); }
    std::int64_t streamOf(const LaunchRow& r) const { return m_timeline->laneOfRow(r.op.row).streamId; }
    std::int64_t sortKey(const LaunchRow& row, int column) const;
    QVariant display(const LaunchRow& row, int column) const;
    void cacheSummaryTexts();

    SessionDocumentPtr m_document;
    const core::TimelineData* m_timeline = nullptr; // the document's; null when there are no rows
    std::vector<LaunchRow> m_rows;
    std::int64_t m_originNs = 0; // start of the first launch: starts are shown relative to it
    // Per summary, built once: display texts and sort ranks of name, device and verdict.
    std::vector<QString> m_names, m_shortNames, m_devices, m_verdicts; // per summary; names full and as shown
    std::vector<int> m_nameRank, m_verdictRank;
};

} // namespace ridgeline::ui
