// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/output/operatorreport.h"
#include "session/sessiondocument.h"

#include <QWidget>

class QLabel;
class QStackedWidget;
class QTreeView;

namespace ridgeline::ui {

class KernelFilterBar;
class OperatorTreeModel;
class OperatorTreeProxy;
class SelectionModel;
struct KernelSelection;

// The kernel table grouped by PyTorch operator or module: the operator tree (OperatorTreeModel,
// sorted and filtered by OperatorTreeProxy with the kernel table's filter bar), a line on what the
// figures count, and instead of the tree a note when the session has no operators. Selecting a
// kernel row selects the kernel everywhere; a kernel selected elsewhere is shown under the group
// that launched most of its time, expanded.
class OperatorGroupView final : public QWidget {
    Q_OBJECT
public:
    OperatorGroupView(KernelFilterBar* filters, QWidget* parent = nullptr);

    void setSelectionModel(SelectionModel* selection);
    // Shows `document` grouped `by` (Op or Module); the tree is rebuilt only when either changes.
    void showGrouped(const SessionDocumentPtr& document, core::ReportGrouping by);

    QTreeView* view() const { return m_view; }
    OperatorTreeModel* model() const { return m_model; }
    OperatorTreeProxy* proxy() const { return m_proxy; }
    QLabel* note() const { return m_note; } // shown instead of the tree when there is nothing to group
    QLabel* summary() const { return m_summary; }

private:
    void applyFilters();
    void userSelected(const QModelIndex& current);
    void followSelection(const KernelSelection& selection, const QObject* origin);

    KernelFilterBar* m_filters;
    OperatorTreeModel* m_model;
    OperatorTreeProxy* m_proxy;
    QStackedWidget* m_stack;
    QTreeView* m_view;
    QLabel* m_note;
    QLabel* m_summary;
    SelectionModel* m_selection = nullptr;
    SessionDocumentPtr m_document;
    bool m_syncing = false;
};

} // namespace ridgeline::ui
