// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/output/operatorgroups.h"
#include "session/sessiondocument.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QPair>

namespace ridgeline::ui {

// The kernel table grouped by PyTorch operator or module (issue 17): a tree over core's
// OperatorGroups (operatorgroups.h) of the document. Top level: each operator name (or module path)
// that launched GPU ops, with the figures of `report --by op|module`, then "(unattributed)"; below
// each, the kernels it launched (name and device, the kernel's verdict) and its copies and memsets,
// with the GPU time and launches of that group. Roles as the other kernel table models
// (kernelrowsource.h): NameIdRole and DeviceIdRole select a kernel, -1 on group and copy rows;
// VerdictRole is the kernel's verdict, on a group row the verdict of most of its GPU time.
class OperatorTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        GpuTimeColumn,
        ShareColumn,
        GpuOpsColumn,
        CallsColumn,
        CpuTimeColumn,
        VerdictColumn,
        DeviceColumn,
        ColumnCount
    };
    enum Roles {
        IsGroupRole = Qt::UserRole + 100, // true on top-level rows
    };

    explicit OperatorTreeModel(QObject* parent = nullptr);

    // The document's operators grouped `by` (Op or Module); empty without a document or operators.
    void setDocument(const SessionDocumentPtr& document, core::ReportGrouping by);
    core::ReportGrouping grouping() const { return m_by; }
    const core::OperatorGroups* groups() const { return m_groups; }
    // The child row of a kernel under the group holding most of its time; invalid when none.
    QModelIndex indexOfKernel(qint64 nameId, qint64 deviceId) const;
    // The kernel summary a child row shows; null for group and copy rows.
    const core::KernelSummary* summaryOf(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant groupData(const core::OperatorGroup& group, int column, int role) const;
    QVariant childData(const core::OperatorGroupChild& child, int column, int role) const;

    SessionDocumentPtr m_document;
    core::ReportGrouping m_by = core::ReportGrouping::Op;
    const core::OperatorGroups* m_groups = nullptr; // in m_document; null: no rows
    QHash<QPair<qint64, qint64>, int> m_summaryOf; // (name id, device id) -> index into the kernel summaries
};

} // namespace ridgeline::ui
