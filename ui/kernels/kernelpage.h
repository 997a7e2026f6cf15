// SPDX-License-Identifier: MIT
#pragma once

#include "kernelfilterbar.h"
#include "kernelfilterproxy.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "session/sessiondocument.h"

#include <QFutureWatcher>
#include <QWidget>
#include <memory>
#include <vector>

class QAbstractItemModel;
class QAbstractItemView;
class QLabel;
class QStackedWidget;
class QTableView;

namespace ridgeline::ui {

class KernelModel;
class LaunchModel;
class OperatorGroupView;
class SelectionModel;
struct KernelSelection;
struct LaunchLoad;

// The kernel table: one row per kernel name and device, one per launch (listed from the complete
// document's timeline the first time it is shown, on a worker), or a tree of the PyTorch operators
// (or modules) and the kernels each launched (OperatorGroupView); filter bar, copy, context menu,
// selection synced with the window's SelectionModel both ways.
class KernelPage final : public QWidget {
    Q_OBJECT
public:
    explicit KernelPage(QWidget* parent = nullptr);
    ~KernelPage() override;

    void setSelectionModel(SelectionModel* selection);
    void setDocument(SessionDocumentPtr document);
    // The session to compare with: the per-name table's Baseline and Δ time columns; null: none.
    void setBaseline(const SessionDocumentPtr& baseline);
    // The per-name rows alone, without a session (tests and callers that have only summaries).
    void setRows(std::vector<core::KernelSummary> rows);

    KernelGrouping grouping() const;
    void setGrouping(KernelGrouping grouping);

    QAbstractItemView* view() const; // the table (or tree) shown now
    QTableView* kernelView() const { return m_kernelView; }
    QTableView* launchView() const { return m_launchView; }
    KernelFilterProxy* proxy() const { return m_kernelProxy; }
    KernelFilterProxy* launchProxy() const { return m_launchProxy; }
    KernelModel* kernelModel() const { return m_kernelModel; }
    LaunchModel* launchModel() const { return m_launchModel; }
    OperatorGroupView* groupView() const { return m_groupView; }
    KernelFilterBar* filterBar() const { return m_filterBar; }
    // What the per-launch table shows while it has no launches (loading, or why there are none).
    QLabel* launchStatus() const { return m_launchStatus; }

    // Ctrl+C: the selected rows as tab-separated text with a header, also put on the clipboard.
    QString copySelection();

Q_SIGNALS:
    void groupingChanged(ridgeline::ui::KernelGrouping grouping);
    void launchesLoaded(int count);

private:
    QTableView* createView(QAbstractItemModel* model);
    void showGrouping();
    void loadLaunches();
    void launchesReady();
    void dropLaunches();
    void showLaunchStatus(const QString& text);
    void userSelected(const QModelIndex& current);
    void followSelection(const KernelSelection& selection, const QObject* origin);
    void showContextMenu(QTableView* view, const QPoint& pos);

    KernelModel* m_kernelModel;
    LaunchModel* m_launchModel;
    KernelFilterProxy* m_kernelProxy;
    KernelFilterProxy* m_launchProxy;
    KernelFilterBar* m_filterBar;
    QStackedWidget* m_stack;
    QTableView* m_kernelView;
    QTableView* m_launchView;
    QLabel* m_launchStatus;
    OperatorGroupView* m_groupView;
    SelectionModel* m_selection = nullptr;
    SessionDocumentPtr m_document;
    SessionDocumentPtr m_launchesFor; // the document the launch model (or its loading) belongs to
    // The launches travel by shared_ptr: QFuture copies results, and 1 M launches are 12 MB.
    QFutureWatcher<std::shared_ptr<LaunchLoad>>* m_launchWatcher;
    bool m_syncing = false;
};

} // namespace ridgeline::ui
