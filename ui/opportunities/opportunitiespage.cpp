// SPDX-License-Identifier: MIT
#include "opportunitiespage.h"

#include "common/displaytext.h"
#include "common/rowtableview.h"
#include "common/selectrow.h"
#include "opportunitymodel.h"
#include "recoverablebardelegate.h"
#include "ridgeline/core/model/demangle.h"
#include "unrankedmodel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace ridgeline::ui {

namespace {

// Columns to their contents, none wider than `cap` but the last, which takes the rest.
void oppFitColumns(QTableView* view, int cap)
{
    view->resizeColumnsToContents();
    for (int c = 0; c + 1 < view->model()->columnCount(); ++c)
        view->setColumnWidth(c, std::min(view->columnWidth(c), cap));
}

QWidget* oppTitled(QLabel* title, QWidget* content, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(2);
    title->setParent(box);
    title->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(content, 1);
    return box;
}

double oppPercent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

bool oppHolds(const std::vector<core::OpportunityKernel>& kernels, const KernelSelection& s)
{
    return std::any_of(kernels.begin(), kernels.end(),
        [&s](const core::OpportunityKernel& k) { return k.nameId == s.nameId && k.deviceId == s.deviceId; });
}

} // namespace

OpportunitiesPage::OpportunitiesPage(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new OpportunityModel(this))
    , m_unrankedModel(new UnrankedModel(this))
    , m_proxy(makeSortProxy(this, m_model))
    , m_unrankedProxy(makeSortProxy(this, m_unrankedModel))
    , m_view(makeRowTableView(this, m_proxy))
    , m_unrankedView(makeRowTableView(this, m_unrankedProxy))
    , m_summary(new QLabel(this))
    , m_unrankedTitle(new QLabel(this))
    , m_status(new QLabel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(6, 6, 6, 2);
    m_status->setWordWrap(true);
    m_status->setContentsMargins(6, 2, 6, 4);
    m_view->setItemDelegateForColumn(
        OpportunityModel::RecoverableColumn, new RecoverableBarDelegate(OpportunityModel::BarRole, m_view));
    // On the selection, not the current row: a click makes the row current before it selects it.
    connect(
        m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &OpportunitiesPage::rankedRowChanged);
    connect(m_unrankedView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &OpportunitiesPage::unrankedRowChanged);
    if (m_selection)
        connect(m_selection, &SelectionModel::selectionChanged, this, &OpportunitiesPage::follow);

    auto* rankedTitle = new QLabel(
        QStringLiteral("<b>%1</b>").arg(tr("Ranked by the time they would give back at their roofs").toHtmlEscaped()));
    auto* split = new QSplitter(Qt::Vertical, this);
    m_rankedBox = oppTitled(rankedTitle, m_view, split);
    m_unrankedBox = oppTitled(m_unrankedTitle, m_unrankedView, split);
    split->addWidget(m_rankedBox);
    split->addWidget(m_unrankedBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    setDocument(nullptr);
}

void OpportunitiesPage::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    const auto* o = m_doc ? m_doc->opportunities.get() : nullptr;
    m_model->setRows(o ? o->rows : std::vector<core::Opportunity> {});
    m_unrankedModel->setRows(o ? o->unranked : std::vector<core::UnrankedTime> {}, o ? o->gpuTimeNs : 0);
    // Both in core's order: the most recoverable first, the longest without a roof first.
    m_view->sortByColumn(OpportunityModel::RankColumn, Qt::AscendingOrder);
    m_unrankedView->sortByColumn(UnrankedModel::GpuTimeColumn, Qt::DescendingOrder);
    oppFitColumns(m_view, 240);
    oppFitColumns(m_unrankedView, 420);
    // An empty table says nothing the line above does not: only the other one shows.
    m_rankedBox->setVisible(m_model->rowCount() > 0 || m_unrankedModel->rowCount() == 0);
    m_unrankedBox->setVisible(m_unrankedModel->rowCount() > 0);
    m_status->setText(m_model->rowCount() > 0
            ? tr("Choose a row to select its kernel in the kernel table, the roofline and the timeline; Details "
                 "shows what to try.")
            : QString());
    fillSummary();
    if (m_selection && !m_selection->current().isEmpty())
        follow(m_selection->current(), nullptr);
}

