// SPDX-License-Identifier: MIT
#include "kernelpage.h"

#include "baselinecolumns.h"
#include "common/selectionmodel.h"
#include "common/selectrow.h"
#include "kernelfilterproxy.h"
#include "kernelmodel.h"
#include "kernelrowsource.h"
#include "launchmodel.h"
#include "launchrows.h"
#include "operatorgroupview.h"
#include "tablecopy.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPromise>
#include <QStackedWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace ridgeline::ui {

namespace {
enum StackPage { KernelStack, LaunchStack, LaunchStatusStack, GroupStack };

bool isGrouped(KernelGrouping grouping)
{
    return grouping == KernelGrouping::ByOperator || grouping == KernelGrouping::ByModule;
}

core::ReportGrouping reportGrouping(KernelGrouping grouping)
{
    return grouping == KernelGrouping::ByModule ? core::ReportGrouping::Module : core::ReportGrouping::Op;
}
}

KernelPage::KernelPage(QWidget* parent)
    : QWidget(parent)
    , m_kernelModel(new KernelModel(this))
    , m_launchModel(new LaunchModel(this))
    , m_kernelProxy(new KernelFilterProxy(this))
    , m_launchProxy(new KernelFilterProxy(this))
    , m_filterBar(new KernelFilterBar(this))
    , m_stack(new QStackedWidget(this))
    , m_kernelView(nullptr)
    , m_launchView(nullptr)
    , m_launchStatus(new QLabel(this))
    , m_groupView(new OperatorGroupView(m_filterBar, this))
    , m_launchWatcher(new QFutureWatcher<std::shared_ptr<LaunchLoad>>(this))
{
    m_kernelProxy->setSourceModel(m_kernelModel);
    m_kernelProxy->setFilterKeyColumn(KernelModel::NameColumn);
    m_kernelProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_launchProxy->setSourceModel(m_launchModel);
    m_launchProxy->setSortInSource(true);
    m_filterBar->addProxy(m_kernelProxy);
    m_filterBar->addProxy(m_launchProxy);

    m_kernelView = createView(m_kernelProxy);
    m_kernelView->sortByColumn(KernelModel::TotalColumn, Qt::DescendingOrder);
    placeBaselineColumnsAfterTotal(m_kernelView);
    m_launchView = createView(m_launchProxy);
    m_launchView->horizontalHeader()->setSortIndicator(LaunchModel::StartColumn, Qt::AscendingOrder);
    m_launchStatus->setAlignment(Qt::AlignCenter);
    m_launchStatus->setWordWrap(true);
    m_stack->insertWidget(KernelStack, m_kernelView);
    m_stack->insertWidget(LaunchStack, m_launchView);
    m_stack->insertWidget(LaunchStatusStack, m_launchStatus);
    m_stack->insertWidget(GroupStack, m_groupView);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_stack, 1);

    auto* copy = new QAction(tr("&Copy Rows"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &KernelPage::copySelection);
    addAction(copy);

    connect(m_filterBar, &KernelFilterBar::groupingChanged, this, [this](KernelGrouping grouping) {
        showGrouping();
        Q_EMIT groupingChanged(grouping);
    });
    connect(m_launchWatcher, &QFutureWatcher<std::shared_ptr<LaunchLoad>>::finished, this, &KernelPage::launchesReady);
}

KernelPage::~KernelPage()
{
    m_launchWatcher->disconnect(this);
    m_launchWatcher->cancel();
    m_launchWatcher->waitForFinished();
}

QTableView* KernelPage::createView(QAbstractItemModel* model)
{
    auto* view = new QTableView(this);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    // Fixed row heights: a million rows lay out without measuring each one.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6); // dense, as profilers are
    view->horizontalHeader()->setStretchLastSection(false);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this,
        [this, view](const QPoint& pos) { showContextMenu(view, pos); });
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { userSelected(current); });
    return view;
}

void KernelPage::setSelectionModel(SelectionModel* selection)
{
    if (m_selection)
        m_selection->disconnect(this);
    m_selection = selection;
    m_groupView->setSelectionModel(selection);
    if (m_selection)
        connect(m_selection, &SelectionModel::selectionChanged, this, &KernelPage::followSelection);
}

