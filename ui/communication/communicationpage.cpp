// SPDX-License-Identifier: MIT
#include "communicationpage.h"

#include "collectivemodel.h"
#include "common/heatmapview.h"
#include "common/rowtableview.h"
#include "common/timeticks.h"
#include "instancemodel.h"
#include "rankwaitmodel.h"
#include "ridgeline/core/timeline/timelinecollectives.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>

namespace ridgeline::ui {

namespace {

QWidget* titled(const QString& title, QWidget* content, QWidget* parent, QWidget* extra = nullptr)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(2);
    auto* header = new QHBoxLayout;
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    header->addWidget(label, 1);
    if (extra)
        header->addWidget(extra);
    layout->addLayout(header);
    layout->addWidget(content, 1);
    return box;
}

// Enter on the instances table asks for the timeline, as a double-click does.
class EnterFilter final : public QObject {
public:
    EnterFilter(QObject* parent, std::function<void()> onEnter)
        : QObject(parent)
        , m_onEnter(std::move(onEnter))
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::KeyPress) {
            const int key = static_cast<QKeyEvent*>(event)->key();
            if (key == Qt::Key_Return || key == Qt::Key_Enter) {
                m_onEnter();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_onEnter;
};

} // namespace

CommunicationPage::CommunicationPage(QWidget* parent)
    : QWidget(parent)
    , m_collectives(new CollectiveModel(this))
    , m_ranks(new RankWaitModel(this))
    , m_instances(new InstanceModel(this))
    , m_collectiveProxy(makeSortProxy(this, m_collectives))
    , m_rankProxy(makeSortProxy(this, m_ranks))
    , m_instanceProxy(makeSortProxy(this, m_instances))
    , m_collectiveView(makeRowTableView(this, m_collectiveProxy))
    , m_rankView(makeRowTableView(this, m_rankProxy))
    , m_instanceView(makeRowTableView(this, m_instanceProxy))
    , m_heatMap(new HeatMapView(this))
    , m_summary(new QLabel(this))
    , m_instanceNote(new QLabel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(6, 6, 6, 2);
    m_heatMap->setValueName(tr("in collectives"));
    m_heatMap->setToolTip(tr("Share of each time bin in which a collective runs, per rank and GPU (as Nsight "
                             "Systems' nccl_gpu_time_util_map); click a cell to select an instance there"));
    m_instanceNote->setWordWrap(true);
    m_instanceNote->setContentsMargins(4, 0, 4, 2);

    auto* showButton = new QPushButton(tr("Show on Timeline"), this);
    showButton->setToolTip(tr("Draw the selected instance across the ranks' timelines (double-click or Enter)"));
    connect(showButton, &QPushButton::clicked, this, &CommunicationPage::showOnTimelineRequested);
    connect(m_instanceView, &QTableView::doubleClicked, this, &CommunicationPage::showOnTimelineRequested);
    m_instanceView->installEventFilter(new EnterFilter(this, [this] { Q_EMIT showOnTimelineRequested(); }));
    connect(m_instanceView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &CommunicationPage::instanceChanged);
    connect(m_heatMap, &HeatMapView::cellClicked, this, &CommunicationPage::selectInstanceNear);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(titled(tr("Ranks: who makes the others wait"), m_rankView, top));
    top->addWidget(titled(tr("Collectives: bus bandwidth against the link"), m_collectiveView, top));
    top->setStretchFactor(0, 2);
    top->setStretchFactor(1, 3);
    auto* instances = new QWidget(this);
    auto* instancesLayout = new QVBoxLayout(instances);
    instancesLayout->setContentsMargins(0, 0, 0, 0);
    instancesLayout->setSpacing(0);
    instancesLayout->addWidget(titled(tr("Instances matched across ranks"), m_instanceView, instances, showButton), 1);
    instancesLayout->addWidget(m_instanceNote);
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(top);
    vertical->addWidget(instances);
    vertical->addWidget(titled(tr("Time in collectives per rank"), m_heatMap, vertical));
    vertical->setStretchFactor(0, 2);
    vertical->setStretchFactor(1, 3);
    vertical->setStretchFactor(2, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(vertical, 1);
    setDocument(nullptr);
}

void CommunicationPage::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    const auto* report = m_doc ? m_doc->collectives.get() : nullptr;
    const std::int64_t origin = m_doc && m_doc->timeline ? m_doc->timeline->extent().startNs : 0;
    m_collectives->setRows(report ? report->rows : std::vector<core::CollectiveRow> {});
    // Ranks only where an instance was seen on two of them: a lone rank has no one to wait for.
    m_ranks->setRanks(
        report && !report->ranks.instances.empty() ? report->ranks.ranks : std::vector<core::RankWait> {});
    m_instances->setInstances(report ? report->ranks.instances : std::vector<core::CollectiveInstance> {}, origin);
    // The longest collectives first; the ranks as core orders them (the slow rank first); the most
    // skewed instances first.
    m_collectiveView->sortByColumn(CollectiveModel::TotalColumn, Qt::DescendingOrder);
    m_rankProxy->sort(-1);
    m_rankView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_instanceView->sortByColumn(InstanceModel::StartSkewColumn, Qt::DescendingOrder);
    for (auto* view : { m_collectiveView, m_rankView, m_instanceView })
        view->resizeColumnsToContents();

    core::RankTimeMap map;
    if (m_doc && m_doc->timeline)
        map = core::collectiveTimeMap(*m_doc->timeline, kHeatMapBins);
    m_heatMap->setMap(std::move(map));
    const int slow = m_ranks->slowRank();
    for (std::size_t r = 0; slow >= 0 && r < m_heatMap->map().rowCount(); ++r) {
        if (m_heatMap->map().row(r).rank == slow) {
            m_heatMap->setHighlightedRow(static_cast<int>(r));
            break;
        }
    }
    fillSummary();
}

void CommunicationPage::fillSummary()
{
    const auto* report = m_doc ? m_doc->collectives.get() : nullptr;
    if (!report) {
        m_summary->setText(m_doc ? tr("The collectives of this session are not loaded.") : tr("No session open."));
        m_instanceNote->clear();
        return;
    }
    if (report->rows.empty()) {
        m_summary->setText(tr("No collectives in this session: it records no NCCL kernels or other collective ops."));
        m_instanceNote->clear();
        return;
    }
    std::int64_t calls = 0, timeNs = 0;
    for (const auto& r : report->rows) {
        calls += r.calls;
        timeNs += r.timeNs;
    }
    QString text = tr("%n collective call(s), %1 in all, in %2 group(s) of type, process group and size.", nullptr,
        static_cast<int>(calls))
                       .arg(durationText(static_cast<double>(timeNs)))
                       .arg(report->rows.size());
    const auto& x = report->ranks;
    const int slow = m_ranks->slowRank();
    if (x.instances.empty()) {
        text += QLatin1Char(' ') + tr("One rank (or no instance seen on two ranks): no waits across ranks.");
    } else if (slow >= 0) {
        const auto& first = x.ranks.front();
        std::int64_t othersWait = 0;
        for (const auto& w : x.ranks) {
            if (w.rank != slow)
                othersWait += w.waitNs;
        }
        text += QStringLiteral("<br><b>")
            + tr("Rank %1 makes the others wait: it starts last in %2 of %3 instances; the other ranks waited %4 "
                 "for it in all.")
                  .arg(slow)
                  .arg(first.lastArrivals)
                  .arg(first.instances)
                  .arg(durationText(static_cast<double>(othersWait)))
            + QStringLiteral("</b>");
    } else {
        text += QLatin1Char(' ')
            + tr("%n instance(s) matched across ranks; every rank started each at once.", nullptr,
                static_cast<int>(x.instances.size()));
    }
    for (const auto& w : x.warnings)
        text += QStringLiteral("<br>") + tr("Warning: %1").arg(QString::fromStdString(w).toHtmlEscaped());
    m_summary->setText(text);
    m_instanceNote->setText(x.instances.empty()
            ? tr("Instances need the same collective on two ranks or more: import every rank's trace into one "
                 "session (ridgeline import r0.json r1.json …).")
            : tr("Select an instance to draw it across the ranks' timelines with its skew marked; double-click it "
                 "to go to the timeline."));
}

int CommunicationPage::mostSkewedInstance() const
{
    const auto& all = m_instances->instances();
    const auto it = std::max_element(
        all.begin(), all.end(), [](const auto& a, const auto& b) { return a.startSkewNs < b.startSkewNs; });
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
}

void CommunicationPage::selectInstance(int index)
{
    if (index < 0 || index >= m_instances->rowCount()) {
        m_instanceView->selectionModel()->clear();
        instanceChanged();
        return;
    }
    const QModelIndex proxy = m_instanceProxy->mapFromSource(m_instances->index(index, 0));
    m_instanceView->selectionModel()->setCurrentIndex(
        proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_instanceView->scrollTo(proxy);
}

std::optional<int> CommunicationPage::selectedInstance() const
{
    const QModelIndex current = m_instanceView->selectionModel()->currentIndex();
    if (!current.isValid() || !m_instanceView->selectionModel()->isRowSelected(current.row(), {}))
        return std::nullopt;
    return m_instanceProxy->mapToSource(current).row();
}

void CommunicationPage::instanceChanged()
{
    const auto index = selectedInstance();
    if (!index) {
        m_heatMap->setMarkedWindow(std::nullopt);
        Q_EMIT instanceSelected(core::CollectiveInstance {});
        return;
    }
    const auto& instance = m_instances->instances()[static_cast<std::size_t>(*index)];
    core::TimeWindow span { instance.members.front().startNs, instance.members.front().endNs };
    for (const auto& m : instance.members) {
        span.startNs = std::min(span.startNs, m.startNs);
        span.endNs = std::max(span.endNs, m.endNs);
    }
    m_heatMap->setMarkedWindow(span);
    Q_EMIT instanceSelected(instance);
}

void CommunicationPage::selectInstanceNear(int heatMapRow, core::TimeWindow window)
{
    const int rank = m_heatMap->map().row(static_cast<std::size_t>(heatMapRow)).rank;
    const auto& all = m_instances->instances();
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (const auto& m : all[i].members) {
            if ((rank < 0 || m.rank == rank) && m.startNs < window.endNs && m.endNs >= window.startNs) {
                selectInstance(static_cast<int>(i));
                return;
            }
        }
    }
}

} // namespace ridgeline::ui

#include "moc_communicationpage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