void OpportunitiesPage::fillSummary()
{
    const auto* o = m_doc ? m_doc->opportunities.get() : nullptr;
    const std::int64_t apart = o ? o->unrankedTimeNs : 0;
    m_unrankedTitle->setText(QStringLiteral("<b>%1</b>")
                                 .arg(tr("No roof: %1 of GPU time (%2 %), and why")
                                          .arg(durationLabel(apart))
                                          .arg(oppPercent(apart, o ? o->gpuTimeNs : 0), 0, 'f', 1)
                                          .toHtmlEscaped()));
    if (!m_doc) {
        m_summary->setText(tr("No session open."));
        return;
    }
    if (!o) {
        m_summary->setText(m_doc->opportunitiesError.isEmpty()
                ? tr("The opportunities of this session are not loaded.")
                : tr("The opportunities of this session could not be worked out: %1")
                      .arg(m_doc->opportunitiesError.toHtmlEscaped()));
        return;
    }
    if (o->gpuTimeNs <= 0) {
        m_summary->setText(tr("No GPU time in this session (no kernels, copies or memsets): nothing to rank."));
        return;
    }
    if (o->rows.empty()) {
        m_summary->setText(QStringLiteral("<b>")
            + tr("None of the %1 of GPU time has figures and a roof: nothing can be ranked.")
                  .arg(durationLabel(o->gpuTimeNs))
            + QStringLiteral("</b> ")
            + tr("Figures come from hardware counters (ridgeline capture --metrics roofline, Nsight Compute) or "
                 "from the shapes of PyTorch operators (traces recorded with record_shapes=True). Why each has "
                 "none is listed below."));
        return;
    }
    QString text = QStringLiteral("<b>")
        + tr("At its roofs the GPU would do this work in %1; it took %2: %3 recoverable (%4 % of GPU time).")
              .arg(durationLabel(o->timeAtRoofNs), durationLabel(o->rankedTimeNs), durationLabel(o->recoverableNs))
              .arg(oppPercent(o->recoverableNs, o->gpuTimeNs), 0, 'f', 1)
        + QStringLiteral("</b> ")
        + tr("The rows cover %1 % of the GPU time (%2 of %3)")
              .arg(100.0 * o->coverage(), 0, 'f', 1)
              .arg(durationLabel(o->rankedTimeNs), durationLabel(o->gpuTimeNs))
        + (apart > 0 ? tr("; the rest has no roof and is listed below.") : tr(": every GPU op has a roof."));
    std::int64_t latency = 0;
    for (const auto& r : o->rows) {
        if (r.verdict == core::VerdictClass::LatencyBound)
            latency += r.recoverableNs;
    }
    if (latency > 0)
        text += QStringLiteral("<br>")
            + tr("%1 of the recoverable time is in latency-bound rows: it comes back with fewer, larger launches "
                 "(fusing, CUDA graphs, bigger batches), not with a faster unit.")
                  .arg(durationLabel(latency));
    m_summary->setText(text);
}

int OpportunitiesPage::chosenRow() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid() || !m_view->selectionModel()->isRowSelected(current.row(), {}))
        return -1;
    return m_proxy->mapToSource(current).row();
}

void OpportunitiesPage::chooseRow(int row)
{
    selectRow(
        m_view, row >= 0 && row < m_model->rowCount() ? m_proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex());
}

void OpportunitiesPage::rankedRowChanged()
{
    const int row = chosenRow();
    Q_EMIT opportunityChosen(row);
    if (row < 0 || m_following)
        return;
    m_unrankedView->selectionModel()->clear();
    const auto& r = m_model->rows()[static_cast<std::size_t>(row)];
    selectKernelOf(r.kernels, QString::fromStdString(r.name));
}

void OpportunitiesPage::unrankedRowChanged()
{
    const QModelIndex current = m_unrankedView->selectionModel()->currentIndex();
    if (!current.isValid() || !m_unrankedView->selectionModel()->isRowSelected(current.row(), {}) || m_following)
        return;
    m_view->selectionModel()->clear();
    const auto& u = m_unrankedModel->rows()[static_cast<std::size_t>(m_unrankedProxy->mapToSource(current).row())];
    selectKernelOf(u.kernels, QString::fromStdString(u.name));
}

QString OpportunitiesPage::kernelName(const core::OpportunityKernel& kernel) const
{
    if (m_doc) {
        for (const auto& k : m_doc->report.kernels) {
            if (k.nameId == kernel.nameId && k.deviceId == kernel.deviceId)
                return QString::fromStdString(core::shortKernelName(k.name));
        }
    }
    return tr("kernel %1").arg(kernel.nameId);
}

void OpportunitiesPage::selectKernelOf(const std::vector<core::OpportunityKernel>& kernels, const QString& rowName)
{
    if (kernels.empty()) {
        if (m_selection)
            m_selection->clear(this); // Details then shows the row alone
        m_status->setText(tr("%1 is no kernel (copies and memsets are not on the kernel table or the roofline): "
                             "no kernel is selected.")
                              .arg(rowName));
        return;
    }
    // The rows' kernels come by time: the first is the one with the most.
    const auto& top = kernels.front();
    if (m_selection)
        m_selection->select({ top.nameId, top.deviceId, -1 }, this);
    if (kernels.size() == 1) {
        m_status->setText(tr("Selected kernel %1 (%n launch(es), %2) in the kernel table, the roofline and the "
                             "timeline.",
            nullptr, static_cast<int>(top.launches))
                              .arg(kernelName(top), durationLabel(top.timeNs)));
        return;
    }
    std::int64_t all = 0;
    for (const auto& k : kernels)
        all += k.timeNs;
    m_status->setText(tr("%1 stands for %2 kernels; a selection holds one, so its kernel with the most time is "
                         "selected: %3 (%4 of %5).")
                          .arg(rowName)
                          .arg(kernels.size())
                          .arg(kernelName(top), durationLabel(top.timeNs), durationLabel(all)));
}

void OpportunitiesPage::follow(const KernelSelection& selection, const QObject* origin)
{
    if (origin == this || selection.isEmpty())
        return;
    const auto& rows = m_model->rows();
    const int chosen = chosenRow();
    if (chosen >= 0 && oppHolds(rows[static_cast<std::size_t>(chosen)].kernels, selection))
        return;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (oppHolds(rows[i].kernels, selection)) {
            m_following = true;
            chooseRow(static_cast<int>(i));
            m_following = false;
            m_status->setText(
                tr("Row %1 is the most recoverable that holds the kernel selected elsewhere.").arg(i + 1));
            return;
        }
    }
    if (chosen >= 0) { // a kernel in no ranked row: none is chosen
        m_following = true;
        chooseRow(-1);
        m_following = false;
    }
}

} // namespace ridgeline::ui

#include "moc_opportunitiespage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