namespace {

// The same kernel rows: the table stage of a session and the complete document of it.
bool sameKernels(const SessionDocumentPtr& a, const SessionDocumentPtr& b)
{
    if (!a || !b || a->path != b->path || a->report.kernels.size() != b->report.kernels.size())
        return false;
    return std::equal(a->report.kernels.begin(), a->report.kernels.end(), b->report.kernels.begin(),
        [](const core::KernelSummary& x, const core::KernelSummary& y) {
            return x.nameId == y.nameId && x.deviceId == y.deviceId && x.totalNs == y.totalNs;
        });
}

} // namespace

void KernelPage::setDocument(SessionDocumentPtr document)
{
    const bool keepRows = sameKernels(m_document, document);
    m_document = std::move(document);
    m_filterBar->setDocument(m_document); // keeps the filters the new document still offers
    if (isGrouped(grouping()))
        m_groupView->showGrouped(m_document, reportGrouping(grouping()));
    if (keepRows) {
        // Same rows: no reset, so scroll position, sort and selection stay. Launches listed (or
        // being listed) from the same timeline are the same launches.
        if (m_launchesFor && m_document->timeline && m_launchesFor->timeline == m_document->timeline) {
            m_launchesFor = m_document;
            return;
        }
        // The table stage has no timeline: launches asked for during it are listed now, from the
        // complete document.
        dropLaunches();
        if (grouping() == KernelGrouping::PerLaunch)
            showGrouping();
        return;
    }
    setRows(m_document ? m_document->report.kernels : std::vector<core::KernelSummary> {});
    // Launches belong to the old session: drop them, list them again when shown.
    dropLaunches();
    showGrouping();
}

void KernelPage::setBaseline(const SessionDocumentPtr& baseline)
{
    m_kernelModel->setBaseline(baseline);
}

void KernelPage::dropLaunches()
{
    m_launchWatcher->cancel();
    m_launchesFor.reset();
    m_launchModel->setLaunches(nullptr, {});
}

void KernelPage::showLaunchStatus(const QString& text)
{
    m_launchStatus->setText(text);
    m_stack->setCurrentIndex(LaunchStatusStack);
}

void KernelPage::setRows(std::vector<core::KernelSummary> rows)
{
    m_kernelModel->setRows(std::move(rows));
    m_kernelView->resizeColumnsToContents();
    // Long template names are elided in the middle; the full name is in the tooltip.
    m_kernelView->setColumnWidth(
        KernelModel::NameColumn, std::min(m_kernelView->columnWidth(KernelModel::NameColumn), 320));
}

KernelGrouping KernelPage::grouping() const
{
    return m_filterBar->grouping();
}

void KernelPage::setGrouping(KernelGrouping grouping)
{
    m_filterBar->setGrouping(grouping); // emits groupingChanged -> showGrouping
}

QAbstractItemView* KernelPage::view() const
{
    if (isGrouped(grouping()))
        return m_groupView->view();
    return grouping() == KernelGrouping::PerLaunch ? m_launchView : m_kernelView;
}

void KernelPage::showGrouping()
{
    if (isGrouped(grouping())) {
        m_groupView->showGrouped(m_document, reportGrouping(grouping()));
        m_stack->setCurrentIndex(GroupStack);
        return; // the tree follows the selection itself
    }
    if (grouping() == KernelGrouping::ByName) {
        m_stack->setCurrentIndex(KernelStack);
    } else if (!m_document) {
        showLaunchStatus(tr("Open a session to list its kernel launches."));
    } else if (m_launchesFor == m_document && !m_launchWatcher->isRunning()) {
        m_stack->setCurrentIndex(LaunchStack);
    } else if (m_document->tableStage) {
        showLaunchStatus(tr("Loading the launches…")); // listed when the session's timeline is loaded
    } else if (!m_document->timeline) {
        showLaunchStatus(tr("The launches cannot be listed: this session was opened without its timeline."));
    } else {
        loadLaunches();
    }
    if (m_selection)
        followSelection(m_selection->current(), nullptr);
}

void KernelPage::loadLaunches()
{
    if (m_launchWatcher->isRunning() && m_launchesFor == m_document)
        return;
    m_launchesFor = m_document;
    showLaunchStatus(tr("Loading the launches…"));
    m_launchWatcher->setFuture(
        QtConcurrent::run([document = m_document](QPromise<std::shared_ptr<LaunchLoad>>& promise) {
            auto load = std::make_shared<LaunchLoad>();
            auto rows = launchRows(
                *document->timeline, document->report.kernels, [&promise] { return promise.isCanceled(); });
            if (rows.ok())
                load->rows = std::move(rows).value();
            else
                load->error = rows.error().message;
            promise.addResult(std::move(load));
        }));
}

