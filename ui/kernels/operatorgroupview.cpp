// SPDX-License-Identifier: MIT
#include "operatorgroupview.h"

#include "common/selectionmodel.h"
#include "common/selectrow.h"
#include "kernelfilterbar.h"
#include "kernelrowsource.h"
#include "operatortreemodel.h"
#include "operatortreeproxy.h"
#include "ridgeline/core/base/units.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace ridgeline::ui {

OperatorGroupView::OperatorGroupView(KernelFilterBar* filters, QWidget* parent)
    : QWidget(parent)
    , m_filters(filters)
    , m_model(new OperatorTreeModel(this))
    , m_proxy(new OperatorTreeProxy(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTreeView(this))
    , m_note(new QLabel(this))
    , m_summary(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OperatorTreeModel::GpuTimeColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->header()->setStretchLastSection(false);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setWordWrap(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_note);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_summary);

    connect(m_filters, &KernelFilterBar::filtersChanged, this, &OperatorGroupView::applyFilters);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { userSelected(current); });
    applyFilters();
}

void OperatorGroupView::setSelectionModel(SelectionModel* selection)
{
    if (m_selection)
        m_selection->disconnect(this);
    m_selection = selection;
    if (m_selection)
        connect(m_selection, &SelectionModel::selectionChanged, this, &OperatorGroupView::followSelection);
}

void OperatorGroupView::showGrouped(const SessionDocumentPtr& document, core::ReportGrouping by)
{
    if (document == m_document && by == m_model->grouping() && (m_model->groups() || !document))
        return;
    m_document = document;
    m_model->setDocument(document, by);
    const auto* groups = m_model->groups();
    if (!document) {
        m_note->setText(tr("Open a session to group its kernels by operator."));
    } else if (document->tableStage && !groups) {
        m_note->setText(tr("Linking kernels to their PyTorch operators…")); // the complete document follows
    } else if (!groups) {
        m_note->setText(tr("This session has no PyTorch operators, so its kernels cannot be grouped by operator or "
                           "module. Operators come from PyTorch profiler (Kineto) traces: "
                           "<code>ridgeline import trace.json</code>."));
    } else if (groups->groups.empty()) {
        m_note->setText(tr("This session has operators but no GPU ops."));
    }
    m_stack->setCurrentWidget(groups && !groups->groups.empty() ? static_cast<QWidget*>(m_view) : m_note);
    m_summary->setVisible(groups != nullptr);
    if (groups) {
        const bool byModule = by == core::ReportGrouping::Module;
        std::int64_t attributed = 0;
        for (const auto& g : groups->groups)
            attributed += g.unattributed ? 0 : g.row.gpuTimeNs;
        m_summary->setText(
            tr("%1 of %2 GPU time launched under %3 (each GPU op counts for the innermost operator around its launch); "
               "from %4 operators.")
                .arg(QString::fromStdString(core::formatDuration(static_cast<double>(attributed))),
                    QString::fromStdString(core::formatDuration(static_cast<double>(groups->gpuTimeNs))),
                    byModule ? tr("a module") : tr("an operator"),
                    QString::fromStdString(core::formatCount(groups->operators))));
        m_view->header()->resizeSections(QHeaderView::ResizeToContents);
        m_view->setColumnWidth(OperatorTreeModel::NameColumn,
            std::min(std::max(m_view->columnWidth(OperatorTreeModel::NameColumn), 240), 420));
    }
    if (m_selection)
        followSelection(m_selection->current(), nullptr);
}

void OperatorGroupView::applyFilters()
{
    m_proxy->setFilters(
        m_filters->textFilter(), m_filters->verdictFilter(), m_filters->deviceFilter(), m_filters->rankDevices());
    // Filtering shows where the kernels are: the groups that keep rows open.
    if (!m_filters->textFilter().isEmpty() || m_filters->verdictFilter())
        m_view->expandAll();
}

void OperatorGroupView::userSelected(const QModelIndex& current)
{
    if (m_syncing || !m_selection || !current.isValid())
        return;
    const qint64 nameId = current.data(NameIdRole).toLongLong();
    if (nameId < 0)
        return; // a group or a copy: nothing to select elsewhere
    m_selection->select({ nameId, current.data(DeviceIdRole).toLongLong(), -1 }, this);
}

void OperatorGroupView::followSelection(const KernelSelection& selection, const QObject* origin)
{
    if (origin == this)
        return;
    // Already on a row of that kernel (it may sit under several groups): stay there.
    const QModelIndex current = m_view->currentIndex();
    if (!selection.isEmpty() && current.isValid() && current.data(NameIdRole).toLongLong() == selection.nameId
        && current.data(DeviceIdRole).toLongLong() == selection.deviceId)
        return;
    const QModelIndex index = selection.isEmpty()
        ? QModelIndex()
        : m_proxy->mapFromSource(m_model->indexOfKernel(selection.nameId, selection.deviceId));
    m_syncing = true;
    if (index.isValid())
        m_view->expand(index.parent());
    selectRow(m_view, index);
    m_syncing = false;
}

} // namespace ridgeline::ui

#include "moc_operatorgroupview.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