void KernelPage::launchesReady()
{
    if (m_launchWatcher->isCanceled() || m_launchWatcher->future().resultCount() == 0)
        return;
    LaunchLoad load = std::move(*m_launchWatcher->result());
    if (!load.error.empty()) {
        m_launchesFor.reset();
        m_launchStatus->setText(tr("Cannot list the launches: %1").arg(QString::fromStdString(load.error)));
        return;
    }
    const int count = static_cast<int>(load.rows.size());
    m_launchModel->setLaunches(m_launchesFor, std::move(load.rows));
    const auto& header = *m_launchView->horizontalHeader();
    m_launchModel->sort(header.sortIndicatorSection(), header.sortIndicatorOrder());
    m_launchView->resizeColumnsToContents();
    m_launchView->setColumnWidth(
        LaunchModel::NameColumn, std::min(m_launchView->columnWidth(LaunchModel::NameColumn), 360));
    if (grouping() == KernelGrouping::PerLaunch)
        m_stack->setCurrentIndex(LaunchStack);
    if (m_selection)
        followSelection(m_selection->current(), nullptr);
    Q_EMIT launchesLoaded(count);
}

void KernelPage::userSelected(const QModelIndex& current)
{
    if (m_syncing || !m_selection || !current.isValid())
        return;
    KernelSelection selection;
    selection.nameId = current.data(NameIdRole).toLongLong();
    selection.deviceId = current.data(DeviceIdRole).toLongLong();
    selection.launchId = current.data(LaunchIdRole).toLongLong();
    m_selection->select(selection, this);
}

void KernelPage::followSelection(const KernelSelection& selection, const QObject* origin)
{
    if (origin == this || isGrouped(grouping()))
        return;
    QTableView* table = grouping() == KernelGrouping::PerLaunch ? m_launchView : m_kernelView;
    int sourceRow = -1;
    if (!selection.isEmpty()) {
        sourceRow = table == m_launchView
            ? m_launchModel->rowOf(selection.nameId, selection.deviceId, selection.launchId)
            : m_kernelModel->rowOf(selection.nameId, selection.deviceId);
    }
    auto* proxy = table == m_launchView ? m_launchProxy : m_kernelProxy;
    const QModelIndex index
        = sourceRow < 0 ? QModelIndex() : proxy->mapFromSource(proxy->sourceModel()->index(sourceRow, 0));
    m_syncing = true;
    selectRow(table, index);
    m_syncing = false;
}

QString KernelPage::copySelection()
{
    const QString text = selectedRowsAsText(view());
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
    return text;
}

void KernelPage::showContextMenu(QTableView* table, const QPoint& pos)
{
    const QModelIndex index = table->indexAt(pos);
    QMenu menu(this);
    menu.addAction(tr("&Copy Rows"), QKeySequence::Copy, this, &KernelPage::copySelection)
        ->setEnabled(table->selectionModel()->hasSelection());
    if (index.isValid()) {
        const int nameColumn = table == m_launchView ? int(LaunchModel::NameColumn) : int(KernelModel::NameColumn);
        const QString name = index.siblingAtColumn(nameColumn).data().toString();
        menu.addAction(tr("Copy Kernel &Name"), this, [name] { QApplication::clipboard()->setText(name); });
        menu.addAction(tr("Copy &Mangled Name"), this,
            [mangled = index.data(MangledNameRole).toString()] { QApplication::clipboard()->setText(mangled); });
        menu.addSeparator();
        if (const auto verdict = verdictOfRow(index)) {
            menu.addAction(tr("Only &Verdict “%1”").arg(QString::fromLatin1(core::toString(*verdict))), this,
                [this, verdict] { m_filterBar->setVerdictFilter(verdict); });
        }
        if (table == m_kernelView) {
            menu.addAction(tr("Show &Launches of This Kernel"), this, [this, name] {
                m_filterBar->setTextFilter(name);
                setGrouping(KernelGrouping::PerLaunch);
            });
        }
    }
    menu.addAction(tr("C&lear Filters"), m_filterBar, &KernelFilterBar::clear);
    menu.exec(table->viewport()->mapToGlobal(pos));
}

} // namespace ridgeline::ui

#include "moc_kernelpage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
